"""dynasty: the match-length ruling of RULES.md (a number of hands, or the printed limit only)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games.base import InvalidOptions, Rng
from bot.games.dynasty import GAME


def play_out(options: dict[str, str], seed: int, players: int = 4) -> Any:
    state = GAME.setup(players, seed, options)
    rng = Rng.from_seed(seed)
    for _ in range(200_000):
        if GAME.outcome(state) is not None:
            return state
        seat = min(GAME.to_act(state))
        draw, rng = rng.next64()
        state, _events = GAME.apply(state, seat, GAME.ai_move(state, seat, Rng(draw)))
    raise AssertionError("the match did not end")


def test_the_default_is_five_hands_or_the_limit() -> None:
    assert GAME.setup(4, 1, {}).config.hands == 5
    for seed in range(4):
        s = play_out({"deck": "classic"}, seed)
        passed = max(s.totals) > s.config.limit
        assert s.hand_number <= 5 and (s.hand_number == 5 or passed or 1 in s.places), (
            s.hand_number,
            s.totals,
        )


def test_a_one_hand_match_ends_after_the_first_hand_and_the_lowest_total_wins() -> None:
    for seed in range(4):
        s = play_out({"deck": "classic", "hands": "1"}, seed)
        assert s.hand_number == 1
        outcome = GAME.outcome(s)
        assert outcome is not None
        best = min(s.totals)
        winners = {r.seat for r in outcome.results if r.place == 1}
        assert winners == {x for x in range(4) if s.totals[x] == best}, "lowest total wins, ties share"
        assert " after 1 hand (lowest total wins)." in outcome.summary, outcome.summary


def test_limit_only_is_the_printed_rule_and_plays_on_until_a_total_passes_it() -> None:
    for seed in range(3):
        s = play_out({"deck": "classic", "hands": "limit", "limit": "500"}, seed)
        assert s.config.hands == 0 and s.hand_number > 1
        assert max(s.totals) > 500 or 1 in s.places and s.totals.count(min(s.totals)) == 1


def test_the_length_option_is_validated() -> None:
    with pytest.raises(InvalidOptions, match="match length"):
        GAME.check_players(4, {"hands": "forever"})


def test_matches_stored_before_the_option_keep_playing_to_the_limit() -> None:
    data = GAME.dump(GAME.setup(4, 1, {"hands": "3"}))
    del data["config"]["hands"]
    assert GAME.load(data).config.hands == 0


def test_a_match_that_reaches_the_turn_cap_ends_on_the_totals_of_that_hand() -> None:
    """Issue 47: when a hand ends on exactly the match's last allowed turn, the match ends
    on the totals at the end of that hand; no new hand is dealt and ended as blocked."""
    from dataclasses import replace

    from bot.games.dynasty.scoring import MATCH_TURN_CAP

    options = {"deck": "classic", "hands": "limit"}
    start = GAME.setup(4, 11, options)
    moves: list[tuple[int, str]] = []
    state, rng = start, Rng.from_seed(11)
    while state.hand_number == 1 and GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        draw, rng = rng.next64()
        move = GAME.ai_move(state, seat, Rng(draw))
        moves.append((seat, move.code))
        state, _events = GAME.apply(state, seat, move)
    assert GAME.outcome(state) is None, "the first hand alone must not end this match"
    at_hand_end = state.match_turns - 1  # the second hand's first turn has begun
    # The same hand again, started so that its last turn is the match's last allowed turn.
    state = replace(start, match_turns=start.match_turns + MATCH_TURN_CAP - at_hand_end)
    for seat, code in moves:
        state, events = GAME.apply(state, seat, code)
    assert GAME.outcome(state) is not None, "the match ends with the hand that reached the cap"
    assert state.hand_number == 1
    assert not any("gone on far too long: it ends as blocked" in event.text for event in events)
