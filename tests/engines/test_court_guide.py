"""King's Court (court) in a /learn match: the seat's first decision says what a round and the
match are about, and the tip after a won trick names knocking as a move only when the seat
can knock (otherwise it says what knocking needs)."""

from __future__ import annotations

from dataclasses import replace

from bot.games.base import find_move
from bot.games.court import GAME
from bot.games.court.state import KNOCK
from tests.engines.test_court import act, table
from tests.engines.test_court_status import won


def tips(state: object, seat: int = 0) -> dict[str, str]:
    return dict(GAME.situations(state, seat))  # type: ignore[arg-type]


def test_the_tip_after_a_trick_offers_a_knock_when_the_seat_can_knock() -> None:
    state = won("7d 7h 8h 9h", going_board=0)  # +10: Knock is among the moves
    assert any(move.kind == KNOCK for move in GAME.legal_moves(state, 0))
    after = tips(state)["after"]
    assert "or knock to end the round; or pass." in after, after
    assert "needs a round score" not in after


def test_the_tip_after_a_trick_says_when_a_knock_is_possible_when_it_is_not() -> None:
    state = won("7d 7h 8h 9h", going_board=20)  # +10, short of the board: no Knock button
    assert not any(move.kind == KNOCK for move in GAME.legal_moves(state, 0))
    after = tips(state)["after"]
    assert "or knock to end the round" not in after, after
    assert after.endswith("; or pass. Knocking, to end the round, needs a round score of 20 or more."), after


def test_a_forced_winner_is_told_to_knock_or_flop_not_to_court() -> None:
    state = replace(won(going_board=0), forced=True)
    told = tips(state)
    assert "forced" in told and "after" not in told, told


def test_the_first_decision_of_a_lesson_says_what_the_game_is_about() -> None:
    """The seat's secret King and suit, what scores, knocking, and the match's end (the
    lesson's target of 120), told first at the seat's first decision (an explanation told
    while an AI seat plays would go from the hand as the seat's turn comes)."""
    state = GAME.setup(4, 1, {"target": "120"})
    assert state.turn != 0
    assert GAME.situations(state, 0) == ()
    [(key, goal), (lead, _)] = GAME.situations(state, state.turn)
    assert (key, lead) == ("goal", "lead")
    assert goal.startswith("Your King is secret and its suit is yours this round"), goal
    for fact in (
        "courted cards of it score 10",
        "costs 5",
        "score of 0 or more",
        "knock",
        "reaches 120",
        "falls to -200",
    ):
        assert fact in goal, (fact, goal)


def _why(state: object, code: str) -> str | None:
    move = find_move(GAME.legal_moves(state, state.turn), code)  # type: ignore[arg-type, attr-defined]
    assert move is not None, code
    return GAME.hint_reason(state, state.turn, move)  # type: ignore[arg-type, attr-defined]


def test_a_follow_that_beats_the_trick_so_far_is_hinted_as_winning_it() -> None:
    """The QA pass: "Follow: 7♣" after an A♥ lead was hinted only as playing off-suit cards,
    and "Follow: Q♦ Q♥ Q♠" over two players' cards was hinted with no reason, while both
    beat every hand played (7 above A in trick order)."""
    # seat 0 (♥) follows seat 1's A♥ lead as the last to play
    last = act(table(["7c 2h", "Ah 3c", "9s 2s", "9d 2d"], leader=1), "lead:Ah", "play:9s", "play:9d")
    assert last.turn == 0
    assert _why(last, "play:7c") == "it beats every hand played, so it wins the trick"
    assert _why(last, "play:2h") is None  # a ♥ that loses: no fact says why
    # seat 0 third to play (seat 1 still to play), over a lead of three 4s: the Qs beat it so far
    early = act(
        table(["Qd Qh Qs 2h", "5c 6c 8c", "4c 4d 4h", "5d Qc 3h"], leader=2), "lead:4c.4d.4h", "play:5d.Qc.3h"
    )
    assert early.turn == 0
    assert _why(early, "play:Qd.Qh.Qs") == "it beats the best hand so far"
    # one off-suit card that loses reads in the singular
    lower = act(table(["3c 2h", "Ah 5c", "9s 2s", "9d 2d"], leader=1), "lead:Ah", "play:9s", "play:9d")
    assert (
        _why(lower, "play:3c")
        == "it plays an off-suit card (it would cost 5 in hand) and keeps your King's suit"
    )


def test_a_follow_that_ties_the_best_hand_says_a_duel_decides() -> None:
    tie = act(table(["Qc 2h", "Ah 3c", "9s 2s", "9d 2d"], leader=1), "lead:Ah", "play:9s", "play:9d")
    assert _why(tie, "play:Qc") == "it ties the best hand: a duel decides the trick"
