"""Kingdom Four's messages as players read them: every player sees their own score for a
hand and why (the table shows only the last three events), the table stays short enough for
a phone, and a card is written the same way in the hand, the field, the events and the
buttons, so a player can match them by eye."""

from __future__ import annotations

import random
import re
from dataclasses import replace

from bot.games.four.cards import short
from bot.games.four.game import GAME, FourState

SEATS = 3


def _state(**changes: object) -> FourState:
    """A 3-player state in the middle of a hand: seat 0 to play."""
    base = GAME.setup(SEATS, 1, {})
    state = replace(
        base,
        dealer=2,
        turn=0,
        hands=(("3Rk", "1Ga"), ("2Bc",), ("4Ys",)),
        field=(),
        pile=("1Bs", "2Bs"),
        captured=((), (), ()),
        totals=(0, 0, 0),
    )
    return replace(state, **changes)  # type: ignore[arg-type]


def _end_of_hand_one() -> tuple[FourState, list]:
    """Seat 2 plays the last card of hand 1; seat 0 took a Kingdom Three, seat 1 a Joker set."""
    state = _state(
        hands=((), (), ("4Ys",)),
        turn=2,
        field=("1Ga",),
        pile=("2Ga",),
        deals=1,
        hand_no=1,
        captured=(("3Rk", "3Ra", "3Rs"), ("4Yc", "4Rc", "4Gc", "1Bc"), ()),
        totals=(5, 0, 0),
    )
    return GAME.apply(state, 2, "play:4Ys")


# --- 1. every player sees their own score for the hand, and why ---------------------------------------


def test_the_end_of_a_hand_is_one_short_public_event_with_everyones_points() -> None:
    _after, events = _end_of_hand_one()
    scored = [e for e in events if e.public and e.text.startswith("Hand 1")]
    assert len(scored) == 1, [e.text for e in events]
    text = scored[0].text
    assert "{p0} 10" in text and "{p1} 2" in text and "{p2} 0" in text, text
    assert len(text) <= 80, text
    last_three = [e.text for e in events if e.public][-3:]
    assert text in last_three, "the score is among the table's last three events after the move"


def test_each_player_sees_their_own_sets_privately_until_the_next_hand_ends() -> None:
    after, _ = _end_of_hand_one()
    assert after.hand_no == 2
    mine = "\n".join(GAME.view(after, 0).private)
    assert "Your last hand: 10 — Kingdom Three 🟥3s (10)" in mine, mine
    theirs = "\n".join(GAME.view(after, 1).private)
    assert "Your last hand: 2 — Joker set 🪙 13 (2)" in theirs, theirs
    assert "Your last hand: 0 (no scoring sets)" in "\n".join(GAME.view(after, 2).private)
    assert "Kingdom Three" not in "\n".join(GAME.view(after, None).public), (
        "the breakdown is not on the table"
    )
    # still there while hand 2 is played
    seat = next(iter(GAME.to_act(after)))
    later, _ = GAME.apply(after, seat, GAME.legal_moves(after, seat)[0])
    assert "Your last hand: 10 — " in "\n".join(GAME.view(later, 0).private)


def test_the_breakdown_survives_a_save_and_the_end_of_the_match() -> None:
    after, _ = _end_of_hand_one()
    again = GAME.load(GAME.dump(after))
    assert GAME.view(again, 0).private == GAME.view(after, 0).private
    last = replace(after, deals=1, hand_no=SEATS, hands=((), (), ("1Yk",)), turn=2, pile=(), field=())
    over, events = GAME.apply(last, 2, "play:1Yk")
    assert over.phase == "over"
    assert any(e.text.startswith(f"Hand {SEATS} scored: ") for e in events)
    assert any(line.startswith("Your last hand: ") for line in GAME.view(over, 0).private)


def test_a_players_hand_lists_the_cards_they_took_with_their_points_so_far() -> None:
    state = _state(captured=(("3Rk", "3Ra", "3Rs"), ("2Bc",), ()))
    mine = "\n".join(GAME.view(state, 0).private)
    assert "You took (3): 🟥3🗝️ 🟥3🪓 🟥3🛡️ · worth 10 — Kingdom Three 🟥3s (10)" in mine, mine


# --- 3. a compact table ---------------------------------------------------------------------------


def _late_table(seed: int, wild: str) -> tuple[FourState, list[str]]:
    rnd = random.Random(seed)
    state = GAME.setup(4, seed, {"wild": wild, "deals": "1"})
    texts: list[str] = []
    while GAME.outcome(state) is None:
        seat = next(iter(GAME.to_act(state)))
        before = state
        state, events = GAME.apply(state, seat, rnd.choice(GAME.legal_moves(state, seat)))
        texts += [e.text for e in events if e.public]
        if state.hand_no == 2 and sum(map(len, before.captured)) > 20:
            return before, texts
    return state, texts


def test_the_scoreboard_shows_taken_cards_as_counts_by_colour() -> None:
    state = _state(captured=(("2Bc", "3Bc", "1Rk", "4Rk", "*k"), (), ("1Ys",)), totals=(12, 0, 3))
    rows = [row.text for row in GAME.view(state, None).scores]
    assert "took 🟥×2 🟦×2 ✨×1" in rows[0], rows[0]
    assert "took 🟨×1" in rows[2], rows[2]


def test_table_rows_and_every_event_stay_short_over_whole_matches() -> None:
    for seed, wild in [(1, "off"), (2, "on"), (3, "off")]:
        state, texts = _late_table(seed, wild)
        for row in GAME.view(state, None).scores:
            assert len(row.text) <= 80, row.text
        longest = max(texts, key=len)
        assert len(longest) <= 100, longest


# --- 4. one notation for a card ------------------------------------------------------------------------


def test_hand_field_events_and_buttons_write_a_card_the_same_way() -> None:
    state = _state(
        hands=(("3Rk", "1Ga"), ("2Bc",), ("4Ys",)), field=("1Rk", "2Ga", "4Ga"), pile=("1Bs", "2Bs")
    )
    hand = [card for group in GAME.view(state, 0).hand for card in group.cards]
    assert hand == [short("3Rk"), short("1Ga")] == ["🟥3🗝️", "🟩1🪓"]
    field = "\n".join(GAME.view(state, None).board)
    for card in ("1Rk", "2Ga", "4Ga"):
        assert short(card) in field, field
    labels = [m.label for m in GAME.legal_moves(state, 0)]
    assert any(short("3Rk") in label and short("1Rk") in label for label in labels), labels
    assert all(re.search(r"\((red|green) \d \w+\)", label) for label in labels), (
        "buttons also spell the card out"
    )
    _after, events = GAME.apply(state, 0, "play:3Rk")
    assert f"plays {short('3Rk')} and takes {short('1Rk')}" in events[0].text


def test_the_hand_lists_what_each_other_player_took() -> None:
    """The table only counts the cards each player took (phone-sized); the hand lists the
    others' cards in full, since which sets they build is public and matters."""
    state = _state(captured=(("3Rk",), ("4Yc", "4Rc"), ()))
    mine = "\n".join(GAME.view(state, 0).private)
    assert "{p1} took 2: 🟨 4🪙 · 🟥 4🪙" in mine, mine
    assert "{p0} took" not in mine and "{p2} took" not in mine, (
        "yourself and those who took nothing are not listed"
    )
    table = "\n".join(GAME.view(state, None).public)
    assert short("4Yc") not in table, "the table only counts them"
