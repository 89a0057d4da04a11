"""Scenario tests for every rule and ruling of ``dynasty`` (hand-built states, fixed seeds).

States are built from a real setup and then overwritten field by field; the draw pile's
top card is the *last* element of ``draw``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bot.games.base import IllegalMove, NotYourTurn, Rng
from bot.games.dynasty import GAME
from bot.games.dynasty.cards import CODE, FACE_OF_CODE, KINGDOM, MATCH_KEY, SUIT, SUIT_OF_CODE
from bot.games.dynasty.catalogue import tables_for
from bot.games.dynasty.deal import deal, reset_hand_fields
from bot.games.dynasty.scoring import hand_points
from bot.games.dynasty.state import (
    ANSWER,
    ASK,
    BATTLE,
    CUT,
    DRAWN,
    ESCORT,
    EXTRA,
    FIRST,
    KEY_PICK,
    OLD_NAMES,
    OVER,
    PLAY,
    DynastyState,
    freeze,
    thaw,
)

FIELD_NAMES = tuple(f.name for f in dataclasses.fields(DynastyState) if f.init)

FILL = "9bu"  # filler for draw piles: never playable on the gold/green tops used below


def F(code: str) -> int:
    return FACE_OF_CODE[code]


def build(
    n: int = 2,
    hands: tuple[tuple[str, ...], ...] | list[list[str]] = (),
    top: str = "5gd",
    suit: str | None = None,
    turn: int = 0,
    draw: list[str] | None = None,
    phase: int = PLAY,
    opts: dict[str, str] | None = None,
    deck: str = "bonus",
    **fields: Any,
) -> DynastyState:
    s = GAME.setup(n, 11, {"deck": deck, **(opts or {})})
    w = thaw(s)
    hs = [tuple(sorted(F(c) for c in h)) for h in hands]
    hs += [()] * (n - len(hs))
    w.hands = tuple(hs)
    w.in_front = ((),) * n
    w.set_aside = ((),) * n
    w.dungeon = ((),) * n
    w.lost_turns = (0,) * n
    w.on_guard = (0,) * n
    w.may_escape = w.penalised = w.dark_knight_open = w.waived = 0
    w.dark_knight_bets = ()
    tf = F(top)
    w.discard_pile = (F("1gn"), tf)
    if KINGDOM[tf]:
        w.match_key = -1
        w.suit = SUIT_OF_CODE[suit or "gd"]
    else:
        w.match_key = MATCH_KEY[tf]
        w.suit = SUIT[tf] if suit is None else SUIT_OF_CODE[suit]
    w.draw_pile = tuple(F(c) for c in (draw if draw is not None else [FILL] * 30))
    w.turn = turn
    w.dealer = (turn - 1) % n
    w.phase = phase
    w.direction = 1
    w.warlord = -1
    w.escorting_first_card = False
    w.skips = w.cards_played = w.pending_draws = 0
    w.pending_dungeons = ()
    w.drawbridge_may_stack = False
    w.draw_source = w.draw_target = -1
    w.suit_before_draw = w.suit
    w.partner_asked = 0
    w.battle = ()
    w.battle_waiting = w.battle_defended = 0
    w.stalled_turns = w.hand_turns = w.match_turns = 0
    w.top_acts_as = -1
    w.totals = (0,) * len(w.totals)
    w.added_points = (0,) * n
    for k, v in fields.items():
        setattr(w, k, v)
    return freeze(w)


def do(s: DynastyState, seat: int, code: str) -> tuple[DynastyState, str]:
    s2, ev = GAME.apply(s, seat, code)
    return s2, " | ".join(e.text for e in ev if e.seat is None)


def codes(s: DynastyState, seat: int) -> list[str]:
    return [m.code for m in GAME.legal_moves(s, seat)]


def plays(s: DynastyState, seat: int) -> list[str]:
    """Legal codes without the On Guard call (offered whenever the turn player holds two)."""
    return [c for c in codes(s, seat) if c != "og"]


def hand(s: DynastyState, seat: int) -> list[str]:
    return sorted(CODE[f] for f in s.hands[seat])


def sizes(s: DynastyState) -> list[int]:
    return [len(h) for h in s.hands]


def dealt(
    n: int,
    first: str,
    hands: dict[int, list[str]],
    dealer: int = 0,
    seed: int = 3,
    opts: dict[str, str] | None = None,
    fill: str = FILL,
) -> DynastyState:
    """A new hand dealt from a prepared pile: ``hands`` gives each seat's 7 cards."""
    s = GAME.setup(n, seed, {"deck": "bonus", **(opts or {})})
    w = thaw(s)
    T = tables_for(w.config)
    reset_hand_fields(w, n)
    w.in_front = ((),) * n
    w.set_aside = ((),) * n
    w.dealer = dealer
    w.totals = (0,) * T.nteams
    popped: list[str] = []
    for r in range(7):
        for i in range(1, n + 1):
            seat = (dealer + i) % n
            popped.append(hands.get(seat, ["3gd"] * 7)[r])
    pile = [fill] * 20 + [first] + list(reversed(popped))
    w.draw_pile = tuple(F(c) for c in pile)
    ev: list = []
    deal(w, T, ev)
    w.log = tuple(e.text for e in ev if e.seat is None)
    return freeze(w)


# --- a turn -----------------------------------------------------------------------------


def test_play_by_suit_kind_or_kingdom() -> None:
    s = build(hands=[["7gd", "5bl", "9gn", "DUK", "DEC"], ["2gn"]])
    c = codes(s, 0)
    assert "p:7gd" in c and "p:5bl" in c and "p:DUK:gn" in c and "d" in c
    assert "p:9gn" not in c and "p:DEC" not in c
    with pytest.raises(IllegalMove, match="does not match"):
        GAME.apply(s, 0, "p:9gn")
    with pytest.raises(IllegalMove, match="answer"):
        GAME.apply(s, 0, "p:DEC")
    with pytest.raises(NotYourTurn):
        GAME.apply(s, 1, "p:2gn")


def test_draw_then_play_the_drawn_card_or_pass() -> None:
    s = build(hands=[["7gd", "9gn"], ["2bl", "3gd"]], draw=[FILL] * 5 + ["5bl"])
    s1, _ = do(s, 0, "d")
    assert s1.phase == DRAWN and s1.turn == 0 and "p:5bl" in codes(s1, 0) and "pass" in codes(s1, 0)
    s2, _ = do(s1, 0, "p:5bl")
    assert s2.turn == 1 and hand(s2, 0) == ["7gd", "9gn"]
    s3, text = do(s1, 0, "pass")
    assert len(s3.hands[0]) == 3 and "passes" in text


def test_cannot_play_draws_automatically_and_passes_if_still_stuck() -> None:
    s = build(hands=[["7gd", "8gd"], ["9gn", "2bu"]])
    s1, text = do(s, 0, "p:7gd")
    assert "cannot play, draws a card and passes" in text
    assert len(s1.hands[1]) == 3 and s1.turn == 0
    s = build(hands=[["7gd", "8gd"], ["9gn", "2bu"]], draw=[FILL] * 5 + ["4gd"])
    s1, text = do(s, 0, "p:7gd")
    assert "cannot play and draws a card" in text
    assert s1.turn == 1 and s1.phase == DRAWN and codes(s1, 1)[:1] == ["p:4gd"]


def test_empty_draw_pile_reshuffles_the_discard_pile_except_the_top() -> None:
    s = build(hands=[["7gd", "8gd"], ["2gd"]], draw=[])
    w = thaw(s)
    w.discard_pile = (F("4bl"), F("6bl"), F("5gd"))
    s = freeze(w)
    s1, text = do(s, 0, "d")
    assert "shuffled into a new draw pile" in text
    assert CODE[s1.discard_pile[-1]] == "5gd" and len(s1.discard_pile) == 1
    assert len(s1.draw_pile) == 1 and len(s1.hands[0]) == 3


