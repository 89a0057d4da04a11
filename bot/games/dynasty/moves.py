"""Playing a move the kit has judged legal: the rule of each move kind (per phase where
it differs; :class:`bot.games.dynasty.game.Dynasty` declares which handles what) and
:func:`perform`, which closes the short windows when the game moves on, runs the rule, deals
the next hand if one ended, and logs the public events."""

from __future__ import annotations

from collections.abc import Callable

from bot.games.base import Event, Move
from bot.games.dynasty.actions import Action, CardPlay, KeyTake, Risk, action_of
from bot.games.dynasty.cards import KIND
from bot.games.dynasty.catalogue import (
    C_ESCORT,
    C_EXTRA,
    C_PLAY,
    Tables,
    tables_for,
)
from bot.games.dynasty.deal import deal_next_hands, table_choice
from bot.games.dynasty.effects import play_card, take_with_secret_key
from bot.games.dynasty.state import (
    GUARD_UNCALLED,
    DynastyState,
    Work,
    freeze,
    thaw,
)
from bot.games.dynasty.table import LOG_SIZE, close_windows
from bot.games.dynasty.windows import (
    answer_card,
    battle_answer,
    escape_dungeon,
    play_risk,
    play_warlord,
)

Rule = Callable[[Work, Tables, int, Action, list[Event]], None]


def perform(state: DynastyState, seat: int, move: Move, rule: Rule) -> tuple[DynastyState, list[Event]]:
    """Play ``move`` (legal: the kit has judged it) by ``rule``, given the named move its code
    stands for: the short windows of the last play lapse unless the move is itself out of
    turn, the rule runs on a working copy, the next hand is dealt if this one ended, and the
    public events join the log."""
    tables = tables_for(state.config)
    action = action_of(move.code)
    w = thaw(state)
    events: list[Event] = []
    if not action.out_of_turn and (
        w.dark_knight_open or w.may_escape or w.waived or GUARD_UNCALLED in w.on_guard
    ):
        close_windows(w)  # the game moves on: the short windows of the last play lapse
    rule(w, tables, seat, action, events)
    deal_next_hands(w, tables, events)
    public = [e.text for e in events if e.seat is None]
    if public:
        w.log = (w.log + tuple(public))[-LOG_SIZE:]
    return freeze(w), events


# --- move rules: (working copy, tables, seat moving, named move, events) ---------------------------


def play_in_turn(w: Work, tables: Tables, seat: int, action: Action, events: list[Event]) -> None:
    assert isinstance(action, CardPlay)
    play_card(w, tables, action, C_PLAY, events)


def play_extra(w: Work, tables: Tables, seat: int, action: Action, events: list[Event]) -> None:
    assert isinstance(action, CardPlay)
    play_card(w, tables, action, C_EXTRA, events)


def play_escort(w: Work, tables: Tables, seat: int, action: Action, events: list[Event]) -> None:
    assert isinstance(action, CardPlay)
    play_card(w, tables, action, C_ESCORT, events)


def answer_draw_card(w: Work, tables: Tables, seat: int, action: Action, events: list[Event]) -> None:
    assert isinstance(action, CardPlay)
    answer_card(w, tables, action, events)


def choose_for_table_card(w: Work, tables: Tables, seat: int, action: Action, events: list[Event]) -> None:
    assert isinstance(action, CardPlay)
    table_choice(w, tables, action, events)


def defend_battle(w: Work, tables: Tables, seat: int, action: Action, events: list[Event]) -> None:
    battle_answer(w, tables, seat, events, defend=True)


def let_battle_happen(w: Work, tables: Tables, seat: int, action: Action, events: list[Event]) -> None:
    battle_answer(w, tables, seat, events, defend=False)


def secret_key_pick(w: Work, tables: Tables, seat: int, action: Action, events: list[Event]) -> None:
    assert isinstance(action, KeyTake)
    take_with_secret_key(w, tables, action.face, events)


def risk_card(w: Work, tables: Tables, seat: int, action: Action, events: list[Event]) -> None:
    assert isinstance(action, Risk)
    play_risk(w, tables, seat, KIND[action.face], events, bet_against=action.bet_against)


def warlord_move(w: Work, tables: Tables, seat: int, action: Action, events: list[Event]) -> None:
    play_warlord(w, tables, seat, events)


def escape_move(w: Work, tables: Tables, seat: int, action: Action, events: list[Event]) -> None:
    escape_dungeon(w, seat, events)
