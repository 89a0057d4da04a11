"""Scenario tests for King and Crown (seed 003, RULES.md "crown", and the rulings in crown's RULES).

Every test builds its state from a fixed seed, usually adjusted by hand with
``dataclasses.replace``, and checks one rule so that breaking the rule breaks the test.
"""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import replace
from typing import Any

import pytest

from bot.games import GAMES
from bot.games.base import (
    Event,
    GameError,
    IllegalMove,
    InvalidOptions,
    MatchOver,
    NotYourTurn,
    Rng,
    TimedMove,
    View,
)
from bot.games.crown import (
    BEGGAR,
    DECK,
    DRAGON,
    GAME,
    KING,
    KNIGHT,
    NAME,
    RULES,
    TEAM,
    THWARTS,
    VALUE,
    WICKED,
    WISE,
    WITCH,
    CrownState,
)

G = GAME
CARD_NAMES = ("King", "Dragon", "Knight", "Witch", "Beggar")


# --- helpers ----------------------------------------------------------------------------


def new(variant: str, players: int = 2, seed: int = 7) -> CrownState:
    return G.setup(players, seed, {"variant": variant})


def act(state: CrownState, seat: int, code: str) -> tuple[CrownState, list[Event]]:
    """Apply a move, checking that it was offered and that the input is left alone."""
    assert code in [m.code for m in G.legal_moves(state, seat)], f"{code} is not legal for seat {seat}"
    before = G.dump(state)
    after, events = G.apply(state, seat, code)
    assert G.dump(state) == before
    assert G.card_count(after) == G.card_count(state)
    return after, events


def pick_all(state: CrownState, *cards: str | None) -> tuple[CrownState, list[Event]]:
    """Every seat picks the given card in seat order; None skips a seat (one that is out)."""
    events: list[Event] = []
    for seat, card in enumerate(cards):
        if card is not None:
            state, ev = act(state, seat, f"pick:{card}")
            events += ev
    return state, events


def refused(state: CrownState, seat: int, code: str, kind: type[GameError]) -> str:
    """The move is refused with ``kind`` and a sentence, and the state is unchanged."""
    before = json.dumps(G.dump(state), sort_keys=True)
    copy = G.load(G.dump(state))
    with pytest.raises(kind) as err:
        G.apply(state, seat, code)
    message = str(err.value)
    assert message.strip() and message.rstrip().endswith((".", "!")), message
    assert json.dumps(G.dump(state), sort_keys=True) == before
    assert state == copy
    return message


def public_texts(events: list[Event]) -> list[str]:
    return [e.text for e in events if e.seat is None]


def private_texts(events: list[Event], seat: int) -> list[str]:
    return [e.text for e in events if e.seat == seat]


def view_text(view: View, *, private: bool = True) -> str:
    parts = [view.waiting, *view.public]
    if private:
        parts += list(view.private)
    return "\n".join(parts) + "\n" + json.dumps(view.data, default=str, sort_keys=True)


def places(state: CrownState) -> dict[int, int]:
    outcome = G.outcome(state)
    assert outcome is not None
    return {r.seat: r.place for r in outcome.results}


def court(cards: tuple[str, ...], seed: int = 3) -> CrownState:
    """An atcourt state in questioning with the given deal (one card per seat)."""
    state = new("atcourt", len(cards), seed)
    king = cards.index(KING)
    return replace(
        state,
        cards=cards,
        aside=tuple(c for c in DECK if c not in cards),
        king=king,
        log=(f"{{p{king}}} reveals the King. Questioning begins (5 minutes at most).",),
    )


def code_set(state: CrownState, seat: int) -> set[str]:
    return {m.code for m in G.legal_moves(state, seat)}


# --- the game and its cards -------------------------------------------------------------


def test_crown_is_registered() -> None:
    assert GAMES["crown"] is GAME
    assert [v for v, _ in G.options[0].choices] == ["defend", "find", "support", "tourney", "atcourt"]
    assert G.options[0].key == "variant" and G.options[0].default_value == "defend"


def test_card_values_and_teams() -> None:
    assert DECK == (KING, DRAGON, KNIGHT, WITCH, BEGGAR)
    assert VALUE == {KING: 5, DRAGON: 4, KNIGHT: 3, WITCH: 2, BEGGAR: 1}
    assert {c for c in DECK if TEAM[c] == WISE} == {KING, KNIGHT, BEGGAR}
    assert {c for c in DECK if TEAM[c] == WICKED} == {DRAGON, WITCH}
    assert [NAME[c] for c in DECK] == list(CARD_NAMES)


# The seed's two rings, written out as (thwarter, thwarted).
OUTER_RING = [(KING, BEGGAR), (BEGGAR, WITCH), (WITCH, KNIGHT), (KNIGHT, DRAGON), (DRAGON, KING)]
INNER_RING = [(KING, KNIGHT), (BEGGAR, DRAGON), (WITCH, KING), (KNIGHT, BEGGAR), (DRAGON, WITCH)]


def test_thwart_table_is_exactly_the_seeds_ten_relations() -> None:
    table = {(a, b) for a, targets in THWARTS.items() for b in targets}
    assert table == set(OUTER_RING) | set(INNER_RING)
    assert len(table) == 10
    for card in DECK:
        assert len(THWARTS[card]) == 2 and card not in THWARTS[card]


def test_each_pair_of_different_cards_has_exactly_one_direction() -> None:
    for a, b in itertools.combinations(DECK, 2):
        assert (b in THWARTS[a]) != (a in THWARTS[b]), (a, b)
    for card in DECK:
        # Thwarts two, is thwarted by two.
        assert sum(card in THWARTS[o] for o in DECK) == 2


@pytest.mark.parametrize("winner_card,loser_card", OUTER_RING + INNER_RING)
@pytest.mark.parametrize("winner_seat", [0, 1])
def test_defend_round_goes_to_the_thwarting_card(winner_card: str, loser_card: str, winner_seat: int) -> None:
    cards = [loser_card, loser_card]
    cards[winner_seat] = winner_card
    state, events = pick_all(new("defend"), *cards)
    assert state.wins[winner_seat] == 1 and state.wins[1 - winner_seat] == 0
    assert state.round == 2
    assert any(f"{NAME[winner_card]} thwarts {NAME[loser_card]}" in t for t in public_texts(events))


# --- player counts and options ----------------------------------------------------------


@pytest.mark.parametrize(
    "variant,ok",
    [
        ("find", [2]),
        ("support", [2]),
        ("tourney", [2]),
        ("defend", [2, 3, 4, 5, 6, 7, 8]),
        ("atcourt", [3, 4, 5]),
    ],
)
def test_player_counts(variant: str, ok: list[int]) -> None:
    for n in range(1, 10):
        if n in ok:
            G.check_players(n, {"variant": variant})
            assert G.setup(n, 1, {"variant": variant}).players == n
        else:
            with pytest.raises(InvalidOptions) as err:
                G.check_players(n, {"variant": variant})
            assert str(err.value).strip()
            with pytest.raises(InvalidOptions):
                G.setup(n, 1, {"variant": variant})


