"""King's Court (court) as a player reads it (the player-QA audit C): the last round's summary
(each King, round points, new totals) stays on the table from the round's end until the next
round's first trick is won, and in every hand during the bids; nothing is said twice; the
bidding is named as such and the bid menu says what each bid asks."""

from __future__ import annotations

import json
from dataclasses import replace

from bot.games.base import Rng
from bot.games.court import GAME, rounds
from bot.games.court.cards import label, suit_label
from bot.games.court.state import AFTER, BID, LEAD, CourtState
from tests.engines.test_court_messages import act, knocked, table
from tests.engines.test_court_refusals import FIRST, HANDS, PICKS

# --- 2. the last round's summary stays until the next round's first trick is won ----------------------


SUMMARY = "Round 1 ({p0} knocked): {p0} K♥ +10 (total 10) · {p1} K♠ -10 (total -10) · {p2} K♦ -10 (total -10) · {p3} K♣ +0 (total 0)"


def summaries(state: CourtState, seat: int | None = None) -> list[str]:
    return [line for line in GAME.view(state, seat).board if line.startswith("Round 1 (")]


def test_the_summary_names_each_king_round_points_and_new_total_through_the_bids() -> None:
    state, _ = knocked()
    assert state.phase == BID and state.round == 2
    for seat in (None, 0, 1, 2, 3):
        assert summaries(state, seat) == [SUMMARY]
    for seat in range(4):  # and in every hand during the bids, bidder or not
        assert SUMMARY in GAME.view(state, seat).private
    assert GAME.view(state, None).data["scores"] == [10, -10, -10, 0]


def test_the_summary_stays_until_the_first_trick_of_the_next_round_is_won() -> None:
    state, _ = knocked()
    while state.phase == BID:
        state, _ = act(state, "bid:none")
    assert state.phase == LEAD and state.tricks == 0
    assert summaries(state) == [SUMMARY]
    assert SUMMARY not in GAME.view(state, state.turn).private  # the hand: only during the bids
    while state.tricks == 0:
        assert summaries(state) == [SUMMARY], state.phase
        state, _ = act(state, GAME.legal_moves(state, state.turn)[0].code)
    assert summaries(state) == []


def test_the_summary_is_public_and_a_save_without_the_kings_shows_it_without_them() -> None:
    state, _ = knocked()
    for n in range(3):
        assert summaries(GAME.resample(state, 1, Rng.from_seed(n)), None) == [SUMMARY]
    saved = json.loads(json.dumps(GAME.dump(state)))
    assert GAME.load(saved) == state
    older = {key: value for key, value in saved.items() if key != "last_kings"}
    loaded = GAME.load(older)
    assert loaded == replace(state, last_kings=())
    assert summaries(loaded) == [
        "Round 1 ({p0} knocked): {p0} +10 (total 10) · {p1} -10 (total -10) · {p2} -10 (total -10) · {p3} +0 (total 0)"
    ]


# --- 3. nothing said twice ----------------------------------------------------------------------------


def test_a_court_is_told_once() -> None:
    hands = ["Ah 2h 3h 4h 7d 9c", "2c 5c Jc Qc", "2s 5s Js Qs", "3c 6c Jd Qd"]
    state, _ = act(table(hands), *FIRST, *PICKS)
    state, events = GAME.apply(state, 0, "court:Ah.2h.3h")
    assert [(e.seat, e.text) for e in events] == [(None, "{p0} courts 3 cards face down.")]
    state, _ = act(state, "done")
    later = replace(state, phase=AFTER, turn=0, winner=0, courted_now=False)  # seat 0 wins again
    _, events = GAME.apply(later, 0, "court:4h")
    assert [(e.seat, e.text) for e in events] == [(None, "{p0} courts 1 card more face down (4 courted).")]


def test_the_deal_tells_no_seat_its_king_the_hand_shows_it() -> None:
    state, _ = knocked()
    dealt, events = rounds.deal(state, [])
    assert [e for e in events if e.seat is not None] == []
    for seat in range(4):
        king = label(dealt.kings[seat])
        mine = [line for line in GAME.view(dealt, seat).private if line.startswith("Your King")]
        assert mine == [f"Your King: {king}, your suit is {suit_label(dealt.king_suit(seat))}"], mine


# --- 4. the bidding is named, and the bid menu says what a bid asks -------------------------------------


def test_the_table_says_bidding_not_trick_zero() -> None:
    state, _ = knocked()
    assert state.phase == BID
    title = GAME.view(state, None).board[0]
    assert title.startswith("Round 2 · bidding · ") and "trick 0" not in title, title
    while state.phase == BID:
        state, _ = act(state, "bid:none")
    assert GAME.view(state, None).board[0].startswith("Round 2 · trick 1 of 40 · ")


def test_the_bid_menu_says_what_each_bid_asks() -> None:
    state = replace(table(HANDS), phase=BID, turn=1, scores=(300, 0, 0, 0))
    labels = {m.code: m.label for m in GAME.legal_moves(state, 1)}
    assert labels["bid:nil"] == "Bid Nil: end with only your King's suit in hand (+150 / -30)"
    assert labels["bid:blind"] == "Bid Blind: your King hidden from you (+30 / -10 a courted card)"
    assert labels["bid:kingsnil"] == "Bid King's nil: a King's Court, only your suit in hand (+300 / -150)"
    assert all(len(label) <= 80 for label in labels.values())  # a button's label
