"""What the service hands out: a match as stored plus its loaded engine state, a move's
result, and a party with its tables."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from bot.games.base import (
    SEAT_TOKEN_RE,
    Event,
    Game,
    Move,
    Outcome,
    SeatResult,
    View,
    find_move,
    typed_parts,
)
from bot.service import practice, seating
from bot.service.seating import AI_FILL, Standing
from db.parties import PartyPlayer, PartyRecord, PartyTableRecord
from db.records import MatchRecord, MatchStatus, Seat


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A match as the service sees it: the stored record plus the loaded engine state."""

    record: MatchRecord
    game: Game
    state: Any | None = None
    # What the engine said about this state, asked again and again while one answer is built
    # (the command, the move, the hand, the tracker): (what, seat) -> its answer.
    _memo: dict[tuple[str, int | None], Any] = field(
        default_factory=dict, init=False, compare=False, repr=False
    )

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def version(self) -> int:
        return self.record.version

    @property
    def status(self) -> MatchStatus:
        return self.record.status

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self.record.seats

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.record.seats]

    @property
    def practice(self) -> bool:
        """A practice match: unrated, with hints (:mod:`bot.service.practice`)."""
        return practice.is_practice(self.record.options)

    def seat_of(self, user_id: int) -> int | None:
        for i, s in enumerate(self.record.seats):
            if s.user_id == user_id and not s.ai:
                return i
        return None

    def name_text(self, text: str) -> str:
        """Replace ``{p3}`` placeholders with seat names."""
        names = self.names

        def sub(m: Any) -> str:
            i = int(m.group(1))
            return names[i] if i < len(names) else f"seat {i + 1}"

        return SEAT_TOKEN_RE.sub(sub, text)

    def standings(self, outcome: Outcome) -> tuple[SeatResult, ...]:
        """The outcome's results re-ranked for the players who left (:func:`standings`)."""
        return standings(outcome, [seat.left for seat in self.seats])

    def view(self, seat: int | None) -> View:
        assert self.state is not None
        view = self._memo.get(("view", seat))
        if view is None:
            view = self._memo["view", seat] = self.game.view(self.state, seat)
        return view

    def to_act(self) -> frozenset[int]:
        if self.state is None or self.record.status != MatchStatus.RUNNING:
            return frozenset()
        return self.game.to_act(self.state)

    def awaited(self) -> frozenset[int]:
        """Seats the game is waiting for (public; optional out-of-turn actors excluded)."""
        if self.state is None or self.record.status != MatchStatus.RUNNING:
            return frozenset()
        return self.game.awaited(self.state)

    def legal_moves(self, seat: int) -> list[Move]:
        if self.state is None or self.record.status != MatchStatus.RUNNING:
            return []
        moves = self._memo.get(("moves", seat))
        if moves is None:
            moves = self._memo["moves", seat] = tuple(self.game.legal_moves(self.state, seat))
        return list(moves)

    def typed_code(self, seat: int, kinds: Sequence[str], text: str) -> str | None:
        """The move code ``text`` names for ``seat``, legal or not (the engine's reading), so
        that a refusal can give the engine's reason; None if it names no move."""
        if self.state is None or self.record.status != MatchStatus.RUNNING:
            return None
        return self.game.typed_code(self.state, seat, kinds, text)

    def notes_for(self, seat: int) -> list[str]:
        """The latest things told to ``seat`` alone (at most NOTES_PER_SEAT)."""
        return list(self.record.notes.get(str(seat), ()))

    def notes_count(self, seat: int) -> int:
        """How many things were ever told to ``seat`` alone (to show only the new ones)."""
        return int(self.record.notes.get(COUNTS, {}).get(str(seat), 0))

    def log(self) -> list[str]:
        """The latest public events of the match, oldest first (``LOG_KEPT``, within what the
        Log can show); :meth:`log_count` says how many there were in all."""
        return list(self.record.notes.get(LOG, ()))

    def move_events(self) -> int:
        """How many public events the latest move made (a leave since then included);
        notes stored before this was counted say the latest three."""
        counts = self.record.notes.get(COUNTS, {})
        return int(counts.get(MOVE, 3))

    def log_count(self) -> int:
        """How many public events the match has had (notes stored before the count was kept
        hold all of theirs in the log)."""
        log = self.record.notes.get(LOG, ())
        return max(int(self.record.notes.get(COUNTS, {}).get(LOG, 0)), len(log))