def test_unknown_variant_and_default_variant() -> None:
    with pytest.raises(InvalidOptions):
        G.check_players(2, {"variant": "chess"})
    assert G.setup(2, 1, {}).variant == "defend"


# --- find the King ----------------------------------------------------------------------


def find_state(spread: tuple[str, ...], lord: int = 0) -> CrownState:
    return replace(new("find"), spread=spread, lord=lord)


def test_find_setup_spreads_one_deck_and_only_the_vassal_acts() -> None:
    lords = set()
    spreads = set()
    for seed in range(20):
        s = new("find", seed=seed)
        assert sorted(s.spread) == sorted(DECK)
        assert s.phase == "find" and s.revealed == ()
        assert G.to_act(s) == {1 - s.lord}
        assert G.legal_moves(s, s.lord) == []
        assert [m.code for m in G.legal_moves(s, 1 - s.lord)] == [f"reveal:{i}" for i in range(1, 6)]
        refused(s, s.lord, "reveal:1", NotYourTurn)
        lords.add(s.lord)
        spreads.add(s.spread)
    assert lords == {0, 1}, "the lord is drawn at random"
    assert len(spreads) > 10, "the deck is shuffled"


@pytest.mark.parametrize("lord", [0, 1])
def test_find_king_first_the_vassal_wins(lord: int) -> None:
    s = find_state((DRAGON, KING, KNIGHT, WITCH, BEGGAR), lord)
    vassal = 1 - lord
    s, events = act(s, vassal, "reveal:2")
    assert s.phase == "over"
    assert places(s) == {vassal: 1, lord: 2}
    assert public_texts(events) == [
        f"{{p{vassal}}} reveals place 2.",
        f"The King! {{p{vassal}}} found it and wins!",
    ]
    assert G.to_act(s) == frozenset()


@pytest.mark.parametrize("card", [DRAGON, WITCH, BEGGAR])
def test_find_other_card_the_vassal_loses(card: str) -> None:
    spread = (card,) + tuple(c for c in DECK if c != card)
    s, events = act(find_state(spread, lord=1), 0, "reveal:1")
    assert s.phase == "over"
    assert places(s) == {0: 2, 1: 1}
    # The card is told after the move's own line, so the vassal's answer (which leaves out
    # that line) says it too.
    # The match is over: where the King lay is told, and every place is turned up.
    king = spread.index(KING) + 1
    assert public_texts(events) == [
        "{p0} reveals place 1.",
        f"The {NAME[card]}, not the King: {{p1}} wins. The King lay in place {king}.",
    ]
    board = next(line for line in G.view(s, None).board if line.startswith("Places:"))
    assert "🂠" not in board and f"{king}: King" in board, board


def test_find_knight_obliges_another_reveal_then_the_king_wins() -> None:
    s = find_state((KNIGHT, WITCH, KING, DRAGON, BEGGAR), lord=0)
    s, events = act(s, 1, "reveal:1")
    assert s.phase == "find" and G.outcome(s) is None
    assert s.revealed == (0,)
    assert G.to_act(s) == {1}
    assert public_texts(events) == ["{p1} reveals place 1.", "The Knight: {p1} reveals one more card."]
    # The revealed place cannot be revealed again.
    assert "reveal:1" not in code_set(s, 1)
    assert code_set(s, 1) == {"reveal:2", "reveal:3", "reveal:4", "reveal:5"}
    refused(s, 1, "reveal:1", IllegalMove)
    refused(s, 0, "reveal:3", NotYourTurn)  # still only the vassal acts
    s, _ = act(s, 1, "reveal:3")
    assert places(s) == {1: 1, 0: 2}
    assert s.revealed == (0, 2)


@pytest.mark.parametrize("second", [DRAGON, WITCH, BEGGAR])
def test_find_knight_then_other_card_the_vassal_loses(second: str) -> None:
    rest = tuple(c for c in DECK if c not in (KNIGHT, second))
    s = find_state((second, KNIGHT) + rest, lord=0)
    s, _ = act(s, 1, "reveal:2")
    assert s.phase == "find"
    s, _ = act(s, 1, "reveal:1")
    assert places(s) == {0: 1, 1: 2}


def test_find_bad_places_are_refused() -> None:
    s = find_state(DECK, lord=0)
    for code in ("reveal:0", "reveal:6", "reveal:x", "reveal:"):
        refused(s, 1, code, IllegalMove)


def test_find_face_down_places_are_secret() -> None:
    s = find_state((KNIGHT, WITCH, KING, DRAGON, BEGGAR), lord=0)
    s, _ = act(s, 1, "reveal:1")
    for seat in (None, 0, 1):
        v = G.view(s, seat)
        assert v.data["revealed"] == {1: KNIGHT}
        places_line = next(line for line in v.public if line.startswith("Places:"))
        assert places_line.count("🂠") == 4 and "Knight" in places_line
        for hidden in ("Witch", "Dragon", "Beggar"):
            assert hidden not in view_text(v)
        # Any other arrangement of the face-down places looks the same.
        for perm in itertools.permutations((WITCH, KING, DRAGON, BEGGAR)):
            other = replace(s, spread=(KNIGHT,) + perm)
            assert G.view(other, seat) == v


# --- defend the King: two players -------------------------------------------------------


def test_defend_setup_everyone_has_the_full_deck_and_picks() -> None:
    s = new("defend")
    assert s.phase == "pick" and s.hands == (DECK, DECK)
    assert G.to_act(s) == {0, 1}
    assert code_set(s, 0) == {f"pick:{c}" for c in DECK}


def test_defend_same_card_is_picked_again() -> None:
    s0 = new("defend")
    for card in DECK:
        s, events = pick_all(s0, card, card)
        assert s.wins == (0, 0) and s.round == 1
        assert s.chosen == (None, None) and s.phase == "pick"
        assert G.to_act(s) == {0, 1}
        assert any("pick again" in t for t in public_texts(events))


def test_defend_a_pick_is_final_and_hidden_until_all_have_picked() -> None:
    s0 = new("defend")
    views: dict[Any, list[View]] = {1: [], None: []}
    for card in DECK:
        s, events = act(s0, 0, f"pick:{card}")
        assert s.chosen == (card, None) and G.to_act(s) == {1}
        # The picker's view alone shows the card; the table only hears that a pick was made.
        assert NAME[card] in " ".join(G.view(s, 0).private)
        assert all(NAME[card] not in t for t in public_texts(events))
        assert all(e.seat in (None, 0) for e in events)
        assert G.view(s, 0).data["my_pick"] == card
        assert any(NAME[card] in line for line in G.view(s, 0).private)
        # Seat 1 and the table see the same thing whatever seat 0 picked.
        views[1].append(G.view(s, 1))
        views[None].append(G.view(s, None))
        assert "my_pick" not in G.view(s, 1).data and "my_pick" not in G.view(s, None).data
        assert G.view(s, 1).data["picked"] == [True, False]
        # The pick is final.
        message = refused(s, 0, "pick:K", NotYourTurn)
        assert message == "You have already picked: waiting for {p1}."
        for other in DECK:
            refused(s, 0, f"pick:{other}", NotYourTurn)
    for seen in views.values():
        assert all(v == seen[0] for v in seen)


