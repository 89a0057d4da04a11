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
    GUARD_UNCALLED,
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
    Action,
    CardPlay,
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

# Operations of out-of-turn moves: making one does not close the windows of the last play.
OPTIONAL_OPS = frozenset({"og", "c", "r", "war", "esc", "wait"})


def find_move(moves: list[Move], move: Move | str) -> Move | None:
    """The legal move that ``move`` (a Move or a code) stands for, or None."""
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
    """The state after ``seat`` makes ``move`` (a Move or its code), and the move's events.
    Refusals raise NotYourTurn / IllegalMove with a sentence for the player."""
    if state.phase == OVER:
        raise MatchOver("This match is over.")
    tables = tables_for(state.config)
    memo = state._legal_memo
    moves = memo.get(seat) if memo is not None else None
    if moves is None:
        moves = legal(state, seat, tables)
    found = find_move(moves, move)
    if found is None:
        code = move if isinstance(move, str) else move.code
        if not moves:
            raise NotYourTurn(why_not_your_turn(state, seat, tables))
        raise IllegalMove(why_illegal(state, seat, code, tables))
    action = ACTIONS[found.code]
    op = action[0]
    w = thaw(state)
    events: list[Event] = []
    if op not in OPTIONAL_OPS and (
        w.dark_knight_open or w.may_escape or w.waived or GUARD_UNCALLED in w.on_guard
    ):
        close_windows(w)  # the game moves on: the short windows of the last play lapse
    HANDLERS[op](w, tables, seat, action, events)
    deal_next_hands(w, tables, events)
    public = [e.text for e in events if e.seat is None]
    if public:
        w.log = (w.log + tuple(public))[-LOG_SIZE:]
    return freeze(w), events


# --- move handlers: (working copy, tables, seat moving, action, events) ----------------------------


def play_from_hand(w: Work, tables: Tables, seat: int, action: Action, events: list[Event]) -> None:
    assert isinstance(action, CardPlay)
    phase = w.phase
    if phase == ANSWER:
        answer_card(w, tables, action, events)
    elif phase == EXTRA:
        play_card(w, tables, action, C_EXTRA, events)
    elif phase == ESCORT:
        play_card(w, tables, action, C_ESCORT, events)
    else:
        play_card(w, tables, action, C_PLAY, events)


def choose_for_table_card(w: Work, tables: Tables, seat: int, action: Action, events: list[Event]) -> None:
    assert isinstance(action, CardPlay)
    table_choice(w, tables, action, events)


def defend_battle(w: Work, tables: Tables, seat: int, action: Action, events: list[Event]) -> None:
    battle_answer(w, tables, seat, events, defend=True)


def let_battle_happen(w: Work, tables: Tables, seat: int, action: Action, events: list[Event]) -> None:
    battle_answer(w, tables, seat, events, defend=False)


def secret_key_pick(w: Work, tables: Tables, seat: int, action: Action, events: list[Event]) -> None:
    take_with_secret_key(w, tables, action[1], events)


def risk_card(w: Work, tables: Tables, seat: int, action: Action, events: list[Event]) -> None:
    play_risk(w, tables, seat, action[1], events, bet_against=action[2])


def warlord_move(w: Work, tables: Tables, seat: int, action: Action, events: list[Event]) -> None:
    play_warlord(w, tables, seat, events)


def escape_move(w: Work, tables: Tables, seat: int, action: Action, events: list[Event]) -> None:
    escape_dungeon(w, seat, events)


Handler = Callable[[Work, Tables, int, Action, list[Event]], None]
HANDLERS: dict[str, Handler] = {
    "p": play_from_hand,
    "t": choose_for_table_card,
    "d": draw_instead_of_playing,
    "pass": pass_turn,
    "x": end_without_extra,
    "acc": accept_draw,
    "def": defend_battle,
    "take": let_battle_happen,
    "k": secret_key_pick,
    "ask": ask_partner,
    "yes": partner_says_yes,
    "no": partner_says_no,
    "f": decline_to_go_out,
    "cut": cut_for_bonus,
    "deal": deal_normally,
    "og": call_on_guard,
    "c": catch_on_guard,
    "r": risk_card,
    "war": warlord_move,
    "esc": escape_move,
    "wait": let_it_pass,
}
