"""The kit's Pick: a move whose last step chooses several items at once (a multi-select).

Unit tests of the declaration (codes, choices, finding a choice among the legal moves,
typed choices) and of the hand's rendering (one multi-select with min/max values, ids and
values carrying positions only; a button that opens it when the rows are full). The whole
path through Discord is played in tests/e2e/test_e2e_court.py and the generic e2e suites."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from bot.games.base import Move, Pick, find_move
from bot.service.snapshot import resolve_move, typed_parts
from bot.ui.hand import hand_view

ITEMS = (("7h", "7♥"), ("7s", "7♠"), ("2c", "2♣"), ("Th", "10♥"))
FOLLOW = Move("play:7h.7s", ("Play 2 cards",), Pick("play", ITEMS, 2, 2))
LEAD = Move("lead:2c", ("Lead 1 to 4 cards",), Pick("lead", ITEMS, 1, 4))


def test_a_pick_orders_its_code_and_checks_count_and_items() -> None:
    pick = FOLLOW.pick
    assert pick is not None
    assert pick.code(["7s", "7h"]) == "play:7h.7s"  # the items' order: one code per choice
    assert pick.parts("play:7s.2c") == ("7s", "2c")
    assert pick.parts("play:7h") is None  # too few
    assert pick.parts("play:7h.7h") is None  # twice
    assert pick.parts("play:7h.Kd") is None  # not an item
    assert pick.parts("lead:7h.7s") is None  # another stem
    assert pick.parts("play") is None


def test_choose_labels_the_items_chosen() -> None:
    move = FOLLOW.choose(["2c", "7h"])
    assert move.code == "play:7h.2c" and move.label == "Play 2 cards: 7♥ 2♣" and move.pick is None


def test_find_move_finds_listed_moves_and_any_choice_of_a_pick() -> None:
    done = Move.simple("done", "Pass")
    moves = [LEAD, done]
    assert find_move(moves, "done") is done
    found = find_move(moves, "lead:7h.7s")
    assert found is not None and found.code == "lead:7h.7s" and "7♥ 7♠" in found.label
    assert find_move(moves, "lead:2c") is not None and "2♣" in (find_move(moves, "lead:2c") or done).label
    assert find_move(moves, "lead:") is None and find_move(moves, "play:7h.7s") is None


def test_typed_choices_by_code_or_label_any_case() -> None:
    assert typed_parts(FOLLOW, "7H 7s") == ["7h", "7s"]
    assert typed_parts(FOLLOW, "10♥, 2♣") == ["Th", "2c"]
    assert typed_parts(FOLLOW, "play:7h.7s") == ["7h", "7s"]  # an autocompleted value
    assert typed_parts(FOLLOW, "7h Kd") is None
    assert typed_parts(FOLLOW, "7h 7", partial=True) == ["7h"]  # the last word is being typed
    assert typed_parts(FOLLOW, "7h 7s ", partial=True) == ["7h", "7s"]
    assert (
        resolve_move([FOLLOW], "7s 2c") is not None and resolve_move([FOLLOW], "7s 2c").code == "play:7s.2c"
    )  # type: ignore[union-attr]
    assert resolve_move([FOLLOW], "7s") is None  # too few for this pick
    assert resolve_move([FOLLOW], "play:7h.7s").code == "play:7h.7s"  # type: ignore[union-attr]


@dataclass
class _Snap:
    id: int = 5
    version: int = 9

    @staticmethod
    def name_text(text: str) -> str:
        return text


def _items(view: discord.ui.View) -> list[Any]:
    """The view's components (the kit wraps each in a DynamicItem)."""
    return [getattr(c, "item", c) for c in view.children]


def _selects(view: discord.ui.View) -> list[Any]:
    return [c for c in _items(view) if isinstance(c, discord.ui.Select)]


def test_the_hand_shows_a_pick_as_one_multi_select_of_positions() -> None:
    view, _node = hand_view(_Snap(), [LEAD, Move.simple("done", "Pass")], [])  # type: ignore[arg-type]
    (select,) = _selects(view)
    assert select.custom_id == "kg:mp:5:9:0"
    assert (select.min_values, select.max_values) == (1, 4)
    assert [o.value for o in select.options] == ["0", "1", "2", "3"]
    assert [o.label for o in select.options] == ["7♥", "7♠", "2♣", "10♥"]
    assert "choose 1-4" in (select.placeholder or "")
    buttons = [c for c in _items(view) if isinstance(c, discord.ui.Button)]
    assert [b.label for b in buttons] == ["Pass"] and buttons[0].custom_id == "kg:m:5:9:1"


def test_a_pick_opens_from_a_button_when_the_rows_are_full() -> None:
    many = [Move(f"x:{i}", ("More", f"Move {i}")) for i in range(16)]
    follow = Move(FOLLOW.code, ("More", "Play 2 cards"), FOLLOW.pick)
    view, _node = hand_view(_Snap(), [*many, follow], [0])  # type: ignore[arg-type]
    assert not _selects(view) and "Play 2 cards" in [getattr(c, "label", "") for c in _items(view)]
    opened, _node = hand_view(_Snap(), [*many, follow], [0, 16])  # type: ignore[arg-type]
    (select,) = _selects(opened)
    assert select.custom_id == "kg:mp:5:9:0.16" and (select.min_values, select.max_values) == (2, 2)