def test_defend_picks_are_revealed_together_when_all_have_picked() -> None:
    s, _ = act(new("defend"), 0, "pick:W")
    s, events = act(s, 1, "pick:N")
    reveal = [t for t in public_texts(events) if "reveal" in t]
    assert reveal and "Witch" in reveal[0] and "Knight" in reveal[0]
    assert s.wins == (1, 0)


def test_defend_every_round_uses_the_full_deck() -> None:
    s, _ = pick_all(new("defend"), DRAGON, KING)
    assert s.wins == (1, 0) and s.hands == (DECK, DECK)
    s, _ = pick_all(s, DRAGON, KING)  # the same cards may be picked again
    assert s.wins == (2, 0)


def test_defend_two_players_best_of_three() -> None:
    s, _ = pick_all(new("defend"), DRAGON, KING)  # 1-0
    assert G.outcome(s) is None
    s, _ = pick_all(s, KING, DRAGON)  # 1-1
    assert s.wins == (1, 1) and G.outcome(s) is None and s.round == 3
    s, _ = pick_all(s, KING, KING)  # repick, still round 3
    assert s.round == 3 and G.outcome(s) is None
    s, _ = pick_all(s, KNIGHT, WITCH)  # Witch thwarts Knight: 1-2
    assert s.phase == "over" and s.wins == (1, 2)
    out = G.outcome(s)
    assert out is not None
    assert {r.seat: (r.place, r.score) for r in out.results} == {0: (2, 1), 1: (1, 2)}
    assert "wins the match" in out.summary
    refused(s, 0, "pick:K", MatchOver)


def test_defend_two_straight_wins_end_the_match() -> None:
    s, _ = pick_all(new("defend"), BEGGAR, DRAGON)
    s, _ = pick_all(s, BEGGAR, WITCH)
    assert s.phase == "over" and places(s) == {0: 1, 1: 2}


# --- defend the King: three or more -------------------------------------------------------


def test_defend_many_thwarted_players_are_out() -> None:
    s, events = pick_all(new("defend", 3), KING, DRAGON, DRAGON)
    assert s.out_round == (1, 0, 0)
    assert s.round == 2 and s.phase == "pick"
    assert any("out" in t and "{p0}" in t for t in public_texts(events))
    # The eliminated player cannot act any more.
    assert G.to_act(s) == {1, 2}
    assert G.legal_moves(s, 0) == []
    refused(s, 0, "pick:K", NotYourTurn)
    with pytest.raises(NotYourTurn):
        G.default_move(s, 0)
    assert not any(line.startswith("Your deck") for line in G.view(s, 0).private)


def test_defend_many_every_thwarted_card_goes_out_at_once() -> None:
    # Knight thwarts Dragon and Beggar; nothing here thwarts the Knight.
    s, events = pick_all(new("defend", 4), DRAGON, KNIGHT, BEGGAR, DRAGON)
    assert s.out_round == (1, 0, 1, 1)
    assert "Thwarted and out: {p0}, {p2} and {p3}." in public_texts(events)
    assert s.phase == "over"
    assert places(s) == {1: 1, 0: 2, 2: 2, 3: 2}


@pytest.mark.parametrize(
    "cards",
    [
        (KING, KING, KING),  # nobody thwarted
        (WITCH, WITCH, WITCH, WITCH),
        (KING, DRAGON, KNIGHT),  # a cycle: everybody thwarted
        (KING, DRAGON, KNIGHT, WITCH, BEGGAR),  # every card is thwarted by another
        (KING, KING, DRAGON, DRAGON, KNIGHT, KNIGHT),
    ],
)
def test_defend_many_nobody_or_everybody_out_means_pick_again(cards: tuple[str, ...]) -> None:
    s0 = new("defend", len(cards))
    s, events = pick_all(s0, *cards)
    assert s.out_round == s0.out_round == (0,) * len(cards)
    assert s.round == 1 and s.phase == "pick"
    assert s.chosen == (None,) * len(cards)
    assert G.to_act(s) == set(range(len(cards)))
    assert any("pick again" in t for t in public_texts(events))


def test_defend_many_last_standing_wins_and_shared_placings() -> None:
    s = new("defend", 5)
    s, _ = pick_all(s, KING, KING, DRAGON, DRAGON, DRAGON)  # 0, 1 out in round 1
    assert s.out_round == (1, 1, 0, 0, 0)
    s, _ = pick_all(s, None, None, DRAGON, DRAGON, DRAGON)  # nobody out
    assert s.round == 2
    s, _ = pick_all(s, None, None, KNIGHT, DRAGON, KNIGHT)  # 3 out in round 2
    assert s.out_round == (1, 1, 0, 2, 0) and G.outcome(s) is None
    assert G.to_act(s) == {2, 4}
    s, events = pick_all(s, None, None, BEGGAR, None, KING)  # King thwarts Beggar: 2 out
    assert s.phase == "over"
    assert places(s) == {4: 1, 2: 2, 3: 3, 0: 4, 1: 4}
    assert any("last one standing" in t for t in public_texts(events))
    refused(s, 4, "pick:K", MatchOver)


def test_defend_many_view_shows_who_stands_and_hides_picks() -> None:
    s, _ = pick_all(new("defend", 3), KING, DRAGON, DRAGON)
    s, _ = act(s, 1, "pick:B")
    for seat in (None, 0, 2):
        v = G.view(s, seat)
        assert "my_pick" not in v.data
        assert "Beggar" not in "\n".join(v.public)
        assert v == G.view(replace(s, chosen=(None, KNIGHT, None)), seat)
    assert G.view(s, 1).data["my_pick"] == BEGGAR
    rows = {row.seat: row for row in G.view(s, None).scores}
    assert "out in round 1" in rows[0].figures and all("standing" in rows[x].figures for x in (1, 2))


