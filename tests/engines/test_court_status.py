"""King's Court (court) status as the table shows it: a round's score line says why the round
ended (the knock itself may have left the last three events), the finished table keeps the
last round, and after a trick the winner's hand offers only what they can do while everyone
else reads one fixed line that depends on public facts only."""

from __future__ import annotations

from dataclasses import replace

from bot.games.base import Rng
from bot.games.court import GAME
from bot.games.court.state import AFTER, OVER, TRICK_CAP, CourtState
from tests.engines.test_court_messages import act, table

TRICK = (
    "lead:7d",
    "play:2c",
    "play:2s",
    "play:3c",
    "take:7d",
    "take:2c",
    "take:2s",
)  # seat 0 wins, all take back


def won(hand0: str = "7d 7h 8h 9h", **changes: object) -> CourtState:
    """Seat 0 has won a trick and chooses what to do next."""
    state, _ = act(table([hand0, "2c 5c", "2s 5s", "3c 6c"], **changes), *TRICK)
    assert state.phase == AFTER and state.turn == 0
    return state


# --- 1. why a round ended, on its score line and on the finished table ------------------------------


def test_a_knocked_rounds_score_line_says_who_knocked() -> None:
    _state, texts = act(won(), "knock")
    scored = [t for t in texts if "scored: " in t]
    assert scored and scored[0].startswith("Round 1 ({p0} knocked) scored: {p0} (K♥) +10"), texts
    assert scored[0] in texts[-3:]
    assert len(scored[0]) <= 120, scored[0]


def test_a_round_ended_by_the_trick_cap_says_so() -> None:
    # no run to court and +5 short of the board: seat 0 can only pass (the turn waits for the
    # pass, RULES.md's secrecy ruling), and trick 40 ends the round
    state, texts = act(
        table(["7d 8h 2h Th", "2c 5c", "2s 5s", "3c 6c"], going_board=40, tricks=TRICK_CAP - 1),
        *TRICK,
        "done",
    )
    assert state.round == 2, texts
    assert any(t.startswith(f"Round 1 ({TRICK_CAP} tricks) scored: ") for t in texts), texts


def test_the_next_rounds_board_names_why_the_last_one_ended() -> None:
    state, _ = act(won(), "knock")
    board = GAME.view(state, None).board
    assert any(line.startswith("Round 1 ({p0} knocked): {p0} K♥ +10 (total 10) · ") for line in board), board
    state = GAME.load(GAME.dump(state))
    assert any(line.startswith("Round 1 ({p0} knocked): ") for line in GAME.view(state, None).board)


def test_the_finished_tables_summary_keeps_the_last_rounds_scores_and_why() -> None:
    state, _texts = act(won(scores=(115, 10, 10, 10)), "knock")
    assert state.phase == OVER
    summary = GAME.outcome(state).summary  # type: ignore[union-attr]
    assert summary.startswith("{p0} wins the match with 125 points: {p0} reached the target of 120."), summary
    assert "King's Court" not in summary, "the game's name is a meld's too: the match is won"
    assert summary.endswith(" Last round ({p0} knocked): {p0} +10 · {p1} -10 · {p2} -10 · {p3} +0."), summary


# --- 2. after a trick: the winner's own moves; the table's one line, in public terms ---------------


def test_a_winner_below_the_going_board_is_not_offered_a_knock() -> None:
    state = won(going_board=20)  # seat 0's round score is +10
    assert "knock" not in GAME.view(state, 0).waiting, GAME.view(state, 0).waiting
    assert GAME.view(state, 0).waiting == "You won the trick: court or pass."
    assert (
        GAME.view(state, None).waiting == "{p0} won the trick and is deciding: court, sandbag, knock or pass."
    )


def test_a_winner_who_can_only_pass_is_told_so_in_their_own_words() -> None:
    """Their hand says it to them; the table says what it says of any winner (secrecy)."""
    state = won("7d 8h 2h Th", going_board=40)
    assert GAME.view(state, 0).waiting == "You won the trick: nothing to court, press Pass."
    assert (
        GAME.view(state, None).waiting == "{p0} won the trick and is deciding: court, sandbag, knock or pass."
    )
    assert GAME.view(state, 1).waiting == GAME.view(state, None).waiting


