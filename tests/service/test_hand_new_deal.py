"""A player's hand after a new deal: what it said about the hand before (the echo of their
last move, what followed it) goes, and one line says how that hand ended for them, from
the start of the new hand until their first move there. A Kingdom Four hand ends here on
seat 2's last card while seat 0 waits."""

from __future__ import annotations

from bot.games.dynasty.scoring import seat_summary
from bot.games.four.game import GAME, FourState
from bot.service import Snapshot
from bot.ui.handview import hand_message, rerender
from tests.engines.test_four_messages import last_card_of_hand_one
from tests.snapshots import snapshot_of

NAMES = ("ann", "bob", "cat")
ECHO = "You chose: Play 🟩1🪓 (green 1 axes)."
SUMMARY = "Hand 1: you scored 10 — Kingdom Three 🟥3s (10)"


def _snap(state: FourState, version: int) -> Snapshot:
    return snapshot_of(GAME, state, NAMES, version=version)


def _text(message: object) -> str:
    return message.embed.description or ""  # type: ignore[attr-defined]


def test_a_new_deal_clears_the_last_hands_echo_and_says_how_it_ended() -> None:
    before = last_card_of_hand_one()
    waiting = hand_message(_snap(before, 10), 0, None, notice=[ECHO, "ann flips 🟦2🛡️: no match."])
    assert ECHO in _text(waiting), "the echo stays while the player waits in the same hand"
    after, _events = GAME.apply(before, 2, "play:4Ys")
    assert after.hand_no == 2 and len(after.hands[0]) > 3
    dealt = rerender(_snap(after, 11), 0, waiting.shown, waiting.shown.notice)
    text = _text(dealt)
    assert "You chose" not in text and "ann flips" not in text, text
    assert SUMMARY in text, text
    assert "🆕" not in text, "a new deal's cards are not marked as drawn"
    # it stays until the player's first move of the new hand, even once they are asked
    state = after
    while 0 not in GAME.to_act(state):
        seat = next(iter(GAME.to_act(state)))
        state, _ = GAME.apply(state, seat, GAME.legal_moves(state, seat)[0])
    asked = rerender(_snap(state, 20), 0, dealt.shown, dealt.shown.notice)
    assert SUMMARY in _text(asked) and "You chose" not in _text(asked), _text(asked)
    move = GAME.legal_moves(state, 0)[0]
    state, _ = GAME.apply(state, 0, move)
    played = hand_message(_snap(state, 21), 0, asked.shown, notice=[f"You chose: {move.label}."])
    assert SUMMARY not in _text(played), "their first move of the new hand leads from then on"


def test_the_player_whose_move_ended_the_hand_reads_it_once_then_the_summary() -> None:
    before = last_card_of_hand_one()
    mine = hand_message(_snap(before, 10), 2, None)
    after, _events = GAME.apply(before, 2, "play:4Ys")
    echo = "You chose: Play 🟨4🛡️ (yellow 4 shields)."
    answer = hand_message(_snap(after, 11), 2, mine.shown, notice=[echo])
    assert echo in _text(answer), "the answer to the move says what was played"
    assert "Hand 1: you scored 0 (no scoring sets)" in _text(answer), _text(answer)
    assert answer.shown.notice == ("Hand 1: you scored 0 (no scoring sets)",), "the echo is not kept"
    moved_on = after
    seat = next(iter(GAME.to_act(moved_on)))
    moved_on, _ = GAME.apply(moved_on, seat, GAME.legal_moves(moved_on, seat)[0])
    later = rerender(_snap(moved_on, 12), 2, answer.shown, answer.shown.notice)
    assert echo not in _text(later) and "Hand 1: you scored 0" in _text(later), _text(later)


def test_dynastys_line_names_who_went_out_and_the_seats_own_points() -> None:
    last_hand = (
        "Hand 1 over: {p1} went out.",
        "Hand points: {p0} +45, {p1} +0, {p2} +46, {p3} -3.",
        "Totals: {p0} 45, {p1} 0, {p2} 46, {p3} -3.",
    )
    assert seat_summary(last_hand, 0) == "Hand 1: {p1} went out · you +45"
    assert seat_summary(last_hand, 3) == "Hand 1: {p1} went out · you -3"
    assert seat_summary(("Hand 2 over: nobody went out.",), 1) == "Hand 2: nobody went out"
    assert seat_summary((), 0) == ""
