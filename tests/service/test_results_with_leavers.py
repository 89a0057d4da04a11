"""A match some players left: one rule for every place a result shows or is kept.

The players who stayed are ranked among themselves in the engine's order (ties kept), the
players who left after them, marked as having left. The table's headline, medals and
summary, the stored results (stats, leaderboard, ratings) and a party's table all follow it
(``bot.service.snapshot.standings``)."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from bot.games.base import Outcome, SeatResult
from bot.service import MatchService, MatchStatus, Snapshot, errors
from bot.service.snapshot import standings
from bot.ui import render
from db import ratings
from db.repository import Repository
from tests.postgres import postgres_server
from tests.snapshots import snapshot_of

HOST, BOB = 100, 200


def places(results: tuple[SeatResult, ...]) -> dict[int, int]:
    return {r.seat: r.place for r in results}


def test_stayers_are_ranked_among_themselves_and_leavers_after_them() -> None:
    # King and Crown defend: cat (seat 2) left and her AI-played seat was last standing.
    defend = Outcome((SeatResult(0, 2), SeatResult(1, 3), SeatResult(2, 1), SeatResult(3, 4)), "")
    assert places(standings(defend, [False, False, True, False])) == {0: 1, 1: 2, 3: 3, 2: 4}
    # Dynasty: bob 1st, dan (left) 2nd, cat 3rd, ann 4th.
    dynasty = Outcome(
        (SeatResult(0, 4, -57), SeatResult(1, 1, -50), SeatResult(2, 3, -35), SeatResult(3, 2, -39)), ""
    )
    ranked = standings(dynasty, [False, False, False, True])
    assert [(r.seat, r.place) for r in ranked] == [(1, 1), (2, 2), (0, 3), (3, 4)]
    assert ranked[0].score == -50, "scores and teams are kept"
    # Ties stay ties, among stayers and among leavers.
    tied = Outcome(
        (SeatResult(0, 1), SeatResult(1, 2), SeatResult(2, 2), SeatResult(3, 4), SeatResult(4, 4)), ""
    )
    assert places(standings(tied, [True, False, False, True, True])) == {1: 1, 2: 1, 0: 3, 3: 4, 4: 4}
    # Nobody left: the engine's places unchanged.
    assert places(standings(dynasty, [False] * 4)) == places(dynasty.results)


def _snap(names: list[str], left: set[int], ai: set[int] = frozenset()) -> Snapshot:  # type: ignore[assignment]
    from bot.games import GAMES

    return snapshot_of(
        GAMES["crown"],
        None,
        names,
        options={"variant": "defend"},
        status=MatchStatus.FINISHED,
        version=40,
        left=left,
        ai=ai,
    )


def test_the_end_screen_never_contradicts_itself_when_a_leavers_seat_won() -> None:
    snap = _snap(["ann", "bob", "cat", "AI 1"], left={2}, ai={3})
    outcome = Outcome(
        (SeatResult(0, 2), SeatResult(1, 3), SeatResult(2, 1), SeatResult(3, 4)),
        "{p2} is the last one standing and wins.",
    )
    headline, lines = render.result_lines(snap, outcome)
    assert headline == "🏆 ann wins"
    assert [line.split(" · ")[0] for line in lines] == ["🥇 ann", "🥈 bob", "🥉 AI 1", "4. cat"]
    assert "left" in lines[-1]
    summary = render.summary_text(snap, outcome)
    assert "cat is the last one standing and wins" not in summary
    assert "cat's seat" in summary and "AI" in summary and "cat left" in summary
    # A winner who stayed: the engine's sentence as it is.
    plain = Outcome(outcome.results, "{p0} wins.")
    assert render.summary_text(_snap(["ann", "bob", "cat", "AI 1"], left=set(), ai={3}), plain) == "ann wins."


def test_the_medals_skip_no_place_when_a_leaver_finished_between_stayers() -> None:
    snap = _snap(["ann", "bob", "cat", "dan"], left={3})
    outcome = Outcome(
        (SeatResult(0, 4, 57), SeatResult(1, 1, -50), SeatResult(2, 3, -35), SeatResult(3, 2, -39)), ""
    )
    headline, lines = render.result_lines(snap, outcome)
    assert headline == "🏆 bob wins"
    assert [line.split(" · ")[0] for line in lines] == ["🥇 bob", "🥈 cat", "🥉 ann", "4. dan"]


def test_a_team_that_lost_gets_no_medal() -> None:
    """The King at Court: the Wise win together, the Wicked lose together; the losing team
    is not given bronze (an audit saw 🥉 beside the losers)."""
    snap = _snap(["ann", "bob", "cat", "dan"], left=set())
    outcome = Outcome(
        (
            SeatResult(0, 1, None, "wise"),
            SeatResult(1, 3, None, "wicked"),
            SeatResult(2, 1, None, "wise"),
            SeatResult(3, 3, None, "wicked"),
        ),
        "The Wise win.",
    )
    _headline, lines = render.result_lines(snap, outcome)
    marks = sorted(line.split(" ")[0] for line in lines)
    assert marks == ["3.", "3.", "🥇", "🥇"], lines


async def _play_tourney_bob_leaves(svc: MatchService, channel: int) -> Snapshot:
    """A two-player tourney bob leaves at once; the host plays its first legal move."""
    m = await svc.open_lobby(
        guild_id=1,
        channel_id=channel,
        host_id=HOST,
        host_name="ann",
        game_id="crown",
        options={"variant": "tourney"},
    )
    await svc.join(m.id, BOB, "bob")
    m = await svc.start(m.id, HOST)
    await svc.leave_match(m.id, BOB)
    for _ in range(2000):
        snap = await svc.get(m.id)
        if snap.status != MatchStatus.RUNNING:
            return snap
        if 0 in snap.to_act():
            with contextlib.suppress(errors.StaleVersion):  # the AI moved first; look again
                await svc.play(m.id, HOST, snap.legal_moves(0)[0], version=snap.version)
        await asyncio.sleep(0.005)
    raise AssertionError("the match did not end")


async def test_the_stored_results_rank_the_player_who_stayed_first_when_the_leavers_seat_won(
    svc: MatchService, repo: Repository
) -> None:
    """The AI that finished a leaver's seat beats the host: the host is stored first and
    takes the win (stats "won", leaderboard 1W), the leaver second with a loss."""
    for channel in range(10, 60):
        snap = await _play_tourney_bob_leaves(svc, channel)
        outcome = snap.game.outcome(snap.state)
        assert outcome is not None
        if {r.seat: r.place for r in outcome.results}[1] == 1 and {r.seat: r.place for r in outcome.results}[
            0
        ] == 2:
            break
    else:
        pytest.skip("the leaver's seat never won")
    rows = {r.seat: r for r in await repo.results(snap.id)}
    assert rows[0].place == 1 and not rows[0].left and ratings.is_win(rows[0])
    assert rows[1].place == 2 and rows[1].left and not ratings.is_win(rows[1])
    assert ratings.placing_score(rows[0], list(rows.values())) == 1.0
    headline, lines = render.result_lines(snap, outcome)
    assert headline == "🏆 ann wins" and lines[0].startswith("🥇 ann") and lines[1].startswith("2. bob")


__all__ = ["postgres_server"]
