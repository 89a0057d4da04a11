"""King's Court (court): a typed move that is not possible says what is wrong in one sentence,
from what the player sees (the player-QA audit C: "2♣ is not in the pool.", "You don't hold
A♥ 2♥ 3♥.", "Only the trick's winner may knock, right after the trick."), where the generic
"That is not one of your moves now" or "You cannot do that right now" answered before."""

from __future__ import annotations

import pytest

from bot.games.base import Rng
from bot.games.court import GAME
from bot.games.court.state import AFTER, LEAD, PICK, CourtState
from tests.engines.test_court_messages import act, table

HANDS = ["7d 8h 9h Th", "2c 5c", "2s 5s", "3c 6c"]
FIRST = ("lead:7d", "play:2c", "play:2s", "play:3c")  # seat 0 wins with 7♦
PICKS = ("take:7d", "take:2c", "take:2s")


def refusal(state: CourtState, seat: int, kinds: tuple[str, ...], text: str) -> str | None:
    """What the slash command's path answers: the engine's reading of the typed text, then
    its reason (None: the text names no move)."""
    code = GAME.typed_code(state, seat, kinds, text)
    return None if code is None else GAME.why_illegal(state, seat, code)


# --- a typed move that is not possible says what is wrong ------------------------------------------


def test_a_card_typed_to_pick_that_is_not_in_the_pool_is_named() -> None:
    state, _ = act(table(HANDS), *FIRST)
    assert state.phase == PICK and state.turn == 0
    assert refusal(state, 0, ("take",), "2h") == "2♥ is not in the pool."
    assert refusal(state, 0, ("take",), "2h 9s") == "2♥ 9♠ are not in the pool."
    assert refusal(state, 0, ("take",), "banana") is None  # names no card: the generic answer


def test_cards_typed_to_court_that_are_not_held_are_named() -> None:
    state, _ = act(table(HANDS), *FIRST, *PICKS)
    assert state.phase == AFTER and state.turn == 0
    assert refusal(state, 0, ("court",), "Ah 2h 3h") == "You don't hold A♥ 2♥ 3♥."
    assert refusal(state, 0, ("court",), "7h, 8h 9h") == "You don't hold 7♥."
    assert refusal(state, 0, ("lead", "play"), "Ah 2h") == "Court, sandbag, knock, flop or pass now."


@pytest.mark.parametrize(
    ("kinds", "text", "said"),
    [
        (("knock",), "", "Only the trick's winner may knock, right after the trick."),
        (("bag",), "A", "Only the trick's winner may sandbag, right after the trick."),
        (("court",), "Ah 2h 3h", "Only the trick's winner may court, right after the trick."),
        (("flop",), "", "You flop your King only when you win a third trick in a row, right after it."),
        (("done",), "", "Pass ends the trick winner's turn, right after the trick."),
        (("take",), "2c", "Cards are taken back from the pool only once a trick is won."),
        (("duel",), "7d", "There is no duel now: only a tie for the best hand of a trick is duelled."),
    ],
)
def test_a_winners_move_asked_for_at_the_lead_says_when_it_may_be_made(
    kinds: tuple[str, ...], text: str, said: str
) -> None:
    state = table(HANDS)
    assert state.phase == LEAD
    assert refusal(state, 0, kinds, text) == said


def test_the_winners_own_refusals_say_what_is_wrong_now() -> None:
    state, _ = act(table(HANDS), *FIRST, *PICKS)
    assert (
        refusal(state, 0, ("bag",), "A")
        == "You can sandbag only a four of a kind of A, Q or 7 that you hold."
    )
    assert refusal(state, 0, ("flop",), "") == "You flop your King only on a third trick won in a row."
    courted, _ = act(
        table(["Ah 2h 3h 7d 9c", "2c 5c Jc", "2s 5s Js", "3c 6c Jd"]), *FIRST, *PICKS, "court:Ah.2h.3h"
    )
    assert courted.phase == AFTER and courted.turn == 0
    assert refusal(courted, 0, ("knock",), "") == "You may not court and knock in the same turn."


def test_a_refusal_depends_only_on_what_the_player_sees() -> None:
    state, _ = act(table(HANDS), *FIRST, *PICKS)
    asked = [(("knock",), ""), (("bag",), "Q"), (("court",), "Ah 2h 3h"), (("flop",), ""), (("take",), "2c")]
    for n in range(5):
        other = GAME.resample(state, 0, Rng.from_seed(n))
        assert [refusal(other, 0, k, t) for k, t in asked] == [refusal(state, 0, k, t) for k, t in asked]


# --- a typed lead or follow is offered as the sets the hand makes ------------------------------------


def test_the_lead_and_a_follow_of_two_offer_the_sets_the_hand_makes() -> None:
    """What `/court lead` and `/court play` offer first: every pair, three of a kind and
    straight flush the hand holds (each a legal choice), and a follow of two offers pairs."""
    state = table(["7d 7h 7s 8h 9h Th Jh", "2c 2s 5c 6c 9c", "3s 5s 6s 8s 9s", "3c 4c 4d 8c Qc"])
    (lead,) = GAME.legal_moves(state, 0)
    assert lead.pick is not None
    groups = {tuple(sorted(g)) for g in lead.pick.groups}
    assert {("7d", "7h"), ("7d", "7h", "7s"), ("7h", "8h", "9h", "Jh", "Th")} <= groups, groups
    for g in lead.pick.groups:  # each is a legal lead
        assert len(g) > 1 and GAME.apply(state, 0, lead.choose(g).code)[0].trick[0] == g
    state, _ = act(state, "lead:7d.7h")
    (follow,) = GAME.legal_moves(state, 1)
    assert follow.pick is not None and follow.pick.groups == (("2c", "2s"),)