def test_hand_blocked_when_nobody_can_play_or_draw() -> None:
    s = build(hands=[["9gn"], ["9bu"]], draw=[])
    w = thaw(s)
    w.discard_pile = (F("5gd"),)
    s = freeze(w)
    assert codes(s, 0) == ["pass"]
    s1, text = do(s, 0, "pass")
    assert "blocked" in text and s1.hand_number == s.hand_number + 1
    assert s1.totals == (9, 9)


# --- suit scrolls ------------------------------------------------------------------------


def test_knight_reverses_and_skips_with_two_players() -> None:
    s = build(n=3, hands=[["KNgd", "2bu"], ["2gn"], ["3gn"]])
    s1, _ = do(s, 0, "p:KNgd")
    assert s1.direction == -1 and s1.turn == 2
    s = build(n=2, hands=[["KNgd", "2gd"], ["2gn"]])
    s1, _ = do(s, 0, "p:KNgd")
    assert s1.direction == 1 and s1.turn == 0
    assert "skip" in next(m for m in GAME.legal_moves(s, 0) if m.code == "p:KNgd").label


def test_court_jester_skips_the_next_player() -> None:
    s = build(n=3, hands=[["CJgd", "2bu"], ["2gn"], ["3gn"]])
    s1, _ = do(s, 0, "p:CJgd")
    assert s1.turn == 2


def test_drawbridge_next_player_draws_two_and_loses_the_turn() -> None:
    s = build(n=3, hands=[["DBgd", "2bu"], ["2gn"], ["3gd"]])
    s1, text = do(s, 0, "p:DBgd")
    assert len(s1.hands[1]) == 3 and s1.turn == 2 and "draws 2 cards" in text


def test_drawbridge_stacks_and_passes_on() -> None:
    s = build(n=3, hands=[["DBgd", "2bl"], ["DBbl", "2gn"], ["3gd"]])
    s1, _ = do(s, 0, "p:DBgd")
    assert s1.phase == ANSWER and s1.turn == 1 and "p:DBbl" in codes(s1, 1) and "acc" in codes(s1, 1)
    s2, _text = do(s1, 1, "p:DBbl")
    assert len(s2.hands[2]) == 5 and s2.turn == 0 and SUIT[F("DBbl")] == s2.suit
    s3, _ = do(s1, 1, "acc")
    assert len(s3.hands[1]) == 4 and s3.turn == 2


def test_queens_option_either_suit_and_its_choices() -> None:
    s = build(n=3, hands=[["QOgdbl", "2bu"], ["2gn"], ["3gd"]], top="5bl")
    qo = [c for c in codes(s, 0) if c.startswith("p:QO")]
    assert len(qo) == 6
    s1, _ = do(s, 0, "p:QOgdbl:s:gd")
    assert s1.turn == 2 and s1.suit == SUIT_OF_CODE["gd"]
    s = build(n=3, hands=[["QOgdbl", "2bu"]], top="5gn")
    assert not [c for c in codes(s, 0) if c.startswith("p:QO")]
    s = build(n=3, hands=[["QOgdbl", "2bu"]], top="QOgnbu", suit="gn")
    assert [c for c in codes(s, 0) if c.startswith("p:QO")]  # same kind
    s = build(n=2, hands=[["QOgdbl", "2bu"]], top="5bl")
    two = [c for c in codes(s, 0) if c.startswith("p:QO")]
    assert len(two) == 4 and not any(":r:" in c for c in two)


def test_fair_maiden_needs_an_escort() -> None:
    s = build(hands=[["FMgd", "9bu"], ["2gn"]])
    assert "p:FMgd" not in codes(s, 0)
    with pytest.raises(IllegalMove, match="escort"):
        GAME.apply(s, 0, "p:FMgd")
    s = build(hands=[["FMgd", "7gd", "9bu"], ["2gd"]])
    s1, _ = do(s, 0, "p:FMgd")
    assert s1.phase == ESCORT and plays(s1, 0) == ["p:7gd"]
    s2, _ = do(s1, 0, "p:7gd")
    assert s2.turn == 1 and hand(s2, 0) == ["9bu"]


def test_fair_maiden_escorted_by_another_maiden_or_a_kingdom_card() -> None:
    s = build(hands=[["FMgd", "FMbl", "9bu"], ["2gn"]])
    s1, _ = do(s, 0, "p:FMgd")
    s2, _ = do(s1, 0, "p:FMbl")
    assert s2.turn == 1 and s2.phase != ESCORT
    s = build(hands=[["FMgd", "DUK", "9bu"], ["2gn"]])
    s1, _ = do(s, 0, "p:FMgd")
    assert any(c.startswith("p:DUK") for c in codes(s1, 0))


def test_goblet_taking_a_last_card_escort_leaves_the_maiden_alone() -> None:
    s = build(hands=[["FMgd", "POT"], ["2gn"]], in_front=((), (F("GOB"),)))
    s1, _ = do(s, 0, "p:FMgd")
    assert s1.phase == ESCORT and codes(s1, 0) == ["p:POT"]
    s2, _ = do(s1, 1, "r:GOB")
    assert s2.phase == ESCORT and codes(s2, 0) == ["x"]


# --- wild cards ---------------------------------------------------------------------------


def test_dragon_names_the_suit_and_next_draws_three() -> None:
    s = build(hands=[["DRA", "9bu", "3bl"], ["2gn"]])
    s1, _ = do(s, 0, "p:DRA:bl")
    assert s1.suit == SUIT_OF_CODE["bl"] and len(s1.hands[1]) == 4 and s1.turn == 0


def test_wizard_skip_hits_the_player_after_the_skipped_one() -> None:
    s = build(n=3, hands=[["WIZ", "9bu", "9gn"], ["2gn"], ["3gn"]])
    s1, _ = do(s, 0, "p:WIZ:s:gn")
    assert s1.phase == EXTRA and "x" in codes(s1, 0) and "p:9gn" in codes(s1, 0)
    assert "p:9bu" not in codes(s1, 0)
    s2, _ = do(s1, 0, "x")
    assert sizes(s2) == [2, 1, 6] and s2.turn == 0


def test_wizard_reverse_and_extra_draw_card_adds_up() -> None:
    s = build(n=3, hands=[["WIZ", "DRA", "9bu"], ["2gn"], ["3gn"]])
    s1, _ = do(s, 0, "p:WIZ:r:gd")
    assert s1.direction == -1
    s2, _ = do(s1, 0, "p:DRA:gn")
    assert len(s2.hands[2]) == 9 and len(s2.hands[1]) == 1 and s2.turn == 1


def test_wizard_has_no_direction_choice_with_two_players() -> None:
    s = build(hands=[["WIZ", "9bu"], ["2gn"]], deck="dynasty")
    wiz = [c for c in codes(s, 0) if c.startswith("p:WIZ")]
    assert wiz and all(c.startswith("p:WIZ:k:") for c in wiz) and len(wiz) == 6


def test_king_extra_cards_chain_on_the_named_suit() -> None:
    s = build(hands=[["KIN", "KIN", "7gd", "9bu", "2gn"], ["2gn"]])
    s1, _ = do(s, 0, "p:KIN:gd")
    c = codes(s1, 0)
    assert s1.phase == EXTRA and "p:7gd" in c and "p:KIN:bu" in c and "x" in c and "p:9bu" not in c
    s2, _ = do(s1, 0, "p:KIN:bu")
    assert s2.phase == EXTRA and "p:9bu" in codes(s2, 0)
    s3, _ = do(s2, 0, "p:9bu")
    assert s3.turn == 1 and hand(s3, 0) == ["2gn", "7gd"]


