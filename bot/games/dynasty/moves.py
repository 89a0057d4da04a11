"""Applying a move: find it among the legal moves, close the short windows when the
game moves on, run the handler of its operation, deal the next hand if one ended, and log
the public events."""

from __future__ import annotations

from collections.abc import Callable

from bot.games.base import Event, IllegalMove, MatchOver, Move, NotYourTurn
from bot.games.dynasty.deal import cut_for_bonus, deal_next_hands, deal_normally, table_choice
from bot.games.dynasty.effects import play_card, take_with_secret_key
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
    accept_draw,
    ask_partner,
    decline_to_go_out,
    draw_instead_of_playing,
    end_without_extra,
    partner_says_no,
    partner_says_yes,
    pass_turn,
)
from bot.games.dynasty.windows import (
    answer_card,
    battle_answer,
    call_on_guard,
    catch_on_guard,
    escape_dungeon,
    let_it_pass,
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
    tables = tables_for(state.config)
    c = state._legal_memo
    moves = c.get(seat) if c is not None else None
    if moves is None:
        moves = legal(state, seat, tables)
    m = find_move(moves, move)
    if m is None:
        code = move if isinstance(move, str) else move.code
        if not moves:
            raise NotYourTurn(why_not_your_turn(state, seat, tables))
        raise IllegalMove(why_illegal(state, seat, code, tables))
    a = ACTIONS[m.code]
    op = a[0]
    w = thaw(state)
    events: list[Event] = []
    if op not in OPTIONAL_OPS and (w.dark_knight_open or w.may_escape or w.waived or 1 in w.on_guard):
        close_windows(w)
    HANDLERS[op](w, tables, seat, a, events)
    deal_next_hands(w, tables, events)
    pub = [e.text for e in events if e.seat is None]
    if pub:
        w.log = (w.log + tuple(pub))[-LOG_SIZE:]
    return freeze(w), events


def play_from_hand(w: Work, tables: Tables, seat: int, a: tuple, events: list[Event]) -> None:
    ph = w.phase
    if ph == ANSWER:
        answer_card(w, tables, a, events)
    elif ph == EXTRA:
        play_card(w, tables, a, C_EXTRA, events)
    elif ph == ESCORT:
        play_card(w, tables, a, C_ESCORT, events)
    else:
        play_card(w, tables, a, C_PLAY, events)


def choose_for_table_card(w: Work, tables: Tables, seat: int, a: tuple, events: list[Event]) -> None:
    table_choice(w, tables, a, events)


def defend_battle(w: Work, tables: Tables, seat: int, a: tuple, events: list[Event]) -> None:
    battle_answer(w, tables, seat, True, events)


def let_battle_happen(w: Work, tables: Tables, seat: int, a: tuple, events: list[Event]) -> None:
    battle_answer(w, tables, seat, False, events)


def secret_key_pick(w: Work, tables: Tables, seat: int, a: tuple, events: list[Event]) -> None:
    take_with_secret_key(w, tables, a[1], events)


def risk_card(w: Work, tables: Tables, seat: int, a: tuple, events: list[Event]) -> None:
    play_risk(w, tables, seat, a[1], a[2], events)


def warlord_move(w: Work, tables: Tables, seat: int, a: tuple, events: list[Event]) -> None:
    play_warlord(w, tables, seat, events)


def escape_move(w: Work, tables: Tables, seat: int, a: tuple, events: list[Event]) -> None:
    escape_dungeon(w, seat, events)


HANDLERS: dict[str, Callable[[Work, Tables, int, tuple, list[Event]], None]] = {
    "p": play_from_hand, "t": choose_for_table_card, "d": draw_instead_of_playing, "pass": pass_turn, "x": end_without_extra,
    "acc": accept_draw, "def": defend_battle, "take": let_battle_happen, "k": secret_key_pick, "ask": ask_partner,
    "yes": partner_says_yes, "no": partner_says_no, "f": decline_to_go_out, "cut": cut_for_bonus, "deal": deal_normally,
    "og": call_on_guard, "c": catch_on_guard, "r": risk_card, "war": warlord_move, "esc": escape_move,
    "wait": let_it_pass,
}