def test_the_table_keeps_the_last_reveal() -> None:
    """All picks are revealed together, and the table keeps them in view until the next
    reveal (at four players, the AI seats' "has picked" lines push the reveal out of the
    table's last three events at once)."""
    s = new("defend", 4)
    assert not any("reveal" in line for line in G.view(s, None).board)
    s, _ = pick_all(s, WITCH, WITCH, KNIGHT, BEGGAR)  # everybody would be out: pick again
    assert s.round == 1 and s.out_round == (0, 0, 0, 0)
    board = "\n".join(G.view(s, None).board)
    assert "Last reveal (round 1): {p0} Witch (2), {p1} Witch (2), {p2} Knight (3), {p3} Beggar (1)" in board
    s, _ = pick_all(s, KING, KING, DRAGON, DRAGON)  # Dragon thwarts King: seats 0 and 1 out
    s, _ = act(s, 2, "pick:K")  # a pick of the next round stays hidden
    for seat in (None, 0, 3):
        board = "\n".join(G.view(s, seat).board)
        assert (
            "Last reveal (round 1): {p0} King (5), {p1} King (5), {p2} Dragon (4), {p3} Dragon (4)" in board
        )
        assert "King (5), {p2} King" not in board
    s, _ = act(s, 3, "pick:W")  # Witch thwarts King: seat 2 out, seat 3 wins
    assert s.phase == "over"
    assert "Last reveal (round 2): {p2} King (5), {p3} Witch (2)" in "\n".join(G.view(s, None).board)
    two, _ = pick_all(new("tourney"), KING, DRAGON)  # at two as well: the table's last events
    two, _ = act(two, 0, "pick:W")  # show only the latest move's, here "{p0} has picked."
    assert (
        "Last reveal (round 1): {p0} King (5), {p1} Dragon (4): {p0} wins round 1" in G.view(two, None).board
    )
    out = G.outcome(s)  # the finished table has no board: its summary leads with the reveal
    assert out is not None
    assert (
        out.summary == "Last reveal (round 2): {p2} King (5), {p3} Witch (2): {p2} is out. "
        "{p3} is the last one standing and wins."
    )


def test_a_stored_match_without_the_last_reveal_loads() -> None:
    s, _ = pick_all(new("defend", 3), KING, DRAGON, DRAGON)
    data = G.dump(s)
    del data["last_picks"], data["last_round"]
    old = G.load(data)
    assert old == replace(s, last_picks=(), last_round=0)
    assert not any("reveal" in line for line in G.view(old, None).board)


# --- support the King -------------------------------------------------------------------


@pytest.mark.parametrize("a,b", list(itertools.product(DECK, DECK)))
@pytest.mark.parametrize("lord", [0, 1])
def test_support_even_sum_lord_odd_sum_vassal(a: str, b: str, lord: int) -> None:
    s = replace(new("support"), lord=lord)
    s, events = pick_all(s, a, b)
    total = VALUE[a] + VALUE[b]
    winner = lord if total % 2 == 0 else 1 - lord
    assert s.wins[winner] == 1 and s.wins[1 - winner] == 0
    assert s.round == 2
    assert any(f"sum is {total}" in t for t in public_texts(events))


def test_support_lord_is_random_and_shown() -> None:
    lords = {new("support", seed=seed).lord for seed in range(20)}
    assert lords == {0, 1}
    s = replace(new("support"), lord=1)
    assert G.view(s, None).data["lord"] == 1
    assert any(line.startswith("{p1}") and "lord (even)" in line for line in G.view(s, 0).public)


def test_support_best_of_three_with_full_deck_each_round() -> None:
    s = replace(new("support"), lord=0)
    s, _ = pick_all(s, KING, KING)  # 10, even: lord
    assert s.wins == (1, 0) and s.hands == (DECK, DECK)
    s, _ = pick_all(s, KING, WITCH)  # 7, odd: vassal
    assert s.wins == (1, 1) and G.outcome(s) is None
    s, _ = pick_all(s, KING, DRAGON)  # 9, odd: vassal
    assert s.phase == "over" and s.wins == (1, 2)
    assert places(s) == {1: 1, 0: 2}


def test_support_picks_are_hidden() -> None:
    s = replace(new("support"), lord=0)
    s1, _ = act(s, 1, "pick:D")
    s2, _ = act(s, 1, "pick:B")
    for seat in (None, 0):
        assert G.view(s1, seat) == G.view(s2, seat)


# --- tourney for the King ---------------------------------------------------------------


def test_tourney_each_card_once() -> None:
    s, _ = pick_all(new("tourney"), KING, DRAGON)
    assert s.hands == (tuple(c for c in DECK if c != KING), tuple(c for c in DECK if c != DRAGON))
    assert s.used == ((KING,), (DRAGON,))
    assert "pick:K" not in code_set(s, 0) and "pick:D" in code_set(s, 0)
    message = refused(s, 0, "pick:K", IllegalMove)
    assert "already used" in message
    refused(s, 1, "pick:D", IllegalMove)


def test_tourney_higher_card_wins_the_round() -> None:
    s, events = pick_all(new("tourney"), WITCH, KNIGHT)
    assert s.wins == (0, 1)
    assert any("higher card" in t for t in public_texts(events))
    s, _ = pick_all(s, BEGGAR, KING)
    assert s.wins == (0, 2)
    s, _ = pick_all(s, KING, BEGGAR)
    assert s.wins == (1, 2)


def test_tourney_tie_goes_to_the_higher_unused_cards() -> None:
    s = replace(
        new("tourney"),
        hands=((KING, DRAGON, WITCH), (KING, KNIGHT, BEGGAR)),
        used=((KNIGHT, BEGGAR), (DRAGON, WITCH)),
        wins=(1, 1),
        round=3,
    )
    s, events = pick_all(s, KING, KING)  # unused after setting aside: 4+2=6 against 3+1=4
    assert s.wins == (2, 1)
    assert "{p0} wins round 3 with a tie, decided by unused cards (6 against 4)." in public_texts(events)
    s2 = replace(
        new("tourney"),
        hands=((KING, KNIGHT, BEGGAR), (KING, DRAGON, WITCH)),
        used=((DRAGON, WITCH), (KNIGHT, BEGGAR)),
        wins=(1, 1),
        round=3,
    )
    s2, events = pick_all(s2, KING, KING)  # 4 against 6: seat 1 has more left
    assert s2.wins == (1, 2)
    # The winner's figure first, whichever seat wins: seat 1's 6, then seat 0's 4.
    assert "{p1} wins round 3 with a tie, decided by unused cards (6 against 4)." in public_texts(events)


def test_tourney_still_tied_round_is_drawn() -> None:
    s, events = pick_all(new("tourney"), KING, KING)  # 10 against 10
    assert s.wins == (0, 0) and s.round == 2
    assert any("drawn" in t for t in public_texts(events))


def test_tourney_five_rounds_most_rounds_wins() -> None:
    s = new("tourney")
    rounds = [(KING, BEGGAR), (BEGGAR, KING), (DRAGON, WITCH), (WITCH, KNIGHT), (KNIGHT, DRAGON)]
    for i, (a, b) in enumerate(rounds):
        assert G.outcome(s) is None and s.round == i + 1
        s, _ = pick_all(s, a, b)
    assert s.phase == "over" and s.round == 6
    assert s.wins == (2, 3)
    assert s.hands == ((), ()) and sorted(s.used[0]) == sorted(DECK)
    out = G.outcome(s)
    assert out is not None
    assert {r.seat: (r.place, r.score) for r in out.results} == {0: (2, 2), 1: (1, 3)}


