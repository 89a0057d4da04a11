"""The ``dynasty`` deck table: totals, per-card counts and values, options."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.games.base import InvalidOptions
from bot.games.dynasty import GAME
from bot.games.dynasty.cards import (
    CODE,
    KIND,
    KIND_NAME,
    NUM,
    POINTS,
    RANK,
    SUIT,
    SUIT_NAMES,
    build_deck,
)
from bot.games.dynasty.catalogue import tables_for
from bot.games.dynasty.game import parse_options
from bot.games.dynasty.rules import RULES, RULES_SECTIONS


def by_name(deck: tuple[int, ...]) -> Counter[str]:
    return Counter(KIND_NAME[KIND[f]] for f in deck if KIND[f] != NUM)


def numbers(deck: tuple[int, ...]) -> Counter[tuple[int, str]]:
    return Counter((RANK[f], SUIT_NAMES[SUIT[f]]) for f in deck if KIND[f] == NUM)


def test_deck_totals() -> None:
    assert len(build_deck("classic")) == 108
    assert len(build_deck("dynasty")) == 163
    assert len(build_deck("bonus")) == 199
    assert len(build_deck("bonus", secret_key=True)) == 200


def test_classic_number_cards_and_uneven_splits() -> None:
    nums = numbers(build_deck("classic"))
    assert sum(nums.values()) == 62
    suits = ("gold", "green", "blue", "burgundy")
    for rank in (1, 2, 3):
        assert all(nums[(rank, s)] == 2 for s in suits)
    for rank in (9, 10):
        assert all(nums[(rank, s)] == 1 for s in suits)
    doubles = {
        4: {"gold", "green"},
        5: {"green", "blue"},
        6: {"blue", "burgundy"},
        7: {"burgundy", "gold"},
        8: {"gold", "green"},
    }
    for rank, two in doubles.items():
        assert {s for s in suits if nums[(rank, s)] == 2} == two
        assert sum(nums[(rank, s)] for s in suits) == 6


def test_dynasty_number_cards() -> None:
    kd = numbers(build_deck("dynasty")) - numbers(build_deck("classic"))
    assert sum(kd.values()) == 31
    for rank in (1, 2, 3):
        assert kd[(rank, "purple")] == kd[(rank, "silver")] == 2
    for rank in (4, 5, 6, 7, 8):
        two = "purple" if rank % 2 == 0 else "silver"
        one = "silver" if two == "purple" else "purple"
        assert kd[(rank, two)] == 2 and kd[(rank, one)] == 1
    for rank in (9, 10):
        assert kd[(rank, "purple")] == kd[(rank, "silver")] == 1


def test_bonus_number_cards() -> None:
    bonus = numbers(build_deck("bonus")) - numbers(build_deck("dynasty"))
    assert sum(bonus.values()) == 30
    for rank in (0, 1, 2, 3, 4, 6, 8):
        assert bonus[(rank, "orange")] == 2
    for rank in (5, 7, 9, 10):
        assert bonus[(rank, "orange")] == 1
    for s in ("gold", "green", "blue", "burgundy", "purple", "silver"):
        assert bonus[(0, s)] == 2


def test_scroll_and_shield_counts() -> None:
    classic = by_name(build_deck("classic"))
    assert classic == Counter(
        {
            "Fair Maiden": 8,
            "Drawbridge": 8,
            "Queen's Option": 2,
            "Knight": 4,
            "Court Jester": 4,
            "Wizard": 1,
            "Dragon": 4,
            "King": 4,
            "Duke": 4,
            "Royal Decree": 1,
            "Magician": 1,
            "Magic Potion": 1,
            "Protector": 2,
            "Dungeon": 2,
        }
    )
    kd = by_name(build_deck("dynasty")) - classic
    assert kd == Counter(
        {
            "Fair Maiden": 2,
            "Drawbridge": 2,
            "Queen's Option": 1,
            "Knight": 2,
            "Court Jester": 2,
            "Queen": 2,
            "Duchess": 2,
            "Dark Knight": 1,
            "Poison Garden": 1,
            "Castle Fire": 1,
            "King's Goblet": 1,
            "Cannonball": 1,
            "Catapult": 1,
            "Flaming Arrow": 1,
            "Siege Tower": 1,
            "Imperial Tax": 1,
            "Defender": 2,
        }
    )
    bonus = by_name(build_deck("bonus")) - by_name(build_deck("dynasty"))
    assert bonus == Counter(
        {
            "Fair Maiden": 1,
            "Drawbridge": 1,
            "Knight": 1,
            "Court Jester": 1,
            "Hidden Treasure": 1,
            "Warlord": 1,
        }
    )
    qo = sorted(CODE[f] for f in build_deck("dynasty") if KIND_NAME[KIND[f]] == "Queen's Option")
    assert qo == ["QOgdbl", "QOgnbu", "QOpusi"]


def test_point_values() -> None:
    expected = {
        "Fair Maiden": 20,
        "Drawbridge": 20,
        "Queen's Option": 30,
        "Knight": 20,
        "Court Jester": 20,
        "Wizard": 50,
        "Dragon": 35,
        "King": 25,
        "Queen": 25,
        "Duke": 20,
        "Duchess": 20,
        "Royal Decree": 50,
        "Magician": 50,
        "Magic Potion": 0,
        "Protector": 35,
        "Dungeon": 35,
        "Dark Knight": 100,
        "Poison Garden": 75,
        "Castle Fire": 75,
        "King's Goblet": 50,
        "Cannonball": 35,
        "Catapult": 35,
        "Flaming Arrow": 35,
        "Siege Tower": 35,
        "Imperial Tax": 35,
        "Defender": -35,
        "Hidden Treasure": -100,
        "Warlord": 50,
        "Secret Key": 35,
    }
    for f in set(build_deck("bonus", secret_key=True)):
        if KIND[f] == NUM:
            assert POINTS[f] == RANK[f]
        else:
            assert POINTS[f] == expected[KIND_NAME[KIND[f]]], KIND_NAME[KIND[f]]


def test_cards_option_switches_expansion_cards() -> None:
    cfg = parse_options(4, {"deck": "dynasty", "cards": "no-risk,no-catapult,key"})
    deck = tables_for(cfg).deck
    names = by_name(deck)
    assert not names["Dark Knight"] and not names["Poison Garden"] and not names["Catapult"]
    assert names["Secret Key"] == 1 and names["Cannonball"] == 1 and len(deck) == 163 - 5 + 1
    assert len(tables_for(parse_options(2, {"deck": "bonus", "cards": "no-shields"})).deck) == 199 - 13
    assert tables_for(parse_options(2, {"deck": "classic"})).suits == (0, 1, 2, 3)
    assert len(tables_for(parse_options(2, {"deck": "bonus"})).suits) == 7


def test_options_and_player_counts() -> None:
    assert parse_options(2, {}).limit == 750
    assert parse_options(2, {"deck": "classic"}).limit == 500
    assert parse_options(2, {"limit": "1234"}).limit == 1234
    for n, opts in [
        (1, {}),
        (9, {}),
        (3, {"partners": "on"}),
        (2, {"partners": "on"}),
        (2, {"deck": "huge"}),
        (2, {"limit": "12"}),
        (2, {"limit": "x"}),
        (2, {"cards": "no-dragon"}),
        (2, {"colour": "red"}),
        (2, {"partners": "maybe"}),
    ]:
        with pytest.raises(InvalidOptions):
            GAME.check_players(n, opts)
    for n in (4, 6, 8):
        GAME.check_players(n, {"partners": "on"})
    keys = [o.key for o in GAME.options]
    assert len(keys) <= 8 and all(len(o.choices) <= 25 for o in GAME.options)  # two pages of the host's panel


def test_rules_text_sections() -> None:
    assert isinstance(RULES, str) and len(RULES) <= 7000 and GAME.rules == RULES
    assert all(0 < len(s) < 1000 for s in RULES_SECTIONS)
    text = RULES
    for word in (
        "Dungeon",
        "Royal Decree",
        "Protector",
        "Magician",
        "On Guard",
        "Dark Knight",
        "Warlord",
        "Secret Key",
        "Partners",
        "Dealing bonus",
        "halved",
        "Cannonball",
        "Defender",
    ):
        assert word in text
