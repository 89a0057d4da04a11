"""Kingdom Four (four) status as players read it: the hand view groups what each other player
took by colour, like the player's own hand, and the finished table keeps the last hand's
points, as the board did after every earlier hand."""

from __future__ import annotations

from dataclasses import replace

from bot.games.four.cards import short
from bot.games.four.game import GAME, FourState

SEATS = 3


def _state(**changes: object) -> FourState:
    """A 3-player state in the middle of a hand: seat 0 to play."""
    base = GAME.setup(SEATS, 1, {"wild": "on"})
    state = replace(
        base,
        dealer=2,
        turn=0,
        hands=(("3Rk", "1Ga"), ("2Bc",), ("4Ys",)),
        field=(),
        pile=("1Bs", "2Bs"),
        captured=((), (), ()),
        totals=(0, 0, 0),
    )
    return replace(state, **changes)  # type: ignore[arg-type]


# --- 3. the others' captures, grouped by colour ------------------------------------------------------


def test_the_others_captures_read_by_colour_one_line_each() -> None:
    took = ("4Rk", "3Rk", "1Bc", "2Ya", "*R", "*k")
    state = _state(captured=(("3Ra",), took, ()))
    lines = [line for line in GAME.view(state, 0).private if line.startswith("{p1} took")]
    assert lines == ["{p1} took 6: 🟨 2🪓 · 🟥 3🗝️ 4🗝️ · 🟦 1🪙 · ✨ 👑🟥 🃏🗝️"], lines
    assert not any(line.startswith("{p2} took") for line in GAME.view(state, 0).private), (
        "took nothing: not listed"
    )


def test_a_long_capture_stays_one_line_with_each_colour_said_once() -> None:
    took = tuple(f"{n}{c}{i}" for c in "RB" for i in "kac" for n in (1, 2, 3, 4))[:20]
    state = _state(captured=((), took, ()))
    (line,) = [line for line in GAME.view(state, 2).private if line.startswith("{p1} took")]
    assert line.startswith("{p1} took 20: 🟥 "), line
    assert line.count("🟥") == 1 and line.count("🟦") == 1 and " · 🟦 " in line, line
    assert all(short(c)[len("🟥") :] in line for c in took)


# --- 4. the finished table keeps the last hand -------------------------------------------------------


def test_the_finished_table_shows_the_last_hands_points() -> None:
    state = _state(
        hands=((), (), ("4Ys",)),
        turn=2,
        field=("1Ga",),
        pile=("2Ga",),
        deals=1,
        hand_no=SEATS,
        captured=(("3Rk", "3Ra", "3Rs"), ("4Yc", "4Rc", "4Gc", "1Bc"), ()),
        totals=(5, 0, 0),
        last_hand=(1, 2, 3),
    )
    after, _events = GAME.apply(state, 2, "play:4Ys")
    assert after.phase == "over"
    summary = GAME.outcome(after).summary  # type: ignore[union-attr]
    assert summary.startswith("{p0} has the highest total after 3 hands: 15 points."), summary
    assert summary.endswith(" Last hand: {p0} 10 · {p1} 2 · {p2} 0."), summary
    assert "Last hand: {p0} 10 · {p1} 2 · {p2} 0" in GAME.view(after, None).board
