"""Kingdom Four: every rule of RULES.md (four) and every ruling of the engine's help text,
each on a hand-built state; the scoring optimiser against an exhaustive search."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import combinations, product

import pytest

from bot.games.base import IllegalMove, MatchOver, NotYourTurn, Rng
from bot.games.four.cards import (
    COLOURS,
    ITEMS,
    JOKERS,
    KINGDOMS,
    NUMBER_CARDS,
    NUMBERS,
    WILDS,
    by_colour,
    captures,
    deck,
    is_wild,
    matches,
    sort,
)
from bot.games.four.game import GAME, FourState
from bot.games.four.moves import deal
from bot.games.four.scoring import score

# --- the deck and the deal -----------------------------------------------------------------


def test_the_deck_is_64_cards_one_of_each_and_8_wild_cards_optional() -> None:
    assert len(set(NUMBER_CARDS)) == 64 == 4 * 4 * 4
    assert {c[0] for c in NUMBER_CARDS} == {"1", "2", "3", "4"}
    assert len(deck(False)) == 64 and len(deck(True)) == 72
    assert set(deck(True)) - set(deck(False)) == set(KINGDOMS) | set(JOKERS)


@pytest.mark.parametrize(
    ("players", "wild", "hand", "field"),
    [(4, False, 7, 8), (3, False, 9, 10), (4, True, 8, 8), (3, True, 10, 10)],
)
def test_the_deal(players: int, wild: bool, hand: int, field: int) -> None:
    state = GAME.setup(players, 5, {"wild": "on" if wild else "off"})
    assert [len(h) for h in state.hands] == [hand] * players
    assert len(state.field) == field
    assert len(state.pile) == (72 if wild else 64) - players * hand - field
    assert state.turn == (state.dealer + 1) % players, "the player left of the dealer begins"


def test_a_whole_group_in_the_field_means_a_redeal_by_the_same_dealer() -> None:
    seed = next(s for s in range(20000) if GAME.setup(4, s, {}).redeals)
    state = GAME.setup(4, seed, {})
    groups = [c[1:] for c in state.field]
    assert all(groups.count(g) < 4 for g in groups)
    first_dealer, _ = Rng.from_seed(seed).below(4)
    assert state.dealer == first_dealer


def test_the_redeal_is_announced() -> None:
    seed = next(s for s in range(20000) if GAME.setup(4, s, {}).redeals)
    state = GAME.setup(4, seed, {})
    _dealer, rng = Rng.from_seed(seed).below(4)
    _state, events = deal(replace(state, rng=rng))  # the set-up's shuffles again
    assert "dealt again" in events[0].text
    assert any("dealt again" in line for line in GAME.view(state, None).board), "the table says so"


# --- matching and taking -------------------------------------------------------------------------


def test_cards_match_by_colour_and_item() -> None:
    assert matches("1Yk", "4Yk") and matches("2Bc", "3Bc")
    assert not matches("1Yk", "1Ya") and not matches("1Yk", "1Rk")


def test_wild_cards_match_their_colour_or_item_never_each_other() -> None:
    assert matches("*R", "3Rk") and matches("2Ra", "*R") and not matches("*R", "3Yk")
    assert matches("*k", "3Gk") and not matches("*k", "3Ga")
    assert not matches("*R", "*k") and not matches("*k", "*a")


def _state(**changes: object) -> FourState:
    """A 3-player state in the middle of a hand: seat 0 to play."""
    base = GAME.setup(3, 1, {})
    empty = ((), (), ())
    state = replace(
        base,
        dealer=2,
        turn=0,
        hands=(("3Rk", "1Ga"), ("2Bc",), ("4Ys",)),
        field=(),
        pile=("1Bs", "2Bs"),
        captured=empty,
        totals=(0, 0, 0),
    )
    return replace(state, **changes)  # type: ignore[arg-type]


def test_a_card_that_matches_nothing_stays_in_the_field_then_the_flip() -> None:
    state = _state(field=("1Yk",))
    after, events = GAME.apply(state, 0, "play:3Rk")
    assert "3Rk" in after.field and after.captured[0] == ()
    assert "1Bs" in after.field, "the top of the draw pile is flipped and played"
    assert after.pile == ("2Bs",) and after.turn == 1
    assert "no match" in events[0].text


def test_one_match_is_taken_by_itself() -> None:
    state = _state(field=("1Rk", "2Yk"))
    moves = [m.code for m in GAME.legal_moves(state, 0) if m.code.startswith("play:3Rk")]
    assert moves == ["play:3Rk"]
    after, _ = GAME.apply(state, 0, "play:3Rk")
    assert set(after.captured[0]) == {"3Rk", "1Rk"} and "1Rk" not in after.field


def test_two_matches_the_player_chooses_one() -> None:
    state = _state(field=("1Rk", "4Rk"))
    moves = sorted(m.code for m in GAME.legal_moves(state, 0) if m.code.startswith("play:3Rk"))
    assert moves == ["play:3Rk:1Rk", "play:3Rk:4Rk"]
    with pytest.raises(IllegalMove, match="say which"):
        GAME.apply(state, 0, "play:3Rk")
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, "play:3Rk:2Yk")
    after, _ = GAME.apply(state, 0, "play:3Rk:4Rk")
    assert set(after.captured[0]) == {"3Rk", "4Rk"} and "1Rk" in after.field


def test_the_fourth_takes_a_group_of_three() -> None:
    state = _state(field=("1Rk", "2Rk", "4Rk", "1Ya"))
    assert [m.code for m in GAME.legal_moves(state, 0) if m.code.startswith("play:3Rk")] == ["play:3Rk"]
    after, _ = GAME.apply(state, 0, "play:3Rk")
    assert set(after.captured[0]) == {"1Rk", "2Rk", "3Rk", "4Rk"}


def test_a_number_card_meeting_its_group_of_three_leaves_a_wild_lying_there() -> None:
    assert captures(("1Rk", "2Rk", "4Rk", "*R"), "3Rk") == (("1Rk", "2Rk", "4Rk"),)


def test_a_wild_card_takes_one_card_of_its_choice_even_out_of_a_group_of_three() -> None:
    assert captures(("1Rk", "2Rk", "4Rk", "3Ya"), "*R") == (("1Rk",), ("2Rk",), ("4Rk",))
    assert captures(("1Rk", "*k", "3Yk"), "*R") == (("1Rk",),), "never another wild"


def test_a_played_card_may_take_a_wild_lying_in_the_field() -> None:
    assert captures(("*k", "1Ya"), "3Rk") == (("*k",),)


def test_the_flipped_card_may_ask_for_a_choice_and_the_turn_waits_for_it() -> None:
    state = _state(field=("3Bs", "4Bs"), pile=("1Bs", "2Gk"))
    after, events = GAME.apply(state, 0, "play:3Rk")
    assert after.phase == "take" and after.pending == "1Bs" and after.turn == 0
    assert GAME.to_act(after) == {0}
    assert sorted(m.code for m in GAME.legal_moves(after, 0)) == ["take:3Bs", "take:4Bs"]
    with pytest.raises(IllegalMove):
        GAME.apply(after, 0, "play:1Ga")
    with pytest.raises(NotYourTurn):
        GAME.apply(after, 1, "take:3Bs")
    done, _ = GAME.apply(after, 0, "take:4Bs")
    assert set(done.captured[0]) == {"1Bs", "4Bs"} and done.phase == "play" and done.turn == 1
    assert "may take" in events[-1].text


def test_refusals_change_nothing() -> None:
    state = _state(field=("1Rk",))
    with pytest.raises(NotYourTurn):
        GAME.apply(state, 1, "play:2Bc")
    with pytest.raises(IllegalMove, match="not in your hand"):
        GAME.apply(state, 0, "play:4Ys")
    with pytest.raises(IllegalMove, match="no choice"):
        GAME.apply(state, 0, "play:3Rk:1Rk")
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, "take:1Rk")


def test_with_the_draw_pile_empty_the_turn_ends_after_the_hand_card() -> None:
    state = _state(pile=())
    after, _ = GAME.apply(state, 0, "play:1Ga")
    assert after.turn == 1 and after.field == ("1Ga",)


# --- the end of a hand and of the match ------------------------------------------------------------


def test_the_hand_ends_when_the_last_player_has_played_and_the_deal_passes_left() -> None:
    state = _state(
        hands=((), (), ("4Ys",)),
        turn=2,
        field=("1Ga",),
        pile=("2Ga",),
        deals=1,
        hand_no=1,
        captured=(("3Rk", "3Ra", "3Rs"), (), ()),
        totals=(5, 0, 0),
    )
    after, events = GAME.apply(state, 2, "play:4Ys")
    assert after.hand_no == 2 and after.dealer == 0 and after.turn == 1, "seat 0 deals, seat 1 begins"
    assert after.totals == (15, 0, 0), "a Kingdom Three for seat 0"
    assert after.last_hand == (10, 0, 0) and all(c == () for c in after.captured)
    assert any("Hand 1 scored: {p0} 10 · {p1} 0 · {p2} 0." == e.text for e in events)
    assert [len(h) for h in after.hands] == [9, 9, 9] and GAME.card_count(after) == 64


def test_scores_add_up_over_the_hands_and_the_highest_total_wins() -> None:
    state = _state(
        hands=((), (), ("4Ys",)),
        turn=2,
        field=(),
        pile=(),
        deals=1,
        hand_no=3,
        captured=(("1Rk", "1Ra", "1Rs"), ("1Yk",), ()),
        totals=(5, 30, 20),
    )
    final, events = GAME.apply(state, 2, "play:4Ys")
    assert final.phase == "over" and final.totals == (15, 30, 20)
    assert "highest total" in events[-1].text
    outcome = GAME.outcome(final)
    assert outcome is not None
    assert {r.seat: r.place for r in outcome.results} == {1: 1, 2: 2, 0: 3}
    assert outcome.summary.startswith("{p1} has the highest total")
    with pytest.raises(MatchOver):
        GAME.apply(final, 0, "play:1Ga")


def test_equal_totals_share_the_place() -> None:
    state = _state(
        hands=((), (), ("4Ys",)), turn=2, field=(), pile=(), deals=1, hand_no=3, totals=(30, 30, 20)
    )
    final, _ = GAME.apply(state, 2, "play:4Ys")
    outcome = GAME.outcome(final)
    assert outcome is not None and [r.place for r in outcome.results] == [1, 1, 3]
    assert "share the highest total" in outcome.summary


def test_cards_left_in_the_field_or_the_draw_pile_score_for_nobody() -> None:
    # With wild cards three players flip 30 of a 32-card draw pile: two cards stay in it.
    dealt = GAME.setup(3, 1, {"wild": "on"})
    assert len(dealt.pile) - sum(len(h) for h in dealt.hands) == 2
    # The last card of the hand; a Kingdom Three (yellow 2s) stays in the field and a Joker
    # set of keys (4 + 4 + 4) in the draw pile: whoever got them would score.
    state = _state(
        wild=True,
        hands=((), (), ("1Gk",)),
        turn=2,
        field=("2Yk", "2Ya", "2Ys", "*R"),
        pile=("3Bs", "4Rk", "4Gk", "4Bk"),
        deals=1,
        hand_no=3,
        captured=(("1Rc",), (), ()),
        totals=(7, 3, 0),
    )
    final, events = GAME.apply(state, 2, "play:1Gk")
    assert final.phase == "over" and final.pile == ("4Rk", "4Gk", "4Bk")
    assert {"2Yk", "2Ya", "2Ys", "*R"} <= set(final.field)
    assert final.last_hand == (0, 0, 0) and final.totals == (7, 3, 0)
    assert [e.text for e in events if "scored" in e.text] == ["Hand 3 scored: {p0} 0 · {p1} 0 · {p2} 0."]


def test_the_turn_timers_default_plays_the_first_card_the_hand_lists() -> None:
    hand = sort(("3Bk", "*R", "1Ga", "2Yc"))
    state = _state(hands=(hand, ("2Bc",), ("4Ys",)), field=("1Yc", "4Yc", "2Ba"))
    mine = GAME.view(state, 0)
    assert mine.hand[0].label == "🟨 yellow" and mine.hand[0].cards[0] == "🟨2🪙"
    default = GAME.default_move(state, 0)
    assert default.code.split(":")[1] == "2Yc", (
        "the yellow 2 coins, listed first (it takes one of its two matches)"
    )
    after, _ = GAME.apply(state, 0, default)
    assert "2Yc" in after.captured[0] and after.turn == 1
    for seed in range(5):  # dealt hands too, for whoever begins
        dealt = GAME.setup(4, seed, {"wild": "on"})
        first = by_colour(dealt.hands[dealt.turn])[0][1][0]
        assert GAME.default_move(dealt, dealt.turn).code.split(":")[1] == first


@pytest.mark.parametrize(("players", "deals"), [(3, 1), (4, 1), (3, 3)])
def test_the_match_lasts_until_every_player_has_dealt_as_often_as_chosen(players: int, deals: int) -> None:
    state = GAME.setup(players, 3, {"deals": str(deals)})
    dealers = [state.dealer]
    rng = Rng.from_seed(9)
    while GAME.outcome(state) is None:
        seat = state.turn
        move, rng = rng.choice(GAME.legal_moves(state, seat))
        hand_no = state.hand_no
        state, _ = GAME.apply(state, seat, move)
        if state.hand_no != hand_no:
            dealers.append(state.dealer)
    assert len(dealers) == players * deals
    assert all(dealers.count(s) == deals for s in range(players))
    assert all(dealers[i + 1] == (dealers[i] + 1) % players for i in range(len(dealers) - 1))


# --- scoring: the seed's worked examples ----------------------------------------------------------


def test_kingdom_four_and_kingdom_three() -> None:
    assert score(["2Yk", "2Ya", "2Ys", "2Yc"]).king == 15
    assert score(["2Yk", "2Ya", "2Ys"]).king == 10
    assert score(["2Yk", "2Ya", "2Rs"]).king == 0, "one colour"
    assert score(["2Yk", "2Ya", "2Ys", "2Yc", "3Yk", "3Ya", "3Ys"]).king == 25


def test_queens_straights_need_one_colour_and_different_items() -> None:
    assert score(["1Bk", "2Ba", "3Bs", "4Bc"]).queen == 10
    assert score(["1Bk", "2Ba", "3Bs"]).queen == 5
    assert score(["2Bk", "2Ba", "3Bs", "4Bc"]).queen == 5, "2-3-4"
    assert score(["1Bk", "2Bk", "3Bs", "4Bc"]).queen == 5, "two keys: only 2-3-4 with different items"
    assert score(["1Bk", "2Bk", "3Bk"]).queen == 0
    assert score(["1Bk", "2Ra", "3Bs"]).queen == 0
    assert score(["1Bk", "3Ba", "4Bs"]).queen == 0, "a sequence"


def test_a_card_used_in_one_straight_cannot_be_used_in_another() -> None:
    # 1-2-3-4 and 2-3-4 would need the same cards twice: one straight, 10.
    assert score(["1Bk", "2Ba", "3Bs", "4Bc"]).queen == 10
    # Two disjoint straights are both counted.
    assert score(["1Bk", "2Ba", "3Bs", "4Bc", "2Bs", "3Bk", "4Ba"]).queen == 15
    assert score(["1Bk", "2Ba", "3Bs", "4Bc", "2Bk", "3Ba", "4Bk"]).queen == 10, "2k 3a 4k repeats an item"


def test_the_player_gets_the_best_arrangement_of_straights() -> None:
    # Greedy 1-2-3-4 (k a s c) leaves 2k 3c 4a... here two 3-straights beat one 4-straight.
    cards = ["1Gk", "2Ga", "3Gs", "4Gc", "2Gk", "3Gc"]
    assert score(cards).queen == 10
    cards = ["1Gk", "2Ga", "3Gs", "2Gs", "3Gk", "4Ga"]
    assert score(cards).queen == 10  # 1k-2a-3s and 2s-3k-4a: two straights of three


def test_joker_sets_score_one_point_at_twelve_and_one_per_item_above() -> None:
    assert score(["4Yk", "4Rk", "3Gk"]).joker == 0  # 11
    assert score(["4Yk", "4Rk", "4Gk"]).joker == 1  # 12
    assert score(["4Yk", "4Rk", "4Gk", "2Bk"]).joker == 3  # 14
    assert score(["4Yk", "4Rk", "4Ga", "2Ba"]).joker == 0, "one item per set"


def test_a_card_counts_once_in_each_category() -> None:
    cards = ["4Yk", "4Ya", "4Ys", "4Yc", "3Yk", "2Ya", "1Ys"]
    s = score(cards)
    assert s.king == 15 and s.queen == 10 and s.total == 25, "the 4s make a Kingdom Four and end the straight"


def test_wild_cards_stand_for_a_card_in_each_category() -> None:
    assert score(["2Yk", "2Ya", "*Y"]).king == 10, "a Kingdom card completes a Kingdom Three"
    assert score(["2Yk", "2Ya", "*s"]).king == 10, "a Joker of shields stands for the yellow 2 shields"
    assert score(["2Yk", "2Ya", "*k"]).king == 0, "the Joker of keys cannot be a second yellow 2 keys"
    assert score(["1Rk", "2Ra", "*R"]).queen == 5
    assert score(["4Yk", "4Rk", "*k"]).joker == 1, "a Joker of keys adds a 4 of keys"
    s = score(["4Yk", "4Rk", "4Gk", "2Yk", "2Ya", "*Y"])
    assert s.king == 10 and s.joker == 6, "a yellow 2 shields for the King, a yellow 3 keys for the Joker"


def test_a_wild_never_stands_for_a_card_its_owner_took() -> None:
    # All four 4s of keys taken: a Joker of keys adds at most a 3.
    assert score(["4Yk", "4Rk", "4Gk", "4Bk", "*k"]).joker == (16 + 3) - 11


# --- the optimiser against an exhaustive search -------------------------------------------------


def _king_plain(cards: set[tuple[str, int, str]]) -> int:
    total = 0
    for col in COLOURS:
        for n in NUMBERS:
            k = sum(1 for i in ITEMS if (col, n, i) in cards)
            total += 15 if k == 4 else 10 if k == 3 else 0
    return total


def _queen_plain(cards: set[tuple[str, int, str]]) -> int:
    straights = []
    for col in COLOURS:
        for start, length in ((1, 4), (1, 3), (2, 3)):
            # Every way to pick, for each number of the run, one item held in this colour.
            held = [[i for i in ITEMS if (col, start + t, i) in cards] for t in range(length)]
            for items in product(*held):
                if len(set(items)) == length:
                    straights.append(frozenset((col, start + t, items[t]) for t in range(length)))

    def best(i: int, used: frozenset[tuple[str, int, str]]) -> int:
        if i == len(straights):
            return 0
        out = best(i + 1, used)
        if not straights[i] & used:
            out = max(out, (10 if len(straights[i]) == 4 else 5) + best(i + 1, used | straights[i]))
        return out

    return best(0, frozenset())


def _joker_plain(cards: set[tuple[str, int, str]]) -> int:
    total = 0
    for it in ITEMS:
        s = sum(n for _c, n, i in cards if i == it)
        total += s - 11 if s >= 12 else 0
    return total


def _exhaustive(cards: list[str]) -> tuple[int, int, int]:
    held = {(c[1], int(c[0]), c[2]) for c in cards if not is_wild(c)}
    wilds = [c for c in cards if is_wild(c)]
    everything = [(col, n, it) for col in COLOURS for n in NUMBERS for it in ITEMS]
    options = []
    for w in wilds:
        options.append([x for x in everything if x not in held and (x[0] == w[1] or x[2] == w[1])] + [None])
    best = [0, 0, 0]
    for pick in product(*options):
        chosen = [x for x in pick if x is not None]
        if len(set(chosen)) < len(chosen):
            continue
        virtual = held | set(chosen)
        for k, f in enumerate((_king_plain, _queen_plain, _joker_plain)):
            best[k] = max(best[k], f(virtual))
    return best[0], best[1], best[2]


def test_the_optimiser_equals_an_exhaustive_search_on_random_collections() -> None:
    rng = random.Random(2024)
    for trial in range(150):
        size = rng.randint(3, 14)
        cards = rng.sample(NUMBER_CARDS, size)
        # Keep them clustered so that sets actually form.
        if trial % 2:
            cols = rng.sample(COLOURS, 2)
            cards = rng.sample([c for c in NUMBER_CARDS if c[1] in cols], min(size, 12))
        wilds = rng.sample(WILDS, rng.choice((0, 0, 1, 1, 2)))
        got = score(cards + wilds)
        assert (got.king, got.queen, got.joker) == _exhaustive(cards + wilds), cards + wilds


def test_the_optimiser_equals_an_exhaustive_search_with_three_wild_cards() -> None:
    # Three wilds completing one set together: a Kingdom Four and a Queen's Straight of four
    # from a single held card (the red 1 keys), then clustered random collections.
    cases = [["1Rk", "*R", "*a", "*s"], ["2Yk", "*k", "*a", "*Y"], ["4Gc", "4Bc", "*c", "*G", "*B"]]
    rng = random.Random(33)
    for _trial in range(3):
        cols = rng.sample(COLOURS, 2)
        cards = rng.sample([c for c in NUMBER_CARDS if c[1] in cols], rng.randint(4, 10))
        cases.append(cards + rng.sample(WILDS, 3))
    for cards in cases:
        got = score(cards)
        assert (got.king, got.queen, got.joker) == _exhaustive(cards), cards
    assert score(["1Rk", "*R", "*a", "*s"]).king == 15 and score(["1Rk", "*R", "*a", "*s"]).queen == 10


def test_the_optimiser_equals_an_exhaustive_search_with_wild_cards_alone() -> None:
    cases = [*combinations(WILDS, 2), ("*k", "*a", "*s"), ("*R", "*k", "*a")]
    for wilds in cases:
        got = score(list(wilds))
        assert (got.king, got.queen, got.joker) == _exhaustive(list(wilds)), wilds


# --- what players see ---------------------------------------------------------------------------


def test_the_table_shows_the_field_by_colour_and_item_and_everyones_taken_cards() -> None:
    state = _state(
        field=("1Rk", "2Rk", "4Rk", "3Ya", "*k"), captured=(("2Bc", "3Bc"), (), ("1Ys",)), totals=(12, 0, 3)
    )
    table = GAME.view(state, None)
    text = "\n".join(table.public)
    assert "🟥 red: 🟥1🗝️ 🟥2🗝️ 🟥4🗝️ (group of three)" in text
    assert "🟨 yellow: 🟨3🪓" in text and "✨ wild: 🃏🗝️" in text
    assert "took 🟦×2" in text and "total 12" in text
    assert "3Rk" not in text and "red 3 keys" not in text, "no hand card on the table"
    assert table.hand == () and "hand" not in table.data


def test_the_hand_groups_a_players_cards_by_colour_and_stays_private() -> None:
    state = _state(hands=(("3Rk", "1Ga", "*R"), ("2Bc",), ("4Ys",)))
    mine = GAME.view(state, 0)
    assert [g.label for g in mine.hand] == ["🟥 red", "🟩 green", "✨ wild"]
    assert mine.hand[0].cards == ("🟥3🗝️",)
    assert "2Bc" not in str(mine.data) and "2🪙" not in "\n".join(mine.secret)


def test_a_flipped_card_waiting_for_its_choice_is_on_the_table() -> None:
    state = _state(field=("3Bs", "4Bs"), pile=("1Bs", "2Gk"))
    after, _ = GAME.apply(state, 0, "play:3Rk")
    assert any("Flipped: 🟦1🛡️" in line for line in GAME.view(after, None).board)
    assert "to choose the card the flipped" in GAME.view(after, None).waiting


def test_the_ai_takes_what_completes_a_set() -> None:
    state = _state(
        hands=(("3Rk", "2Ya"), ("2Bc",), ("4Ys",)),
        field=("1Rk", "4Ya"),
        captured=(("2Yc", "2Ys"), (), ()),
    )
    move = GAME.ai_move(state, 0, Rng.from_seed(1))
    assert move.code == "play:2Ya", "the yellow 2 axes makes a Kingdom Three"


def test_the_ai_leaves_in_the_field_the_card_nobody_can_match() -> None:
    # Nothing matches in the field; the red 3 keys' three matches are all in sight (taken or
    # in the AI's own hand), the green 1 axe's are not: the red 3 keys is the safe discard.
    state = _state(
        hands=(("3Rk", "1Ga", "4Rk"), ("2Bc",), ("4Ys",)),
        field=("1Yc",),
        captured=((), ("1Rk", "2Rk"), ()),
    )
    assert GAME.ai_move(state, 0, Rng.from_seed(1)).code == "play:3Rk"