def test_duke_names_the_suit_without_extra() -> None:
    s = build(hands=[["DUK", "7gd", "2gn"], ["2gn"]])
    s1, _ = do(s, 0, "p:DUK:gn")
    assert s1.turn == 1 and s1.suit == SUIT_OF_CODE["gn"]


def test_battle_cards_are_not_extras() -> None:
    s = build(hands=[["KIN", "CAT", "7gd", "9bu"], ["2gn"]])
    s1, _ = do(s, 0, "p:KIN:gd")
    assert s1.phase == EXTRA
    assert not any(c.startswith("p:CAT") for c in codes(s1, 0))


# --- answers to draw cards --------------------------------------------------------------------


def test_royal_decree_sends_the_draw_back_and_reverses() -> None:
    s = build(n=3, hands=[["DRA", "9bu"], ["DEC", "2gn"], ["3gd"]])
    s1, _ = do(s, 0, "p:DRA:gd")
    assert s1.phase == ANSWER and s1.turn == 1 and "p:DEC" in codes(s1, 1)
    s2, text = do(s1, 1, "p:DEC")
    assert s2.direction == -1 and len(s2.hands[0]) == 4 and s2.turn == 2 and "goes back" in text


def test_decree_answers_decree() -> None:
    s = build(n=3, hands=[["DRA", "DEC", "9bu"], ["DEC", "2gn"], ["3gd"]])
    s1, _ = do(s, 0, "p:DRA:gd")
    s2, _ = do(s1, 1, "p:DEC")
    assert s2.phase == ANSWER and s2.turn == 0 and "p:DEC" in codes(s2, 0)
    s3, _ = do(s2, 0, "p:DEC")
    assert len(s3.hands[1]) == 4 and s3.direction == 1 and s3.turn == 2


def test_protector_cancels_and_restores_the_previous_suit() -> None:
    s = build(n=3, hands=[["DRA", "9bu"], ["PRO", "2gn"], ["3gd"]])
    s1, _ = do(s, 0, "p:DRA:bl")
    s2, text = do(s1, 1, "p:PRO")
    assert s2.suit == SUIT_OF_CODE["gd"] and s2.turn == 2 and sizes(s2) == [1, 1, 1]
    assert "cancelled" in text


def test_protector_against_a_first_card_dragon_keeps_the_named_suit() -> None:
    """Issue 11: before, the suit became 'none' (shown as orange in a deck without orange)
    and any suit could be played. No suit was active before a first card: the named one stays."""
    s = build(
        n=3,
        hands=[["9bu", "3gd"], ["PRO", "2gn"], ["3gd", "5bl"]],
        top="DRA",
        suit="bl",
        deck="classic",
        turn=1,
        phase=ANSWER,
        pending_draws=4,
        draw_source=0,
        suit_before_draw=-1,
    )
    assert "p:PRO" in codes(s, 1)
    s2, text = do(s, 1, "p:PRO")
    assert s2.suit == SUIT_OF_CODE["bl"] and "blue stays the suit" in text and "orange" not in text
    assert s2.turn == 2 and {c for c in plays(s2, 2) if c.startswith("p:")} == {"p:5bl"}, (
        "blue only: not any suit"
    )


def test_magician_answers_as_decree_protector_or_drawbridge() -> None:
    s = build(n=3, hands=[["DBgd", "9bu"], ["MAG", "2gn"], ["3gn"]])
    s1, _ = do(s, 0, "p:DBgd")
    c = codes(s1, 1)
    assert {"p:MAG:DEC", "p:MAG:PRO", "p:MAG:DBbl"} <= set(c)
    s = build(n=3, hands=[["DRA", "9bu"], ["MAG", "2gn"], ["3gd"]])
    s1, _ = do(s, 0, "p:DRA:gd")
    c = codes(s1, 1)
    assert "p:MAG:DEC" in c and not any(x.startswith("p:MAG:DB") for x in c)
    s2, _ = do(s1, 1, "p:MAG:PRO")
    assert sizes(s2) == [1, 1, 1] and CODE[s2.top_acts_as] == "PRO"


def test_no_drawbridge_stack_after_a_decree() -> None:
    s = build(n=3, hands=[["DBgd", "DBbl", "9bu"], ["DEC", "2gn"], ["3gd"]])
    s1, _ = do(s, 0, "p:DBgd")
    s2, _ = do(s1, 1, "p:DEC")
    assert len(s2.hands[0]) == 4  # could not stack: drew 2 at once


def test_magician_becomes_any_playable_scroll() -> None:
    s = build(hands=[["MAG", "9bu"], ["2gn"]])
    c = codes(s, 0)
    assert "p:MAG:KNgd" in c and "p:MAG:KNbl" not in c and "p:MAG:DRA:bl" in c
    assert "p:MAG:DEC" not in c and "p:MAG:POT" not in c
    s = build(hands=[["MAG", "9bu"], ["2gn"]], top="KNbl")
    assert "p:MAG:KNgd" in codes(s, 0)
    s1, _ = do(s, 0, "p:MAG:DRA:gn")
    assert len(s1.hands[1]) == 4


def test_magic_potion_and_hidden_treasure_only_as_last_card() -> None:
    s = build(hands=[["POT", "7gd"], ["2gn"]])
    assert "p:POT" not in codes(s, 0)
    with pytest.raises(IllegalMove, match="last card"):
        GAME.apply(s, 0, "p:POT")
    s = build(hands=[["TRE"], ["2gn", "DRA"]])
    s1, text = do(s, 0, "p:TRE")
    assert "goes out" in text and s1.totals == (0, 37)


# --- the Dungeon ---------------------------------------------------------------------------------


def test_dungeon_two_lost_turns_then_escape() -> None:
    s = build(hands=[["DUN", "7gd", "8gd", "2gd"], ["2gn", "3gn"]])
    s1, _ = do(s, 0, "p:DUN")
    assert hand(s1, 0) == ["2gd", "7gd", "8gd"] and CODE[s1.discard_pile[-1]] == "5gd"
    assert s1.dungeon[1] == (F("DUN"),) and s1.lost_turns[1] == 1 and len(s1.hands[1]) == 3 and s1.turn == 0
    s2, _ = do(s1, 0, "p:7gd")
    assert len(s2.hands[1]) == 4 and s2.lost_turns[1] == 0 and s2.may_escape == 2 and s2.turn == 0
    assert 1 in GAME.to_act(s2) and "esc" in codes(s2, 1)
    s3, text = do(s2, 1, "esc")
    assert s3.dungeon[1] == () and CODE[s3.discard_pile[-1]] == "7gd" and F("DUN") in s3.discard_pile
    assert "escapes" in text


def test_missed_dungeon_escape_costs_one_more_turn_then_release() -> None:
    s = build(hands=[["DUN", "7gd", "8gd", "2gd"], ["2gn", "3gn"]])
    s1, _ = do(s, 0, "p:DUN")
    s2, _ = do(s1, 0, "p:7gd")
    s3, text = do(s2, 0, "p:8gd")  # the next player acted: the escape window is gone
    assert s3.dungeon[1] == () and len(s3.hands[1]) == 5 and "missed Dungeon escape" in text
    assert F("DUN") in s3.discard_pile and s3.turn == 0


def test_draw_card_at_a_player_in_the_dungeon_cannot_be_answered() -> None:
    s = build(hands=[["DRA", "7gd", "2gd"], ["DEC", "3gn"]], dungeon=((), (F("DUN"),)), lost_turns=(0, 1))
    s1, _ = do(s, 0, "p:DRA:gd")
    assert len(s1.hands[1]) == 2 + 3 + 1 and s1.lost_turns[1] == 0 and s1.may_escape == 2


