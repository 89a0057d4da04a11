"""Kingdom of Dreams (``dreams``): what the players are told, on hand-built states.

The wording found by a QA game through the fake Discord: an attack that reads as already
answered, a defender never told that he lost, a status line offering moves that do not
exist, and private lines saying the same thing twice.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import pytest

from bot.games.base import Event, NotYourTurn, Rng
from bot.games.dreams import GAME
from bot.games.dreams.cards import ATTACKS, COINS, JACKS, QUEENS
from bot.games.dreams.state import DreamsState

ORDER = ("7h", "7c", "X", "7d", "7s")  # hearts > clubs > diamonds > spades


def make(hands: Iterable[Iterable[str]], *, trump: Iterable[str] = ORDER, **fields: Any) -> DreamsState:
    """A state with these hands; every other card lies in its pile."""
    hands_t = tuple(tuple(h) for h in hands)
    held = {c for h in hands_t for c in h}
    state = DreamsState(
        rng=Rng.from_seed(11),
        turn=0,
        hands=hands_t,
        coin_pile=tuple(c for c in COINS if c not in held),
        trump_pile=tuple(trump),
        attack_pile=tuple(c for c in ATTACKS if c not in held),
        jack_pile=tuple(c for c in JACKS if c not in held),
        queen_pile=tuple(c for c in QUEENS if c not in held),
        king_pile=("Kh",),
        peeked=(False,) * len(hands_t),
    )
    return replace(state, **fields)


def play(state: DreamsState, seat: int, code: str) -> tuple[DreamsState, list[Event]]:
    assert code in [m.code for m in GAME.legal_moves(state, seat)], code
    return GAME.apply(state, seat, code)


def told(events: list[Event], seat: int) -> list[str]:
    return [e.text for e in events if e.seat == seat]


def public(events: list[Event]) -> list[str]:
    return [e.text for e in events if e.seat is None]


def table_status(state: DreamsState) -> str:
    return GAME.view(state, None).waiting


# --- 1. an attack waits for its answer ------------------------------------------------------------


def test_the_attack_event_says_the_defender_must_still_answer() -> None:
    state = make([("Jd",), ("Jc",)], jack_pile=())
    after, events = play(state, 0, "attack:Jd:1")
    (line,) = public(events)
    assert "answers with" not in line, line
    assert line == "{p0} attacks {p1} with J♦; {p1} must answer with a Jack.", line
    status = table_status(after)
    assert status.startswith("Waiting for {p1} to counter {p0}'s attack (J♦)"), status
    cards = make([("9s",), ("8h",)])
    _, events = play(cards, 0, "attack:9s")
    assert public(events) == ["{p0} attacks {p1} with 9♠; {p1} must answer with an attack card."]


def test_a_move_during_an_attack_is_refused_naming_the_defender() -> None:
    state = make([("Jd",), ("Jc",)], jack_pile=())
    after, _ = play(state, 0, "attack:Jd:1")
    with pytest.raises(NotYourTurn) as refused:
        GAME.apply(after, 0, "pass")
    assert str(refused.value) == "An attack is being answered: waiting for {p1}."


# --- 2. both sides learn the attack's result ---------------------------------------------------------


def test_the_defender_and_the_attacker_are_told_who_won_after_a_flip() -> None:
    state = make(
        [("Jd",), ("Jc",)], trump=("7s", "X", "7d", "7c", "7h"), jack_pile=()
    )  # spades > diamonds > clubs
    after, _ = play(state, 0, "attack:Jd:1")
    done, events = play(after, 1, "counter:Jc")
    assert set(done.hands[0]) == {"Jd", "Jc"}
    assert told(events, 1) == ["You lost J♣ to {p0}'s J♦ (trump 7♠ Joker 7♦ 7♣ 7♥)."]
    assert told(events, 0) == ["You won {p1}'s J♣ with your J♦ (trump 7♠ Joker 7♦ 7♣ 7♥)."]
    assert any("{p0} wins both cards" in line for line in public(events)), "the result stays public"


def test_a_defender_who_wins_a_same_suit_fight_is_told_so() -> None:
    state = make([("9s",), ("10s",)])
    after, _ = play(state, 0, "attack:9s")
    _, events = play(after, 1, "counter:10s")
    assert told(events, 1) == ["You won {p0}'s 9♠ with your 10♠ (same suit, the higher wins)."]
    assert told(events, 0) == ["You lost 9♠ to {p1}'s 10♠ (same suit, the higher wins)."]


def test_the_joker_on_top_tells_both_that_their_cards_went_back() -> None:
    state = make([("8h",), ("10s",)], trump=("X", "7h", "7c", "7d", "7s"))
    after, _ = play(state, 0, "attack:8h")
    _, events = play(after, 1, "counter:10s")
    assert told(events, 1) == ["The joker came up: your 10♠ and {p0}'s 8♥ went back to the pile."]
    assert told(events, 0) == ["The joker came up: your 8♥ and {p1}'s 10♠ went back to the pile."]


def test_the_defenders_hand_echo_shows_the_result() -> None:
    """The hand's answer drops public events starting with the player's own name (they
    repeat the move): the result must reach the defender as a line of his own."""
    state = make([("Jd",), ("Jc",)], trump=("7s", "X", "7d", "7c", "7h"), jack_pile=())
    after, _ = play(state, 0, "attack:Jd:1")
    _, events = play(after, 1, "counter:Jc")
    echo = told(events, 1) + [t for t in public(events) if not t.startswith("{p1}")]
    assert any("You lost J♣" in line for line in echo), echo


# --- 3. the status line offers only the moves there are ------------------------------------------------


def test_the_first_turn_status_names_only_a_coin_and_the_shuffle() -> None:
    state = make([(), (), ()])
    assert [m.label for m in GAME.legal_moves(state, 0)] == ["Take a coin", "Shuffle the trump pile"]
    assert table_status(state) == "Waiting for {p0} to take a coin or shuffle the trump pile."
    assert GAME.view(state, 0).waiting == table_status(state)


def test_the_status_names_sell_attack_and_peek_from_what_the_table_shows() -> None:
    # {p0} holds an attack card, a Jack and a Queen; {p1} (next) an attack card; {p2} a Jack.
    state = make([("8s", "Jh", "Qc"), ("9d",), ("Js",)])
    status = table_status(state)
    assert (
        status == "Waiting for {p0} to take a coin, buy, sell, attack, shuffle the trump pile or peek at it."
    ), status
    peeked = replace(state, peeked=(True, False, False))
    assert "peek" not in table_status(peeked), "a valid peek is not offered again"
    empty = replace(make([("8s",), ()]), coin_pile=())
    assert table_status(empty) == "Waiting for {p0} to buy, sell or shuffle the trump pile.", table_status(
        empty
    )


def test_the_status_never_depends_on_hidden_card_values() -> None:
    # One coin: a 2 cannot buy anything, a 6 could buy an attack card. The table cannot tell
    # them apart, so the public status may not either.
    low, high = make([("2h",), ()]), make([("6h",), ()])
    assert [m.code for m in GAME.legal_moves(low, 0)] == ["coin", "shuffle"]
    assert any(m.code.startswith("buy:") for m in GAME.legal_moves(high, 0))
    assert (
        table_status(low)
        == table_status(high)
        == "Waiting for {p0} to take a coin, buy or shuffle the trump pile."
    )
    for seed in range(8):
        for seat in (0, 1):
            other = GAME.resample(low, seat, Rng.from_seed(seed))
            assert table_status(other) == table_status(low)
    # The player's own hand may be exact: it shows only their own cards.
    assert GAME.view(low, 0).waiting == "Waiting for {p0} to take a coin or shuffle the trump pile."
    assert GAME.view(low, 1).waiting == table_status(low), "another seat sees the public line"


def test_a_status_without_anything_to_pay_with_names_no_buy() -> None:
    state = make([(), ("8s",)], turn=0)
    assert "buy" not in table_status(state)
    assert "attack" not in table_status(state), "{p0} holds no attack card"


# --- 4. each private fact once -------------------------------------------------------------------------


def test_a_peek_states_the_order_once() -> None:
    state = make([("Qh",), ()])
    after, events = play(state, 0, "peek")
    lines = told(events, 0) + list(GAME.view(after, 0).private)
    assert sum("7♥ 7♣ Joker 7♦ 7♠" in line for line in lines) == 1, lines
    assert any("7♥ 7♣ Joker 7♦ 7♠" in line for line in GAME.view(after, 0).private), (
        "the hand keeps the order"
    )


def test_a_buy_states_its_overpayment_once() -> None:
    state = make([("6d",), ()])
    move = next(m for m in GAME.legal_moves(state, 0) if m.code.startswith("buy:a"))
    assert "1 over, no change" in move.label
    _, events = play(state, 0, move.code)
    (mine,) = told(events, 0)
    assert "6 for 5" not in mine and "over" not in mine, mine
    assert mine.startswith("You paid 6♦.") and "You drew" in mine, mine


def test_the_board_counts_rounds_as_the_turn_cap_option_does() -> None:
    """The option reads "15 turns each": the board says "Round 1 of 15", not "Turn 1 of 60"
    for four players; a round is one turn of each player."""
    state = GAME.setup(4, 3, {"turns": "15"})
    assert GAME.view(state, None).board[0].startswith("Round 1 of 15 · "), GAME.view(state, None).board[0]
    later = replace(state, turns=4 * 6 + 2)  # six rounds played, two turns into the seventh
    assert GAME.view(later, None).board[0].startswith("Round 7 of 15 · ")
    uncapped = GAME.setup(2, 3, {})
    assert GAME.view(uncapped, None).board[0].startswith("Round 1 · ")


def test_the_lesson_explains_paying_at_the_first_buy_not_after_an_overpayment() -> None:
    """The QA pass met "No change is given" only once a trade-in was possible, after a first
    buy had paid 6 for 5: the first decision with a buy says how paying works."""
    from bot.games.dreams import guide

    state = make([["6h"], ["2c"]])  # 6 in coins: an attack card (5) is for sale, no trade-in
    told_now = dict(guide.situations(state, 0, GAME.legal_moves(state, 0)))
    assert "No change is given" in told_now["buy"], told_now
    assert "trade_in" not in told_now


# --- 6. a hint's reason for an attack says when the seat's peek decides it ------------------------


def _attack_reason(state: DreamsState, code: str) -> str | None:
    [move] = [m for m in GAME.legal_moves(state, 0) if m.code == code]
    return GAME.hint_reason(state, 0, move)


GENERAL = "winning the duel takes their card as well as keeping yours"


def test_an_attack_hint_says_when_the_peek_shows_it_wins_against_any_answer() -> None:
    """The QA pass: after a peek showing ♠ Joker ♥ ♣ ♦, "Attack AI 1 with J♥" read only the
    general reason, while J♣ was the only Jack AI 1 could hold (J♠ and J♦ in the pile)."""
    peek = ("7s", "X", "7h", "7c", "7d")
    hands = [("Jh", "Qc", "9s"), ("Jc", "Qh", "8d")]
    state = make(hands, trump=peek, peeked=(True, False), jack_pile=("Js", "Jd"))
    sure = "your peek shows ♥ beats every suit they can answer with: you win the duel and take their card"
    assert _attack_reason(state, "attack:Jh:1") == sure
    # no peek, the joker on top, or a Jack they could hold that ♥ does not beat: the general reason
    assert _attack_reason(replace(state, peeked=(False, False)), "attack:Jh:1") == GENERAL
    assert _attack_reason(replace(state, trump_pile=("X", *peek[:1], *peek[2:])), "attack:Jh:1") == GENERAL
    assert _attack_reason(replace(state, jack_pile=("Jd",)), "attack:Jh:1") == GENERAL  # J♠ may be theirs


def test_an_attack_card_hint_needs_both_the_peek_and_no_higher_card_of_its_suit() -> None:
    # ♠ on top: 10♠ beats every other suit, and no ♠ attack card is higher than a 10
    peek = ("7s", "7h", "X", "7c", "7d")
    state = make([("10s", "Qc", "Jc"), ("8d",)], trump=peek, peeked=(True, False))
    assert _attack_reason(state, "attack:10s") == (
        "your peek shows ♠ beats every other suit they can answer with, and no ♠ card they could answer "
        "with is higher: you win the duel and take their card"
    )
    lower = make([("9s", "Qc", "Jc"), ("8d",)], trump=peek, peeked=(True, False))
    assert _attack_reason(lower, "attack:9s") == GENERAL  # 10♠ is unseen and would win
