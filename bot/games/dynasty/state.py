"""Match configuration and the immutable game state of ``dynasty``.

The state is a frozen dataclass of ints and tuples. The engine changes it only by
producing a new value: :func:`thaw` copies a state into a :class:`Work` scratch object,
the rules edit that copy, and :func:`freeze` turns it into a new frozen state (each copies
the attribute dictionary once). One move changes ten or more fields in many small steps, and
one ``dataclasses.replace`` of this state costs about as much as a whole move, so the rules of
one move (``moves.perform``) and the first deal (``deal.new_match``) work on this copy; the
copy's typed fields are checked against the state's at import.
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

# Values of ``on_guard`` (per seat).
GUARD_NONE = 0  # nothing due
GUARD_UNCALLED = 1  # down to one card without calling On Guard: anyone may catch them
GUARD_CALLED = 2  # On Guard called

# Values of ``partner_asked`` (partners: "may I go out?").
ASK_NONE, ASK_PENDING, ASK_YES, ASK_NO = 0, 1, 2, 3

PHASE_NAMES = (
    "cut",
    "first",
    "play",
    "drawn",
    "extra",
    "escort",
    "answer",
    "battle",
    "key",
    "ask",
    "over",
    "next hand",
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
    # cache of tables_for(); not part of the value (set once, see catalogue.tables_for)
    _tables: Any = field(default=None, init=False, compare=False, hash=False, repr=False)


@dataclass(frozen=True)
class DynastyState:
    """One moment of a match. Seats are 0..n-1; a "team" is the scoring entity (a seat, or a
    pair of partners). Bitmasks have bit ``1 << seat`` for each seat concerned."""

    config: Config
    rng: int  # splitmix64 state (see bot.games.base.Rng)
    phase: int
    hand_number: int  # 1 for the first hand of the match
    dealer: int
    totals: tuple[int, ...]  # per team
    added_points: tuple[int, ...]  # per seat: points added this hand already (Warlord +50)
    hands: tuple[tuple[int, ...], ...]  # sorted faces
    in_front: tuple[tuple[int, ...], ...]  # unplayed Risk cards / Warlord lying face up
    set_aside: tuple[tuple[int, ...], ...]  # Risk cards / Warlord played this hand
    dungeon: tuple[tuple[int, ...], ...]  # Dungeon cards (or Magician) in front of a seat
    lost_turns: tuple[int, ...]  # lost turns still to serve in the Dungeon
    may_escape: int  # bitmask: seats whose Dungeon escape window is open
    penalised: int  # bitmask: seats caught without On Guard (draw 2, lose next turn)
    on_guard: tuple[int, ...]  # GUARD_NONE, GUARD_UNCALLED (catchable) or GUARD_CALLED
    dark_knight_open: int  # bitmask: On Guard callers a Dark Knight may still bet against
    dark_knight_bets: tuple[tuple[int, int], ...]  # (Dark Knight player, On Guard player)
    draw_pile: tuple[int, ...]  # top is last
    discard_pile: tuple[int, ...]  # top is last
    match_key: int  # same-kind key of the active top card (-1 Kingdom: suit only)
    suit: int  # active suit
    top_acts_as: int  # face the top card acts as (Magician), else -1
    direction: int  # +1 to the left (seat+1), -1 to the right
    turn: int  # seat whose turn it is (or who must answer a draw card)
    warlord: int  # Warlord player playing this turn for ``turn`` (-1 none)
    escorting_first_card: bool  # the dealer escorts a Fair Maiden turned up as first card
    skips: int  # this turn: players to skip
    cards_played: int  # this turn: cards played
    pending_draws: int  # cards to draw (this turn's draw cards, or aimed at ``turn``)
    pending_dungeons: tuple[int, ...]  # Dungeon cards waiting for their target
    drawbridge_may_stack: bool  # the pending draw may be answered with a Drawbridge
    draw_source: int  # player of the pending draw card
    draw_target: int  # fixed target of the pending draw (-1: the next player)
    suit_before_draw: int  # suit active before the pending draw card (Protector restores it)
    partner_asked: int  # partners: ASK_NONE, ASK_PENDING, ASK_YES or ASK_NO
    called_ahead: bool  # the turn player called On Guard while playing down to one card
    battle: tuple[int, ...]  # pending battle card: (kind, player, target, burned face)
    battle_waiting: int  # bitmask: seats that may still answer with a Defender
    battle_defended: int  # bitmask: seats that answered with a Defender
    waived: int  # bitmask: seats that let the current out-of-turn chance pass
    stalled_turns: int  # consecutive turns with nothing played or drawn (empty piles)
    hand_turns: int  # turns begun this hand (safety valve)
    match_turns: int  # turns begun this match (safety valve)
    log: tuple[str, ...]  # recent public events
    last_hand: tuple[str, ...]  # summary of the previous hand
    places: tuple[int, ...]  # final placing per seat (when over)
    # per-state memo of legal moves (seat -> moves), not part of the value
    _legal_memo: dict[int, Any] | None = field(
        default=None, init=False, compare=False, hash=False, repr=False
    )
    # the seats that may act (a cache, not part of the value: the kit asks before every move)
    _to_act_memo: frozenset[int] | None = field(
        default=None, init=False, compare=False, hash=False, repr=False
    )


# The keys of matches dumped before the fields were named in words: new name -> old key.
OLD_NAMES: dict[str, str] = {
    "config": "cfg",
    "hand_number": "hand_no",
    "added_points": "adj",
    "in_front": "front",
    "set_aside": "played",
    "lost_turns": "lost",
    "may_escape": "escape",
    "penalised": "penalty",
    "on_guard": "guard",
    "dark_knight_open": "dkwin",
    "dark_knight_bets": "bets",
    "draw_pile": "draw",
    "discard_pile": "discard",
    "match_key": "mkey",
    "top_acts_as": "top_as",
    "warlord": "proxy",
    "escorting_first_card": "first_fm",
    "cards_played": "played_n",
    "pending_draws": "dn",
    "pending_dungeons": "dd",
    "drawbridge_may_stack": "dstack",
    "draw_source": "dsrc",
    "draw_target": "dtarget",
    "suit_before_draw": "prev_suit",
    "partner_asked": "ask",
    "called_ahead": "precall",
    "battle": "bat",
    "battle_waiting": "bat_wait",
    "battle_defended": "bat_def",
    "stalled_turns": "stall",
    "hand_turns": "hturns",
    "match_turns": "mturns",
    "last_hand": "last",
}


class Work:
    """Mutable scratch copy of a state used inside one ``apply`` (same attributes)."""

    config: Config
    rng: int
    phase: int
    hand_number: int
    dealer: int
    totals: tuple[int, ...]
    added_points: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    in_front: tuple[tuple[int, ...], ...]
    set_aside: tuple[tuple[int, ...], ...]
    dungeon: tuple[tuple[int, ...], ...]
    lost_turns: tuple[int, ...]
    may_escape: int
    penalised: int
    on_guard: tuple[int, ...]
    dark_knight_open: int
    dark_knight_bets: tuple[tuple[int, int], ...]
    draw_pile: tuple[int, ...]
    discard_pile: tuple[int, ...]
    match_key: int
    suit: int
    top_acts_as: int
    direction: int
    turn: int
    warlord: int
    escorting_first_card: bool
    skips: int
    cards_played: int
    pending_draws: int
    pending_dungeons: tuple[int, ...]
    drawbridge_may_stack: bool
    draw_source: int
    draw_target: int
    suit_before_draw: int
    partner_asked: int
    called_ahead: bool
    battle: tuple[int, ...]
    battle_waiting: int
    battle_defended: int
    waived: int
    stalled_turns: int
    hand_turns: int
    match_turns: int
    log: tuple[str, ...]
    last_hand: tuple[str, ...]
    places: tuple[int, ...]


BOOL_FIELDS = ("escorting_first_card", "drawbridge_may_stack", "called_ahead")

if tuple(Work.__annotations__) != tuple(
    f.name for f in fields(DynastyState) if f.init
):  # the two lists must not drift apart
    raise AssertionError("Work must declare exactly the fields of DynastyState, in order")

_new = object.__new__
_set = object.__setattr__


def set_to_act_memo(s: DynastyState, seats: frozenset[int]) -> None:
    """Attach the seats that may act to a state (a cache, not part of the value)."""
    _set(s, "_to_act_memo", seats)


def set_memo(s: DynastyState, memo: dict[int, Any]) -> None:
    """Attach the legal-move memo to a state (a cache, not part of the value)."""
    _set(s, "_legal_memo", memo)


def to_act_memo(s: DynastyState) -> frozenset[int] | None:
    """The seats that may act, if attached (:func:`set_to_act_memo`)."""
    return s._to_act_memo


def legal_memo(s: DynastyState) -> dict[int, Any] | None:
    """The legal-move memo, if attached (:func:`set_memo`)."""
    return s._legal_memo


def config_tables(cfg: Config) -> Any:
    """The tables cached on ``cfg`` (:func:`~bot.games.dynasty.catalogue.tables_for`), or None."""
    return cfg._tables


def set_config_tables(cfg: Config, tables: Any) -> None:
    """Cache ``cfg``'s tables on it (set once; not part of its value)."""
    _set(cfg, "_tables", tables)


