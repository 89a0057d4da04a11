"""Kingdom of Dreams (``dreams``): a scenario test for every rule and ruling, on hand-built states.

Each test would fail if its rule were broken: RULES.md "dreams", the seed 001 and the rulings
in ``bot/games/dreams/rules.py``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import pytest

from bot.games import GAMES
from bot.games.base import IllegalMove, InvalidOptions, MatchOver, NotYourTurn, Rng
from bot.games.dreams import GAME
from bot.games.dreams.cards import ATTACKS, COINS, JACKS, JOKER, QUEENS, TRUMPS
from bot.games.dreams.combat import resolve
from bot.games.dreams.evaluate import ai_vs_random
from bot.games.dreams.game import COUNTER_SECONDS, SAFETY_TURNS
from bot.games.dreams.payment import coins_for, exact_change
from bot.games.dreams.state import DreamsState

ORDER = ("7h", "7c", "X", "7d", "7s")  # hearts > clubs > diamonds > spades


def make(
    hands: Iterable[Iterable[str]],
    *,
    turn: int = 0,
    coin_pile: Iterable[str] | None = None,
    trump: Iterable[str] = ORDER,
    king: tuple[str, ...] = ("Kh",),
    peeked: Iterable[bool] | None = None,
    **fields: Any,
) -> DreamsState:
    """A state with these hands; every other card lies in its pile (coins in deck order
    unless ``coin_pile`` says; cards of a pile given and not held are out of play)."""
    hands_t = tuple(tuple(h) for h in hands)
    held = {c for h in hands_t for c in h}
    coins = tuple(coin_pile) if coin_pile is not None else tuple(c for c in COINS if c not in held)
    state = DreamsState(
        rng=Rng.from_seed(5),
        turn=turn,
        hands=hands_t,
        coin_pile=coins,
        trump_pile=tuple(trump),
        attack_pile=tuple(c for c in ATTACKS if c not in held),
        jack_pile=tuple(c for c in JACKS if c not in held),
        queen_pile=tuple(c for c in QUEENS if c not in held),
        king_pile=king,
        peeked=tuple(peeked) if peeked is not None else (False,) * len(hands_t),
    )
    return replace(state, **fields)


def codes(state: DreamsState, seat: int) -> list[str]:
    return [m.code for m in GAME.legal_moves(state, seat)]


def play(state: DreamsState, seat: int, code: str) -> tuple[DreamsState, list[Any]]:
    assert code in codes(state, seat), (code, codes(state, seat))
    return GAME.apply(state, seat, code)


def public(events: list[Any]) -> list[str]:
    return [e.text for e in events if e.seat is None]


# --- set-up ------------------------------------------------------------------------------------


def test_registered_and_two_to_four_players() -> None:
    assert GAMES["dreams"] is GAME
    for n in (2, 3, 4):
        state = GAME.setup(n, 1, {})
        assert state.hands == ((),) * n, "players start with nothing"
        assert len(state.coin_pile) == 24 and set(state.coin_pile) == set(COINS)
        assert sorted(state.trump_pile) == sorted(TRUMPS) and JOKER in state.trump_pile
        assert len(state.attack_pile) == 12 and state.jack_pile == JACKS and state.queen_pile == QUEENS
        assert len(state.king_pile) == 1 and state.king_pile[0][0] == "K"
        assert GAME.card_count(state) == 24 + 5 + 12 + 4 + 4 + 1
    for n in (1, 5):
        with pytest.raises(InvalidOptions):
            GAME.setup(n, 1, {})


def test_the_first_player_is_drawn_at_random() -> None:
    firsts = {GAME.setup(4, seed, {}).turn for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert GAME.to_act(GAME.setup(3, 9, {})) == {GAME.setup(3, 9, {}).turn}


# --- take a coin ----------------------------------------------------------------------------------


def test_take_a_coin_takes_the_top_card_and_passes_the_turn() -> None:
    state = make([(), ()], coin_pile=("5h", "As", "2d"))
    after, events = play(state, 0, "coin")
    assert after.hands[0] == ("5h",) and after.coin_pile == ("As", "2d")
    assert after.turn == 1 and after.turns == 1
    assert [e.text for e in events if e.seat == 0] == ["You took 5♥ (worth 5)."]
    assert all("5♥" not in t for t in public(events)), "the coin's value is private"


def test_no_coin_move_when_the_coin_pile_is_empty() -> None:
    state = make([(), ()], coin_pile=())
    assert "coin" not in codes(state, 0)
    assert codes(state, 0) == ["shuffle"], "shuffling is always possible"
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, "coin")


def test_one_action_a_turn_and_turns_go_left() -> None:
    state = make([(), (), ()], turn=2)
    after, _ = play(state, 2, "shuffle")
    assert after.turn == 0
    with pytest.raises(NotYourTurn):
        GAME.apply(after, 2, "coin")


# --- buying -----------------------------------------------------------------------------------------


def test_buy_an_attack_card_at_random_and_spent_coins_return_to_a_reshuffled_pile() -> None:
    state = make([("2s", "3s", "6s"), ()])
    pile_before = state.coin_pile
    after, events = play(state, 0, "buy:a:0")
    bought = [c for c in after.hands[0] if c in ATTACKS]
    assert len(bought) == 1 and bought[0] not in after.attack_pile and len(after.attack_pile) == 11
    # The coins that overpay least: 2 + 3, not the 6 (no change is ever given).
    assert sorted(c for c in after.hands[0] if c in COINS) == ["6s"]
    assert sorted(after.coin_pile) == sorted(pile_before + ("2s", "3s"))
    assert after.coin_pile[: len(pile_before)] != pile_before, "the coin pile is reshuffled"
    private = next(e.text for e in events if e.seat == 0)
    assert "You drew" in private and "2♠ 3♠" in private
    assert public(events) == ["{p0} buys an attack card, paying 2 coin cards."]


def test_no_change_is_given() -> None:
    state = make([("6s",), ()])
    after, _ = play(state, 0, "buy:a:0")
    assert [c for c in after.hands[0] if c in COINS] == [], "the 6 is spent on a price of 5"
    move = next(m for m in GAME.legal_moves(state, 0) if m.code == "buy:a:0")
    assert "1 over, no change" in move.label


def test_too_little_money_buys_nothing() -> None:
    state = make([("2s", "2h"), ()])
    assert not [c for c in codes(state, 0) if c.startswith("buy")]
    with pytest.raises(IllegalMove, match="You have 4 coins; an attack card costs 5"):
        GAME.apply(state, 0, "buy:a:0")


def test_a_jack_needs_an_attack_card_and_no_jack() -> None:
    rich = ("6s", "6h", "6d", "6c")
    assert not [c for c in codes(make([rich, ()]), 0) if c.startswith("buy:J")], "no attack card: no Jack"
    with_attack = make([rich + ("8s",), ()])
    assert "buy:Js:0" in codes(with_attack, 0)
    has_jack = make([rich + ("8s", "Jh"), ()])
    jacks = [c for c in codes(has_jack, 0) if c.startswith("buy:J")]
    assert jacks and all(c.endswith(":Jh") for c in jacks), (
        "only by trading the Jack held in (checked after paying)"
    )


def test_prerequisites_are_checked_after_paying() -> None:
    # Five coins and one attack card: trading the attack card in would leave none.
    state = make([("5s", "8s"), ()])
    assert not [c for c in codes(state, 0) if c.startswith("buy:J")]
    # Two attack cards: one may go, the other stays.
    state = make([("5s", "8s", "10h"), ()])
    after, _ = play(state, 0, "buy:Jd:1")
    assert after.hands[0] == ("10h", "Jd"), "the lower attack card is traded in, the 10 kept"
    assert "8s" in after.attack_pile and "Jd" not in after.jack_pile


def test_a_queen_needs_exactly_one_jack_and_an_extra_jack_can_be_traded_in() -> None:
    two_jacks = make([("6s", "6h", "8s", "Js", "Jh"), ()])
    queens = [c for c in codes(two_jacks, 0) if c.startswith("buy:Q")]
    assert queens and all(c.endswith((":Js", ":Jh")) for c in queens), (
        "the coins-only payment would keep two Jacks"
    )
    after, events = play(two_jacks, 0, "buy:Qd:0:Jh")
    assert after.hands[0] == ("8s", "Js", "Qd") and "Jh" in after.jack_pile
    assert "J♥" in public(events)[0], "the Jack pile is face up: the Jack traded in is seen"
    assert not [c for c in codes(make([("6s", "6h", "6d", "6c", "8s"), ()]), 0) if c.startswith("buy:Q")], (
        "no Jack"
    )
    has_queen = make([("6s", "6h", "6d", "6c", "8s", "Js", "Qh"), ()])
    assert not [c for c in codes(has_queen, 0) if c.startswith("buy:Q")], "one Queen at most"


def test_buyer_chooses_which_jack_or_queen_from_the_face_up_piles() -> None:
    state = make([("6s", "6h", "8s"), ()], jack_pile=("Jd", "Jc"))
    assert {c for c in codes(state, 0) if c.startswith("buy:J")} == {"buy:Jd:0", "buy:Jc:0"}


def test_buying_the_king_wins() -> None:
    hand = ("6s", "6h", "6d", "6c", "5s", "5h", "5d", "8s", "9s", "Js", "Qh")
    state = make([hand, ("8h",)])
    king = [c for c in codes(state, 0) if c.startswith("buy:K")]
    assert king
    after, events = play(state, 0, king[0])
    assert after.over and after.winner == 0
    outcome = GAME.outcome(after)
    assert outcome is not None and [r.place for r in outcome.results] == [1, 2]
    assert outcome.summary == "{p0} buys the King and wins! {p1} held no Jack or Queen."
    assert public(events)[-1] == outcome.summary
    assert not GAME.to_act(after)
    with pytest.raises(MatchOver):
        GAME.apply(after, 1, "coin")


def test_the_king_costs_forty() -> None:
    kept = ("8s", "Js", "Qh")  # an attack card, one Jack and one Queen: still held after paying
    coins_39 = ("6s", "6h", "6d", "6c", "5s", "5h", "5d")
    assert not [c for c in codes(make([coins_39 + kept, ()]), 0) if c.startswith("buy:K")], "39 is not enough"
    state = make([coins_39 + ("As",) + kept, ()])
    king = [m for m in GAME.legal_moves(state, 0) if m.code.startswith("buy:K")]
    assert [m.code for m in king] == ["buy:Kh:0"] and "over" not in king[0].label, "exactly 40 pays"
    after, _ = play(state, 0, "buy:Kh:0")
    assert after.over and after.winner == 0 and sorted(after.hands[0]) == sorted(kept + ("Kh",))
    # A second attack card counts 5 as a trade-in: with 34 in coins it makes 39, with 35, 40.
    coins_34 = ("6s", "6h", "6d", "6c", "5s", "5h")
    assert not [c for c in codes(make([coins_34 + ("9h",) + kept, ()]), 0) if c.startswith("buy:K")]
    assert [c for c in codes(make([coins_34 + ("As", "9h") + kept, ()]), 0) if c.startswith("buy:K")] == [
        "buy:Kh:1"
    ]


def test_the_king_needs_an_attack_card_a_jack_and_a_queen() -> None:
    coins = ("6s", "6h", "6d", "6c", "5s", "5h", "5d", "5c")  # 44
    for missing in ("8s", "Js", "Qh"):
        hand = tuple(c for c in coins + ("8s", "Js", "Qh") if c != missing)
        assert not [c for c in codes(make([hand, ()]), 0) if c.startswith("buy:K")], missing
    two_jacks = coins + ("8s", "Js", "Jh", "Qh")
    assert all(":J" in c for c in codes(make([two_jacks, ()]), 0) if c.startswith("buy:K")), (
        "one Jack after paying"
    )


def test_payments_never_trade_in_a_card_that_is_not_needed() -> None:
    state = make([("8s", "9s", "10s", "Jd", "6h"), ()])
    for code in codes(state, 0):
        if code.startswith("buy:a"):
            assert code in ("buy:a:0", "buy:a:1", "buy:a:0:Jd"), code  # coins, one attack card, or the Jack
    assert "buy:a:0:Jd" in codes(state, 0), "a Jack alone may pay for an attack card (5 over)"
    assert "buy:a:1:Jd" not in codes(state, 0)


def test_coin_choice_and_bank_change() -> None:
    assert coins_for(("6s", "2h", "3d"), 5) == ("2h", "3d")
    assert coins_for(("6s",), 5) == ("6s",)
    assert coins_for(("As",), 5) is None
    assert exact_change(("6s", "4h", "As"), 5) == ("4h", "As")
    assert exact_change(("6s", "6h"), 5) is None


# --- selling -----------------------------------------------------------------------------------------


def test_sell_an_attack_card_for_exact_coins_from_the_coin_pile() -> None:
    state = make([("9h",), ()], coin_pile=("6s", "4h", "As", "2c"))
    after, events = play(state, 0, "sell:9h")
    assert sorted(after.hands[0]) == sorted(("4h", "As"))
    assert sorted(after.coin_pile) == ["2c", "6s"] and "9h" in after.attack_pile
    assert after.turn == 1
    assert "9♥" not in " ".join(public(events)), "the attack pile is face down"


def test_the_coin_pile_is_reshuffled_after_the_bank_pays_a_sale() -> None:
    orders = set()
    for seed in range(5):
        state = make([("9h",), ()], rng=Rng.from_seed(seed))  # the whole coin pile, in deck order
        change = exact_change(state.coin_pile, 5)
        assert change is not None
        unshuffled = tuple(c for c in state.coin_pile if c not in change)
        after, _ = play(state, 0, "sell:9h")
        assert sorted(after.coin_pile) == sorted(unshuffled)
        assert after.coin_pile != unshuffled, "the pile is not left in its order"
        assert after.coin_pile == state.rng.shuffled(unshuffled)[0], "shuffled with the state's generator"
        orders.add(after.coin_pile)
    assert len(orders) == 5


def test_sell_a_jack_for_ten_back_to_the_face_up_pile() -> None:
    state = make([("Jc",), ()], coin_pile=("6s", "4h"), jack_pile=("Js",))
    after, events = play(state, 0, "sell:Jc")
    assert sorted(after.hands[0]) == ["4h", "6s"] and after.jack_pile == ("Js", "Jc")
    assert "J♣" in public(events)[0]


def test_a_sale_the_bank_cannot_pay_is_refused_and_the_turn_stays() -> None:
    state = make([("9h", "10d", "Jc"), ()], coin_pile=("6s", "6h", "4c"))
    after, events = play(state, 0, "sell:9h")
    assert after.hands == state.hands and after.coin_pile == state.coin_pile and after.turn == 0
    assert after.refused == (5,) and "refused" in public(events)[0]
    assert not [c for c in codes(after, 0) if c in ("sell:9h", "sell:10d")], "not offered again this turn"
    assert "sell:Jc" in codes(after, 0), "another price may still be paid (6 + 4)"
    done, _ = play(after, 0, "shuffle")
    assert done.refused == () and done.turn == 1


def test_queens_and_the_king_cannot_be_sold() -> None:
    state = make([("Qh", "8s", "Js"), ()])
    assert {c for c in codes(state, 0) if c.startswith("sell")} == {"sell:8s", "sell:Js"}


# --- attacks -------------------------------------------------------------------------------------------


def test_an_attack_card_attacks_only_the_next_player_and_only_if_they_hold_one() -> None:
    state = make([("9s",), (), ("8h",)])
    assert not [c for c in codes(state, 0) if c.startswith("attack")], (
        "seat 1 holds no attack card; seat 2 is not next"
    )
    state = make([("9s",), ("8h",), ("10h",)])
    assert [c for c in codes(state, 0) if c.startswith("attack")] == ["attack:9s"]


def test_a_jack_attacks_anyone_holding_a_jack() -> None:
    state = make([("Js",), ("8h",), ("Jd",), ("Jc", "Jh")])
    assert [c for c in codes(state, 0) if c.startswith("attack")] == ["attack:Js:2", "attack:Js:3"]


def test_the_defender_answers_in_private_with_a_card_of_the_same_type() -> None:
    state = make([("9s",), ("8h", "10s", "Jd")])
    after, events = play(state, 0, "attack:9s")
    assert "9♠" in public(events)[0], "the defender (and the table) see the attacking card"
    assert GAME.to_act(after) == {1} and GAME.awaited(after) == {1}
    assert codes(after, 0) == [], "the attacker waits"
    assert codes(after, 1) == ["counter:8h", "counter:10s"], "only attack cards answer an attack card"
    timed = GAME.timer(after)
    assert timed is not None and timed.seat == 1 and timed.seconds == COUNTER_SECONDS
    assert timed.move == "counter:10s", "the default counter is a sure win when there is one"
    assert GAME.timer(state) is None
    with pytest.raises(NotYourTurn, match=r"^An attack is being answered: waiting for \{p1\}\.$"):
        GAME.apply(after, 0, "coin")


def test_timeout_defaults_are_harmless() -> None:
    state = make([("Qh", "6s"), ()])
    assert GAME.default_move(state, 0).code == "coin"
    assert GAME.default_move(replace(state, coin_pile=()), 0).code == "shuffle"
    # Without a sure win the default counter avoids a same-suit loss and keeps the high cards.
    attacked = make([("9s",), ("8s", "10h", "8d")], defender=1, attack_card="9s")
    assert GAME.default_move(attacked, 1).code == "counter:8d"
    timed = GAME.timer(attacked)
    assert timed is not None and timed.move == "counter:8d" and timed.seat == 1


def test_same_suit_attack_cards_compare_numbers_without_a_flip() -> None:
    state = make([("9s",), ("10s", "8h")], peeked=(False, True))
    after, _ = play(state, 0, "attack:9s")
    done, events = play(after, 1, "counter:10s")
    assert "9s" in done.hands[1] and "10s" in done.hands[1] and "9s" not in done.hands[0]
    assert done.trump_pile == ORDER and done.peeked == (False, True), "no flip: the peek stays valid"
    assert "Same suit" in public(events)[0] and done.turn == 1
    assert "won both" in done.last_attack


def test_different_suits_flip_the_trump_pile_and_the_order_of_the_sevens_decides() -> None:
    # Hearts above spades in ORDER: the attacker's 8 of hearts beats the 10 of spades.
    state = make([("8h",), ("10s",)], peeked=(True, True))
    after, _ = play(state, 0, "attack:8h")
    done, events = play(after, 1, "counter:10s")
    assert set(done.hands[0]) == {"8h", "10s"} and done.hands[1] == ()
    assert "7♥ 7♣ Joker 7♦ 7♠" in public(events)[0] and "The trump pile is reshuffled." in public(events)
    assert done.peeked == (False, False), "a flip reshuffles the pile: peeks lapse"
    assert sorted(done.trump_pile) == sorted(ORDER) and done.trump_pile != ORDER


def test_the_joker_on_top_sends_both_cards_back() -> None:
    trump = ("X", "7h", "7c", "7d", "7s")
    state = make([("8h",), ("10s",)], trump=trump)
    after, _ = play(state, 0, "attack:8h")
    done, events = play(after, 1, "counter:10s")
    assert done.hands == ((), ()) and {"8h", "10s"} <= set(done.attack_pile)
    assert "joker is on top" in public(events)[0] and "went back" in done.last_attack
    jacks = make([("Js",), ("Jh",)], trump=trump, jack_pile=())
    after, _ = play(jacks, 0, "attack:Js:1")
    done, _ = play(after, 1, "counter:Jh")
    assert done.hands == ((), ()) and set(done.jack_pile) == {"Js", "Jh"}


def test_jack_against_jack_always_flips() -> None:
    state = make([("Jd",), ("Jc",)])  # clubs above diamonds in ORDER
    after, _ = play(state, 0, "attack:Jd:1")
    assert codes(after, 1) == ["counter:Jc"]
    done, _ = play(after, 1, "counter:Jc")
    assert set(done.hands[1]) == {"Jc", "Jd"} and done.hands[0] == ()
    assert resolve("Jd", "Jc", ORDER).flipped


# --- shuffle and peek ------------------------------------------------------------------------------------


def test_shuffle_the_trump_pile_and_peeks_lapse() -> None:
    state = make([("Qh",), ("Qs",)], peeked=(True, True))
    after, events = play(state, 0, "shuffle")
    assert sorted(after.trump_pile) == sorted(ORDER) and after.trump_pile != ORDER
    assert after.peeked == (False, False) and public(events) == ["{p0} shuffles the trump pile."]


def test_only_a_queen_holder_peeks_and_the_order_is_told_only_to_them() -> None:
    assert "peek" not in codes(make([("Jh", "8s"), ()]), 0)
    state = make([("Qh",), ()])
    after, events = play(state, 0, "peek")
    assert public(events) == ["{p0} peeks at the trump pile."]
    assert [e for e in events if e.seat is not None] == [], "the order is told once: by the peeker's view"
    mine, table, theirs = GAME.view(after, 0), GAME.view(after, None), GAME.view(after, 1)
    assert any("7♥ 7♣ Joker 7♦ 7♠" in line for line in mine.private) and mine.data["trump_order"] == list(
        ORDER
    )
    for view in (table, theirs):
        text = " ".join(view.public + view.private) + json.dumps(dict(view.data))
        assert "Joker" not in text and "trump_order" not in view.data
    assert "knows the trump order" in " ".join(table.public), "that someone peeked is public"
    again = replace(after, turn=0)
    assert "peek" not in codes(again, 0), "a valid peek is not offered again"


# --- what is hidden and what is public --------------------------------------------------------------------------


def test_the_table_shows_counts_piles_and_the_last_attack_but_no_holding() -> None:
    state = make([("As", "3h", "8s", "Jd"), ("9h", "Qc")], last_attack="{p0} 8♠ vs {p1} 9♠: {p0} won both")
    table = GAME.view(state, None)
    rows = [row.text for row in table.scores]
    assert rows[0] == "{p0} · 2 coins · 1 attack card · 1 Jack · 0 Queens"
    assert rows[1] == "{p1} · 0 coins · 1 attack card · 0 Jacks · 1 Queen"
    board = "\n".join(table.board)
    assert "coins 22, trump 5, attack 10" in board and "Last attack: {p0} 8♠ vs {p1} 9♠" in board
    for secret in ("A♠", "3♥", "9♥"):
        assert secret not in board + " ".join(rows)
    mine = GAME.view(state, 0)
    assert [g.text for g in mine.hand] == ["🪙 Coins: A♠, 3♥", "⚔️ Attack cards: 8♠", "🤺 Jacks: J♦"], (
        "no empty group"
    )
    assert "9♥" not in " ".join(mine.secret + mine.public)


def test_resample_changes_only_what_the_seat_cannot_see() -> None:
    state = make([("As", "3h", "8s", "Jd"), ("9h", "2c", "Qc"), ("5d",)])
    for seed in range(10):
        other = GAME.resample(state, 0, Rng.from_seed(seed))
        assert other.hands[0] == state.hands[0] and other.trump_pile != state.trump_pile or seed
        assert GAME.view(other, 0) == GAME.view(state, 0)
        assert [GAME.card_count(x) for x in (state, other)] == [GAME.card_count(state)] * 2
    peeked = replace(state, peeked=(True, False, False))
    assert GAME.resample(peeked, 0, Rng.from_seed(1)).trump_pile == ORDER, "a peeker knows the order"


# --- the turn cap and the safety valve ----------------------------------------------------------------------------


def test_the_turn_cap_ends_on_the_most_total_value() -> None:
    assert GAME.setup(2, 1, {}).turn_cap == 0, "off by default"
    assert GAME.setup(2, 1, {"turns": "15"}).turn_cap == 15
    state = make([("6s", "8h"), ("Qc",), ("Jd", "As")], turn_cap=10, turns=29, turn=2)
    done, _ = play(state, 2, "shuffle")
    outcome = GAME.outcome(done)
    assert outcome is not None and done.final_values == (11, 20, 11)
    assert [(r.place, r.score) for r in outcome.results] == [(2, 11), (1, 20), (2, 11)]
    assert "turn cap" in outcome.summary and "{p1} wins" in outcome.summary
    tie = make([("Qh",), ("Qc",)], turn_cap=5, turns=9, turn=1)
    done, _ = play(tie, 1, "shuffle")
    outcome = GAME.outcome(done)
    assert outcome is not None and [r.place for r in outcome.results] == [1, 1] and "share" in outcome.summary


def test_the_safety_valve_ends_any_stalled_match() -> None:
    state = make([(), ()], turns=SAFETY_TURNS * 2 - 1)
    done, _ = play(state, 0, "shuffle")
    assert done.over and "stalled" in (GAME.outcome(done) or pytest.fail("no outcome")).summary


# --- persistence, AI ----------------------------------------------------------------------------------------------


def test_dump_and_load_round_trip_mid_attack() -> None:
    state = make([("9s", "As"), ("8h",)], peeked=(True, False), refused=(10,))
    state, _ = play(state, 0, "attack:9s")
    data = json.loads(json.dumps(GAME.dump(state)))
    assert GAME.load(data) == state


def test_the_ai_buys_the_king_when_it_can_and_counters_well() -> None:
    hand = ("6s", "6h", "6d", "6c", "5s", "5h", "5d", "8s", "9s", "Js", "Qh")
    state = make([hand, ("8h",)])
    assert GAME.ai_move(state, 0, Rng.from_seed(1)).code.startswith("buy:K")
    attacked = make([("9s",), ("8s", "10s", "10h")], defender=1, attack_card="9s")
    assert GAME.ai_move(attacked, 1, Rng.from_seed(1)).code == "counter:10s"


def test_the_ai_uses_a_peek_to_attack_when_it_cannot_lose() -> None:
    # Hearts rank first: a Jack of hearts beats every other Jack.
    state = make([("Jh", "Qc", "8d"), ("Js", "Qs", "8s")], peeked=(True, False), jack_pile=("Jd", "Jc"))
    assert GAME.ai_move(state, 0, Rng.from_seed(1)).code == "attack:Jh:1"
    unknown = replace(state, peeked=(False, False))
    assert GAME.ai_move(unknown, 0, Rng.from_seed(1)).code == "peek"


def test_the_ai_beats_random_play_in_most_two_player_matches() -> None:
    """A sample of the README figure (1,000 matches there): at least 70% of wins."""
    wins, matches = ai_vs_random(120)
    assert wins >= 0.7 * matches, f"{wins} of {matches}"


def test_the_end_says_how_far_the_others_got() -> None:
    hand = ("6s", "6h", "6d", "6c", "5s", "5h", "5d", "8s", "9s", "Js", "Qh")
    state = make([hand, ("8h", "Jd", "Qc"), ("Jc",)])
    after, _ = play(state, 0, next(c for c in codes(state, 0) if c.startswith("buy:K")))
    outcome = GAME.outcome(after)
    assert outcome is not None
    assert outcome.summary == "{p0} buys the King and wins! {p1} held 1 Queen and 1 Jack; {p2} held 1 Jack."
