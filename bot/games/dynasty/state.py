"""Match configuration and the immutable game state of ``dynasty``.

The state is a frozen dataclass of ints and tuples. The engine changes it only by
producing a new value: :func:`thaw` copies a state into a :class:`Work` scratch object,
the rules edit that copy, and :func:`freeze` turns it into a new frozen state (each copies
the attribute dictionary once; the field list is written only in the class).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

# Phases: who is awaited for what.
CUT = 0  # dealer decides on the dealing bonus
FIRST = 1  # dealer makes the choices of a first (table) card
PLAY = 2  # start of a normal turn: play or draw
DRAWN = 3  # drew a card: play a playable card or pass
EXTRA = 4  # after King/Queen/Wizard: may add one extra card
ESCORT = 5  # after a Fair Maiden: must play its escort
ANSWER = 6  # a draw card is aimed at ``turn``: accept or answer
BATTLE = 7  # a battle card waits for Defender answers
KEY_PICK = 8  # Secret Key: choose a card from the draw pile
ASK = 9  # partners: the partner answers yes/no
OVER = 10  # match finished
NEXT_HAND = 11  # a hand was scored and the next is dealt before the move ends (never stored)

PHASE_NAMES = (
    "cut", "first", "play", "drawn", "extra", "escort", "answer", "battle", "key", "ask", "over", "next hand",
)


@dataclass(frozen=True)
class Config:
    """Lobby options of one match, already validated."""

    players: int
    deck: str = "dynasty"  # classic | dynasty | bonus
    limit: int = 750
    partners: bool = False
    dealing_bonus: bool = False
    without: tuple[int, ...] = ()  # Kingdom kinds switched off
    secret_key: bool = False
    hands: int = 0  # the match ends after this many hands (0: only when a total passes the limit)
    # cache of tables_for(); not part of the value (set once, see tables.tables_for)
    _tables: Any = field(default=None, compare=False, hash=False, repr=False)


@dataclass(frozen=True)
class DynastyState:
    """One moment of a match. Seats are 0..n-1; a "team" is the scoring entity (a seat, or a
    pair of partners)."""

    cfg: Config
    rng: int  # splitmix64 state (see bot.games.base.Rng)
    phase: int
    hand_no: int
    dealer: int
    totals: tuple[int, ...]  # per team
    adj: tuple[int, ...]  # per seat: points added this hand already (Warlord +50)
    hands: tuple[tuple[int, ...], ...]  # sorted faces
    front: tuple[tuple[int, ...], ...]  # unplayed Risk cards / Warlord lying face up
    played: tuple[tuple[int, ...], ...]  # Risk cards / Warlord played this hand (set aside)
    dungeon: tuple[tuple[int, ...], ...]  # Dungeon cards (or Magician) in front of a seat
    lost: tuple[int, ...]  # lost turns still to serve in the dungeon
    escape: int  # bitmask: seats whose escape window is open
    penalty: int  # bitmask: seats caught without On Guard (draw 2, lose next turn)
    guard: tuple[int, ...]  # 0 nothing, 1 one card and not called (catchable), 2 called
    dkwin: int  # bitmask: On Guard callers a Dark Knight may still bet against
    bets: tuple[tuple[int, int], ...]  # (Dark Knight player, On Guard player)
    draw: tuple[int, ...]  # draw pile, top is last
    discard: tuple[int, ...]  # discard pile, top is last
    mkey: int  # same-kind key of the active top card (-1 Kingdom: suit only)
    suit: int  # active suit
    top_as: int  # face the top card acts as (Magician), else -1
    direction: int  # +1 to the left (seat+1), -1 to the right
    turn: int  # seat whose turn it is (or who must answer a draw card)
    proxy: int  # Warlord player playing this turn for ``turn`` (-1 none)
    first_fm: bool  # the dealer escorts a Fair Maiden turned up as first card
    skips: int  # this turn: players to skip
    played_n: int  # this turn: cards played
    dn: int  # pending draw count (this turn's draw cards, or aimed at ``turn``)
    dd: tuple[int, ...]  # pending Dungeon cards
    dstack: bool  # pending draw may be stacked with a Drawbridge
    dsrc: int  # player of the pending draw card
    dtarget: int  # fixed target of the pending draw (-1: next player)
    prev_suit: int  # suit active before the pending draw card (Protector restores it)
    ask: int  # partners: 0 not asked, 1 asked, 2 answered yes, 3 answered no
    precall: bool  # the turn player called On Guard ahead, while playing down to one card
    bat: tuple[int, ...]  # pending battle card: (kind, player, target, burn face)
    bat_wait: int  # bitmask: seats that may still answer with a Defender
    bat_def: int  # bitmask: seats that answered with a Defender
    waived: int  # bitmask: seats that let the current out-of-turn chance pass
    stall: int  # consecutive turns with nothing played or drawn (empty piles)
    hturns: int  # turns begun this hand (safety cap)
    mturns: int  # turns begun this match (safety cap)
    log: tuple[str, ...]  # recent public events
    last: tuple[str, ...]  # summary of the previous hand
    places: tuple[int, ...]  # final placing per seat (when over)
    # per-state memo of legal moves (seat -> moves), not part of the value
    _c: dict[int, Any] | None = field(default=None, compare=False, hash=False, repr=False)


FIELD_NAMES: tuple[str, ...] = tuple(f.name for f in fields(DynastyState) if f.name != "_c")
_SEQ2 = frozenset({"hands", "front", "played", "dungeon", "bets"})
_SEQ1 = frozenset({
    "totals", "adj", "lost", "guard", "draw", "discard", "dd", "bat", "log", "last", "places",
})


class Work:
    """Mutable scratch copy of a state used inside one ``apply``."""

    # Attributes mirror DynastyState (declared for the type checker).
    cfg: Config
    rng: int
    phase: int
    hand_no: int
    dealer: int
    totals: tuple[int, ...]
    adj: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    front: tuple[tuple[int, ...], ...]
    played: tuple[tuple[int, ...], ...]
    dungeon: tuple[tuple[int, ...], ...]
    lost: tuple[int, ...]
    escape: int
    penalty: int
    guard: tuple[int, ...]
    dkwin: int
    bets: tuple[tuple[int, int], ...]
    draw: tuple[int, ...]
    discard: tuple[int, ...]
    mkey: int
    suit: int
    top_as: int
    direction: int
    turn: int
    proxy: int
    first_fm: bool
    skips: int
    played_n: int
    dn: int
    dd: tuple[int, ...]
    dstack: bool
    dsrc: int
    dtarget: int
    prev_suit: int
    ask: int
    precall: bool
    bat: tuple[int, ...]
    bat_wait: int
    bat_def: int
    waived: int
    stall: int
    hturns: int
    mturns: int
    log: tuple[str, ...]
    last: tuple[str, ...]
    places: tuple[int, ...]


_new = object.__new__
_set = object.__setattr__


def set_memo(s: DynastyState, memo: dict[int, Any]) -> None:
    """Attach the legal-move memo to a state (a cache, not part of the value)."""
    _set(s, "_c", memo)


def thaw(s: DynastyState) -> Work:
    """A mutable copy of ``s`` (the legal-move memo is not copied): the scratch object takes
    a copy of the state's attribute dictionary, so no field list is written out again."""
    w = _new(Work)
    d = s.__dict__.copy()
    d.pop("_c", None)
    w.__dict__ = d
    return w


