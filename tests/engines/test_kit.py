"""The kit every engine is built on: the one state codec and the move dispatch."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import pytest

from bot.games.base import (
    Event,
    GameBase,
    GameInfo,
    IllegalMove,
    MatchOver,
    Move,
    NotYourTurn,
    Outcome,
    Rng,
    StateCodec,
    View,
    handles,
    ranked,
    said_to,
)


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True, slots=True)
class Inner:
    cards: tuple[str, ...]
    seen: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class Other:
    count: int


@dataclass(frozen=True, slots=True)
class Everything:
    rng: Rng
    number: int
    ratio: float
    name: str
    flag: bool
    maybe: int | None
    colour: Colour
    hands: tuple[tuple[str, ...], ...]
    pair: tuple[int, str]
    items: list[int]
    marks: frozenset[str]
    by_seat: Mapping[int, str]
    by_name: dict[str, tuple[int, ...]]
    nested: Inner
    either: Inner | Other | None
    anything: Any
    added_later: int = 7


def sample() -> Everything:
    return Everything(
        rng=Rng.from_seed(3),
        number=4,
        ratio=0.5,
        name="x",
        flag=True,
        maybe=None,
        colour=Colour.BLUE,
        hands=(("a", "b"), ()),
        pair=(1, "one"),
        items=[3, 1],
        marks=frozenset({"q", "b"}),
        by_seat={0: "zero", 2: "two"},
        by_name={"k": (1, 2)},
        nested=Inner(("c",), frozenset({2, 1})),
        either=Other(5),
        anything={"free": [1]},
    )


def test_codec_round_trips_every_kind_of_field() -> None:
    codec = StateCodec(Everything)
    state = sample()
    data = codec.dump(state)
    assert codec.load(data) == state
    assert data["rng"] == state.rng.state and data["colour"] == "blue"
    assert data["by_seat"] == {"0": "zero", "2": "two"}  # JSON keys are text
    assert data["marks"] == ["b", "q"]  # sets are written sorted: the same state, the same text
    assert data["either"] == {"type": "Other", "count": 5}
    assert codec.load(codec.dump(replace(state, either=Inner(("d",))))).either == Inner(("d",))


def test_a_field_missing_from_an_older_save_takes_its_default() -> None:
    codec = StateCodec(Everything)
    data = codec.dump(sample())
    del data["added_later"]
    assert codec.load(data).added_later == 7


def test_several_state_classes_are_told_apart_by_name() -> None:
    codec = StateCodec(Inner, Other)
    assert codec.load(codec.dump(Other(3))) == Other(3)
    assert codec.dump(Inner(("a",))) == {"cards": ["a"], "seen": [], "type": "Inner"}


def test_a_field_the_codec_cannot_store_is_refused_when_used() -> None:
    @dataclass(frozen=True)
    class Odd:
        when: complex

    with pytest.raises(TypeError, match="cannot store"):
        StateCodec(Odd).dump(Odd(1j))


@dataclass(frozen=True, slots=True)
class CountState:
    turn: int
    phase: str
    total: int


class Counting(GameBase[CountState]):
    """Two phases: seats add 1 or 2 in turn; at 5 or more the last seat may stop or add."""

    state_types = (CountState,)
    info = GameInfo("count", "Count", "Add up.", "", 2, 2)

    def setup(self, players: int, seed: int, options: Mapping[str, str]) -> CountState:
        return CountState(0, "adding", 0)

    def to_act(self, state: CountState) -> frozenset[int]:
        return frozenset() if state.phase == "done" else frozenset({state.turn})

    def legal_moves(self, state: CountState, seat: int) -> list[Move]:
        if seat not in self.to_act(state):
            return []
        if state.phase == "adding":
            return [Move.simple("add:1", "Add 1"), Move.simple("add:2", "Add 2")]
        return [Move.simple("stop", "Stop"), Move.simple("add:1", "Add 1 more")]

    def phase(self, state: CountState) -> str | None:
        return state.phase

    def why_illegal(self, state: CountState, seat: int, code: str) -> str:
        return "Add 1 or 2."

    @handles("add", phase="adding")
    def _add(self, state: CountState, seat: int, move: Move) -> tuple[CountState, list[Event]]:
        total = state.total + int(move.args[0])
        phase = "deciding" if total >= 5 else "adding"
        return CountState(1 - seat, phase, total), [Event(f"+{move.args[0]}")]

    @handles("add", phase="deciding")
    def _add_late(self, state: CountState, seat: int, move: Move) -> tuple[CountState, list[Event]]:
        return CountState(seat, "done", state.total + 1), [Event("late +1")]

    @handles("stop")
    def _stop(self, state: CountState, seat: int, move: Move) -> tuple[CountState, list[Event]]:
        return replace(state, phase="done"), [Event("stop")]

    def view(self, state: CountState, seat: int | None) -> View:
        return View(seat, f"total {state.total}")

    def outcome(self, state: CountState) -> Outcome | None:
        return ranked([state.total, 0]) if state.phase == "done" else None

    def card_count(self, state: CountState) -> int:
        return 0

    def resample(self, state: CountState, seat: int, rng: Rng) -> CountState:
        return state


def test_apply_judges_then_calls_the_handler_of_the_phase() -> None:
    game = Counting()
    state = game.setup(2, 0, {})
    with pytest.raises(NotYourTurn, match="waiting for"):
        game.apply(state, 1, "add:1")
    with pytest.raises(IllegalMove, match="Add 1 or 2."):
        game.apply(state, 0, "add:3")
    state, events = game.apply(state, 0, "add:2")
    state, _ = game.apply(state, 1, Move.simple("add:2", "Add 2"))
    state, _ = game.apply(state, 0, "add:2")
    assert state.phase == "deciding" and [e.text for e in events] == ["+2"]
    late, events = game.apply(state, 1, "add:1")  # the same kind, the other phase's handler
    assert late.total == 7 and [e.text for e in events] == ["late +1"]
    with pytest.raises(MatchOver):
        game.apply(late, 1, "stop")
    assert game.load(game.dump(late)) == late
    assert game.id == "count" and game.parties is None and game.search.horizon is None


class Forgiving(Counting):
    """Counting that forgives a code typed with a stray space or in capitals."""

    def normalise(self, state: CountState, seat: int, code: str) -> str:
        return code.strip().lower()


def test_a_game_may_normalise_a_code_before_it_is_judged() -> None:
    game = Forgiving()
    state, events = game.apply(game.setup(2, 0, {}), 0, " ADD:2 ")
    assert state.total == 2 and [e.text for e in events] == ["+2"]
    with pytest.raises(IllegalMove, match="Add 1 or 2."):
        Counting().apply(game.setup(2, 0, {}), 0, " ADD:2 ")  # by default a code is taken as it is


@pytest.mark.parametrize(
    ("line", "seat", "said"),
    [
        ("Waiting for {p1} to play or draw.", 1, "Your turn to play or draw."),
        ("Waiting for {p1}: play a card or pass.", 1, "Your turn: play a card or pass."),
        (
            "Waiting for {p1} (Warlord, playing {p0}'s turn) to play or draw.",
            1,
            "Your turn (Warlord, playing {p0}'s turn): play or draw.",
        ),
        (
            "Waiting for {p1} (Warlord, playing {p0}'s turn): play a card or pass.",
            1,
            "Your turn (Warlord, playing {p0}'s turn): play a card or pass.",
        ),
        (
            "Waiting for {p0}, {p1} and {p2} to pick a card in secret.",
            1,
            "Waiting for you, {p0} and {p2} to pick a card in secret.",
        ),
        ("Waiting for {p0} and {p1} to answer.", 0, "Waiting for you and {p1} to answer."),
        (
            "Everyone is ready: waiting for {p1} to end questioning.",
            1,
            "Everyone is ready: your turn to end questioning.",
        ),
        ("{p11} to lead.", 11, "Your turn to lead."),
        ("{p1} may bid before the deal.", 1, "You may bid before the deal."),
        (
            "Ask, then say you are ready. {p1} may end it. {p2} may look.",
            2,
            "Ask, then say you are ready. {p1} may end it. You may look.",
        ),
        ("Waiting for {p1} to counter {p0}'s attack.", 1, "Your turn to counter {p0}'s attack."),
    ],
)
def test_a_status_line_speaks_to_the_seat_it_waits_for(line: str, seat: int, said: str) -> None:
    assert said_to(line, seat) == said
    assert said_to(line, None) == line, "the table's line is the game's"


@pytest.mark.parametrize(
    ("line", "seat"),
    [
        ("Waiting for {p1} to play or draw.", 0),
        ("{p11} to lead.", 1),  # {p1} is not {p11}
        ("Waiting for {p1} to counter {p0}'s attack.", 0),  # the attacker is not awaited
        ("Waiting for {p1} (Warlord, playing {p0}'s turn): play a card or pass.", 0),
        ("Waiting for {p0} and {p1} to answer.", 2),
        ("{p0} won the trick: court or pass.", 0),  # a line in no form it reads stays
    ],
)
def test_a_status_line_about_others_is_left_as_it_is(line: str, seat: int) -> None:
    assert said_to(line, seat) == line
