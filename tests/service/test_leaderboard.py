"""Leaderboards: openskill updates against hand-computed values, seasons, guild isolation,
permissions, paging, and the standings kept in the finishing move's transaction."""

from __future__ import annotations

import asyncio
import math
import sqlite3
from collections.abc import Sequence
from itertools import count
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine

from bot.service import MatchService
from bot.service.errors import StaleVersion
from bot.service.leaderboard import (
    LeaderboardService,
    NeedsManageServer,
    SeasonError,
    UnknownGame,
    UnknownSeason,
)
from db import ratings
from db.migrate import alembic_config
from db.records import MatchStatus, MatchUpdate, ResultRow, Seat
from db.repository import Repository
from tests.postgres import postgres_server

G1, G2 = 1001, 2002
ANN, BOB, CAT, DAN, EVE = 11, 12, 13, 14, 15
_channels = count(1)


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        self.now += 1
        return self.now


@pytest.fixture
def lb(repo: Repository) -> LeaderboardService:
    return LeaderboardService(repo, page_size=10, clock=Clock())


def row(
    user: int | None,
    place: int,
    seat: int = 0,
    *,
    score: int | None = None,
    team: str | None = None,
    left: bool = False,
    ai: bool = False,
) -> ResultRow:
    return ResultRow(seat=seat, user_id=user, is_ai=ai, place=place, score=score, team=team, left=left)


async def finish(repo: Repository, guild: int, *rows: ResultRow, game: str = "crown") -> int:
    """Store a finished match with these results, through the real finishing-move path."""
    rows = tuple(
        ResultRow(i, r.user_id, r.is_ai, r.place, r.score, r.team, r.left) for i, r in enumerate(rows)
    )
    seats = [Seat(r.user_id, f"p{i}", ai=r.is_ai) for i, r in enumerate(rows)]
    m = await repo.create_match(
        guild_id=guild,
        channel_id=next(_channels),
        host_id=rows[0].user_id or 1,
        game_id=game,
        options={},
        seats=seats,
        seed=1,
    )
    m = await repo.start_match(m.id, m.version, state={}, seats=m.seats, deadline_at=None, deadline=None)
    await repo.apply_move(
        MatchUpdate(
            m.id, m.version, {}, 0, rows[0].user_id, "end", {}, status=MatchStatus.FINISHED, results=rows
        )
    )
    return m.id


# --- openskill, by hand ---------------------------------------------------------------------

BETA = 25 / 6
TAU = 25 / 300
KAPPA = 0.0001


def hand_plackett_luce(
    teams: list[list[tuple[float, float]]], ranks: list[int]
) -> list[list[tuple[float, float]]]:
    """Weng & Lin (2011) Algorithm 4 written out from the paper (no ties), as openskill applies it:
    sigma widened by tau first, gamma = sigma_i / c."""
    teams = [[(mu, math.sqrt(s * s + TAU * TAU)) for mu, s in t] for t in teams]
    mus = [sum(mu for mu, _ in t) for t in teams]
    vars_ = [sum(s * s for _, s in t) for t in teams]
    c = math.sqrt(sum(v + BETA * BETA for v in vars_))
    e = [math.exp(m / c) for m in mus]
    sum_q = [sum(e[s] for s in range(len(teams)) if ranks[s] >= ranks[q]) for q in range(len(teams))]
    out = []
    for i, team in enumerate(teams):
        omega = delta = 0.0
        for q in range(len(teams)):
            if ranks[q] <= ranks[i]:
                p = e[i] / sum_q[q]
                delta += p * (1 - p)
                omega += (1 - p) if q == i else -p
        omega *= vars_[i] / c
        delta *= vars_[i] / c**2 * (math.sqrt(vars_[i]) / c)
        out.append(
            [
                (mu + s * s / vars_[i] * omega, s * math.sqrt(max(1 - s * s / vars_[i] * delta, KAPPA)))
                for mu, s in team
            ]
        )
    return out


