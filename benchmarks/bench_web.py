"""Web pages benchmark: a leaderboard page over 10,000 players and 200,000 results, through
HTTP, beside the same query through ``/leaderboard``.

Builds the database of ``bench_leaderboard.py`` (the bot's migrations, 10,000 players and
200,000 results over three servers, three games and two seasons, standings folded by the
bot's own ``rebuild_board``), names every seat, gives the rated results a skill change
(random, for the rating charts: the figures do not depend on its values) and turns the first
server's web pages on. Then it times, on the largest board (every player, the current season):

* ``/leaderboard``: ``LeaderboardService.board``, the service call the command makes (10 rows);
* the web page ``/s/<key>/board/crown?page=P`` over loopback HTTP, from request to the last
  byte (25 rows, their names, the season list, the template), for random pages;
* the same page sorted by win rate (no index gives that order), and players' pages (record,
  ranks, rating chart drawn by pygal).

Not a timed test: it prints its figures, the ratio of each to ``/leaderboard`` and to the
50 ms target.

    .venv/bin/python benchmarks/bench_web.py [--players 10000] [--results 200000] [--pages 500]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from aiohttp.test_utils import TestClient, TestServer
from bench_leaderboard import FIRST_USER, GUILDS, generate, percentile, plan_boards

from bot.service.leaderboard import LeaderboardService
from bot.service.web import WebPages
from bot.web.app import make_app
from db.repository import Repository

TARGET_MS = 50.0

# Every seat named, as a finished match's seats are; every rated result given a skill change.
NAME_SEATS = """
update matches set seats = (
    select json_group_array(json_object('user_id', user_id, 'name', 'Player ' || seat, 'ai', is_ai))
    from results where results.match_id = matches.id
)
"""
SKILL_CHANGES = """
update results set skill_change = ((abs(random()) % 400) - 200) / 100.0
where has_ai = 0 and user_id is not null
"""


async def build(path: Path, players: int, results: int, rng: random.Random) -> tuple[Repository, int]:
    """The database of bench_leaderboard.py; returns the repository and the result count."""
    repo = Repository(f"sqlite:///{path}")
    await repo.migrate()
    lb = LeaderboardService(repo)
    season_ids = {(guild, 1): (await lb.current_season(guild)).id for guild in GUILDS}
    boards = plan_boards(players, results)
    first = [b for b in boards if b[2] == 1]
    n = generate(path, season_ids, first, players, rng)
    for guild, game, season, _, _ in first:
        await lb.store.rebuild_board(guild, game, season_ids[(guild, season)])
    season_ids[(GUILDS[0], 2)] = (await lb.start_season(GUILDS[0], "Season 2", is_admin=True)).opened.id
    second = [b for b in boards if b[2] == 2]
    n += generate(path, season_ids, second, players, rng)
    for guild, game, season, _, _ in second:
        await lb.store.rebuild_board(guild, game, season_ids[(guild, season)])
    con = sqlite3.connect(path)
    con.execute(NAME_SEATS)
    con.execute(SKILL_CHANGES)
    con.commit()
    con.close()
    return repo, n


def figures(name: str, ms: list[float], baseline: float | None = None) -> str:
    p50, p99 = statistics.median(ms), percentile(ms, 99)
    ratio = f"  {p99 / baseline:5.2f}x /leaderboard" if baseline else ""
    return (
        f"{name:<40} n={len(ms):<5} p50 {p50:7.2f} ms  p99 {p99:7.2f} ms  max {max(ms):7.2f} ms"
        f"  (p99 = {p99 / TARGET_MS:.3f} x the {TARGET_MS:.0f} ms target){ratio}"
    )


async def timed_gets(client: TestClient, paths: list[str]) -> list[float]:
    ms = []
    for path in paths:
        t = time.perf_counter()
        response = await client.get(path)
        await response.read()
        ms.append((time.perf_counter() - t) * 1000)
        assert response.status == 200, path
    return ms


async def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--results", type=int, default=200_000)
    parser.add_argument("--pages", type=int, default=500, help="pages to time for each kind")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        repo, n = await build(Path(tmp) / "bench.db", args.players, args.results, rng)
        lb = LeaderboardService(repo)
        pages = WebPages(repo, lb)
        key = await repo.web_key(GUILDS[0])
        if key is None:
            key = "bench-" + "k" * 18
            await repo.set_web_key(GUILDS[0], key)
        board = await lb.board(GUILDS[0], "crown")
        web_board = await pages.board(GUILDS[0], "crown", None, 0, "skill", True)
        print(
            f"database: {n:,} results, {board.total:,} players on the largest board "
            f"({web_board.page.pages} web pages of 25, {board.pages} /leaderboard pages of 10); "
            f"built in {time.perf_counter() - t:.1f} s"
        )

        client = TestClient(TestServer(make_app(pages)))
        await client.start_server()
        try:
            count = max(2, args.pages)
            command_pages = [0, board.pages - 1] + [rng.randrange(board.pages) for _ in range(count - 2)]
            web_pages = [1, web_board.page.pages] + [
                rng.randrange(web_board.page.pages) + 1 for _ in range(count - 2)
            ]
            for p in range(3):  # warm up both
                await lb.board(GUILDS[0], "crown", page=p)
                await client.get(f"/s/{key}/board/crown?page={p + 1}")
            command_ms = []
            for p in command_pages:
                t = time.perf_counter()
                await lb.board(GUILDS[0], "crown", page=p)
                command_ms.append((time.perf_counter() - t) * 1000)
            web_ms = await timed_gets(client, [f"/s/{key}/board/crown?page={p}" for p in web_pages])
            sorted_ms = await timed_gets(
                client,
                [f"/s/{key}/board/crown?sort=win_rate&page={p}" for p in web_pages[: max(2, count // 5)]],
            )
            users = rng.sample(range(args.players), min(args.players, max(2, count // 5)))
            player_ms = await timed_gets(client, [f"/s/{key}/player/{FIRST_USER + u}" for u in users])
        finally:
            await client.close()
            await repo.close()

    base = percentile(command_ms, 99)
    print(figures("/leaderboard (service call, 10 rows)", command_ms))
    print(figures("web leaderboard page (HTTP, 25 rows)", web_ms, base))
    print(figures("web page sorted by win rate", sorted_ms, base))
    print(figures("web player page (with chart)", player_ms, base))
    p99 = percentile(web_ms, 99)
    verdict = "within" if p99 < TARGET_MS else "OVER"
    print(
        f"web leaderboard page p99 {p99:.2f} ms: {p99 / TARGET_MS:.3f} x the {TARGET_MS:.0f} ms target "
        f"({verdict}); {p99 / base:.2f}x the p99 of /leaderboard ({base:.2f} ms)"
    )


if __name__ == "__main__":
    asyncio.run(main())