def test_the_winner_sees_every_move_they_have() -> None:
    state = won(going_board=0)
    assert GAME.view(state, 0).waiting == "You won the trick: court, knock or pass."
    assert (
        GAME.view(state, None).waiting == "{p0} won the trick and is deciding: court, sandbag, knock or pass."
    ), "the round score is private"
    assert GAME.view(state, 1).waiting == GAME.view(state, None).waiting


def test_the_tables_status_line_does_not_depend_on_hidden_cards() -> None:
    for board in (0, 20):
        state = won(going_board=board)
        line = GAME.view(state, None).waiting
        for seat in range(4):
            for k in range(4):
                alt = GAME.resample(state, seat, Rng.from_seed(31 * k + seat))
                assert GAME.view(alt, None).waiting == line


def test_a_blind_bidder_s_table_line_is_every_winner_s() -> None:
    state = won(going_board=40, bids=("blind", "", "", ""))
    assert GAME.view(state, 0).waiting == "You won the trick: court, knock or pass."
    assert (
        GAME.view(state, None).waiting == "{p0} won the trick and is deciding: court, sandbag, knock or pass."
    )


def test_after_courting_the_table_says_the_winner_is_still_deciding() -> None:
    state = won("7d 7h 8h 9h Ah Ad As Ac", going_board=0)
    state, _ = act(state, "court:7h.8h.9h")
    assert state.phase == AFTER and state.courted_now  # a four of aces still to sandbag
    assert GAME.view(state, None).waiting == "{p0} courted and is deciding what else to do."
    assert GAME.view(state, 0).waiting == "You courted: sandbag or pass."


def test_a_forced_winner_below_the_board_must_flop() -> None:
    state = replace(won(going_board=20), forced=True)
    assert GAME.view(state, 0).waiting == "You must flop your King."
    public = GAME.view(state, None).waiting
    assert public == "{p0} must flop their King, or knock with a round score of 20 or more.", public


WINNERS = {  # seat 0's hand after the trick, and the winner's own line (the board is 0)
    "7d 8h 2h Th": "You won the trick: nothing to court, press Pass.",  # no run, no four, -10
    "7d 7h 8h 9h": "You won the trick: court, knock or pass.",  # +10
    "7d 2h 2d 2s 2c Ah Ad As Ac": "You won the trick: sandbag or pass.",  # four aces, -20 in hand
    "7d 7h 8h 9h Ah Ad As Ac": "You won the trick: court, sandbag or pass.",  # -20 + 10, below 0
}


def test_the_tables_line_after_a_trick_is_the_same_whatever_the_winner_could_do() -> None:
    """Every seat but the winner reads one line, whatever the winner holds (RULES.md's
    secrecy ruling), and it names every move of the game's menu, so it never leaves out a
    move the winner's own line offers."""
    for hand, own in WINNERS.items():
        state = won(hand, going_board=0)
        assert GAME.view(state, 0).waiting == own
        line = "{p0} won the trick and is deciding: court, sandbag, knock or pass."
        assert all(GAME.view(state, seat).waiting == line for seat in (None, 1, 2, 3)), hand
        offered = own.partition(": ")[2].removesuffix(" or pass.").split(", ")
        assert all(word in ("nothing to court", "press Pass.") or word in line for word in offered), own


def test_after_a_sandbag_the_table_says_so_and_the_winner_is_still_deciding() -> None:
    state, _ = act(won("7d 7h 8h 9h Ah Ad As Ac", going_board=0), "bag:A")
    assert state.phase == AFTER and state.bagged_now
    assert GAME.view(state, 0).waiting == "You sandbagged: court or pass."
    line = GAME.view(state, None).waiting
    assert line == "{p0} sandbagged and is deciding what else to do."
    assert all(GAME.view(state, seat).waiting == line for seat in (1, 2, 3))
