"""King and Crown's secret picks: every seat learns the last reveal in its hand, and the
reveal's line says who took the round.

A player QA pass found that whoever picked first never saw the reveal in their hand (its
events came with the other player's move), and that the tourney's closing line, "Last reveal
(round 5): ann King (5), bob Beggar (1). bob wins the tourney 3 to 2.", read as if the
Beggar had beaten the King.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from bot.games.crown import BEGGAR, DECK, DRAGON, GAME, KING, KNIGHT, WITCH, CrownState
from bot.games.crown.cards import card_label

G = GAME


def new(variant: str, players: int = 2) -> CrownState:
    return G.setup(players, 7, {"variant": variant})


def pick(state: CrownState, seat: int, card: str) -> CrownState:
    after, _ = G.apply(state, seat, f"pick:{card}")
    return after


def reveal_line(state: CrownState, seat: int) -> str:
    """The public line the seat's hand shows beside its next pick."""
    [line] = G.view(state, seat).table_context
    return line


@pytest.mark.parametrize("variant", ["defend", "support", "tourney"])
def test_the_first_picker_learns_the_reveal_beside_the_next_pick(variant: str) -> None:
    s = pick(new(variant), 0, WITCH)
    assert G.view(s, 0).table_context == () and G.view(s, 1).table_context == (), "no reveal yet"
    s = pick(s, 1, DRAGON)  # Dragon thwarts Witch; 6 is even; the higher card
    winner = s.wins.index(1)
    for seat in (0, 1):
        assert seat in G.to_act(s)
        line = reveal_line(s, seat)
        assert line.startswith("Last reveal (round 1): {p0} Witch (2), {p1} Dragon (4): ")
        assert line.endswith(f"{{p{winner}}} wins round 1")


@pytest.mark.parametrize("variant", ["defend", "support", "tourney"])
def test_a_pick_of_the_next_round_does_not_show_beside_the_reveal(variant: str) -> None:
    s = pick(pick(new(variant), 0, WITCH), 1, DRAGON)
    lines = {reveal_line(pick(s, 0, m.code[len("pick:") :]), 1) for m in G.legal_moves(s, 0)}
    assert lines == {reveal_line(s, 1)}, "the other seat's hand says nothing of the new pick"


@pytest.mark.parametrize("a,b", list(itertools.product(DECK, DECK)))
@pytest.mark.parametrize("variant", ["defend", "support", "tourney"])
def test_the_line_names_whoever_the_round_went_to(variant: str, a: str, b: str) -> None:
    s = new(variant)
    after = pick(pick(s, 0, a), 1, b)
    line = reveal_line(after, 0)
    assert f"{{p0}} {card_label(a)}, {{p1}} {card_label(b)}: " in line
    if after.wins == s.wins:  # nobody took it
        assert "wins" not in line and ("pick again" in line or "drawn" in line)
    else:
        assert line.endswith(
            f"{{p{after.wins.index(1)}}} wins round 1"
            + (" on unused cards" if a == b and variant == "tourney" else "")
        )


def test_a_tourney_tie_is_decided_or_drawn_on_unused_cards() -> None:
    s = new("tourney")
    s = pick(pick(s, 0, KING), 1, KING)
    assert reveal_line(s, 0).endswith(": round 1 is drawn")
    s = pick(pick(s, 0, BEGGAR), 1, KNIGHT)  # bob keeps Beggar (1), ann Knight (3)
    s = pick(pick(s, 0, DRAGON), 1, DRAGON)
    assert reveal_line(s, 1).endswith(": {p0} wins round 3 on unused cards")


def test_the_tourney_end_says_who_took_the_last_round() -> None:
    s = new("tourney")
    for a, b in [(DRAGON, WITCH), (KNIGHT, KING), (WITCH, DRAGON), (BEGGAR, KNIGHT), (KING, BEGGAR)]:
        s = pick(pick(s, 0, a), 1, b)
    assert s.wins == (2, 3)
    out = G.outcome(s)
    assert out is not None
    assert out.summary == (
        "Last reveal (round 5): {p0} King (5), {p1} Beggar (1): {p0} wins round 5. {p1} wins the tourney 3 to 2."
    )


@pytest.mark.parametrize("variant", ["defend", "support"])
def test_a_best_of_three_end_says_who_took_the_last_round(variant: str) -> None:
    s = replace(new(variant), lord=1) if variant == "support" else new(variant)
    for _ in range(2):  # Dragon thwarts Witch; 2 + 4 is even: the lord, seat 1, wins
        s = pick(pick(s, 0, WITCH), 1, DRAGON)
    out = G.outcome(s)
    assert out is not None
    assert out.summary == (
        "Last reveal (round 2): {p0} Witch (2), {p1} Dragon (4): {p1} wins round 2. {p1} wins the match 2 to 0."
    )


def test_defend_with_more_says_who_went_out() -> None:
    s = new("defend", 3)
    s = pick(pick(pick(s, 0, KING), 1, KING), 2, KING)
    assert reveal_line(s, 2).endswith(": nobody goes out, pick again")
    s = pick(pick(pick(s, 0, KING), 1, KING), 2, DRAGON)
    assert G.view(s, None).board[1].endswith(": {p0} and {p1} are out")
    assert G.outcome(s) is not None and G.outcome(s).summary.startswith(
        "Last reveal (round 1): {p0} King (5), {p1} King (5), {p2} Dragon (4): {p0} and {p1} are out. "
    )
