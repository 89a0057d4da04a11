"""Applying a move: find it among the legal moves, close the short windows when the
game moves on, run the handler of its operation, deal the next hand if one ended, and log
the public events."""

from __future__ import annotations

from collections.abc import Callable

from bot.games.base import Event, IllegalMove, MatchOver, Move, NotYourTurn
from bot.games.dynasty.deal import _h_cut, _h_deal, deal_next_hands, table_choice
from bot.games.dynasty.effects import key_pick, play_card
from bot.games.dynasty.legal import legal, why_illegal, why_not_your_turn
from bot.games.dynasty.state import (
    ANSWER,
    ESCORT,
    EXTRA,
    OVER,
    DynastyState,
    Work,
    freeze,
    thaw,
)
from bot.games.dynasty.tables import (
    ACTIONS,
    C_ESCORT,
    C_EXTRA,
    C_PLAY,
    Tables,
    tables_for,
)
from bot.games.dynasty.turn import (
    _h_accept,
    _h_ask,
    _h_draw,
    _h_forfeit,
    _h_no,
    _h_noextra,
    _h_pass,
    _h_yes,
)
from bot.games.dynasty.windows import (
    _h_call,
    _h_catch,
    _h_wait,
    answer_card,
    battle_answer,
    escape_dungeon,
    play_risk,
    play_warlord,
)
from bot.games.dynasty.working import LOG_SIZE, close_windows

OPTIONAL_OPS = frozenset({"og", "c", "r", "war", "esc", "wait"})


def find_move(moves: list[Move], move: Move | str) -> Move | None:
    if isinstance(move, str):
        for m in moves:
            if m.code == move:
                return m
        return None
    for m in moves:
        if m is move:
            return m
    for m in moves:  # an equal Move, or the same code with a label from another moment
        if m.code == move.code:
            return m
    return None


def apply_move(state: DynastyState, seat: int, move: Move | str) -> tuple[DynastyState, list[Event]]:
    if state.phase == OVER:
        raise MatchOver("This match is over.")
    T = tables_for(state.config)
    c = state._legal_memo
    moves = c.get(seat) if c is not None else None
    if moves is None:
        moves = legal(state, seat, T)
    m = find_move(moves, move)
    if m is None:
        code = move if isinstance(move, str) else move.code
        if not moves:
            raise NotYourTurn(why_not_your_turn(state, seat, T))
        raise IllegalMove(why_illegal(state, seat, code, T))
    a = ACTIONS[m.code]
    op = a[0]
    w = thaw(state)
    ev: list[Event] = []
    if op not in OPTIONAL_OPS and (w.dark_knight_open or w.may_escape or w.waived or 1 in w.on_guard):
        close_windows(w)
    HANDLERS[op](w, T, seat, a, ev)
    deal_next_hands(w, T, ev)
    pub = [e.text for e in ev if e.seat is None]
    if pub:
        w.log = (w.log + tuple(pub))[-LOG_SIZE:]
    return freeze(w), ev


def _h_play(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    ph = w.phase
    if ph == ANSWER:
        answer_card(w, T, a, ev)
    elif ph == EXTRA:
        play_card(w, T, a, C_EXTRA, ev)
    elif ph == ESCORT:
        play_card(w, T, a, C_ESCORT, ev)
    else:
        play_card(w, T, a, C_PLAY, ev)


def _h_table(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    table_choice(w, T, a, ev)


def _h_defend(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    battle_answer(w, T, seat, True, ev)


def _h_take(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    battle_answer(w, T, seat, False, ev)


def _h_key(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    key_pick(w, T, a[1], ev)


def _h_risk(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    play_risk(w, T, seat, a[1], a[2], ev)


def _h_warlord(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    play_warlord(w, T, seat, ev)


def _h_escape(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    escape_dungeon(w, seat, ev)


HANDLERS: dict[str, Callable[[Work, Tables, int, tuple, list[Event]], None]] = {
    "p": _h_play, "t": _h_table, "d": _h_draw, "pass": _h_pass, "x": _h_noextra,
    "acc": _h_accept, "def": _h_defend, "take": _h_take, "k": _h_key, "ask": _h_ask,
    "yes": _h_yes, "no": _h_no, "f": _h_forfeit, "cut": _h_cut, "deal": _h_deal,
    "og": _h_call, "c": _h_catch, "r": _h_risk, "war": _h_warlord, "esc": _h_escape,
    "wait": _h_wait,
}