def test_second_dungeon_at_a_player_in_the_dungeon() -> None:
    s = build(hands=[["DUN", "7gd", "2gd"], ["2gn"]], dungeon=((), (F("DUN"),)), lost_turns=(0, 1))
    s1, _ = do(s, 0, "p:DUN")
    assert len(s1.dungeon[1]) == 2 and s1.lost_turns[1] == 1 and len(s1.hands[1]) == 2


def test_dungeon_as_last_card_draws_two_and_counts() -> None:
    s = build(hands=[["DUN"], ["2gn"]], draw=["1gn", "4gn", "1bl"])
    s1, text = do(s, 0, "p:DUN")
    assert "goes out" in text and s1.totals == (0, 2 + 1 + 4 + 35)


def test_dungeon_as_last_card_at_a_player_already_in_the_dungeon() -> None:
    s = build(
        hands=[["DUN"], ["2gn"]], draw=["1gn", "4gn", "1bl"], dungeon=((), (F("DUN"),)), lost_turns=(0, 1)
    )
    s1, _ = do(s, 0, "p:DUN")
    assert s1.totals == (0, 2 + 1 + 35 + 35)


def test_the_card_under_a_dungeon_stays_playable_by_kind_and_suit() -> None:
    """Issue 11 / seed: "The 'playable' card remains the card under the Dungeon Card for the
    next player." Before, only the suit was kept and a 5 of another suit was refused."""
    s = build(n=3, hands=[["DUN", "7gd"], ["2gn", "3bu"], ["5bl", "9gd", "2bu"]], top="5gd")
    s2, _ = do(s, 0, "p:DUN")  # seat 1 has no answer: to the Dungeon at once, and seat 2 plays
    assert s2.turn == 2 and s2.dungeon[1], s2.turn
    offered = {c for c in plays(s2, 2) if c.startswith("p:")}
    assert {"p:5bl", "p:9gd"} <= offered and "p:2bu" not in offered


def test_protector_and_decree_against_a_dungeon() -> None:
    s = build(n=3, hands=[["DUN", "7gd"], ["PRO", "2gn"], ["3gn"]])
    s1, _ = do(s, 0, "p:DUN")
    s2, _ = do(s1, 1, "p:PRO")
    assert s2.dungeon == ((), (), ()) and F("DUN") in s2.discard_pile
    s = build(n=3, hands=[["DUN", "7gd"], ["DEC", "2gn"], ["3gd"]])
    s1, _ = do(s, 0, "p:DUN")
    s2, _ = do(s1, 1, "p:DEC")
    assert s2.dungeon[0] == (F("DUN"),) and len(s2.hands[0]) == 2


# --- battle cards --------------------------------------------------------------------------------


def test_cannonball_redeals_from_the_dealers_left() -> None:
    s = build(n=3, hands=[["CAN", "2gd", "3gd", "4gd"], ["2gd", "3gd"], ["5gd", "6gd", "7gd"]])
    assert s.dealer == 2
    s1, text = do(s, 0, "p:CAN")
    assert sizes(s1) == [3, 3, 2] and "collects 8 cards" in text
    assert sorted(f for h in s1.hands for f in h) == sorted(f for h in s.hands for f in h if CODE[f] != "CAN")


def test_defender_keeps_a_hand_out_of_the_cannonball() -> None:
    s = build(n=3, hands=[["CAN", "2gd", "3gd", "4gd"], ["DEF", "3gd"], ["5gd", "6gd", "7gd"]])
    s1, _ = do(s, 0, "p:CAN")
    assert s1.phase == BATTLE and GAME.to_act(s1) == {1} and codes(s1, 1) == ["def", "take"]
    s2, _ = do(s1, 1, "def")
    assert hand(s2, 1) == ["3gd"] and sizes(s2) == [3, 1, 3]


def test_everyone_who_may_answer_a_battle_card_is_named() -> None:
    s = build(n=3, hands=[["CAN", "2gd", "3gd", "4gd"], ["DEF", "3gd"], ["DEF", "6gd", "7gd"]])
    s1, text = do(s, 0, "p:CAN")
    assert s1.phase == BATTLE and GAME.to_act(s1) == {1, 2}
    assert "{p1} and {p2} may answer with a Defender." in text
    assert GAME.view(s1, None).waiting.startswith("Waiting for {p1} and {p2} to answer the Cannonball")


def test_catapult_swaps_hands_unless_defended() -> None:
    s = build(hands=[["CAT", "2gd", "3gd"], ["7bl"]])
    s1, _ = do(s, 0, "p:CAT:1")
    assert hand(s1, 0) == ["7bl"] and hand(s1, 1) == ["2gd", "3gd"]
    s = build(hands=[["CAT", "2gd", "3gd"], ["DEF", "7gd"]])
    s1, _ = do(s, 0, "p:CAT:1")
    s2, _ = do(s1, 1, "def")
    assert hand(s2, 0) == ["2gd", "3gd"] and hand(s2, 1) == ["7gd"]
    s3, _ = do(s1, 1, "take")
    assert hand(s3, 0) == ["7gd", "DEF"]


def test_a_defender_as_next_to_last_card_needs_on_guard() -> None:
    """Issue 11 / seed: On Guard is due each time a player reduces their hand to one card; a
    Defender answer is a play like any other. Before, nobody was asked to call or could catch."""
    s = build(n=3, hands=[["CAT", "2gd", "3gd"], ["DEF", "7gd"], ["4gd", "5bl"]])
    s1, _ = do(s, 0, "p:CAT:1")
    s2, _ = do(s1, 1, "def")
    assert hand(s2, 1) == ["7gd"] and s2.on_guard[1] == 1
    assert "og" in codes(s2, 1), "the defender may still call On Guard"
    assert "c:1" in codes(s2, 2), "the others may catch them until the next player acts"
    s3, _ = do(s2, 1, "og")
    assert s3.on_guard[1] == 2


def test_windows_close_when_the_next_player_is_made_to_draw() -> None:
    """Issue 11: the catch is open only "until the next player acts"; a next player who cannot
    play and draws (the engine does it for them) has acted."""
    s = build(n=3, hands=[["2gd", "3gd"], ["9bu", "8bu"], ["4gd", "1bl"]], draw=["7bu"] * 30)
    s1, _ = do(s, 0, "p:2gd")  # ann keeps one card and does not call On Guard
    # Seat 1 cannot play on gold 2 and draws for nothing: their turn passes at once.
    assert s1.turn == 2, s1.turn
    assert s1.on_guard[0] == 0, "the chance to catch ann lapsed when the next player drew"
    assert not any(c.startswith("c:") for c in codes(s1, 2)), "no catch offered any more"


def test_windows_close_when_a_draw_card_makes_the_next_player_draw() -> None:
    """Issue 11: a Drawbridge the next player cannot answer makes them draw and lose the turn at
    once; they have acted, so the catch of the Drawbridge's player lapses with it."""
    s = build(n=3, hands=[["DBgd", "2bu"], ["2gn"], ["3gd", "4gd"]])
    s1, text = do(s, 0, "p:DBgd")  # ann keeps one card and does not call On Guard
    assert "draws 2 cards" in text and s1.turn == 2, (s1.turn, text)
    assert s1.on_guard[0] == 0, "the chance to catch ann lapsed when the next player drew"
    assert not any(c.startswith("c:") for seat in range(3) for c in codes(s1, seat))