def test_one_on_one_from_defaults_matches_the_hand_computation() -> None:
    # sigma'^2 = (25/3)^2 + (25/300)^2 = 69.4514; c^2 = 2 (sigma'^2 + (25/6)^2) = 173.625.
    # Equal mus: the winner's share is 1/2, so omega = +-(1/2) sigma'^2 / c = +-2.63539,
    # delta = (1/4) sigma'^2 / c^2 * sigma'/c = 0.063246 (the loser only).
    new = ratings.rate([row(ANN, 1), row(BOB, 2)], {})
    assert new[ANN][0] == pytest.approx(27.635389493140497, abs=1e-9)
    assert new[BOB][0] == pytest.approx(22.364610506859503, abs=1e-9)
    assert new[ANN][1] == pytest.approx(8.06590141354368, abs=1e-9)
    assert new[BOB][1] == pytest.approx(8.06590141354368, abs=1e-9)
    assert ratings.ordinal(*new[ANN]) == pytest.approx(27.635389493140497 - 3 * 8.06590141354368)


def test_free_for_all_with_prior_ratings_matches_the_hand_computation() -> None:
    prior = {ANN: (30.0, 6.0), BOB: (25.0, 8.333333333333334), CAT: (20.0, 4.0)}
    new = ratings.rate([row(ANN, 2), row(BOB, 3), row(CAT, 1)], prior)
    expected = hand_plackett_luce([[prior[ANN]], [prior[BOB]], [prior[CAT]]], [2, 3, 1])
    for user, [(mu, sigma)] in zip((ANN, BOB, CAT), expected):
        assert new[user] == pytest.approx((mu, sigma), abs=1e-9)
    assert new[CAT][0] > 20 and new[BOB][0] < 25


def test_teams_are_rated_together() -> None:
    # The King at Court: the Wise (two seats) beat the Wicked (two seats).
    rows = [
        row(ANN, 1, team="wise"),
        row(BOB, 2, team="wicked"),
        row(CAT, 1, team="wise"),
        row(DAN, 2, team="wicked"),
    ]
    prior = {ANN: (28.0, 7.0), CAT: (22.0, 8.0)}
    new = ratings.rate(rows, prior)
    d = (ratings.DEFAULT_MU, ratings.DEFAULT_SIGMA)
    wise, wicked = hand_plackett_luce([[prior[ANN], prior[CAT]], [d, d]], [1, 2])
    assert new[ANN] == pytest.approx(wise[0], abs=1e-9)
    assert new[CAT] == pytest.approx(wise[1], abs=1e-9)
    assert new[BOB] == pytest.approx(wicked[0], abs=1e-9) and new[DAN] == pytest.approx(wicked[1], abs=1e-9)


def test_a_leaver_is_last_alone_and_takes_a_loss_even_on_the_winning_team() -> None:
    rows = [row(ANN, 1, team="wise"), row(BOB, 1, team="wise", left=True), row(CAT, 2, team="wicked")]
    new = ratings.rate(rows, {})
    d = (ratings.DEFAULT_MU, ratings.DEFAULT_SIGMA)
    ann, cat, bob = hand_plackett_luce([[d], [d], [d]], [1, 2, 3])
    assert new[ANN] == pytest.approx(ann[0], abs=1e-9)
    assert new[CAT] == pytest.approx(cat[0], abs=1e-9)
    assert new[BOB] == pytest.approx(bob[0], abs=1e-9)
    tallies = ratings.apply_match({}, rows, 5.0)
    assert (tallies[BOB].wins, tallies[BOB].losses) == (0, 1)
    assert (tallies[ANN].wins, tallies[CAT].losses) == (1, 1)


def test_ai_matches_count_wins_but_not_ratings() -> None:
    rows = [row(ANN, 1, score=3), row(None, 2, ai=True), row(BOB, 3, score=1)]
    assert ratings.rate(rows, {}) == {}
    tallies = ratings.apply_match({}, rows, 9.0)
    assert set(tallies) == {ANN, BOB}
    assert tallies[ANN] == ratings.Tally(played=1, wins=1, points=3, scored=1, last_at=9.0, place_score=1.0)
    assert tallies[BOB].losses == 1 and tallies[BOB].rated == 0 and tallies[BOB].mu == ratings.DEFAULT_MU
    assert tallies[BOB].place_score == 0.0