def thaw(s: DynastyState) -> Work:
    """A mutable copy of ``s`` (the legal-move memo is not copied): the scratch object takes
    a copy of the state's attribute dictionary, so no field list is written out again."""
    w = _new(Work)
    d = s.__dict__.copy()
    d.pop("_legal_memo", None)
    d.pop("_to_act_memo", None)
    w.__dict__ = d
    return w


def freeze(w: Work) -> DynastyState:
    """A new frozen state with the scratch object's values (the scratch object is not used
    again): the state takes over the scratch object's attribute dictionary."""
    s = DynastyState.__new__(DynastyState)
    _set(s, "__dict__", w.__dict__)
    return s


def upgrade_saved_state(data: Mapping[str, Any]) -> dict[str, Any]:
    """A saved state in today's form (the kit's codec loads it): keys of the matches dumped
    before the fields were named in words are renamed, and truth values stored as numbers
    become booleans. A missing option (``hands``, before the match length) takes its default."""
    out = dict(data)
    for name, old in OLD_NAMES.items():
        if name not in out and old in out:
            out[name] = out.pop(old)
    for name in BOOL_FIELDS:
        if name in out:
            out[name] = bool(out[name])
    if isinstance(out.get("config"), Mapping):
        config = dict(out["config"])
        for name in ("partners", "dealing_bonus", "secret_key"):
            if name in config:
                config[name] = bool(config[name])
        out["config"] = config
    return out