def test_a_pick_of_more_than_25_items_shows_the_first_25() -> None:
    items = tuple((f"c{i}", f"card {i}") for i in range(30))
    move = Move("take:c0.c1", ("Take 2",), Pick("take", items, 2, 2))
    view, _node = hand_view(_Snap(), [move], [])  # type: ignore[arg-type]
    (select,) = _selects(view)
    assert len(select.options) == 25 and select.max_values == 2


def test_a_pick_is_not_played_by_its_label_alone() -> None:
    assert resolve_move([FOLLOW], "Play 2 cards") is None
    assert resolve_move([FOLLOW, Move.simple("done", "Pass")], "pass") is not None


CARDS = (("4S", "4♠"), ("5H", "5♥"), ("2C", "2♣"), ("QD", "Q♦"))
COURT_FOLLOW = Move("f:4S", ("Follow",), Pick("f", CARDS, 1, 1))
COURT_PAIR = Move("f:4S.5H", ("Follow",), Pick("f", CARDS, 2, 2))
COURT_TAKE = Move("t:2C", ("Take from the pool",), Pick("t", CARDS, 1, 1))


def _names(choices: Any) -> list[str]:
    return [c.name for c in choices or []]


def test_autocomplete_reads_a_moves_label_typed_before_its_cards() -> None:
    """Typing the move's label (as the list shows it), or part of it, lists the choices;
    nothing typed lists every legal choice (up to 25), not just the move's own one."""
    from bot.ui.choices import pick_choices

    snap: Any = _Snap()
    every = _names(pick_choices(snap, COURT_FOLLOW, ""))
    assert every == ["Follow: 4♠", "Follow: 5♥", "Follow: 2♣", "Follow: Q♦"], every
    assert _names(pick_choices(snap, COURT_FOLLOW, "Follow")) == every
    assert _names(pick_choices(snap, COURT_FOLLOW, "follow: ")) == every
    assert _names(pick_choices(snap, COURT_FOLLOW, "Follow: 4♠")) == ["Follow: 4♠"]
    assert _names(pick_choices(snap, COURT_FOLLOW, "Follow 5")) == ["Follow: 5♥"]
    assert _names(pick_choices(snap, COURT_TAKE, "Take from ")) == [
        "Take from the pool: 2♣",
        "Take from the pool: 4♠",
        "Take from the pool: 5♥",
        "Take from the pool: Q♦",
    ]
    assert "Take from the pool: Q♦" in _names(pick_choices(snap, COURT_TAKE, "Take from the pool: Q"))
    pairs = _names(pick_choices(snap, COURT_PAIR, ""))
    assert pairs[0] == "Follow: 4♠ 5♥" and len(pairs) == 6 and "Follow: 2♣ Q♦" in pairs, pairs
    assert pick_choices(snap, COURT_FOLLOW, "Knock") is None  # neither a card nor this move
    found = resolve_move([COURT_FOLLOW], "Follow: 5♥")  # typed as the list shows it, then sent
    assert found is not None and found.code == "f:5H"


def test_autocomplete_offers_whole_choices_and_the_games_groups_first() -> None:
    """A follow of two never offers one card alone: typing a card offers it paired with each
    other card; a lead offers the sets the hand can make (the pick's groups) before single
    cards, and typing a card offers its set beside it alone."""
    from bot.ui.choices import pick_choices

    snap: Any = _Snap()
    paired = _names(pick_choices(snap, COURT_PAIR, "Follow 5"))
    assert paired == ["Follow: 4♠ 5♥", "Follow: 5♥ 2♣", "Follow: 5♥ Q♦"], paired
    hand = (("4S", "4♠"), ("5H", "5♥"), ("4C", "4♣"), ("4D", "4♦"))
    lead = Move("l:4S", ("Lead",), Pick("l", hand, 1, 4, (("4S", "4C"), ("4S", "4C", "4D"))))
    listed = _names(pick_choices(snap, lead, ""))
    assert listed[:3] == ["Lead: 4♠", "Lead: 4♠ 4♣", "Lead: 4♠ 4♣ 4♦"], listed
    assert "Lead: 5♥" in listed
    typed = _names(pick_choices(snap, lead, "Lead 4♣"))
    assert typed == ["Lead: 4♣", "Lead: 4♠ 4♣", "Lead: 4♠ 4♣ 4♦"], typed
    follow_pair = Move("f:4S.4C", ("Follow",), Pick("f", hand, 2, 2, (("4S", "4C"),)))
    assert _names(pick_choices(snap, follow_pair, "Follow 4♣"))[0] == "Follow: 4♠ 4♣"