def test_placings_break_rating_ties_on_boards_with_ai() -> None:
    """With an AI seat no rating moves: the player who finished first ranks above the last."""
    first = ratings.apply_match({}, [row(ANN, 1), row(None, 2, ai=True), row(BOB, 3)], 1.0)
    assert first[ANN].ordinal == first[BOB].ordinal
    assert first[ANN].place_score == 1.0 and first[BOB].place_score == 0.0
    middle = ratings.apply_match(first, [row(BOB, 1), row(ANN, 2), row(None, 3, ai=True)], 2.0)
    assert middle[ANN].place_score == 0.75 and middle[BOB].place_score == 0.5
    teams = [
        row(ANN, 1, team="wise"),
        row(BOB, 2, team="wicked"),
        row(CAT, 2, team="wicked"),
        row(None, 1, ai=True),
    ]
    assert ratings.placing_score(teams[1], teams) == 0.0 and ratings.placing_score(teams[0], teams) == 1.0
    left = row(CAT, 1, left=True)
    assert ratings.placing_score(left, [left, row(ANN, 2)]) == 0.0, "a player who left is never credited"


async def test_a_board_of_ai_matches_ranks_by_placings(repo: Repository, lb: LeaderboardService) -> None:
    await finish(repo, G1, row(ANN, 3), row(None, 1, ai=True), row(BOB, 2))
    await finish(repo, G1, row(ANN, 3), row(None, 2, ai=True), row(BOB, 1))
    await finish(repo, G1, row(CAT, 1), row(None, 2, ai=True))
    page = await lb.board(G1, "crown")
    assert [r.user_id for r in page.rows] == [CAT, BOB, ANN]
    assert [r.rank for r in page.rows] == [1, 2, 3]
    stats = await lb.stats(G1, ANN)
    assert stats.boards[0].standing.rank == 3, "/stats ranks like the board"


# --- standings through the finishing move ----------------------------------------------------


async def test_finished_matches_fill_the_board_in_the_same_transaction(
    repo: Repository, lb: LeaderboardService
) -> None:
    mid = await finish(repo, G1, row(ANN, 1, score=2), row(BOB, 2, score=1))
    await finish(repo, G1, row(ANN, 1, score=3), row(CAT, 2, score=0))
    await finish(repo, G1, row(CAT, 1), row(None, 2, ai=True))
    page = await lb.board(G1, "crown")
    assert page.season.number == 1 and page.season.name == "Season 1" and page.season.current
    assert page.rows[0].user_id == ANN
    ann = page.rows[0]
    assert (ann.played, ann.wins, ann.losses, ann.points, ann.rated, ann.rank) == (2, 2, 0, 5, 2, 1)
    cat = next(r for r in page.rows if r.user_id == CAT)
    assert (cat.played, cat.wins, cat.losses, cat.rated) == (2, 1, 1, 1)
    assert page.has_points and page.total == 3
    stored = await repo.results(mid)
    assert all(r.place for r in stored)
    if repo.is_sqlite:
        con = sqlite3.connect(str(repo.url).split("///", 1)[1])
        assert {s for (s,) in con.execute("select season_id from results")} == {page.season.id}


async def test_cancelled_matches_count_for_nobody(repo: Repository, lb: LeaderboardService) -> None:
    svc = MatchService(repo, ai_delay=0)
    m = await svc.open_lobby(
        guild_id=G1,
        channel_id=999,
        host_id=ANN,
        host_name="Ann",
        game_id="crown",
        options={"variant": "tourney"},
    )
    await svc.join(m.id, BOB, "Bob")
    await svc.start(m.id, ANN)
    await svc.cancel(m.id, ANN, is_admin=False)
    await svc.close()
    assert (await lb.board(G1, "crown")).total == 0
    assert (await lb.stats(G1, ANN)).boards == ()