def test_dark_knight_lapses_when_a_draw_card_makes_the_next_player_draw() -> None:
    """Seed: the Dark Knight only "before the next player starts their turn"; a next player made
    to draw by a Drawbridge has had their turn."""
    s = build(n=3, hands=[["DBgd", "2bu"], ["2gn"], ["3gd", "4gd"]], in_front=((), (), (F("DKN"),)))
    s1, text = do(s, 0, "og")
    assert "calls On Guard" in text
    s2, text = do(s1, 0, "p:DBgd")
    assert "draws 2 cards" in text and s2.turn == 2
    assert s2.on_guard[0] == 2, "the call stands"
    assert s2.dark_knight_open == 0 and "r:DKN:0" not in codes(s2, 2)


def test_dark_knight_stays_open_while_the_draw_card_can_still_be_answered() -> None:
    """The next player who holds an answer has not acted yet: the bet is still on offer."""
    s = build(n=3, hands=[["DBgd", "2bu"], ["DBbl", "2gn"], ["3gd", "4gd"]], in_front=((), (), (F("DKN"),)))
    s1, _ = do(s, 0, "og")
    s2, _ = do(s1, 0, "p:DBgd")
    assert s2.phase == ANSWER and s2.turn == 1 and "r:DKN:0" in codes(s2, 2)
    s3, _ = do(s2, 1, "acc")  # taking the draw is acting: the bet lapses
    assert "r:DKN:0" not in codes(s3, 2)


def test_flaming_arrow_may_burn_nothing() -> None:
    """Issue 11 / seed: the player "can" burn a card; burning nothing is allowed."""
    s = build(hands=[["ARR", "WIZ", "2gn"], ["7gd"]])
    assert "p:ARR" in codes(s, 0)
    s1, _text = do(s, 0, "p:ARR")
    assert hand(s1, 0) == ["2gn", "WIZ"] and hand(s1, 1) == ["7gd"], "nothing burned, nothing given"


def test_flaming_arrow_discards_or_gives_a_card() -> None:
    s = build(hands=[["ARR", "WIZ", "2gn"], ["7gd"]])
    s1, _text = do(s, 0, "p:ARR:WIZ:x")
    assert hand(s1, 0) == ["2gn"] and CODE[s1.discard_pile[-1]] == "ARR" and F("WIZ") in s1.discard_pile
    s2, ev = GAME.apply(s, 0, "p:ARR:WIZ:1")
    assert hand(s2, 1) == ["7gd", "WIZ"]
    assert any(e.seat == 1 and "Wizard" in e.text for e in ev)
    assert not any(e.seat is None and "Wizard" in e.text for e in ev)


def test_flaming_arrow_burning_the_last_card_goes_out() -> None:
    s = build(hands=[["ARR", "9bu"], ["7bl", "8bl"]])
    s1, text = do(s, 0, "p:ARR:9bu:x")
    assert "{p0} goes out" in text and s1.totals == (0, 15)


def test_siege_tower_shows_a_hand_privately() -> None:
    s = build(hands=[["SIE", "2gn"], ["7bl", "DRA"]])
    _s1, ev = GAME.apply(s, 0, "p:SIE:1")
    private = [e for e in ev if e.seat == 0]
    assert private and "Dragon" in private[0].text and "7 (blue)" in private[0].text
    assert not any("Dragon" in e.text for e in ev if e.seat != 0)


def test_imperial_tax_takes_a_random_card_from_each_other_hand() -> None:
    s = build(n=3, hands=[["TAX", "2gn"], ["7gd", "8gd"], ["2gd", "3gd", "4gd"]])
    s1, text = do(s, 0, "p:TAX")
    assert sizes(s1) == [1, 2, 3] and len(s1.discard_pile) == len(s.discard_pile) + 3
    assert CODE[s1.discard_pile[-1]] == "TAX" and text.count("Imperial Tax:") == 2


def test_catapult_as_last_card_acts_fully() -> None:
    s = build(hands=[["CAT"], ["7bl", "8bl"]])
    s1, text = do(s, 0, "p:CAT:1")
    assert "{p1} goes out" in text and s1.totals == (15, 0)


def test_defender_as_last_card_goes_out() -> None:
    s = build(hands=[["CAT", "2gn", "3gn"], ["DEF"]])
    s1, _ = do(s, 0, "p:CAT:1")
    s2, text = do(s1, 1, "def")
    assert "{p1} goes out" in text and s2.totals == (5, 0)


def test_secret_key_takes_a_chosen_card_and_reshuffles() -> None:
    s = build(hands=[["KEY", "2gn"], ["7gd"]], draw=["TRE", "3gn", FILL, FILL], opts={"cards": "key"})
    s1, _ = do(s, 0, "p:KEY")
    assert s1.phase == KEY_PICK and set(codes(s1, 0)) == {"k:TRE", "k:3gn", "k:9bu"}
    assert any("Draw pile" in line for line in GAME.view(s1, 0).private)
    assert not any("Draw pile" in line for line in GAME.view(s1, 1).private)
    s2, _ = do(s1, 0, "k:TRE")
    assert hand(s2, 0) == ["2gn", "TRE"] and len(s2.draw_pile) == 3 and s2.turn == 1


# --- Risk cards and the Warlord ----------------------------------------------------------------------


def test_risk_card_drawn_goes_in_front_with_a_replacement() -> None:
    s = build(hands=[["7gd", "2gn"], ["2bl"]], draw=[FILL, "3gd", "POI"])
    s1, text = do(s, 0, "d")
    assert s1.in_front[0] == (F("POI"),) and hand(s1, 0) == ["2gn", "3gd", "7gd"]
    assert "face up in front" in text


def test_poison_garden_ends_the_hand_at_any_moment() -> None:
    s = build(hands=[["7gd", "2gn"], ["2bl", "DRA"]], in_front=((), (F("POI"),)))
    assert GAME.to_act(s) == {0, 1} and codes(s, 1) == ["r:POI", "wait"]
    s1, text = do(s, 1, "r:POI")
    assert "nobody went out" in text and s1.totals == (9 - 75, 37)


def test_castle_fire_redeals_and_costs() -> None:
    s = build(n=3, hands=[["7gd", "2gn"], ["2bl"], ["3bl"]], in_front=((), (F("FIR"), F("GOB")), ()))
    s1, _ = do(s, 1, "r:FIR")
    assert s1.totals == (-75, 0, -75) and sizes(s1) == [7, 7, 7] and s1.hand_number == s.hand_number
    assert F("GOB") in s1.in_front[1] and F("FIR") in s1.set_aside[1]


def test_kings_goblet_everyone_draws_five() -> None:
    s = build(n=3, hands=[["7gd", "2gn"], ["2bl"], ["3bl"]], in_front=((), (F("GOB"),), ()))
    s1, _ = do(s, 1, "r:GOB")
    assert sizes(s1) == [7, 6, 6] and s1.totals == (-50, 0, -50) and s1.turn == 0 and s1.phase == PLAY


def test_dark_knight_only_after_an_on_guard_call() -> None:
    s = build(hands=[["7gd", "2gd"], ["2gd", "3bl"]], in_front=((), (F("DKN"),)))
    s1, _ = do(s, 0, "p:7gd")
    assert s1.turn == 1 and "r:DKN:0" not in codes(s1, 1) and "c:0" in codes(s1, 1)
    s2, text = do(s1, 0, "og")
    assert "calls On Guard" in text and "r:DKN:0" in codes(s2, 1) and "c:0" not in codes(s2, 1)
    s3, _ = do(s2, 1, "r:DKN:0")
    assert s3.dark_knight_bets == ((1, 0),)
    s4, _ = do(s3, 1, "p:2gd")
    assert "r:DKN:0" not in codes(s4, 1)
    s5, _ = do(s4, 0, "p:2gd")  # the On Guard player goes out after all: they deduct 100
    assert s5.totals == (-100, 3)