def freeze(w: Work) -> DynastyState:
    """A new frozen state with the scratch object's values (the scratch object is not used
    again): the state takes over the scratch object's attribute dictionary."""
    s = DynastyState.__new__(DynastyState)
    _set(s, "__dict__", w.__dict__)
    return s


def make_state(**values: Any) -> DynastyState:
    return DynastyState(**values)


def dump_state(state: DynastyState) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in FIELD_NAMES:
        v = getattr(state, name)
        if name == "cfg":
            cfg: Config = v
            v = {
                "players": cfg.players, "deck": cfg.deck, "limit": cfg.limit,
                "partners": cfg.partners, "dealing_bonus": cfg.dealing_bonus,
                "without": list(cfg.without), "secret_key": cfg.secret_key, "hands": cfg.hands,
            }
        elif name in _SEQ2:
            v = [list(x) for x in v]
        elif name in _SEQ1:
            v = list(v)
        out[name] = v
    return out


def load_state(data: Mapping[str, Any]) -> DynastyState:
    values: dict[str, Any] = {}
    for name in FIELD_NAMES:
        v = data[name]
        if name == "cfg":
            v = Config(
                players=int(v["players"]), deck=str(v["deck"]), limit=int(v["limit"]),
                partners=bool(v["partners"]), dealing_bonus=bool(v["dealing_bonus"]),
                without=tuple(int(k) for k in v["without"]), secret_key=bool(v["secret_key"]),
                hands=int(v.get("hands", 0)),  # matches stored before the option: limit only
            )
        elif name in _SEQ2:
            v = tuple(tuple(x) for x in v)
        elif name in _SEQ1:
            v = tuple(v)
        elif name in ("first_fm", "dstack", "precall"):
            v = bool(v)
        values[name] = v
    return DynastyState(**values)