async def test_a_real_match_with_ai_seats_counts_for_the_human_only(
    repo: Repository, lb: LeaderboardService
) -> None:
    svc = MatchService(repo, ai_delay=0)
    m = await svc.open_lobby(
        guild_id=G1,
        channel_id=998,
        host_id=ANN,
        host_name="Ann",
        game_id="crown",
        options={"variant": "defend"},
    )
    await svc.add_ai(m.id, ANN)
    m = await svc.start(m.id, ANN)
    for _ in range(2000):
        snap = await svc.get(m.id)
        if snap.status != "running":
            break
        if 0 in snap.to_act():
            try:
                await svc.play(m.id, ANN, snap.legal_moves(0)[0], version=snap.version)
            except StaleVersion:  # the AI seat moved between the read and the move: read again
                continue
        else:
            await asyncio.sleep(0.01)
    await svc.close()
    page = await lb.board(G1, "crown")
    assert [r.user_id for r in page.rows] == [ANN]
    ann = page.rows[0]
    assert ann.played == 1 and ann.wins + ann.losses == 1 and ann.rated == 0
    assert (ann.mu, ann.sigma) == (ratings.DEFAULT_MU, ratings.DEFAULT_SIGMA)


def assert_same_standings(before: Sequence[Any], after: Sequence[Any]) -> None:
    """Two pages of one board list the same players, ranks, counts and ratings."""
    for x, y in zip(before, after):
        assert (x.user_id, x.rank, x.played, x.wins, x.losses, x.points) == (
            y.user_id,
            y.rank,
            y.played,
            y.wins,
            y.losses,
            y.points,
        )
        assert x.mu == pytest.approx(y.mu, abs=1e-9) and x.sigma == pytest.approx(y.sigma, abs=1e-9)


async def test_standings_equal_a_rebuild_from_the_results(repo: Repository, lb: LeaderboardService) -> None:
    players = [ANN, BOB, CAT, DAN, EVE]
    for i in range(12):
        a, b, c = players[i % 5], players[(i + 2) % 5], players[(i + 3) % 5]
        if i % 3 == 0:
            await finish(repo, G1, row(a, 1, team="wise"), row(b, 1, team="wise"), row(c, 2, team="wicked"))
        elif i % 3 == 1:
            await finish(repo, G1, row(a, 2, score=i), row(b, 1, score=i + 1, left=True), row(c, 3, score=0))
        else:
            await finish(repo, G1, row(a, 1), row(None, 2, ai=True), row(b, 3))
    before = (await lb.board(G1, "crown")).rows
    assert await lb.rebuild(G1, "crown") == 5
    after = (await lb.board(G1, "crown")).rows
    assert len(before) == 5
    assert_same_standings(before, after)