def test_tourney_equal_rounds_is_a_draw() -> None:
    s = new("tourney")
    for card in DECK:  # every round drawn
        s, _ = pick_all(s, card, card)
    assert s.phase == "over" and s.wins == (0, 0)
    assert places(s) == {0: 1, 1: 1}
    s = new("tourney")
    for a, b in [(KING, DRAGON), (DRAGON, KING), (KNIGHT, KNIGHT), (WITCH, BEGGAR), (BEGGAR, WITCH)]:
        s, _ = pick_all(s, a, b)
    assert s.wins == (2, 2) and places(s) == {0: 1, 1: 1}
    assert "draw" in G.outcome(s).summary  # type: ignore[union-attr]


def test_the_table_names_everyone_it_waits_for_to_pick() -> None:
    s = new("tourney")
    assert G.view(s, None).waiting == "Waiting for {p0} and {p1} to pick a card in secret."
    s, _ = act(s, 1, "pick:K")
    assert G.view(s, None).waiting == "Waiting for {p0} to pick a card in secret."


def test_tourney_used_cards_are_public_but_the_pick_is_not() -> None:
    s, _ = pick_all(new("tourney"), KING, DRAGON)
    v = G.view(s, None)
    assert v.data["hands"] == [list(s.hands[0]), list(s.hands[1])]
    s1, _ = act(s, 0, "pick:W")
    s2, _ = act(s, 0, "pick:B")
    for seat in (None, 1):
        assert G.view(s1, seat) == G.view(s2, seat)


# --- the King at Court ------------------------------------------------------------------


@pytest.mark.parametrize(
    "players,dealt,aside",
    [
        (3, {KING, DRAGON, KNIGHT}, {WITCH, BEGGAR}),
        (4, {KING, DRAGON, KNIGHT, WITCH}, {BEGGAR}),
        (5, set(DECK), set()),
    ],
)
def test_atcourt_deal(players: int, dealt: set[str], aside: set[str]) -> None:
    kings = set()
    for seed in range(30):
        s = new("atcourt", players, seed)
        assert set(s.cards) == dealt and len(s.cards) == players
        assert set(s.aside) == aside
        assert G.card_count(s) == 5
        assert s.phase == "question" and s.cards[s.king] == KING
        kings.add(s.king)
    assert kings == set(range(players)), "the deal is shuffled"


def test_atcourt_king_is_public_other_cards_are_secret() -> None:
    s = court((DRAGON, KING, KNIGHT, WITCH, BEGGAR))
    table = G.view(s, None)
    assert table.data["king"] == 1 and "cards" not in table.data
    assert any(line.startswith("{p1}") and "👑 King" in line for line in table.public)
    for seat in range(5):
        v = G.view(s, seat)
        assert v.data["my_card"] == s.cards[seat]
        assert any(NAME[s.cards[seat]] in line for line in v.secret)
        # Any other deal that keeps this seat's card and the King looks the same.
        others = [t for t in range(5) if t not in (seat, 1)]
        for perm in itertools.permutations([s.cards[t] for t in others]):
            cards = list(s.cards)
            for t, c in zip(others, perm):
                cards[t] = c
            assert G.view(replace(s, cards=tuple(cards)), seat) == v
            assert G.view(replace(s, cards=tuple(cards)), None) == table


def test_atcourt_views_never_name_a_hidden_card() -> None:
    s = court((DRAGON, KING, KNIGHT))
    for seat, hidden in [(None, (DRAGON, KNIGHT)), (0, (KNIGHT,)), (1, (DRAGON, KNIGHT)), (2, (DRAGON,))]:
        v = G.view(s, seat)
        for card in hidden:
            assert NAME[card] not in view_text(v), (seat, card)
            assert f'"{card}"' not in json.dumps(v.data), (seat, card)
    s, _ = act(s, 1, "end")
    s, _ = act(s, 1, "accuse:2")
    # After the reveal every card is shown.
    assert "{p0} · Dragon" in view_text(G.view(s, None))


def test_defend_views_never_name_a_hidden_pick() -> None:
    s, _ = act(new("defend", 3), 0, "pick:W")
    table = G.view(s, None)
    assert "Witch" not in view_text(table) and '"W"' not in json.dumps(table.data)
    other = G.view(s, 1)
    assert "Witch" not in "\n".join(other.public) and '"W"' not in json.dumps(other.data)
    # Seat 1's private lines show only its own deck, never seat 0's pick.
    assert [line for line in other.private if "Witch" in line] == [
        line for line in other.private if line.startswith("Your deck")
    ]
    s, events = pick_all(s, None, KING, KING)  # the reveal
    assert any("{p0} Witch" in t for t in public_texts(events))


def test_atcourt_questioning_king_ends_it_and_timer() -> None:
    s = court((DRAGON, KING, KNIGHT))
    assert G.to_act(s) == {0, 1, 2}  # the others may say they are ready; three players: no Witch
    assert code_set(s, 1) == {"end"} and code_set(s, 0) == code_set(s, 2) == {"ready"}
    assert G.timer(s) == TimedMove(300.0, 1, "end", G.timer(s).reason)  # type: ignore[union-attr]
    assert G.default_move(s, 1).code == "end"
    for seat in (0, 2):
        refused(s, seat, "end", IllegalMove)
    s, _ = act(s, 1, "end")
    assert s.phase == "accuse" and G.to_act(s) == {1}
    assert G.timer(s) is None
    assert code_set(s, 1) == {"accuse:0", "accuse:2"}
    refused(s, 1, "accuse:1", IllegalMove)
    refused(s, 1, "accuse:7", IllegalMove)
    refused(s, 1, "end", IllegalMove)


def test_atcourt_no_witch_with_three_players() -> None:
    for seed in range(10):
        s = new("atcourt", 3, seed)
        assert WITCH not in s.cards
        assert all("witch" not in code_set(s, seat) for seat in range(3))
        for seat in range(3):
            if seat != s.king:
                refused(s, seat, "witch", IllegalMove)