def standings(outcome: Outcome, left: Sequence[bool]) -> tuple[SeatResult, ...]:
    """The final places of a match, the one rule wherever a result is shown or stored.

    The players who stayed are ranked among themselves in the engine's order (ties kept:
    a place is one more than the number of stayers placed strictly better), then the
    players who left (``left[seat]``), ranked the same way among themselves after every
    stayer. The engine ranks seats, and a seat someone left was played to the end by the
    AI: its place is not the leaver's. Sorted best first (seat order within a place)."""

    def gone(r: SeatResult) -> bool:
        return r.seat < len(left) and left[r.seat]

    stayed = [r for r in outcome.results if not gone(r)]
    went = [r for r in outcome.results if gone(r)]
    out = [replace(r, place=1 + sum(1 for o in stayed if o.place < r.place)) for r in stayed]
    out += [replace(r, place=1 + len(stayed) + sum(1 for o in went if o.place < r.place)) for r in went]
    return tuple(sorted(out, key=lambda r: (r.place, r.seat)))


NOTES_PER_SEAT = 6
# The public log keeps the latest LOG_KEPT events, within LOG_CHARS characters (what the Log
# embed can show: its description holds about 3,900), and counts them all, so a match's notes
# stay the same size however long it runs. Until issue 47 the latest 400 events were kept
# (some 120 fitted in a Log), and a match's notes, in memory and in its row, grew for 400
# events (about 300 moves).
LOG_KEPT = 40
LOG_CHARS = 4_000
LOG = "log"
COUNTS = "counts"
MOVE = "move"


def add_events(notes: Mapping[str, Any], events: Sequence[Event], move: bool = True) -> dict[str, Any]:
    """The match's notes with these events added.

    Notes are stored with the match: ``"<seat>"`` holds the latest private events of that
    seat, ``"log"`` the latest public events (oldest first, ``LOG_KEPT`` within ``LOG_CHARS``), and
    ``"counts"`` how many events each seat (``"<seat>"``) and the log (``"log"``) ever had,
    and how many public events the latest move made (``"move"``): ``move`` says these events
    are a new move's (a player leaving between moves adds to the latest move's).
    Notes stored before the log's count was kept count the events their log holds."""
    out: dict[str, Any] = {k: (dict(v) if isinstance(v, dict) else list(v)) for k, v in notes.items()}
    counts: dict[str, int] = out.setdefault(COUNTS, {})
    log: list[str] = out.setdefault(LOG, [])
    logged = max(int(counts.get(LOG, 0)), len(log))
    if move:
        counts[MOVE] = 0
    for e in events:
        if e.seat is None:
            log.append(e.text)
            logged += 1
            counts[MOVE] = int(counts.get(MOVE, 0)) + 1
            continue
        box = out.setdefault(str(e.seat), [])
        box.append(e.text)
        del box[:-NOTES_PER_SEAT]
        counts[str(e.seat)] = counts.get(str(e.seat), 0) + 1
    if logged:
        counts[LOG] = logged
    del log[: len(log) - log_kept(log)]
    return out


def log_kept(log: Sequence[str]) -> int:
    """How many of the latest entries of ``log`` are kept: at most ``LOG_KEPT``, within
    ``LOG_CHARS`` (the latest always)."""
    size, kept = 0, 0
    for text in reversed(log[-LOG_KEPT:]):
        size += len(text) + 3  # as the Log shows it: "• " and a line break
        if size > LOG_CHARS and kept:
            break
        kept += 1
    return kept


@dataclass(frozen=True, slots=True)
class MoveResult:
    snapshot: Snapshot
    seat: int
    move: Move
    events: tuple[Event, ...]

    def private_for(self, seat: int) -> list[str]:
        return [e.text for e in self.events if e.seat == seat]

    @property
    def public(self) -> list[str]:
        return [e.text for e in self.events if e.seat is None]


