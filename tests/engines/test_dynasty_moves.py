"""Dynasty's named moves: every code the catalogue offers is read back by the pure parser
into the named move that spells it, and the codes stored by earlier matches still parse."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.games.dynasty.actions import CardPlay, Catch, KeyTake, Risk, Word, action_of
from bot.games.dynasty.cards import ARR, FRONT_KINDS, KIND
from bot.games.dynasty.catalogue import (
    C_ANSWER,
    C_ESCORT,
    C_EXTRA,
    C_FIRST,
    C_PLAY,
    accept_move,
    catch_move,
    dk_move,
    key_move,
    tables_for,
    war_move,
)
from bot.games.dynasty.state import Config

PINS = Path(__file__).resolve().parents[1] / "pins" / "dynasty.json"


def catalogue_codes(config: Config) -> set[str]:
    tables = tables_for(config)
    codes: set[str] = set()
    for context in (C_PLAY, C_EXTRA, C_ESCORT, C_ANSWER, C_FIRST):
        for face in tables.present:
            for seat in range(tables.n):
                codes.update(m.code for m in tables.variants(context, face, seat))
        codes.update(m.code for m, _, _ in tables.magician(context))
        for arrow in (f for f in tables.present if KIND[f] == ARR):
            codes.add(tables.arrow_alone(context, arrow).code)
            for burn in tables.present:
                for target in range(-1, tables.n):
                    codes.add(tables.arrow(context, arrow, burn, target).code)
    return codes


@pytest.mark.parametrize("deck", ["classic", "dynasty", "bonus"])
@pytest.mark.parametrize("players", [2, 5, 8])
def test_every_catalogue_code_parses_to_the_move_that_spells_it(deck: str, players: int) -> None:
    config = Config(players=players, deck=deck, secret_key=True)
    codes = catalogue_codes(config)
    assert codes
    for code in codes:
        action = action_of(code)
        assert isinstance(action, CardPlay)
        assert action.code == code


def test_the_other_moves_parse() -> None:
    for seat in range(8):
        assert action_of(catch_move(seat).code) == Catch(seat)
        assert isinstance(action_of(dk_move(seat).code), Risk)
        assert isinstance(action_of(war_move(seat).code), Word)
    for face in range(len(KIND)):
        if KIND[face] not in FRONT_KINDS:
            assert action_of(key_move(face).code) == KeyTake(face)
    assert isinstance(action_of(accept_move(2, False).code), Word)
    for code in ("d", "pass", "x", "acc", "def", "take", "ask", "yes", "no", "f", "cut", "deal"):
        assert action_of(code).code == code
    for code in ("og", "war", "esc", "wait", "c:1", "r:POI", "r:FIR", "r:GOB", "r:DKN:3"):
        assert action_of(code).out_of_turn


@pytest.mark.parametrize("code", ["", "p", "p:ZZZ", "p:5gd:q", "c:x", "r:5gd:1:2", "k", "x:1", "war:1"])
def test_codes_of_no_move_are_refused(code: str) -> None:
    with pytest.raises(ValueError, match="not a move code"):
        action_of(code)


def test_stored_codes_still_parse() -> None:
    """The codes of the recorded matches (as the moves table stores them) read back."""
    data = json.loads(PINS.read_text())
    for match in data["matches"]:
        for _seat, code in match["moves"]:
            assert action_of(code).code == code