def test_atcourt_witch_reveals_all_and_redeals_non_king_cards_once() -> None:
    s = court((DRAGON, KING, KNIGHT, WITCH), seed=11)
    assert G.to_act(s) == {0, 1, 2, 3}
    assert code_set(s, 3) == {"witch", "ready"}
    refused(s, 0, "witch", IllegalMove)  # only the Witch
    refused(s, 1, "witch", IllegalMove)  # not the King either
    after, events = act(s, 3, "witch")
    # Every card, as it was, is revealed publicly.
    reveal = [t for t in public_texts(events) if "reveals every card" in t]
    assert reveal
    for seat, card in enumerate(s.cards):
        assert f"{{p{seat}}} {NAME[card]}" in reveal[0]
    # The King keeps the King; the others are re-dealt in secret.
    assert after.cards[1] == KING and after.king == 1
    assert sorted(after.cards) == sorted(s.cards)
    assert after.witch_used and after.peeker == 2 and after.peeked is None
    for seat in (0, 2, 3):
        told = private_texts(events, seat)
        assert told == [f"You now hold the {NAME[after.cards[seat]]}."]
    assert private_texts(events, 1) == []
    # After the re-deal the table cannot tell who holds which non-King card.
    table = G.view(after, None)
    for perm in itertools.permutations([after.cards[t] for t in (0, 2, 3)]):
        cards = (perm[0], KING, perm[1], perm[2])
        assert G.view(replace(after, cards=cards), None) == table
    # Once only: nobody may strike again, whoever holds the Witch now.
    assert all("witch" not in code_set(after, seat) for seat in range(4))
    refused(after, after.cards.index(WITCH), "witch", GameError)
    assert "Witch has struck" in " ".join(G.view(after, None).public)


def test_atcourt_witch_redeal_is_shuffled_and_king_always_stays() -> None:
    seen = set()
    for seed in range(40):
        s = court((KNIGHT, WITCH, KING, BEGGAR, DRAGON), seed=seed)
        after, _ = act(s, 1, "witch")
        assert after.cards[2] == KING
        assert sorted(after.cards) == sorted(s.cards)
        seen.add(after.cards)
    assert len(seen) > 5


def test_atcourt_former_knight_peeks_privately_once_after_the_witch() -> None:
    s = court((DRAGON, KING, KNIGHT, WITCH), seed=11)
    # No peek before the Witch strikes.
    assert not any(c.startswith("peek") for seat in range(4) for c in code_set(s, seat))
    refused(s, 2, "peek:0", IllegalMove)
    s, _ = act(s, 3, "witch")
    s = replace(s, cards=(WITCH, KING, DRAGON, KNIGHT))  # fix the re-deal: p2 is no longer the Knight
    assert G.to_act(s) == {0, 1, 2, 3}
    assert code_set(s, 2) == {"peek:0", "peek:3", "ready"}  # not p1: the King's card is known
    refused(s, 2, "peek:2", IllegalMove)
    refused(s, 3, "peek:0", IllegalMove)  # the new Knight has no look
    before_views = {seat: G.view(s, seat) for seat in (None, 0, 1, 3)}
    s2, events = act(s, 2, "peek:3")
    assert [e for e in events if e.seat is not None] == [Event("{p3} holds the Knight.", 2)]
    assert all("Knight" not in t for t in public_texts(events) if "{p3}" in t)
    assert s2.peeked == 3
    assert G.view(s2, 2).data["peek"] == [3, KNIGHT]
    assert any("{p3} holds the Knight" in line for line in G.view(s2, 2).private)
    for seat in (None, 0, 1, 3):
        assert "peek" not in G.view(s2, seat).data
        assert G.view(s2, seat).private == before_views[seat].private
    # Only once.
    assert code_set(s2, 2) == {"ready"}
    refused(s2, 2, "peek:0", IllegalMove)
    # And it must happen before the King ends questioning, and before p2 says ready.
    s3, _ = act(s, 1, "end")
    assert G.to_act(s3) == {1}
    refused(s3, 2, "peek:0", NotYourTurn)
    s4, _ = act(s, 2, "ready")
    refused(s4, 2, "peek:0", NotYourTurn)


def test_atcourt_default_moves_in_questioning() -> None:
    s = court((DRAGON, KING, KNIGHT, WITCH))
    assert G.default_move(s, 1).code == "end"
    for seat in G.to_act(s):
        assert G.default_move(s, seat).code in code_set(s, seat)
    # The others, Witch included, are made ready: no strike, no look forced on anyone.
    assert {G.default_move(s, seat).code for seat in (0, 2, 3)} == {"ready"}
    s, _ = act(s, 0, "ready")
    with pytest.raises(NotYourTurn):
        G.default_move(s, 0)


def test_atcourt_dragon_accused_wise_win() -> None:
    s = court((DRAGON, KING, KNIGHT, WITCH))
    s, _ = act(s, 1, "end")
    s, events = act(s, 1, "accuse:0")
    assert s.phase == "over" and s.accused == 0
    out = G.outcome(s)
    assert out is not None
    assert {r.seat: (r.place, r.team) for r in out.results} == {
        0: (2, WICKED),
        1: (1, WISE),
        2: (1, WISE),
        3: (2, WICKED),
    }
    assert any("{p0} reveals the Dragon" in t for t in public_texts(events))
    assert G.view(s, None).data["cards"] == [DRAGON, KING, KNIGHT, WITCH]


@pytest.mark.parametrize("accused", [2, 3])
def test_atcourt_other_card_accused_wicked_win(accused: int) -> None:
    s = court((DRAGON, KING, KNIGHT, WITCH))
    s, _ = act(s, 1, "end")
    s, _ = act(s, 1, f"accuse:{accused}")
    assert places(s) == {0: 1, 1: 2, 2: 2, 3: 1}


def test_atcourt_three_players_wrong_accusation() -> None:
    s = court((KNIGHT, DRAGON, KING))
    s, _ = act(s, 2, "end")
    s, _ = act(s, 2, "accuse:0")
    assert places(s) == {0: 2, 1: 1, 2: 2}


def test_atcourt_beggar_window_after_the_accusation() -> None:
    s = court((DRAGON, KING, KNIGHT, WITCH, BEGGAR))
    s, _ = act(s, 1, "end")
    s, events = act(s, 1, "accuse:0")
    assert s.phase == "beggar" and G.outcome(s) is None
    assert G.to_act(s) == {4}
    assert code_set(s, 4) == {"join", "stay"}
    timed = G.timer(s)
    assert timed is not None and (timed.seconds, timed.seat, timed.move) == (30.0, 4, "stay")
    assert G.default_move(s, 4).code == "stay"
    refused(s, 1, "stay", NotYourTurn)
    # The accused card is not revealed before the Beggar decides.
    assert not any("reveals the" in t for t in public_texts(events))
    swapped = replace(s, cards=(WITCH, KING, KNIGHT, DRAGON, BEGGAR))
    for seat in (None, 1, 2, 4):
        assert "reveals the Dragon" not in "\n".join(G.view(s, seat).public)
        assert G.view(s, seat) == G.view(swapped, seat)


def test_atcourt_beggar_stays_wise() -> None:
    s = court((DRAGON, KING, KNIGHT, WITCH, BEGGAR))
    s, _ = act(s, 1, "end")
    s, _ = act(s, 1, "accuse:0")
    s, _ = act(s, 4, "stay")
    out = G.outcome(s)
    assert out is not None
    assert {r.seat: (r.place, r.team) for r in out.results} == {
        0: (2, WICKED),
        1: (1, WISE),
        2: (1, WISE),
        3: (2, WICKED),
        4: (1, WISE),
    }