async def test_last_moves_at_once_leave_the_standings_a_rebuild_gives(
    repo: Repository, lb: LeaderboardService
) -> None:
    """Matches of two servers ending at the same moment, the same players in many of them: no
    result is lost, the first season of each server is opened once, and the standings are what
    a rebuild from the results gives (each last move reads standings, then writes them)."""
    players = [ANN, BOB, CAT, DAN]

    def game(i: int) -> tuple[ResultRow, ...]:
        a, b = players[i % 4], players[(i + 1 + i // 4) % 4]
        return (row(a, 1, score=i), row(b, 2, score=0)) if a != b else (row(a, 1), row(None, 2, ai=True))

    await asyncio.gather(*(finish(repo, guild, *game(i)) for i in range(16) for guild in (G1, G2)))
    for guild in (G1, G2):
        assert [s.number for s in await lb.store.seasons(guild)] == [1]
        before = (await lb.board(guild, "crown")).rows
        assert sum(r.played for r in before) == sum(len([x for x in game(i) if x.user_id]) for i in range(16))
        assert await lb.rebuild(guild, "crown") == 4
        after = (await lb.board(guild, "crown")).rows
        assert len(after) == len(before)
        assert_same_standings(before, after)


# --- seasons --------------------------------------------------------------------------------


async def test_a_season_exists_from_first_use(lb: LeaderboardService) -> None:
    first = await lb.current_season(G1)
    assert (first.number, first.name, first.current) == (1, "Season 1", True)
    assert (await lb.current_season(G1)).id == first.id
    [summary] = await lb.seasons(G1)
    assert summary.season.id == first.id and summary.champions == ()


async def test_season_rollover_archives_the_top_three(repo: Repository, lb: LeaderboardService) -> None:
    await finish(repo, G1, row(ANN, 1), row(BOB, 2), row(CAT, 3), row(DAN, 4))
    await finish(repo, G1, row(ANN, 1), row(BOB, 2), row(CAT, 3), row(DAN, 4))
    await finish(repo, G1, row(EVE, 1), row(ANN, 2), game="other")
    rollover = await lb.start_season(G1, "  Summer   Cup ", is_admin=True)
    assert rollover.closed is not None and rollover.closed.number == 1 and not rollover.closed.current
    assert (rollover.opened.number, rollover.opened.name) == (2, "Summer Cup")
    crown = [(c.place, c.user_id) for c in rollover.champions if c.game_id == "crown"]
    assert crown == [(1, ANN), (2, BOB), (3, CAT)]
    assert [(c.place, c.user_id) for c in rollover.champions if c.game_id == "other"] == [(1, EVE), (2, ANN)]

    # The new season starts empty; the old one stays readable by number.
    assert (await lb.board(G1, "crown")).total == 0
    old = await lb.board(G1, "crown", season=1)
    assert old.season.name == "Season 1" and [r.user_id for r in old.rows] == [ANN, BOB, CAT, DAN]
    await finish(repo, G1, row(DAN, 1), row(ANN, 2))
    now = await lb.board(G1, "crown")
    assert [r.user_id for r in now.rows] == [DAN, ANN] and now.season.number == 2

    summaries = await lb.seasons(G1)
    assert [s.season.number for s in summaries] == [2, 1]
    assert len(summaries[1].champions) == 5 and summaries[0].champions == ()

    ended = await lb.end_season(G1, is_admin=True)
    assert ended.closed is not None and ended.closed.name == "Summer Cup"
    assert (ended.opened.number, ended.opened.name) == (3, "Season 3")
    assert [(c.place, c.user_id) for c in ended.champions] == [(1, DAN), (2, ANN)]

    stats = await lb.stats(G1, ANN)
    assert [(b.season.number, b.game_id) for b in stats.boards] == [(2, "crown"), (1, "crown"), (1, "other")]
    assert [b.standing.rank for b in stats.boards] == [2, 1, 2]
    assert stats.recent[0].season_number == 2 and not stats.recent[0].won


async def test_an_empty_season_is_renamed_not_archived(lb: LeaderboardService) -> None:
    with pytest.raises(SeasonError, match="no results yet"):
        await lb.end_season(G1, is_admin=True)
    rollover = await lb.start_season(G1, "Spring", is_admin=True)
    assert rollover.closed is None and rollover.renamed_from == "Season 1"
    assert (rollover.opened.number, rollover.opened.name) == (1, "Spring")
    assert [s.season.name for s in await lb.seasons(G1)] == ["Spring"]
    with pytest.raises(SeasonError, match="at most 64"):
        await lb.start_season(G1, "x" * 65, is_admin=True)
    with pytest.raises(SeasonError, match="name"):
        await lb.start_season(G1, "   ", is_admin=True)


async def test_starting_or_ending_a_season_needs_manage_server(
    repo: Repository, lb: LeaderboardService
) -> None:
    await finish(repo, G1, row(ANN, 1), row(BOB, 2))
    with pytest.raises(NeedsManageServer) as err:
        await lb.start_season(G1, "Mine", is_admin=False)
    assert str(err.value) == "Only members with the Manage Server permission can start a season."
    with pytest.raises(NeedsManageServer, match="end a season"):
        await lb.end_season(G1, is_admin=False)
    assert [s.season.number for s in await lb.seasons(G1)] == [1]  # nothing changed


async def test_unknown_seasons_and_games_are_refused(lb: LeaderboardService) -> None:
    with pytest.raises(UnknownSeason, match="no season 7"):
        await lb.board(G1, "crown", season=7)
    with pytest.raises(UnknownGame):
        await lb.board(G1, "poker")


# --- isolation and paging -------------------------------------------------------------------


async def test_servers_never_see_each_others_data(repo: Repository, lb: LeaderboardService) -> None:
    await finish(repo, G1, row(ANN, 1), row(BOB, 2))
    await finish(repo, G2, row(BOB, 1), row(CAT, 2))
    await finish(repo, G2, row(BOB, 1), row(CAT, 2))
    one, two = await lb.board(G1, "crown"), await lb.board(G2, "crown")
    assert [r.user_id for r in one.rows] == [ANN, BOB]
    assert [r.user_id for r in two.rows] == [BOB, CAT]
    assert one.season.id != two.season.id and one.season.number == two.season.number == 1
    bob1, bob2 = await lb.stats(G1, BOB), await lb.stats(G2, BOB)
    assert [(b.standing.played, b.standing.wins) for b in bob1.boards] == [(1, 0)]
    assert [(b.standing.played, b.standing.wins) for b in bob2.boards] == [(2, 2)]
    assert len(bob1.recent) == 1 and len(bob2.recent) == 2
    assert (await lb.stats(G1, CAT)).boards == ()

    await lb.start_season(G2, "Two's second", is_admin=True)
    assert [s.season.number for s in await lb.seasons(G1)] == [1]
    assert (await lb.board(G1, "crown")).total == 2  # G1's season did not roll over
    with pytest.raises(UnknownSeason):
        await lb.board(G1, "crown", season=2)
    assert [s.name for s in await lb.season_choices(G2, "second")] == ["Two's second"]
    assert await lb.season_choices(G1, "second") == []


async def test_paging_clamps_and_ranks_continue(repo: Repository, lb: LeaderboardService) -> None:
    # 25 players: player k beat everyone below them once (a strict order by skill).
    users = list(range(500, 525))
    for i in range(0, 25, 5):
        group = users[i : i + 5]
        await finish(repo, G1, *(row(u, place) for place, u in enumerate(group, start=1)))
    first = await lb.board(G1, "crown")
    assert (first.page, first.pages, first.total, len(first.rows)) == (0, 3, 25, 10)
    assert [r.rank for r in first.rows] == list(range(1, 11))
    last = await lb.board(G1, "crown", page=2)
    assert (last.page, len(last.rows), [r.rank for r in last.rows]) == (2, 5, list(range(21, 26)))
    assert (await lb.board(G1, "crown", page=99)).page == 2
    assert (await lb.board(G1, "crown", page=-3)).page == 0
    everyone = [r for p in range(3) for r in (await lb.board(G1, "crown", page=p)).rows]
    assert len({r.user_id for r in everyone}) == 25
    keys = [(-r.ordinal, -r.wins, r.played, r.user_id) for r in everyone]
    assert keys == sorted(keys)
    # /stats ranks agree with the pages.
    for r in everyone[::6]:
        [board] = (await lb.stats(G1, r.user_id)).boards
        assert board.standing.rank == r.rank and board.total == 25


# --- migration --------------------------------------------------------------------------------


def test_migration_puts_older_results_into_a_first_season(tmp_path: Path) -> None:
    from alembic import command

    path = tmp_path / "old.db"
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0002")
    con = sqlite3.connect(path)
    for mid in (1, 2):
        con.execute(
            "insert into matches (id, guild_id, channel_id, host_id, game_id, options, status, seats, version, seed,"
            " notes, created_at, updated_at) values (?, ?, 1, 1, 'crown', '{}', 'finished', '[]', 3, 1, '{}', 0, 0)",
            (mid, G1),
        )
    rows = [(1, ANN, 1, 0), (1, BOB, 2, 1), (2, BOB, 1, 0), (2, CAT, 2, 1)]
    for mid, user, place, seat in rows:
        con.execute(
            "insert into results (match_id, guild_id, game_id, user_id, seat, is_ai, place, players, has_ai, left,"
            " created_at) values (?, ?, 'crown', ?, ?, 0, ?, 2, 0, 0, ?)",
            (mid, G1, user, seat, place, float(mid)),
        )
    con.commit()
    con.close()
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "head")
    con = sqlite3.connect(path)
    assert con.execute("select guild_id, number, name, ended_at from seasons").fetchall() == [
        (G1, 1, "Season 1", None)
    ]
    assert {s for (s,) in con.execute("select season_id from results")} == {1}
    got = dict(con.execute("select user_id, wins from standings").fetchall())
    assert got == {ANN: 1, BOB: 1, CAT: 0}
    tallies: dict[int, ratings.Tally] = {}
    for mid in (1, 2):
        match = [row(u, p, s) for m, u, p, s in rows if m == mid]
        tallies.update(ratings.apply_match(tallies, match, float(mid)))
    for user, mu in con.execute("select user_id, mu from standings"):
        assert mu == pytest.approx(tallies[user].mu)
    engine.dispose()


__all__ = ["postgres_server"]  # the session fixture, used through database_url


async def test_points_are_shown_with_the_games_direction(repo: Repository, lb: LeaderboardService) -> None:
    """Dynasty's totals are penalties (the lowest wins): its boards and /stats say so; crown's
    scores stay plain points."""
    from bot.ui.leaderboard import board_embed, stats_embed

    await finish(repo, G1, row(ANN, 1, score=40), row(BOB, 2, score=120), game="dynasty")
    await finish(repo, G1, row(ANN, 1, score=3), row(BOB, 2, score=1), game="crown")
    dynasty = board_embed(await lb.board(G1, "dynasty")).description or ""
    assert "total 40" in dynasty and "total 120" in dynasty, dynasty
    crown = board_embed(await lb.board(G1, "crown")).description or ""
    assert "3 pts" in crown and "total" not in crown, crown
    stats = stats_embed(await lb.stats(G1, ANN), "Ann")
    boards = {f.name.split(" · ")[0]: f.value for f in stats.fields}
    assert "total 40" in boards["King's Dynasty"], boards
    assert "3 pts" in boards["King and Crown"] and "total" not in boards["King and Crown"], boards


async def test_boards_and_stats_speak_players_words(repo: Repository, lb: LeaderboardService) -> None:
    """No code names or formulas on a board or in /stats: skill is explained in words, its
    uncertainty is a ±, a season named by its number is not named twice, and a dynasty total
    is a total (as its table says), lowest best."""
    from bot.ui.leaderboard import board_embed, stats_embed

    await finish(repo, G1, row(ANN, 1, score=40), row(BOB, 2, score=120), game="dynasty")
    board = board_embed(await lb.board(G1, "dynasty"))
    text = f"{board.description}\n{board.footer.text}"
    for jargon in ("openskill", "μ", "σ", "place_score", "penalty pts", "(season 1,"):
        assert jargon not in text, (jargon, text)
    assert "Season 1 (current)" in text and "rises as you beat stronger players" in text, text
    assert "lowest total is best" in text, text
    stats = stats_embed(await lb.stats(G1, ANN), "Ann")
    values = "\n".join(f.value or "" for f in stats.fields)
    assert "μ" not in values and "σ" not in values and "skill " in values and "±" in values, values


async def test_a_player_with_only_ai_matches_has_a_rank_that_says_what_it_stands_on(
    repo: Repository, lb: LeaderboardService
) -> None:
    """/stats once said "Rank #1 of 3 · unrated": a rank beside "unrated" reads as a
    contradiction. A player whose matches all had AI seats has no skill yet; their rank is
    the starting skill's, then their placing, and the line says so (the board too)."""
    from bot.ui.leaderboard import board_embed, stats_embed

    await finish(repo, G1, row(ANN, 1), row(None, 2, ai=True))
    await finish(repo, G1, row(BOB, 2), row(None, 1, ai=True))
    stats = stats_embed(await lb.stats(G1, ANN), "Ann")
    values = "\n".join(f.value or "" for f in stats.fields)
    assert "unrated" not in values, values
    # says what counts for skill and what the percentage is (the QA pass read "only matches
    # with AI" and an unexplained "(0%)" after a match with two people and an AI)
    assert values.splitlines()[0] == (
        "Rank **#1** of 2 · no skill yet (only matches without AI players count for skill): ranked at "
        "the starting skill, then by average placing 100% (100% = always first)"
    ), values
    bob = "\n".join(f.value or "" for f in stats_embed(await lb.stats(G1, BOB), "Bob").fields)
    assert bob.startswith("Rank **#2** of 2 · no skill yet") and "average placing 0% (" in bob, bob
    # two people and an AI: no skill for either; second of three places is half way
    await finish(repo, G1, row(CAT, 1), row(DAN, 2), row(None, 3, ai=True))
    dan = "\n".join(f.value or "" for f in stats_embed(await lb.stats(G1, DAN), "Dan").fields)
    assert "no skill yet (only matches without AI players count for skill)" in dan, dan
    assert "average placing 50% (" in dan, dan
    board = board_embed(await lb.board(G1, "crown")).description or ""
    assert "no skill yet" in board and "unrated" not in board, board