@dataclass(frozen=True, slots=True)
class PartySnapshot:
    """A party as the service hands it out: the record, its game and every table so far."""

    record: PartyRecord
    game: Game
    tables: tuple[PartyTableRecord, ...] = ()

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def status(self) -> MatchStatus:
        return self.record.status

    @property
    def players(self) -> tuple[PartyPlayer, ...]:
        return self.record.players

    def player_of(self, user_id: int) -> int | None:
        for i, p in enumerate(self.record.players):
            if p.user_id == user_id and not p.ai:
                return i
        return None

    def round_tables(self, round_no: int | None = None) -> list[PartyTableRecord]:
        wanted = self.record.round if round_no is None else round_no
        return [t for t in self.tables if t.round == wanted]

    def fill_names(self, table: PartyTableRecord) -> list[str]:
        """The names of the table's AI fill seats, in seat order: numbered on after the
        party's own AI players (AI 4, AI 5 beside AI 1 to 3), as the table's match names them."""
        first = sum(1 for p in self.record.players if p.ai) + 1
        count = sum(1 for p in table.seating if p == AI_FILL)
        return [f"AI {n}" for n in range(first, first + count)]

    def standings(self) -> list[Standing]:
        """Every player's party score, best first (see :func:`seating.standings`)."""
        per_round: list[dict[int, int | None]] = []
        for round_no in range(1, self.record.round + 1):
            scores: dict[int, int | None] = {}
            for table in self.round_tables(round_no):
                for r in table.results or ():
                    if r.player != AI_FILL:
                        scores[r.player] = r.score
            per_round.append(scores)
        players = self.record.players
        playing = [False] * len(players)
        if self.status == MatchStatus.RUNNING:
            for table in self.round_tables():
                if table.results is None:
                    for player in table.seating:
                        if 0 <= player < len(players):
                            playing[player] = True
        return seating.standings(
            len(players),
            per_round,
            left=[p.left for p in players],
            ai=[p.ai for p in players],
            low_score_wins=self.game.low_score_wins,
            playing=playing,
        )

    def winners(self) -> list[int]:
        """The party's winners (several on a tie for first), once the party is over."""
        if self.status != MatchStatus.FINISHED:
            return []
        return seating.party_winners(self.standings(), low_score_wins=self.game.low_score_wins)

    def places(self) -> dict[int, int]:
        """Each person's place by party score so far (see :func:`seating.places`)."""
        return seating.places(self.standings(), low_score_wins=self.game.low_score_wins)

    @property
    def partners(self) -> bool:
        return self.record.options.get("partners") == "on"


class Listener(Protocol):
    """Told about every change (the Discord layer edits the table message)."""

    async def match_changed(self, snap: Snapshot, events: Sequence[Event]) -> None: ...

    async def remind(self, snap: Snapshot, seats: Sequence[int], seconds_left: float) -> None: ...


class PartyListener(Protocol):
    """Told about every change of a party (the Discord layer edits its lobby or standings)."""

    async def party_changed(self, party: PartySnapshot) -> None: ...


class TableChannels(Protocol):
    """Opens the channel a party's table plays in (the Discord layer makes a thread of the
    party's channel) and returns its id."""

    async def table_channel(self, party: PartySnapshot, round_no: int, table_no: int) -> int: ...


def resolve_move(moves: Sequence[Move], text: str, prefix: str = "") -> Move | None:
    """Find the move a player typed: its code, ``prefix:text``, its label (any case), or a
    choice of a move's Pick typed as its items (``7h 7s``)."""
    text = text.strip()
    if not text:
        return None
    low = text.casefold()
    found = find_move(moves, text) or (find_move(moves, f"{prefix}:{text}") if prefix else None)
    if found is not None:
        return found
    named = [m for m in moves if m.pick is None]  # a Pick is chosen by its items, never by its label
    for m in named:
        if m.label.casefold() == low or m.path[-1].casefold() == low:
            return m
    candidates = [m for m in named if (not prefix or m.code.startswith(prefix)) and low in m.label.casefold()]
    if len(candidates) == 1:
        return candidates[0]
    for m in moves:
        parts = typed_parts(m, text)
        if parts is not None and m.pick is not None and m.pick.least <= len(parts) <= m.pick.most:
            return m.choose(parts)
    return None