@pytest.mark.parametrize("accused,wicked_win", [(0, False), (2, True)])
def test_atcourt_beggar_joins_the_wicked(accused: int, wicked_win: bool) -> None:
    s = court((DRAGON, KING, KNIGHT, WITCH, BEGGAR))
    s, _ = act(s, 1, "end")
    s, _ = act(s, 1, f"accuse:{accused}")
    s, events = act(s, 4, "join")
    assert any("{p4} reveals the Beggar" in t for t in public_texts(events))
    out = G.outcome(s)
    assert out is not None
    teams = {r.seat: r.team for r in out.results}
    assert teams == {0: WICKED, 1: WISE, 2: WISE, 3: WICKED, 4: WICKED}
    winner_place = {WICKED: 1 if wicked_win else 2, WISE: 2 if wicked_win else 1}
    assert places(s) == {seat: winner_place[team] for seat, team in teams.items()}  # type: ignore[index]


def test_atcourt_accused_beggar_gets_no_window() -> None:
    s = court((DRAGON, KING, KNIGHT, WITCH, BEGGAR))
    s, _ = act(s, 1, "end")
    s, _ = act(s, 1, "accuse:4")
    assert s.phase == "over"  # straight to the reveal
    assert places(s) == {0: 1, 1: 2, 2: 2, 3: 1, 4: 2}
    assert G.timer(s) is None


def test_atcourt_no_beggar_window_with_four_players() -> None:
    s = court((DRAGON, KING, KNIGHT, WITCH))
    s, _ = act(s, 1, "end")
    s, _ = act(s, 1, "accuse:2")
    assert s.phase == "over"


def test_atcourt_teams_follow_the_cards_held_at_the_end() -> None:
    s = court((KNIGHT, KING, DRAGON, WITCH, BEGGAR), seed=5)
    s, _ = act(s, 3, "witch")
    s = replace(s, cards=(DRAGON, KING, WITCH, BEGGAR, KNIGHT))  # the re-deal, fixed by hand
    s, _ = act(s, 0, "peek:2")  # the former Knight now holds the Dragon and may still look
    s, _ = act(s, 1, "end")
    s, _ = act(s, 1, "accuse:2")  # accuses the Witch: not the Dragon
    s, _ = act(s, 3, "stay")
    out = G.outcome(s)
    assert out is not None
    assert {r.seat: (r.team, r.place) for r in out.results} == {
        0: (WICKED, 1),
        1: (WISE, 2),
        2: (WICKED, 1),
        3: (WISE, 2),
        4: (WISE, 2),
    }


def test_awaited_in_questioning_names_no_role_and_the_beggar_window_nobody() -> None:
    """The service's turn timer (and its public reminders) follows ``awaited``. In
    questioning it is everyone but the King until they say they are ready (the same
    decision whatever their card, so the Witch and the former Knight are not singled out),
    then the King. In the Beggar's window nobody is awaited, so the Beggar is never named;
    the rule timer ends it."""
    s = court((DRAGON, KING, KNIGHT, WITCH, BEGGAR))
    assert G.to_act(s) == {0, 1, 2, 3, 4} and G.awaited(s) == {0, 2, 3, 4}
    s, _ = act(s, 3, "witch")
    assert G.to_act(s) == {0, 1, 2, 3, 4} and G.awaited(s) == {0, 2, 3, 4}
    s = replace(s, cards=(DRAGON, KING, KNIGHT, WITCH, BEGGAR))
    for seat in (0, 2, 3, 4):
        s, _ = act(s, seat, "ready")
    assert G.awaited(s) == {1} and G.to_act(s) == {1}
    s, _ = act(s, 1, "end")
    assert G.awaited(s) == G.to_act(s) == {1}  # the accusation is the King's turn
    s, _ = act(s, 1, "accuse:2")
    assert s.phase == "beggar" and G.to_act(s) == {4} and G.awaited(s) == frozenset()
    assert G.timer(s) is not None
    # Elsewhere the awaited seats are those to act.
    d, _ = act(new("defend", 3), 0, "pick:K")
    f = new("find")
    for state in (new("defend"), d, f, new("support"), new("tourney")):
        assert G.awaited(state) == G.to_act(state)
    assert "it does not run in the Beggar's window" in RULES


def test_atcourt_timer_only_in_questioning_and_beggar_window() -> None:
    assert G.timer(new("defend")) is None
    assert G.timer(new("find")) is None
    s = court((DRAGON, KING, KNIGHT, WITCH, BEGGAR))
    q = G.timer(s)
    assert q is not None and (q.seconds, q.seat, q.move) == (300.0, 1, "end")
    s, _ = act(s, 3, "witch")
    q = G.timer(s)
    assert q is not None and (q.seat, q.move) == (1, "end")


# --- errors -----------------------------------------------------------------------------


@pytest.mark.parametrize("variant,players", [("defend", 2), ("defend", 4), ("support", 2), ("tourney", 2)])
def test_pick_errors(variant: str, players: int) -> None:
    s = new(variant, players)
    refused(s, 0, "pick:X", IllegalMove)
    refused(s, 0, "pick:", IllegalMove)
    refused(s, 0, "reveal:1", IllegalMove)
    refused(s, 0, "accuse:1", IllegalMove)
    refused(s, 0, "nonsense", IllegalMove)
    refused(s, players, "pick:K", NotYourTurn)  # no such seat
    refused(s, -1, "pick:K", NotYourTurn)


def test_match_over_refuses_every_move() -> None:
    s, _ = pick_all(new("defend"), DRAGON, KING)
    s, _ = pick_all(s, DRAGON, KING)
    assert G.outcome(s) is not None
    for seat in (0, 1, 5):
        for code in ("pick:K", "nonsense"):
            assert "over" in refused(s, seat, code, MatchOver)
    assert G.legal_moves(s, 0) == [] and G.to_act(s) == frozenset()
    assert G.view(s, None).waiting == "The match is over."


def test_errors_are_game_errors() -> None:
    for kind in (IllegalMove, NotYourTurn, MatchOver, InvalidOptions):
        assert issubclass(kind, GameError)


def test_outcome_is_none_while_running() -> None:
    for variant, n in [
        ("defend", 2),
        ("defend", 3),
        ("find", 2),
        ("support", 2),
        ("tourney", 2),
        ("atcourt", 4),
    ]:
        assert G.outcome(new(variant, n)) is None