def test_dark_knight_bet_won_when_the_player_does_not_go_out() -> None:
    s = build(hands=[["9gn"], ["2bl", "3bl"]], dark_knight_bets=((1, 0),), in_front=((), (F("POI"),)))
    s1, _ = do(s, 1, "r:POI")
    assert s1.totals == (9 - 75, 5 - 100)


def test_warlord_plays_another_players_turn() -> None:
    s = build(hands=[["7gd", "2gd", "DRA"], ["2bl", "3bl"]], in_front=((), (F("WAR"),)))
    assert "war" in codes(s, 1)
    s1, _ = do(s, 1, "war")
    assert s1.warlord == 1 and GAME.to_act(s1) == {1} and "p:7gd" in codes(s1, 1)
    assert any("Their hand" in line and "Dragon" in line for line in GAME.view(s1, 1).private)
    assert s1.added_points == (0, 50)
    s2, text = do(s1, 1, "p:2gd")
    assert hand(s2, 0) == ["7gd", "DRA"] and s2.warlord == -1 and "Warlord" in text


def test_warlord_cost_counts_even_when_going_out() -> None:
    s = build(hands=[["7gd", "2gd"], ["2bl"]], added_points=(0, 50), turn=1, top="5bl")
    s1, _ = do(s, 1, "p:2bl")
    assert s1.totals == (9, 50)


# --- On Guard ------------------------------------------------------------------------------------


def test_on_guard_catch_costs_two_cards_and_the_next_turn() -> None:
    s = build(hands=[["7gd", "2gd"], ["2gn", "3gd", "4gd"]])
    s1, _ = do(s, 0, "p:7gd")
    assert s1.on_guard == (1, 0) and GAME.to_act(s1) == {0, 1}
    assert "og" in codes(s1, 0) and "c:0" in codes(s1, 1)
    s2, text = do(s1, 1, "c:0")
    assert s2.penalised == 1 and "draw 2" in text
    s3, text = do(s2, 1, "p:3gd")
    assert len(s3.hands[0]) == 3 and s3.turn == 1 and "On Guard penalty" in text


def test_on_guard_called_while_playing_the_next_to_last_card() -> None:
    s = build(hands=[["7gd", "2gd"], ["2gn", "3gd", "4gd"]], in_front=((), (F("DKN"),)))
    assert "og" in codes(s, 0)
    s1, text = do(s, 0, "og")
    assert "calls On Guard" in text and s1.turn == 0 and "og" not in codes(s1, 0)
    s2, _ = do(s1, 0, "p:7gd")
    assert s2.on_guard == (2, 0) and "c:0" not in codes(s2, 1) and "r:DKN:0" in codes(s2, 1)
    s = build(hands=[["7gd", "2gd"], ["2gn", "3gd", "4gd"]], draw=[FILL, "8gd"])
    s1, _ = do(s, 0, "og")
    s2, _ = do(s1, 0, "d")  # drew instead: three cards, the call is void
    s3, _ = do(s2, 0, "pass")
    assert s3.on_guard == (0, 0) and not s3.called_ahead


def test_on_guard_window_closes_when_the_next_player_acts() -> None:
    s = build(hands=[["7gd", "2gd"], ["2gn", "3gd", "4gd"]])
    s1, _ = do(s, 0, "p:7gd")
    s2, _ = do(s1, 1, "p:3gd")
    assert s2.on_guard == (0, 0) and "c:0" not in codes(s2, 1) and "og" not in codes(s2, 0)


def test_going_out_with_several_cards_needs_no_call() -> None:
    s = build(hands=[["KIN", "7gd"], ["2gn"]])
    s1, _ = do(s, 0, "p:KIN:gd")
    s2, text = do(s1, 0, "p:7gd")
    assert "goes out" in text and s2.totals == (0, 2)


# --- going out and scoring ------------------------------------------------------------------------


def test_draw_card_as_last_card_next_player_draws_and_counts_without_answer() -> None:
    s = build(hands=[["DRA"], ["DEC"]], draw=["1gn", "2gn", "3gn", "4gn"])
    s1, _text = do(s, 0, "p:DRA:bl")
    assert s1.totals == (0, 50 + 4 + 3 + 2)


def test_hand_points() -> None:
    assert hand_points(tuple(F(c) for c in ["7gd", "DRA", "DEF", "QOgdbl"])) == 7 + 35 - 35 + 30
    assert hand_points(tuple(F(c) for c in ["7gd", "DRA", "POT", "DEF"])) == 7 - 35
    assert hand_points(tuple(F(c) for c in ["0or", "TRE", "WIZ"])) == -100 + 50
    assert hand_points((F("2gn"),), (F("DUN"),)) == 37


def test_risk_cards_in_front_do_not_count() -> None:
    s = build(hands=[["7gd"], ["2gn"]], in_front=((), (F("DKN"), F("POI"))))
    s1, _ = do(s, 0, "p:7gd")
    assert s1.totals == (0, 2)


def test_game_ends_above_the_limit_lowest_total_wins() -> None:
    s = build(hands=[["7gd"], ["DRA", "WIZ"]], opts={"limit": "100"}, totals=(60, 40))
    s1, _ = do(s, 0, "p:7gd")
    assert s1.phase == OVER and s1.totals == (60, 125)
    out = GAME.outcome(s1)
    assert out is not None and [r.place for r in out.results] == [1, 2]
    assert "lowest total wins" in out.summary


def test_tied_winners_are_named_together() -> None:
    s = build(
        n=3, hands=[["7gd"], ["DRA"], ["DRA"]], opts={"limit": "100", "hands": "1"}, totals=(90, 40, 40)
    )
    s1, text = do(s, 0, "p:7gd")
    assert s1.phase == OVER and s1.totals == (90, 75, 75)
    assert "Winner: {p1} and {p2}." in text, text


def test_three_tied_winners_are_listed_with_commas_and_and() -> None:
    s = build(
        n=4,
        hands=[["7gd"], ["DRA"], ["DRA"], ["DRA"]],
        opts={"limit": "100", "hands": "1"},
        totals=(90, 40, 40, 40),
    )
    s1, _ = do(s, 0, "p:7gd")
    out = GAME.outcome(s1)
    assert out is not None and [r.place for r in out.results] == [4, 1, 1, 1]
    assert out.summary.startswith("{p1}, {p2} and {p3} win after 1 hand (lowest total wins)."), out.summary


