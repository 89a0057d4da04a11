"""King's Court (court): the table shows the last trick, who played what and who won it, from
the moment a trick is won until the next one is (a player who looked away can still see it);
a new round clears it. It is public: every seat and the table read the same line."""

from __future__ import annotations

import json
from dataclasses import replace

from bot.games.base import Rng
from bot.games.court import GAME
from bot.games.court.state import AFTER, BID, DUEL, FOLLOW, LEAD, PICK, CourtState
from tests.engines.test_court_messages import act, table

HANDS = ["7d 8h 9h Th", "2c 5c", "2s 5s", "3c 6c"]
FIRST = ("lead:7d", "play:2c", "play:2s", "play:3c")  # seat 0 wins with 7♦
FIRST_LINE = "Last trick: {p0} 7♦ · {p1} 2♣ · {p2} 2♠ · {p3} 3♣ — {p0} won it"
PICKS = ("take:7d", "take:2c", "take:2s")  # everyone takes their own card back (seat 3 the last)


def last_lines(state: CourtState, seat: int | None = None) -> list[str]:
    return [line for line in GAME.view(state, seat).board if line.startswith("Last trick")]


def assert_everyone_sees(state: CourtState, expected: list[str]) -> None:
    """The table and every seat show the same last trick (public information)."""
    for seat in (None, 0, 1, 2, 3):
        assert last_lines(state, seat) == expected, (seat, GAME.view(state, seat).board)


def test_no_last_trick_before_the_first_is_won() -> None:
    state = table(HANDS)
    assert_everyone_sees(state, [])
    state, _ = act(state, *FIRST[:3])
    assert state.phase == FOLLOW
    assert_everyone_sees(state, [])


def test_a_won_trick_shows_who_played_what_and_who_won_it() -> None:
    state, _ = act(table(HANDS), *FIRST)
    assert state.phase == PICK
    assert_everyone_sees(state, [FIRST_LINE])
    data = GAME.view(state, None).data["last_trick"]
    assert data == {
        "leader": 0,
        "winner": 0,
        "cards": {0: ["7d"], 1: ["2c"], 2: ["2s"], 3: ["3c"]},
        "duel": {},
    }
    state, _ = act(state, *PICKS)  # the cards go back to the hands: the line stays
    assert state.phase == AFTER and not state.pool
    assert_everyone_sees(state, [FIRST_LINE])
    state, _ = act(state, "done")  # the winner leads again: still the last trick
    assert state.phase == LEAD
    assert_everyone_sees(state, [FIRST_LINE])


def test_it_stays_during_the_next_trick_and_the_next_one_won_replaces_it() -> None:
    state, _ = act(table(HANDS), *FIRST, *PICKS, "done", "lead:8h", "play:5c")
    assert state.phase == FOLLOW
    board = GAME.view(state, None).board
    assert "Trick: {p0} 8♥ · {p1} 5♣" in board and FIRST_LINE in board, board
    assert board.index(FIRST_LINE) > board.index("Trick: {p0} 8♥ · {p1} 5♣"), "the trick in play first"
    state, _ = act(state, "play:5s", "play:6c")
    assert state.phase == PICK and state.tricks == 2
    assert_everyone_sees(state, ["Last trick: {p0} 8♥ · {p1} 5♣ · {p2} 5♠ · {p3} 6♣ — {p0} won it"])


def test_the_play_order_starts_with_the_leader() -> None:
    hands = ["2c 4c", "7d 8h", "2s 5s", "3c 6c"]
    state, _ = act(table(hands, turn=1, leader=1), "lead:7d", "play:2s", "play:3c", "play:2c")
    assert_everyone_sees(state, ["Last trick: {p1} 7♦ · {p2} 2♠ · {p3} 3♣ · {p0} 2♣ — {p1} won it"])


def test_sets_and_a_duel_show_all_their_cards() -> None:
    hands = ["Ac Ad 9h 2c", "Qc Qd 8s 3s", "2h 3h Js", "4s 5s 6s"]
    state, _ = act(table(hands), "lead:Ac.Ad", "play:Qc.Qd", "play:2h.3h", "play:4s.5s")
    assert state.phase == DUEL
    assert_everyone_sees(state, [])  # a duel is still the trick in play, not the last one
    state, _ = act(state, "duel:2c", "duel:3s")  # 3 beats 2: seat 1 wins
    assert state.phase == PICK and state.winner == 1
    expected = (
        "Last trick: {p0} A♣ A♦ · {p1} Q♣ Q♦ · {p2} 2♥ 3♥ · {p3} 4♠ 5♠"
        " (duel: {p0} 2♣ · {p1} 3♠) — {p1} won it"
    )
    assert_everyone_sees(state, [expected])


def test_a_new_round_clears_it() -> None:
    state, _ = act(table(HANDS), *FIRST, *PICKS)
    assert last_lines(state)
    state, _ = act(state, "knock")
    assert state.round == 2 and state.phase in (BID, LEAD) and state.last_trick is None
    assert_everyone_sees(state, [])
    assert any(line.startswith("Round 1 (") for line in GAME.view(state, None).board)


def test_the_line_does_not_depend_on_hidden_cards() -> None:
    state, _ = act(table(HANDS), *FIRST, *PICKS)
    for seat in range(4):
        for k in range(3):
            alt = GAME.resample(state, seat, Rng.from_seed(17 * k + seat))
            assert last_lines(alt, seat) == [FIRST_LINE] == last_lines(alt)


def test_it_is_saved_and_a_match_saved_before_it_loads_and_plays_on() -> None:
    state, _ = act(table(HANDS), *FIRST, *PICKS)
    saved = json.loads(json.dumps(GAME.dump(state)))
    assert GAME.load(saved) == state
    older = {key: value for key, value in saved.items() if key != "last_trick"}  # saved before the field
    loaded = GAME.load(older)
    assert loaded == replace(state, last_trick=None)
    assert_everyone_sees(loaded, [])  # nothing to show until its next trick is won
    loaded, _ = act(loaded, "done", "lead:8h", "play:5c", "play:5s", "play:6c")
    assert_everyone_sees(loaded, ["Last trick: {p0} 8♥ · {p1} 5♣ · {p2} 5♠ · {p3} 6♣ — {p0} won it"])