def test_outcome_scores() -> None:
    s, _ = pick_all(replace(new("support"), lord=0), KING, KING)
    s, _ = pick_all(s, KING, KING)
    out = G.outcome(s)
    assert out is not None
    assert [(r.seat, r.place, r.score, r.team) for r in out.results] == [(0, 1, 2, None), (1, 2, 0, None)]
    s, _ = act(find_state(DECK, lord=0), 1, "reveal:1")
    out = G.outcome(s)
    assert out is not None
    assert [(r.place, r.score, r.team) for r in out.results] == [(2, None, None), (1, None, None)]
    # defend at three or more is won by outlasting the others: no rounds won to show
    s, _ = pick_all(new("defend", 3), KING, DRAGON, DRAGON)  # seat 0 out
    s, _ = pick_all(s, None, WITCH, KNIGHT)  # Witch thwarts Knight: seat 2 out
    out = G.outcome(s)
    assert out is not None
    assert [(r.place, r.score) for r in out.results] == [(3, None), (1, None), (2, None)]
    s, _ = pick_all(new("defend", 2), KING, BEGGAR)  # two players: best of three rounds
    s, _ = pick_all(s, KING, BEGGAR)
    out = G.outcome(s)
    assert out is not None
    assert [(r.place, r.score) for r in out.results] == [(1, 2), (2, 0)]


# --- default moves, persistence, AI -----------------------------------------------------


def _sample_states() -> list[CrownState]:
    states = [
        new(v, n) for v, n in [("defend", 2), ("defend", 5), ("find", 2), ("support", 2), ("tourney", 2)]
    ]
    states += [new("atcourt", n) for n in (3, 4, 5)]
    s, _ = act(new("defend", 3), 1, "pick:W")
    states.append(s)
    s, _ = pick_all(new("tourney"), KING, DRAGON)
    states.append(s)
    s, _ = act(find_state((KNIGHT, KING, DRAGON, WITCH, BEGGAR)), 1, "reveal:1")
    states.append(s)
    c = court((DRAGON, KING, KNIGHT, WITCH, BEGGAR))
    c1, _ = act(c, 3, "witch")
    states.append(c1)
    c2, _ = act(c1, 2, "peek:0")
    states.append(c2)
    c3, _ = act(c2, 1, "end")
    states.append(c3)
    c4, _ = act(c3, 1, "accuse:0")
    states.append(c4)
    c5, _ = act(c4, c4.cards.index(BEGGAR), "join")
    states.append(c5)
    return states


SAMPLE_STATES = _sample_states()


@pytest.mark.parametrize("index", range(len(SAMPLE_STATES)))
def test_dump_load_roundtrip_and_default_and_ai_moves(index: int) -> None:
    s = SAMPLE_STATES[index]
    data = G.dump(s)
    assert G.load(json.loads(json.dumps(data))) == s
    assert G.load(data) == s
    for seat in G.to_act(s):
        codes = code_set(s, seat)
        assert G.default_move(s, seat).code in codes
        for k in range(5):
            assert G.ai_move(s, seat, Rng.from_seed(k)).code in codes


def test_same_seed_same_match() -> None:
    for variant, n in [("find", 2), ("support", 2), ("atcourt", 5), ("defend", 6)]:
        assert new(variant, n, seed=99) == new(variant, n, seed=99)
    assert {new("atcourt", 5, seed=k).cards for k in range(10)} != {new("atcourt", 5, seed=0).cards}


def test_resample_hides_exactly_what_a_seat_cannot_see() -> None:
    # defend: another seat's pick is resampled, the seat's own is kept.
    s, _ = act(new("defend", 3), 0, "pick:W")
    s, _ = act(s, 1, "pick:D")
    seen = {G.resample(s, 0, Rng.from_seed(k)).chosen for k in range(40)}
    assert all(c[0] == WITCH and c[1] is not None and c[2] is None for c in seen)
    assert len({c[1] for c in seen}) > 1
    # atcourt: own card and the King are known; after a peek so is the peeked card.
    c = court((DRAGON, KING, KNIGHT, WITCH, BEGGAR))
    c, _ = act(c, 3, "witch")
    peeker = c.peeker
    c, _ = act(c, peeker, "peek:4")
    for k in range(30):
        r = G.resample(c, peeker, Rng.from_seed(k))
        assert r.cards[peeker] == c.cards[peeker] and r.cards[1] == KING and r.cards[4] == c.cards[4]
    assert len({G.resample(c, 0, Rng.from_seed(k)).cards for k in range(30)}) > 1


def test_rules_text_states_the_rulings() -> None:
    assert G.rules == RULES
    for phrase in (
        "final once made",
        "hidden until everyone has picked",
        "full deck",
        "share their placing",
        "unused cards",
        "still tied, the round is drawn",
        "equal rounds is a draw",
        "before the King ends questioning",
        "no Witch",
        "5 minutes",
        "30 seconds",
        "stay Wise",
        "pick again",
    ):
        assert phrase in RULES, phrase


@pytest.mark.parametrize(
    "variant,players,min_moves,max_moves",
    [
        ("find", 2, 1, 2),  # one reveal, two after the Knight
        ("tourney", 2, 10, 10),  # five rounds, two picks each
        ("support", 2, 4, 6),  # best of three, every round decided
        ("atcourt", 3, 2, 4),  # (2 ready,) end, accuse
        ("atcourt", 4, 2, 9),  # (2 ready, witch, peek, 3 ready,) end, accuse
        ("atcourt", 5, 2, 11),  # (3 ready, witch, peek, 4 ready,) end, accuse, (beggar)
    ],
)
def test_random_play_length_is_bounded_by_the_rules(
    variant: str, players: int, min_moves: int, max_moves: int
) -> None:
    for seed in range(60):
        rnd = random.Random(seed)
        s = new(variant, players, seed)
        moves = 0
        while G.outcome(s) is None and moves <= max_moves:
            seat = rnd.choice(sorted(G.to_act(s)))
            s, _ = G.apply(s, seat, rnd.choice(G.legal_moves(s, seat)))
            moves += 1
        assert G.outcome(s) is not None and min_moves <= moves <= max_moves, (seed, moves)


@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_defend_random_play_decides_few_rounds(players: int) -> None:
    """Two players: at most three decided rounds; more: at most players - 1 eliminating rounds."""
    for seed in range(40):
        rnd = random.Random(seed)
        s = new("defend", players, seed)
        picks = 0
        while G.outcome(s) is None:
            seat = rnd.choice(sorted(G.to_act(s)))
            s, _ = G.apply(s, seat, rnd.choice(G.legal_moves(s, seat)))
            picks += 1
            assert picks < 3000, "defend does not end"
        decided = s.round - 1
        assert 1 <= decided <= (3 if players == 2 else players - 1)
        if players == 2:
            assert max(s.wins) == 2


@pytest.mark.parametrize("variant", ["defend", "find", "support", "tourney", "atcourt"])
def test_the_table_title_names_the_variant_without_the_lobbys_player_counts(variant: str) -> None:
    """ "Tourney for the King (2)" is a choice in the lobby; the table's title is the
    variant's name alone."""
    players = 3 if variant == "atcourt" else 2
    title = G.view(G.setup(players, 1, {"variant": variant}), None).board[0]
    assert title.startswith("**") and "(" not in title.split("**")[1], title