def test_exact_limit_is_halved_and_wins_when_single_lowest() -> None:
    s = build(hands=[["7gd"], ["DRA"]], opts={"limit": "100"}, totals=(30, 65))
    s1, text = do(s, 0, "p:7gd")
    assert s1.totals == (30, 100 // 2) and s1.phase != OVER and "halves" in text
    s = build(hands=[["7bl"], ["2gd"]], opts={"limit": "100"}, totals=(93, 98), turn=1)
    s1, text = do(s, 1, "p:2gd")
    assert s1.totals == (50, 98) and s1.phase == OVER and "wins at once" in text
    assert [r.place for r in GAME.outcome(s1).results] == [1, 2]


def test_partners_share_a_total_and_a_placing() -> None:
    s = build(n=4, hands=[["7gd"], ["WIZ"], ["3gn"], ["4gn"]], opts={"partners": "on", "limit": "50"})
    s1, _ = do(s, 0, "p:7gd")
    assert s1.totals == (3, 50 + 4) and s1.phase == OVER
    out = GAME.outcome(s1)
    assert out is not None
    assert {r.seat: (r.place, r.team) for r in out.results} == {
        0: (1, "A"),
        2: (1, "A"),
        1: (2, "B"),
        3: (2, "B"),
    }


def test_tied_teams_share_a_placing_and_the_next_team_is_placed_densely() -> None:
    """With partners every team is one placing: 8 players (4 teams); C and D tie behind A,
    so B is placed 3rd (dense ranking over teams, not 4th)."""
    hands = [["7gd"], ["WIZ"], ["3gn"], ["4gn"], ["2gn"], ["9gn"], ["3bl"], ["4bl"]]
    s = build(n=8, hands=hands, opts={"partners": "on", "limit": "50"}, totals=(0, 40, 40, 38))
    s1, _ = do(s, 0, "p:7gd")
    # teams: A = seats 0+4, B = 1+5, C = 2+6, D = 3+7
    assert s1.phase == OVER and s1.totals == (2, 40 + 50 + 9, 40 + 3 + 3, 38 + 4 + 4)
    out = GAME.outcome(s1)
    assert out is not None
    assert {r.team: r.place for r in out.results} == {"A": 1, "C": 2, "D": 2, "B": 3}


def test_partner_question_yes_forces_going_out_or_two_cards() -> None:
    s = build(n=4, hands=[["7gd", "2bl"], ["2gn"], ["3gn"], ["4gn"]], opts={"partners": "on"})
    assert "ask" not in codes(s, 0)
    s = build(n=4, hands=[["KIN", "2bl"], ["2gd"], ["3gn"], ["4gn"]], opts={"partners": "on"})
    assert "ask" in codes(s, 0)
    s1, _ = do(s, 0, "ask")
    assert s1.phase == ASK and GAME.to_act(s1) == {2} and codes(s1, 2) == ["yes", "no"]
    s2, _ = do(s1, 2, "yes")
    c = plays(s2, 0)
    assert "d" not in c and "f" in c and c == ["p:KIN:bl", "f"]
    s3, _ = do(s2, 0, "f")
    assert len(s3.hands[0]) == 4 and s3.turn == 1
    s4, _ = do(s1, 2, "no")
    assert "d" in codes(s4, 0) and "ask" not in codes(s4, 0)


def test_dealing_bonus_cut() -> None:
    outcomes = set()
    for seed in range(60):
        s = GAME.setup(4, seed, {"dealing_bonus": "on"})
        assert s.phase == CUT and codes(s, 0) == ["cut", "deal"] and sizes(s) == [0, 0, 0, 0]
        s1, _text = do(s, 0, "cut")
        assert sum(sizes(s1)) >= 28
        if s1.totals == (0, 50, 50, 50):
            outcomes.add("hit")
        else:
            assert s1.totals == (50, 0, 0, 0)
            outcomes.add("miss")
    assert outcomes == {"hit", "miss"}
    s = GAME.setup(2, 1, {"dealing_bonus": "on"})
    s1, _ = do(s, 0, "cut")
    assert sorted(s1.totals) in ([0, 25], [25, 25])


# --- the first card -----------------------------------------------------------------------------


def test_player_left_of_the_dealer_starts() -> None:
    s = dealt(3, "5gd", {})
    assert s.discard_pile == (F("5gd"),) and s.turn == 1 and sizes(s) == [7, 7, 7]


def test_first_card_shield_is_shuffled_back() -> None:
    s = dealt(3, "POI", {}, fill="5gd")
    assert CODE[s.discard_pile[-1]] != "POI" and F("POI") in s.draw_pile
    assert "shuffled back" in " ".join(s.log)


def test_risk_card_dealt_goes_in_front_with_replacement() -> None:
    s = dealt(2, "5gd", {1: ["POI", "3gd", "3gd", "3gd", "3gd", "3gd", "3gd"]}, fill="7bl")
    assert s.in_front[1] == (F("POI"),) and len(s.hands[1]) >= 7
    assert all(F("POI") not in h for h in s.hands)


def test_first_card_drawbridge_jester_knight() -> None:
    s = dealt(3, "DBgd", {})
    assert len(s.hands[1]) == 9 and s.turn == 2
    s = dealt(3, "CJgd", {})
    assert s.turn == 2
    s = dealt(3, "KNgd", {})
    assert s.turn == 2 and s.direction == -1
    s = dealt(2, "KNgd", {})
    assert s.turn == 0


def test_first_card_fair_maiden_dealer_escorts_or_draws() -> None:
    s = dealt(2, "FMgd", {0: ["FMbl", "3gn", "3gn", "3gn", "3gn", "3gn", "3gn"]})
    assert s.turn == 0 and s.escorting_first_card and "p:FMbl" in codes(s, 0)
    s1, _ = do(s, 0, "p:FMbl")
    assert s1.turn == 1
    s = dealt(2, "FMgd", {0: ["3gn"] * 7})
    assert s.turn == 1 and len(s.hands[0]) == 8  # dealer could not escort: drew and passed


def test_first_card_wild_the_dealer_chooses() -> None:
    s = dealt(2, "DRA", {})
    assert s.phase == FIRST and s.turn == 0 and "t:DRA:bl" in codes(s, 0)
    s1, _ = do(s, 0, "t:DRA:gd")
    assert len(s1.hands[1]) == 10 and s1.suit == SUIT_OF_CODE["gd"] and s1.turn == 0
    s = dealt(2, "KIN", {0: ["7gd", "3bl", "3bl", "3bl", "3bl", "3bl", "3bl"]})
    s1, _ = do(s, 0, "t:KIN:gd")
    assert s1.phase == EXTRA and s1.turn == 0 and "p:7gd" in codes(s1, 0)
    s = dealt(3, "WIZ", {})
    s1, _ = do(s, 0, "t:WIZ:r:gd")
    assert s1.phase == EXTRA and s1.turn == 0 and s1.direction == -1
    s2, _ = do(s1, 0, "x")
    assert len(s2.hands[2]) == 12 and s2.turn == 1


def test_first_card_kingdom_card_dealer_names_the_suit() -> None:
    s = dealt(2, "DEC", {1: ["3bl"] * 7})
    s1, _ = do(s, 0, "t:DEC:bl")
    assert s1.suit == SUIT_OF_CODE["bl"] and s1.turn == 1
    s = dealt(2, "DUN", {})
    s1, _ = do(s, 0, "t:DUN:gd")
    assert s1.dungeon[1] == (F("DUN"),) and s1.discard_pile == () and s1.suit == SUIT_OF_CODE["gd"]
    s = dealt(3, "QOgdbl", {2: ["3bl"] * 7})
    s1, _ = do(s, 0, "t:QOgdbl:r:bl")
    assert s1.turn == 2 and s1.suit == SUIT_OF_CODE["bl"]
    s = dealt(2, "MAG", {})
    assert "t:MAG:DEC" not in codes(s, 0)
    s1, _ = do(s, 0, "t:MAG:DRA:gd")
    assert len(s1.hands[1]) == 10


# --- out-of-turn bookkeeping ----------------------------------------------------------------------


def test_waiting_hides_out_of_turn_moves_until_the_next_player_acts() -> None:
    s = build(hands=[["7gd", "2gn"], ["2bl", "DRA"]], in_front=((), (F("POI"),)))
    s1, _ = do(s, 1, "wait")
    assert GAME.to_act(s1) == {0} and codes(s1, 1) == []
    assert GAME.awaited(s1) == {0}
    s2, _ = do(s1, 0, "p:7gd")
    assert 1 in GAME.to_act(s2)


def test_views_keep_hands_private() -> None:
    s = build(hands=[["7gd", "DRA"], ["2bl", "WIZ"]])
    v0 = GAME.view(s, 0)
    assert any("Dragon" in line for line in v0.secret) and not any(
        "Wizard" in line for line in v0.secret + v0.public
    )
    assert v0.data["hand"] == ["7gd", "DRA"] and "hand" not in GAME.view(s, None).data


# --- matches stored before the fields were named in words -----------------------------------------

# ``GAME.dump`` of a 3-player match in the middle of its first hand, made by the engine before
# the state's fields were renamed (``dn``, ``dsrc``, ``bat``...): seat 1 has just played a
# Drawbridge at seat 2, who may stack theirs or draw; seat 1 holds the Castle Fire in front.
OLD_DUMP: dict[str, Any] = {
    "cfg": {
        "players": 3,
        "deck": "dynasty",
        "limit": 750,
        "partners": False,
        "dealing_bonus": False,
        "without": [],
        "secret_key": False,
        "hands": 5,
    },
    "rng": 1763370312389609623,
    "phase": 6,
    "hand_no": 1,
    "dealer": 0,
    "totals": [-50, -50, 0],
    "adj": [0, 0, 0],
    "hands": [[72, 72, 84, 91, 94, 107], [9, 16, 30, 51, 71], [14, 17, 47]],
    "front": [[], [100], []],
    "played": [[], [], [101]],
    "dungeon": [[], [], []],
    "lost": [0, 0, 0],
    "escape": 0,
    "penalty": 0,
    "guard": [0, 0, 0],
    "dkwin": 0,
    "bets": [],
    "draw": [
        20,
        103,
        59,
        44,
        64,
        16,
        21,
        1,
        29,
        99,
        93,
        75,
        49,
        107,
        40,
        98,
        60,
        0,
        53,
        78,
        61,
        59,
        5,
        35,
        106,
        87,
        88,
        23,
        89,
        28,
        22,
        63,
        8,
        2,
        43,
        6,
        69,
        85,
        3,
        65,
        61,
        4,
        29,
        97,
    ],
    "discard": [
        48,
        59,
        5,
        55,
        54,
        40,
        8,
        50,
        96,
        52,
        42,
        43,
        24,
        21,
        15,
        7,
        11,
        102,
        19,
        96,
        42,
        56,
        61,
        79,
        86,
        37,
        26,
        13,
        33,
        1,
        0,
        28,
        25,
        4,
        66,
        66,
        69,
        92,
        58,
        39,
        105,
        97,
        41,
        41,
        13,
        73,
        81,
        83,
        34,
        17,
        75,
        82,
        95,
        70,
        79,
        70,
        60,
        44,
        47,
        62,
        7,
        3,
        67,
        77,
        80,
        81,
        76,
        71,
        10,
        2,
        67,
        77,
        73,
        12,
        74,
        68,
        68,
        60,
        46,
        45,
        65,
        6,
        20,
        10,
        9,
        11,
        31,
        59,
        25,
        36,
        38,
        61,
        18,
        32,
        12,
        45,
        104,
        60,
        57,
        24,
        27,
        46,
        90,
    ],
    "mkey": 102,
    "suit": 5,
    "top_as": -1,
    "direction": 1,
    "turn": 2,
    "proxy": -1,
    "first_fm": False,
    "skips": 0,
    "played_n": 0,
    "dn": 2,
    "dd": [],
    "dstack": True,
    "dsrc": 1,
    "dtarget": -1,
    "prev_suit": 2,
    "ask": 0,
    "precall": False,
    "bat": [],
    "bat_wait": 0,
    "bat_def": 0,
    "waived": 0,
    "stall": 0,
    "hturns": 133,
    "mturns": 133,
    "log": [
        "{p1} cannot play, draws a card and passes.",
        "{p2} calls On Guard!",
        "{p2} plays 7 (burgundy).",
        "{p0} plays 7 (blue).",
        "{p1} plays Drawbridge (blue).",
        "{p2} draws 2 cards and loses the turn.",
        "{p0} cannot play, draws a card and passes.",
        "{p1} plays Drawbridge (silver).",
    ],
    "last": [],
    "places": [],
}


def test_a_match_dumped_with_the_old_field_names_loads_and_plays_on() -> None:
    s = GAME.load(OLD_DUMP)
    assert set(OLD_DUMP) == {OLD_NAMES.get(name, name) for name in FIELD_NAMES}
    assert (s.phase, s.turn, s.pending_draws, s.draw_source, s.drawbridge_may_stack) == (
        ANSWER,
        2,
        2,
        1,
        True,
    )
    assert (s.suit_before_draw, s.match_key, s.hand_number, s.hand_turns) == (2, 102, 1, 133)
    assert s.in_front == ((), (F("FIR"),), ()) and s.set_aside == ((), (), (101,))
    assert s.config.players == 3 and s.config.deck == "dynasty" and s.config.hands == 5
    assert s.battle == () and s.pending_dungeons == () and s.escorting_first_card is False
    # The same moves as before the upgrade, and the same result (both taken from the old engine).
    assert {x: codes(s, x) for x in range(3)} == {0: [], 1: ["r:FIR", "wait"], 2: ["p:DBbu", "acc"]}
    s1, events = GAME.apply(s, 2, "acc")
    assert [(e.text, e.seat) for e in events] == [
        ("You drew Duchess, 8 (green).", 2),
        ("{p2} draws 2 cards and loses the turn.", None),
    ]
    assert (s1.phase, s1.turn, s1.pending_draws, s1.draw_source) == (PLAY, 0, 0, -1)
    assert s1.hands[2] == (14, 17, 29, 47, 97)
    # Dumped again, it carries the new names only, and loads back to the same state.
    dumped = GAME.dump(s)
    assert list(dumped) == list(FIELD_NAMES) and not set(dumped) & set(OLD_NAMES.values())
    assert GAME.load(dumped) == s


# --- the AI ends hands (issue 11: matches that end) ------------------------------------------------


def test_ai_ends_a_dragging_hand_with_its_poison_garden() -> None:
    """A Poison Garden ends the hand on the cards in hand. The AI keeps it while the hand goes
    on normally and plays it once the hand has lasted 100 rounds (two-player expansion hands
    reached the 150-round valve in about 1 in 100 hands before)."""
    hands = [["7gd", "2gn"], ["2bl", "3bl", "9gn", "4bu", "5bu"]]
    fresh = build(hands=hands, in_front=((), (F("POI"),)), hand_turns=20)
    assert GAME.ai_move(fresh, 1, Rng(0)).code == "wait"
    dragging = build(hands=hands, in_front=((), (F("POI"),)), hand_turns=200)
    assert GAME.ai_move(dragging, 1, Rng(0)).code == "r:POI"
    _, text = do(dragging, 1, "r:POI")
    assert "Hand 1 over: nobody went out" in text


def test_ai_answers_any_battle_card_with_its_defender() -> None:
    """A Defender leaves a hand only in answer to a battle card: the AI sheds it even against a
    harmless Siege Tower (kept for its -35, it blocked going out in stalled hands)."""
    s = build(hands=[["SIE", "2gd", "3gd"], ["DEF", "7gd", "8gd"]])
    s1, _ = do(s, 0, "p:SIE:1")
    assert s1.phase == BATTLE and GAME.ai_move(s1, 1, Rng(0)).code == "def"


def test_ai_keeps_a_wild_for_its_last_card() -> None:
    """With a Duke and a gold 7 on a gold top, the AI plays the 7: the Duke goes on any suit,
    so it goes out next turn whatever the opponent plays."""
    s = build(hands=[["DUK", "7gd"], ["2bl", "3bl", "4bl"]])
    s, _ = do(s, 0, "og")
    assert GAME.ai_move(s, 0, Rng(0)).code == "p:7gd"
