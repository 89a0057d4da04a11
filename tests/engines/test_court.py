"""King's Court (court): a scenario test for every rule of RULES.md "court" and every ruling
of the help text, on hand-built states."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from bot.games.base import IllegalMove, InvalidOptions, MatchOver, NotYourTurn, Rng
from bot.games.court import GAME, rounds
from bot.games.court.bids import legal_bids
from bot.games.court.cards import DECK, KINGS, label, natural, parse, sorted_cards, trick_rank
from bot.games.court.melds import court_problem
from bot.games.court.scoring import round_points
from bot.games.court.state import AFTER, BID, DUEL, FOLLOW, LEAD, OVER, PICK, CourtState
from bot.games.court.tricks import FLUSH, PAIR, classify

KINGS_HSDC = ("Kh", "Ks", "Kd", "Kc")  # seat 0 hearts, 1 spades, 2 diamonds, 3 clubs


def table(
    hands: list[str], *, leader: int = 0, kings: tuple[str, ...] = KINGS_HSDC, **changes: object
) -> CourtState:
    """A round in progress: ``hands`` are space-separated card codes per seat; ``leader`` leads."""
    base = GAME.setup(4, 7, {})
    state = replace(
        base,
        phase=LEAD,
        turn=leader,
        leader=leader,
        dealer=(leader - 1) % 4,
        kings=kings,
        hands=tuple(sorted_cards(h.split()) for h in hands),
    )
    return replace(state, **changes)  # type: ignore[arg-type]


def act(state: CourtState, *codes: str) -> CourtState:
    """Apply moves in turn order (each by the seat to act)."""
    for code in codes:
        state, _events = GAME.apply(state, state.turn, code)
    return state


def events_of(state: CourtState, *codes: str) -> list[str]:
    texts: list[str] = []
    for code in codes:
        state, events = GAME.apply(state, state.turn, code)
        texts.extend(e.text for e in events)
    return texts


# Four ordinary hands of 12 (every card once).
HANDS = [
    "Ah 2h 3h 4h 5c 6c 8c 9d Td Jd 2s 3s",
    "As 2s3 5s 6s 7s 8s 9c Tc Jc Qd Ad".replace("2s3", "4s"),
    "Ac 2c 3c 4c 5d 6d 7d 8d 5h 6h 9s Ts",
    "Qc Qh Qs Jh Th 9h 8h 7h 7c 2d 3d 4d",
]


# --- the deal -----------------------------------------------------------------------------


def test_four_players_only() -> None:
    for n in (3, 5):
        with pytest.raises(InvalidOptions):
            GAME.setup(n, 1, {})


def test_the_deal_gives_each_a_secret_king_and_twelve_cards() -> None:
    state = GAME.setup(4, 12345, {})
    assert state.phase == LEAD and state.round == 1
    assert sorted(state.kings) == sorted(KINGS)
    assert all(len(h) == 12 for h in state.hands)
    assert sorted(c for h in state.hands for c in h) == sorted(DECK)
    assert GAME.card_count(state) == 52
    assert state.leader == (state.dealer + 1) % 4 == state.turn  # left of the dealer leads
    for seat in range(4):
        mine = GAME.view(state, seat)
        assert any(label(state.kings[seat]) in line for line in mine.private)  # its own King
        others = [label(state.kings[s]) for s in range(4) if s != seat]
        text = "\n".join(mine.public + mine.private + tuple(g.text for g in mine.hand))
        assert not any(k in text for k in others), "another seat's King is secret"
        own = [g for g in mine.hand if "(your King)" in g.label]
        assert len(own) == (1 if any(c[1] == state.kings[seat][1] for c in state.hands[seat]) else 0)
    table_view = GAME.view(state, None)
    assert not any(label(k) in line for k in KINGS for line in table_view.public)


def test_trick_rank_and_natural_order() -> None:
    order = ["2", "3", "4", "5", "6", "8", "9", "T", "J", "Q", "7"]
    ranks = [trick_rank(r + "h") for r in order]
    assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks)
    assert trick_rank("Ah") == trick_rank("Qs")  # A = Q
    assert trick_rank("7c") > trick_rank("Ac")
    assert [natural(r + "h") for r in "A23456789TJQ"] == list(range(1, 13))
    assert parse("10h") == "Th" and parse("q♠") == "Qs" and parse("Kh") is None


# --- leads and follows ----------------------------------------------------------------------


def test_legal_leads_are_sets_and_straight_flushes() -> None:
    assert classify(["5h"]).kind == "single"  # type: ignore[union-attr]
    assert classify(["5h", "5s"]).kind == PAIR  # type: ignore[union-attr]
    assert classify(["5h", "5s", "5c", "5d"]).kind == "four of a kind"  # type: ignore[union-attr]
    assert classify(["Ah", "2h", "3h", "4h", "5h"]).kind == FLUSH  # type: ignore[union-attr]
    assert classify(["8h", "9h", "Th", "Jh", "Qh"]).kind == FLUSH  # type: ignore[union-attr]
    assert classify(["Jh", "Qh", "Ah", "2h", "3h"]) is None  # no wrapping
    assert classify(["Ah", "2h", "3h", "4h", "5s"]) is None  # one suit
    assert classify(["5h", "6h"]) is None
    state = table(HANDS)
    with pytest.raises(IllegalMove, match="single, a pair"):
        GAME.apply(state, 0, "lead:Ah.2h")
    after = act(state, "lead:Ah.2h.3h.4h.5c".replace("5c", "5c")) if False else state
    del after
    ok = act(table(["Ah 2h 3h 4h 5h 9d Td Jd 2s 3s 5c 6c", *HANDS[1:]]), "lead:Ah.2h.3h.4h.5h")
    assert ok.phase == FOLLOW and ok.trick[0] == ("Ah", "2h", "3h", "4h", "5h")


def test_a_lead_has_no_more_cards_than_the_smallest_hand() -> None:
    hands = ["5h 5s 5c 5d 9d", "2c 3c 4c", "6h 6s 6c 6d", "8h 8s 8c 8d"]
    state = table(hands)
    with pytest.raises(IllegalMove, match="at most 3"):
        GAME.apply(state, 0, "lead:5h.5s.5c.5d")
    assert GAME.legal_moves(state, 0)[0].pick.most == 3  # type: ignore[union-attr]
    assert act(state, "lead:5h.5s.5c").phase == FOLLOW


def test_followers_play_as_many_cards_legal_or_not_and_only_in_turn() -> None:
    state = act(table(HANDS), "lead:Ah")
    with pytest.raises(NotYourTurn):
        GAME.apply(state, 2, "play:Ac")
    with pytest.raises(IllegalMove, match="exactly 1"):
        GAME.apply(state, 1, "play:As.4s")
    pair = act(table(["5c 5d 9d", "9c Tc Jc", "Ac 2c 3c", "7h 8h Qs"]), "lead:5c.5d")
    mixed = act(pair, "play:9c.Jc")  # not a pair: still played
    assert mixed.trick[1] == ("9c", "Jc") and mixed.turn == 2


def test_only_the_same_type_at_a_higher_rank_beats_the_lead() -> None:
    hands = ["5c 5d 9d", "7h 7c Jc", "Jh Js 2c", "Ac 3c 4c"]
    state = act(table(hands), "lead:5c.5d", "play:7h.Jc", "play:Jh.Js", "play:Ac.3c")
    assert state.winner == 2  # the Jacks pair; 7 and J is no pair, the A is no pair
    flush = ["Ah 2h 3h 4h 5h 9d", "3s 4s 5s 6s 7s 9c", "9h Th Jh Qh 8h 2c", "Jd Qd 2d 3d 4d 5d"]
    state = act(
        table(flush),
        "lead:Ah.2h.3h.4h.5h",
        "play:3s.4s.5s.6s.7s",
        "play:8h.9h.Th.Jh.Qh",
        "play:Jd.Qd.2d.3d.4d",
    )
    assert state.winner == 1  # highest card by trick rank: 7 beats A (and Q)
    single = act(table(["6h 2c", "5s 2d", "7c 3d", "Ad 4d"]), "lead:6h", "play:5s", "play:7c", "play:Ad")
    assert single.winner == 2


def test_equal_best_hands_duel_leader_first_until_one_is_higher() -> None:
    hands = ["Ac Ad 9h 2c", "Qc Qd 8s 3s", "2h 3h Js", "4s 5s 6s"]
    state = act(table(hands), "lead:Ac.Ad", "play:Qc.Qd", "play:2h.3h", "play:4s.5s")
    assert state.phase == DUEL and state.duelists == (0, 1) and state.turn == 0  # A = Q: a duel
    state = act(state, "duel:2c", "duel:3s")  # 3 beats 2
    assert state.phase == PICK and state.winner == 1 and state.turn == 1
    assert state.owed == (3, 3, 2, 2)  # duel cards are taken back too
    assert sorted(state.pool) == sorted(["Ac", "Ad", "Qc", "Qd", "2h", "3h", "4s", "5s", "2c", "3s"])


def test_a_duel_tied_again_goes_on_and_one_who_cannot_lay_loses() -> None:
    hands = ["Ac 9h 8c", "Qc 9s", "2h 3h", "4s 5s"]
    state = act(table(hands), "lead:Ac", "play:Qc", "play:2h", "play:4s")
    state = act(state, "duel:9h", "duel:9s")  # tied again
    assert state.phase == DUEL and state.duelists == (0, 1) and state.turn == 0
    state = act(state, "duel:8c")  # seat 1 has nothing left to lay: seat 0 wins
    assert state.winner == 0 and state.phase == PICK


def test_nobody_able_to_lay_in_a_duel_gives_it_to_the_first() -> None:
    state = act(table(["Ac 9h", "Qc", "2h 3h", "4s 5s"]), "lead:Ac", "play:Qc", "play:2h", "play:4s")
    state = act(state, "duel:9h")
    assert state.winner == 0  # seat 1 could not lay at all
    state = act(table(["Ac", "Qc", "2h 3h", "4s 5s"]), "lead:Ac", "play:Qc", "play:2h", "play:4s")
    assert state.winner == 0 and state.phase != DUEL  # neither can lay: the first duellist


# --- the pool ------------------------------------------------------------------------------


def test_the_pool_is_picked_from_the_winner_clockwise_each_taking_as_many_as_played() -> None:
    hands = ["5c 5d 9d", "7h 7c Jc", "2h 3h 4h", "Jh Js 2c"]
    state = act(table(hands), "lead:5c.5d", "play:7h.7c", "play:2h.3h", "play:Jh.Js")
    assert state.phase == PICK and state.winner == 1 and state.turn == 1
    with pytest.raises(IllegalMove, match="exactly 2"):
        GAME.apply(state, 1, "take:5c")
    with pytest.raises(IllegalMove, match="not in the pool"):
        GAME.apply(state, 1, "take:5c.9d")
    with pytest.raises(NotYourTurn):
        GAME.apply(state, 2, "take:5c.5d")
    state = act(state, "take:5c.5d")
    assert state.turn == 2 and "5c" in state.hands[1]
    state = act(state, "take:2h.Jh")
    assert state.turn == 3
    state = act(state, "take:3h.Js")  # seat 0, the last, takes what is left by itself
    assert state.hands[0] == tuple(sorted(("9d", "7h", "7c"), key=lambda c: ("cdhs".index(c[1]), natural(c))))
    assert state.pool == () and sum(map(len, state.hands)) == 12


def test_a_pool_pick_has_a_timer_whose_default_takes_back_your_own_cards() -> None:
    hands = ["5c 5d 9d", "7h 7c Jc", "2h 3h 4h", "Jh Js 2c"]
    state = act(table(hands), "lead:5c.5d", "play:7h.7c", "play:2h.3h", "play:Jh.Js")
    timed = GAME.timer(state)
    assert timed is not None and timed.seat == 1 and timed.seconds == 60
    assert set(timed.move.split(":")[1].split(".")) == {"7h", "7c"}
    assert GAME.timer(table(HANDS)) is None
    assert GAME.awaited(state) == frozenset({1})


def test_a_pick_takes_any_cards_of_the_pool() -> None:
    hands = ["5c 5d 9d", "7h 7c Jc", "2h 3h 4h", "Jh Js 2c"]
    state = act(table(hands), "lead:5c.5d", "play:7h.7c", "play:2h.3h", "play:Jh.Js")
    move = GAME.legal_moves(state, 1)[0]
    assert move.pick is not None and move.pick.least == move.pick.most == 2
    assert {p for p, _l in move.pick.items} == set(state.pool)
    state = act(state, move.choose(["Js", "2h"]).code)
    assert {"Js", "2h"} <= set(state.hands[1])


# --- after a trick: courting, sandbags, robbing ------------------------------------------------


def won_by_zero(hands: list[str], lead: str = "7d", **changes: object) -> CourtState:
    """Seat 0 leads a single 7 and wins; every pick takes back its own card."""
    state = act(table(hands, **changes), f"lead:{lead}", "play:2c", "play:2s", "play:3c")
    state = act(state, f"take:{lead}", "take:2c", "take:2s")
    return state


def test_a_first_court_is_a_run_of_three_from_a_q_or_7() -> None:
    base = ["7d Ah 2h 3h 4h 9h Jc", "2c 5c", "2s 5s", "3c 6c"]
    state = won_by_zero(base)
    assert state.phase == AFTER and state.turn == 0
    court = next(m for m in GAME.legal_moves(state, 0) if m.pick is not None)
    assert court.code == "court:Ah.2h.3h.4h"
    assert court_problem((), ["Ah", "2h"]) and court_problem(
        (), ["3h", "4h", "5h"]
    )  # too short; no A, Q or 7
    assert court_problem((), ["Ah", "2h", "4h"])  # not a run
    assert court_problem((), ["Ah", "2h", "3s"])  # one suit
    assert court_problem((), ["5h", "6h", "7h"]) is None and court_problem((), ["7h", "8h", "9h"]) is None
    assert court_problem((), ["Th", "Jh", "Qh"]) is None
    with pytest.raises(IllegalMove, match="at least 3"):
        GAME.apply(state, 0, "court:Ah.2h")
    state = act(state, "court:Ah.2h.3h")
    assert state.courted[0] == ("Ah", "2h", "3h") and "Ah" not in state.hands[0]
    # nothing more to do: the turn waits for the pass all the same (RULES.md's secrecy ruling)
    assert state.phase == AFTER and [m.code for m in GAME.legal_moves(state, 0)] == ["done"]
    state = act(state, "done")
    assert state.phase == LEAD and state.leader == 1
    again = replace(won_by_zero(base), courted=(("Ah", "2h", "3h"), (), (), ()), courted_now=True)
    with pytest.raises(IllegalMove, match="One court a turn"):
        GAME.apply(again, 0, "court:4h")


def test_later_courts_extend_the_one_run_even_by_one_card() -> None:
    assert court_problem(("Ah", "2h", "3h"), ["4h"]) is None
    assert court_problem(("Ah", "2h", "3h"), ["5h"])  # a gap
    assert court_problem(("Ah", "2h", "3h"), ["Qh", "Jh", "Th"])  # a second run is not allowed
    assert court_problem(("6h", "7h", "8h"), ["5h", "9h"]) is None  # a 7-run grows both ways
    assert court_problem(("Ah", "2h", "3h"), ["4s"])  # the run's suit is fixed
    state = won_by_zero(
        ["7d 4h 5h 9h Jc", "2c 5c", "2s 5s", "3c 6c"], courted=(("Ah", "2h", "3h"), (), (), ())
    )
    court = next(m for m in GAME.legal_moves(state, 0) if m.pick is not None)
    assert court.pick.least == 1 and {p for p, _l in court.pick.items} == {"4h", "5h"}  # type: ignore[union-attr]
    state = act(state, "court:4h")
    assert state.courted[0] == ("Ah", "2h", "3h", "4h")


def test_courting_passes_the_lead_to_the_winners_left_and_forbids_knocking() -> None:
    state = won_by_zero(["7d Ah 2h 3h 7h 7s 7c 9h", "2c 5c", "2s 5s", "3c 6c"], going_board=-100)
    assert "knock" in [m.code for m in GAME.legal_moves(state, 0)]
    state = act(state, "court:Ah.2h.3h")
    codes = [m.code for m in GAME.legal_moves(state, 0)]
    assert "knock" not in codes and "bag:7" in codes  # courted: no knock this turn
    with pytest.raises(IllegalMove, match="same turn"):
        GAME.apply(state, 0, "knock")
    state = act(state, "done") if state.phase == AFTER else state
    assert state.phase == LEAD and state.leader == 1


def test_the_winner_who_does_nothing_leads_again() -> None:
    state = won_by_zero(["7d 9h Jc 2d", "2c 5c", "2s 5s", "3c 6c"])
    # No court, no knock (below 0): Pass is all the hand offers, but the turn waits for it,
    # so that the table does not show what the winner could not do (RULES.md's secrecy ruling).
    assert state.phase == AFTER and [m.code for m in GAME.legal_moves(state, 0)] == ["done"]
    timed = GAME.timer(state)
    assert timed is not None and timed.move == "done" and timed.seat == 0
    state = act(state, "done")
    assert state.phase == LEAD and state.leader == 0


def test_robbing_courts_another_suit_as_prisoners_worth_nothing() -> None:
    state = won_by_zero(["7d Ad 2d 3d 9h", "2c 5c", "2s 5s", "3c 6c"])
    state = act(state, "court:Ad.2d.3d")  # seat 0's King is hearts: robbing diamonds
    assert state.courted[0] == ("Ad", "2d", "3d")
    assert round_points((), "h", ("As", "2s", "3s"), 0, 0) == 0
    assert round_points((), "h", ("Ah", "2h", "3h"), 0, 0) == 35
    assert court_problem(state.courted[0], ["4h"])  # the robbed suit is the only one now


def test_sandbag_a_four_of_a_kind_of_a_q_or_7() -> None:
    state = won_by_zero(["7d Qh Qs Qc Qd 5h 5s 5c 5d", "2c 8c", "2s 8s", "3c 6c"])
    codes = [m.code for m in GAME.legal_moves(state, 0)]
    assert "bag:Q" in codes and "bag:5" not in codes
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, "bag:5")
    state = act(state, "bag:Q")
    assert sorted(state.bags[0]) == sorted(["Qh", "Qs", "Qc", "Qd"])
    state = act(state, "done")  # nothing else to do: the winner passes and the lead passes left
    assert state.phase == LEAD and state.leader == 1
    assert round_points((), "h", (), 1, 0) == 60
    assert all("Q" not in line for line in GAME.view(state, None).public if "sandbag" in line)


def test_sandbag_four_aces() -> None:
    state = won_by_zero(["7d Ah As Ac Ad 9h", "2c 8c", "2s 8s", "3c 6c"])
    assert "bag:A" in [m.code for m in GAME.legal_moves(state, 0)]
    state = act(state, "bag:A")
    assert sorted(state.bags[0]) == sorted(["Ah", "As", "Ac", "Ad"]) and state.hands[0] == ("7d", "9h")
    assert state.score_so_far(0) == 60 - 5  # the sandbag; the 7d off-suit in hand
    state = act(state, "done")
    assert state.phase == LEAD and state.leader == 1


# --- knocking, three in a row, the end of a round ------------------------------------------------


def test_knocking_needs_the_going_board() -> None:
    rich = ["7d 8h 9h Th", "2c 5c", "2s 5s", "3c 6c"]  # hearts 8 9 10 in hand: +15 (7d is -5): +10
    state = won_by_zero(rich, going_board=20)
    assert [m.code for m in GAME.legal_moves(state, 0)] == ["done"]  # +10 is below 20: no knock
    state = won_by_zero(rich, going_board=0)
    assert state.phase == AFTER and "knock" in [m.code for m in GAME.legal_moves(state, 0)]
    state = won_by_zero(rich, going_board=0)
    state = act(state, "knock")
    assert state.round == 2 and state.last_round[0] == 10  # the round was scored


def test_the_third_trick_in_a_row_forces_a_knock_or_a_flop() -> None:
    state = won_by_zero(["7d 9h Jc Ah 2h 3h", "2c 5c", "2s 5s", "3c 6c"], streak=(0, 2), going_board=20)
    assert state.phase == AFTER and state.forced
    codes = [m.code for m in GAME.legal_moves(state, 0)]
    assert codes == ["flop"]  # below the going board: no knock; no court before deciding
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, "court:Ah.2h.3h")
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, "done")
    texts = events_of(state, "flop")
    assert any("K♥ face up" in t for t in texts)
    state = act(state, "flop")
    assert state.flops[0] == 1 and state.streak == (0, 0) and not state.forced
    assert "court" in [m.code.split(":")[0] for m in GAME.legal_moves(state, 0)]  # then the turn goes on
    assert "King flopped K♥" in " ".join(GAME.view(state, None).public)
    assert round_points((), "h", (), 0, 1) == -15


def test_a_third_win_may_knock_when_the_board_allows() -> None:
    state = won_by_zero(["7d 8h 9h Th", "2c 5c", "2s 5s", "3c 6c"], streak=(0, 2))
    assert [m.code for m in GAME.legal_moves(state, 0)] == ["flop", "knock"]
    assert act(state, "knock").round == 2


def test_the_streak_counts_tricks_won_in_a_row() -> None:
    state = won_by_zero(["7d 9h Jc 2d", "2c 5c", "2s 5s", "3c 6c"], streak=(0, 1))
    assert state.streak == (0, 2)
    state = won_by_zero(["7d 9h Jc 2d", "2c 5c", "2s 5s", "3c 6c"], streak=(2, 2))
    assert state.streak == (0, 1)


def test_a_kings_court_ends_the_round_at_once_for_150() -> None:
    run = ("Ah", "2h", "3h", "4h", "5h", "6h", "7h", "8h", "9h")
    state = won_by_zero(["7d Th Jh Qh", "2c 5c", "2s 5s", "3c 6c"], courted=(run, (), (), ()))
    texts = events_of(state, "court:Th.Jh.Qh")
    assert any("King's Court" in t for t in texts)
    after = act(state, "court:Th.Jh.Qh")
    assert after.round == 2
    # 7d left in hand: -5; the court: 150.
    assert after.last_round[0] == 150 - 5
    full = run + ("Th", "Jh", "Qh")
    assert round_points((), "h", full, 0, 0) == 150


def test_a_round_ends_after_forty_tricks() -> None:
    hands = ["7d 9h Jc 2d", "2c 5c", "2s 5s", "3c 6c"]
    going = act(won_by_zero(hands, tricks=38), "done")
    assert going.tricks == 39 and going.round == 1 and going.phase == LEAD  # the 39th: the round goes on
    texts = events_of(
        table(hands, tricks=39), "lead:7d", "play:2c", "play:2s", "play:3c", "take:7d", "take:2c", "take:2s"
    )
    state = won_by_zero(hands, tricks=39)
    texts += events_of(state, "done")
    assert any("40 tricks played" in t for t in texts)
    state = act(state, "done")
    assert state.round == 2 and state.last_round[0] == -15  # the 40th ended the round, scored as if knocked


def test_a_round_ends_when_a_hand_is_empty() -> None:
    run = ("Ah", "2h", "3h")
    state = won_by_zero(["7h 4h 5h 6h", "2c 5c", "2s 5s", "3c 6c"], lead="7h", courted=(run, (), (), ()))
    texts = events_of(state, "court:4h.5h.6h.7h")
    assert any("no card left" in t for t in texts)
    assert act(state, "court:4h.5h.6h.7h").round == 2


def test_every_player_always_holds_13_cards_in_all() -> None:
    """Hand + King + courted cards make 13 (sandbagged cards, laid face down like courted
    ones, count with them) between tricks, whatever is played, duelled and taken back."""
    checked = duels = 0
    for seed in range(4):
        rnd = random.Random(seed)
        state = GAME.setup(4, seed, {"target": "120"})
        if seed == 0:  # the four 7s to the first leader, who leads one, wins and sandbags them
            lead = state.turn
            hands = [list(h) for h in state.hands]
            for s in range(4):
                for seven in [c for c in hands[s] if c[0] == "7" and s != lead]:
                    swap = next(c for c in hands[lead] if c[0] != "7")
                    hands[s][hands[s].index(seven)], hands[lead][hands[lead].index(swap)] = swap, seven
            state = act(replace(state, hands=tuple(sorted_cards(h) for h in hands)), "lead:7h")
            while state.phase != AFTER:
                state = act(state, GAME.default_move(state, state.turn).code)
            state = act(state, "bag:7")
            assert len(state.bags[lead]) == 4
        for _move in range(400):
            if state.over:
                break
            if state.phase in (LEAD, AFTER):
                for s in range(4):
                    assert len(state.hands[s]) + 1 + len(state.courted[s]) + len(state.bags[s]) == 13, (
                        seed,
                        s,
                    )
                checked += 1
            duels += state.phase == DUEL
            seat = state.turn
            move = (
                GAME.ai_move(state, seat, Rng(seed))
                if rnd.random() < 0.5
                else rnd.choice(GAME.legal_moves(state, seat))
            )
            state, _ = GAME.apply(state, seat, move)
    assert checked > 200 and duels > 0


# --- scoring ---------------------------------------------------------------------------------


def test_scoring_of_every_kind_of_card() -> None:
    # courted own suit: 10 each, A/Q/7 15 each
    assert round_points((), "h", ("Ah", "2h", "3h"), 0, 0) == 15 + 10 + 10
    assert round_points((), "h", ("6h", "7h", "8h"), 0, 0) == 10 + 15 + 10
    # in-hand runs of 3+ of own suit +5 a card; other own-suit cards 0; off-suit -5
    assert round_points(("4h", "5h", "6h", "9h"), "h", (), 0, 0) == 15
    assert round_points(("4h", "5h", "9h", "Jh"), "h", (), 0, 0) == 0
    assert round_points(("4s", "5s", "6s"), "h", (), 0, 0) == -15  # off-suit runs still cost
    # prisoners 0, sandbags 60, flops -15
    assert round_points((), "h", ("As", "2s", "3s"), 2, 1) == 120 - 15


# --- bids ------------------------------------------------------------------------------------


def test_bid_eligibility_behind_the_leader() -> None:
    assert legal_bids((0, 0, 0, 0), 1) == ()  # nobody is behind
    assert [b.key for b in legal_bids((100, 100, 0, 50), 2)] == ["nil"]  # 0 + 150 <= 250; 300 > 250
    keys = [b.key for b in legal_bids((400, -100, 0, 0), 1)]
    assert keys == ["blind", "nil", "kingsnil", "blindnil"]  # -100 + 500 <= 550; +800 too much
    assert [b.key for b in legal_bids((480, -190, 0, 0), 1)] == [
        "blind",
        "nil",
        "kingsnil",
        "blindnil",
        "kingsblindnil",
    ]
    assert legal_bids((400, -100, 0, 0), 0) == ()


def test_a_blind_is_valued_at_360_for_eligibility() -> None:
    """RULES.md: a bid is legal when score + value <= leader's score + 150, and a blind is
    valued at 360 (12 courted cards x 30): legal exactly at the bound, not a point past it."""

    def keys(scores: tuple[int, ...], seat: int) -> list[str]:
        return [b.key for b in legal_bids(scores, seat)]

    assert keys((210, 0, 0, 0), 1) == ["blind", "nil", "kingsnil"]  # 0 + 360 == 210 + 150
    assert keys((209, 0, 0, 0), 1) == ["nil", "kingsnil"]  # 360 > 359; King's nil (300) still fits
    assert keys((210, 1, 0, 0), 1) == ["nil", "kingsnil"]  # 361 > 360
    assert keys((100, -110, 0, 0), 1) == ["blind", "nil", "kingsnil"]  # -110 + 360 == 100 + 150
    assert keys((100, -109, 0, 0), 1) == ["nil", "kingsnil"]  # 251 > 250
    # The same bound in the bids the game offers before a round.
    state = GAME.setup(4, 3, {})
    state = rounds.start_round(replace(state, scores=(210, 0, 1, 150), dealer=3, phase=OVER), [])
    assert state.phase == BID and state.turn == 1
    assert "bid:blind" in [m.code for m in GAME.legal_moves(state, 1)]
    state = act(state, "bid:none")
    assert state.turn == 2 and "bid:blind" not in [m.code for m in GAME.legal_moves(state, 2)]
    with pytest.raises(IllegalMove):
        GAME.apply(state, 2, "bid:blind")


def test_bids_come_before_the_deal_from_the_dealers_left() -> None:
    state = GAME.setup(4, 3, {})
    state = replace(state, scores=(250, 0, 0, 150), dealer=3, phase=OVER)
    state = rounds.start_round(state, [])  # a new round with these totals
    assert state.phase == BID and state.turn == 1  # seat 0 leads the scores: seats 1, 2, 3 may bid
    assert all(h == () for h in state.hands)
    assert GAME.card_count(state) == 52
    codes = [m.code for m in GAME.legal_moves(state, 1)]
    assert codes[0] == "bid:none" and "bid:nil" in codes
    with pytest.raises(IllegalMove):
        GAME.apply(state, 1, "bid:kingsblindnil")
    state = act(state, "bid:blind", "bid:none", "bid:nil")
    assert state.phase == LEAD and state.bids == ("", "blind", "", "nil")
    assert all(len(h) == 12 for h in state.hands)


def _end_with(hands: list[str], courted: tuple[tuple[str, ...], ...], bids: tuple[str, ...]) -> CourtState:
    state = won_by_zero(hands, courted=courted, bids=bids, going_board=-999)
    return act(state, "knock")


def test_nil_and_kings_nil_pay_or_cost() -> None:
    hands = ["7d 4h 5h 9h", "2c 5c", "2s 5s", "3c 6c"]  # after the trick seat 0 holds 7d: not nil
    state = _end_with(hands, ((), (), (), ()), ("nil", "nil", "", ""))
    assert state.last_round[0] == -5 + 0 - 30  # 7d off-suit; 4h 5h 9h no run of 3; nil failed
    # seat 1 (spades King) holds 2c 5c: failed too
    assert state.last_round[1] == -10 - 30
    # A nil bidder who leads away its off-suit card but takes another from the pool fails.
    hands2 = ["7h 4h 5h 9h Ad", "2c 5c", "2s 5s", "3c 6c"]
    state = act(
        table(hands2, bids=("nil", "", "", ""), going_board=-999), "lead:Ad", "play:2c", "play:2s", "play:3c"
    )
    state = act(state, "take:2s", "take:2c", "take:3c")  # seat 0 takes the 2s; seat 3 is left the Ad
    assert state.hands[0] == ("4h", "5h", "7h", "9h", "2s") and state.phase == AFTER
    state = act(state, "knock")
    assert state.last_round[0] == -5 - 30  # the 2s off-suit; no run of 3 in 4 5 7 9; nil failed
    # Taking back its own card instead leaves only hearts: nil made.
    state = act(table(["7h 4h 5h 9h Th", *hands2[1:]], bids=("nil", "", "", ""), going_board=-999), "lead:Th")
    state = act(state, "play:2c", "play:2s", "play:3c", "take:Th", "take:2c", "take:2s", "knock")
    assert state.last_round[0] == 0 + 150


def test_kings_nil_fails_with_an_off_suit_card_in_hand() -> None:
    run = tuple(f"{r}h" for r in "A23456789")
    others = ["2c 5c", "2s 5s", "3c 6c"]
    bids = ("kingsnil", "", "", "")
    made = won_by_zero(["Th Jh Qh", *others], lead="Th", courted=(run, (), (), ()), bids=bids)
    made = act(made, "court:Th.Jh.Qh")
    assert made.round == 2 and made.last_round[0] == 150 + 300  # the King's Court, nothing in hand
    missed = won_by_zero(["Th Jh Qh 9s", *others], lead="Th", courted=(run, (), (), ()), bids=bids)
    missed = act(missed, "court:Th.Jh.Qh")
    assert missed.round == 2 and missed.last_round[0] == 150 - 5 - 150  # the 9s: King's nil failed


def test_nil_made_pays_150_and_kings_nil_needs_a_kings_court() -> None:
    from bot.games.court.bids import bid_points

    assert bid_points("nil", ("4h", "9h"), "h", ()) == 150
    assert bid_points("nil", ("4h", "9s"), "h", ()) == -30
    full = tuple(f"{r}h" for r in "A23456789TJQ")
    assert bid_points("kingsnil", (), "h", full) == 300
    assert bid_points("kingsnil", (), "h", full[:-1]) == -150
    assert bid_points("blindnil", ("2h",), "h", ()) == 500
    assert bid_points("blindnil", ("2s",), "h", ()) == -150
    assert bid_points("kingsblindnil", (), "h", full) == 800
    assert bid_points("kingsblindnil", ("2s",), "h", full) == -150
    assert bid_points("blind", (), "h", ("Ah", "2h", "3h")) == 90
    assert bid_points("blind", (), "h", ("As", "2s", "3s")) == -30


@pytest.mark.parametrize("bid", ["blind", "blindnil", "kingsblindnil"])
def test_a_blind_bidders_king_is_hidden_from_them(bid: str) -> None:
    state = table(HANDS, bids=(bid, "", "", ""))
    mine = GAME.view(state, 0)
    text = "\n".join(mine.private + tuple(g.label for g in mine.hand))
    assert "K♥" not in text and "your King)" not in text and "hidden" in text
    assert mine.data["king"] is None and "score_so_far" not in mine.data
    other = GAME.resample(state, 0, Rng.from_seed(5))
    assert GAME.view(other, 0) == mine  # its own King may be any
    _dealt, events = rounds.deal(replace(state, phase=BID), [])
    assert [e.text for e in events if e.seat == 0] == []  # said once, by the hand's own line:
    assert "Your King: face down, hidden from you too (you bid blind)" in mine.private


@pytest.mark.parametrize("bid", ["nil", "kingsnil"])
def test_a_bidder_who_is_not_blind_sees_their_king(bid: str) -> None:
    mine = GAME.view(table(HANDS, bids=(bid, "", "", "")), 0)
    assert mine.data["king"] == "Kh" and any("K♥" in line for line in mine.private)


def test_a_blind_bidder_may_knock_whatever_the_board_and_their_flop_stays_down() -> None:
    state = won_by_zero(
        ["7d 9s Js", "2c 5c", "2s 5s", "3c 6c"], bids=("blind", "", "", ""), going_board=40, streak=(0, 2)
    )
    assert [m.code for m in GAME.legal_moves(state, 0)] == ["flop", "knock"]
    state = act(state, "flop")
    assert "K♥" not in " ".join(GAME.view(state, None).public) and "King flopped" in " ".join(
        GAME.view(state, None).public
    )
    state = act(state, "knock")
    assert (
        state.last_round[0] == -15 - 15
    )  # 7d 9s Js off-suit, the flop still -15; no courted card for the blind


# --- the match -------------------------------------------------------------------------------


def test_the_match_ends_at_the_target_or_minus_200_highest_total_wins() -> None:
    state = won_by_zero(
        ["7d 8h 9h Th", "2c 5c", "2s 5s", "3c 6c"], scores=(495, 10, 10, 600 - 700), going_board=0
    )
    state = act(state, "knock")
    assert state.phase == OVER
    outcome = GAME.outcome(state)
    assert outcome is not None and {r.seat: r.place for r in outcome.results}[0] == 1
    with pytest.raises(MatchOver):
        GAME.apply(state, 0, "knock")
    kings = ("Kh", "Ks", "Kc", "Kd")  # seat 3's clubs are off-suit now: -10
    low = won_by_zero(
        ["7d 8h 9h Th", "2c 5c", "2s 5s", "3c 6c"], scores=(0, 30, 30, -195), going_board=0, kings=kings
    )
    low = act(low, "knock")
    assert low.phase == OVER  # seat 3 fell to -200 or below: seat 1 and 2 share first
    places = {r.seat: r.place for r in GAME.outcome(low).results}  # type: ignore[union-attr]
    assert places[1] == places[2] == 1 and places[3] == 4


def test_lobby_options_set_the_target_and_the_going_board() -> None:
    state = GAME.setup(4, 1, {"target": "120", "board": "20"})
    assert state.target == 120 and state.going_board == 20
    with pytest.raises(InvalidOptions):
        GAME.setup(4, 1, {"target": "7"})


def test_the_table_shows_the_trick_pool_counts_only_and_stays_secret() -> None:
    state = act(table(HANDS, courted=((), ("As", "2s", "3s"), (), ())), "lead:Ah")
    view = GAME.view(state, None)
    text = "\n".join(view.public)
    assert "Trick: {p0} A♥" in text and "3 courted" in text and "2s" not in text and "2♠" not in text
    state = act(state, "play:As", "play:Ac", "play:Qc")  # four ties: a duel
    duel = "\n".join(GAME.view(state, None).public)
    assert state.phase == DUEL and "Trick: " in duel and "Pool" not in duel  # no pool before the trick is won
    won = state
    while won.phase == DUEL:
        won = act(won, GAME.default_move(won, won.turn).code)
    assert won.phase == PICK and "Pool: " in "\n".join(GAME.view(won, None).public)
    json.dumps(GAME.dump(state))
    assert GAME.load(GAME.dump(state)) == state


def test_the_ai_beats_random_players() -> None:
    wins = 0
    games = 12
    for seed in range(games):
        rnd = random.Random(seed)
        state = GAME.setup(4, seed, {"target": "250"})
        ai = seed % 4
        while GAME.outcome(state) is None:
            seat = state.turn
            move = (
                GAME.ai_move(state, seat, Rng(seed))
                if seat == ai
                else rnd.choice(GAME.legal_moves(state, seat))
            )
            state, _ = GAME.apply(state, seat, move)
        wins += any(r.seat == ai and r.place == 1 for r in GAME.outcome(state).results)  # type: ignore[union-attr]
    assert wins >= games // 2


# --- rulings of the help text ------------------------------------------------------------------


def test_the_first_dealer_is_drawn_at_random() -> None:
    assert len({GAME.setup(4, seed, {}).dealer for seed in range(40)}) == 4


def test_the_knock_counts_no_bid() -> None:
    state = won_by_zero(["7d 8h 9h Th", "2c 5c", "2s 5s", "3c 6c"], bids=("nil", "", "", ""), going_board=10)
    assert state.score_so_far(0) == 10 and state.can_knock(0)  # a failing nil does not count yet
    assert "knock" in [m.code for m in GAME.legal_moves(state, 0)]


def test_timeout_defaults_lowest_single_lowest_cards_and_pass() -> None:
    state = table(HANDS)
    assert GAME.default_move(state, 0).code == "lead:2h"  # the lowest by trick rank (the first such)
    state = act(state, "lead:Ah")
    follow = GAME.default_move(state, 1)
    assert follow.code == "play:4s"  # seat 1's lowest card
    after = won_by_zero(["7d 8h 9h Th", "2c 5c", "2s 5s", "3c 6c"])
    assert GAME.default_move(after, 0).code == "done"


# --- the AI -----------------------------------------------------------------------------------


def test_the_ai_courts_its_own_suit_when_it_can() -> None:
    state = won_by_zero(["7d Ah 2h 3h 4h 9s", "2c 5c", "2s 5s", "3c 6c"])
    move = GAME.ai_move(state, 0, Rng(1))
    assert move.code == "court:Ah.2h.3h.4h"


def test_the_ai_takes_its_own_suit_from_the_pool() -> None:
    hands = ["5c 5d 9d Ah", "7h 7c Jc", "2h 3h 4h", "Jh Js 2c"]
    state = act(table(hands), "lead:5c.5d", "play:7h.7c", "play:2h.3h", "play:Jh.Js")
    state = replace(state, kings=("Ks", "Kh", "Kd", "Kc"))  # seat 1 (the winner) is hearts
    move = GAME.ai_move(state, 1, Rng(1))
    assert set(move.code.split(":")[1].split(".")) <= {"7h", "2h", "3h", "Jh"}


def test_the_ai_knocks_when_ahead_and_not_when_behind() -> None:
    rich = ["7d 2h 3h 4h 8h 9h Th Jh", "2c 5c", "2s 5s", "3c 6c"]  # runs +35, 7d -5; nothing to court
    state = won_by_zero(rich, scores=(100, 0, 0, 0))
    assert state.score_so_far(0) >= 25
    assert GAME.ai_move(state, 0, Rng(1)).code == "knock"
    behind = won_by_zero(rich, scores=(0, 300, 0, 0))
    assert GAME.ai_move(behind, 0, Rng(1)).code != "knock"


def test_the_ai_avoids_a_forced_third_trick_when_it_cannot_knock() -> None:
    state = table(["2c 7h 7s 9d", "3c 4c", "5c 6c", "8c 9c"], streak=(0, 2), going_board=40)
    move = GAME.ai_move(state, 0, Rng(1))
    assert move.code == "lead:2c"  # a low single that others will likely beat


def _a_forced_flop(seed: int = 0) -> tuple[CourtState, int]:
    """A state whose trick winner must knock or flop (third trick in a row), from AI play."""
    for s in range(seed, seed + 200):
        state = GAME.setup(4, s, {})
        rng = Rng.from_seed(s)
        for _ in range(3000):
            if GAME.outcome(state) is not None:
                break
            for seat in sorted(GAME.to_act(state)):
                if any(m.code == "flop" for m in GAME.legal_moves(state, seat)):
                    return state, seat
            seat = min(GAME.to_act(state))
            draw, rng = rng.next64()
            state, _ = GAME.apply(state, seat, GAME.ai_move(state, seat, Rng(draw)))
    raise AssertionError("no forced flop found")


def test_a_blind_bidders_flopped_king_shows_to_the_others_and_stays_hidden_from_its_owner() -> None:
    """RULES.md ruling (issue 47): a blind bidder never sees their own King; if it flops it
    lies face up for the other players and stays hidden from its owner."""
    state, seat = _a_forced_flop()
    bids = list(state.bids)
    bids[seat] = "blind"
    state = replace(state, bids=tuple(bids))
    king = label(state.kings[seat])
    after, events = GAME.apply(state, seat, "flop")
    for event in events:
        if king in event.text:
            assert event.seat is not None and event.seat != seat, event
    told = {event.seat for event in events if king in event.text}
    assert told == {s for s in range(4) if s != seat}
    table_view = GAME.view(after, None)
    assert not any(king in line for line in (*table_view.public, table_view.waiting))
    owner = GAME.view(after, seat)
    assert not any(king in line for line in (*owner.public, *owner.secret, owner.waiting))
    for other in range(4):
        if other != seat:
            assert any(king in line for line in GAME.view(after, other).secret), other
            # the other players see it, so a resample for them keeps it where it is
            assert GAME.resample(after, other, Rng.from_seed(5)).kings[seat] == after.kings[seat]
