"""Leaderboard benchmark: page queries over 10,000 players and 200,000 results on SQLite.

Builds a database file with the bot's migrations, 10,000 players and 200,000 results
spread over three servers, three games and two seasons (the largest board holds every
player), computes the standings from those results with the bot's own code
(``rebuild_board``, the same fold the finishing move applies), then times, through the
service the bot uses:

* ``LeaderboardService.board`` for random pages (first and last pages included),
* ``LeaderboardService.stats`` (ranks on every board of a player, recent results),
* ``Repository.apply_move`` finishing a match (results + standings in one transaction).

Not a timed test: it prints its figures and the ratio to the 50 ms target.

    .venv/bin/python benchmarks/bench_leaderboard.py [--players 10000] [--results 200000] [--pages 1000]
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

from bot.service.leaderboard import LeaderboardService
from db.records import MatchStatus, MatchUpdate, ResultRow, Seat
from db.repository import Repository

TARGET_MS = 50.0
GUILDS = (111_000_000_000_000_001, 222_000_000_000_000_002, 333_000_000_000_000_003)
GAMES = ("crown", "dynasty", "dreams")
FIRST_USER = 400_000_000_000_000_000


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def figures(name: str, ms: list[float]) -> str:
    p50, p99 = statistics.median(ms), percentile(ms, 99)
    return (
        f"{name:<34} n={len(ms):<5} p50 {p50:7.2f} ms  p99 {p99:7.2f} ms  max {max(ms):7.2f} ms"
        f"  (p99 = {p99 / TARGET_MS:.3f} x the {TARGET_MS:.0f} ms target)"
    )


def plan_boards(players: int, results: int) -> list[tuple[int, str, int, int, int]]:
    """(guild, game, season number, players on the board, results) per board.

    The main board (first server, crown, current season) has every player and half of the
    results; the rest are smaller boards in other servers, games and the past season.
    """
    main = results // 2
    rest = results - main
    others = [
        (GUILDS[0], "crown", 1, players // 2),
        (GUILDS[0], "dynasty", 2, players // 4),
        (GUILDS[1], "crown", 1, players // 3),
        (GUILDS[1], "dreams", 1, players // 5),
        (GUILDS[2], "dynasty", 1, players // 10),
    ]
    weight = sum(o[3] for o in others)
    boards = [(GUILDS[0], "crown", 2, players, main)]
    for guild, game, season, n in others:
        boards.append((guild, game, season, n, rest * n // weight))
    boards[-1] = boards[-1][:4] + (results - sum(b[4] for b in boards[:-1]),)
    return boards


def generate(
    path: Path,
    season_ids: dict[tuple[int, int], int],
    boards: list[tuple[int, str, int, int, int]],
    players: int,
    rng: random.Random,
) -> int:
    """Bulk-write finished matches and their results (what finishing moves would have stored)."""
    con = sqlite3.connect(path)
    match_id = con.execute("select coalesce(max(id), 0) from matches").fetchone()[0]
    total = 0
    t0 = 1_700_000_000.0
    for guild, game, season, n_players, n_results in boards:
        pool = rng.sample(range(players), n_players)
        # Make sure every player on the board appears at least once.
        order = pool[:]
        rng.shuffle(order)
        matches, results = [], []
        left = n_results
        cursor = 0
        while left > 0:
            size = min(left, rng.choice((2, 2, 3, 4, 5)))
            if left - size == 1:
                size += 1
            match_id += 1
            ai_seat = rng.random() < 0.1 and size > 2
            seats = []
            for _ in range(size):
                if cursor < len(order):
                    seats.append(order[cursor])
                    cursor += 1
                else:
                    seats.append(rng.choice(pool))
            seats = list(dict.fromkeys(seats))
            while len(seats) < size:
                u = rng.choice(pool)
                if u not in seats:
                    seats.append(u)
            places = list(range(1, size + 1))
            rng.shuffle(places)
            at = t0 + match_id
            matches.append(
                (match_id, guild, match_id, 1, game, "{}", "finished", "[]", 10, 1, "{}", at, at, at)
            )
            for seat, (user, place) in enumerate(zip(seats, places)):
                is_ai = ai_seat and seat == size - 1
                uid = None if is_ai else FIRST_USER + user
                results.append(
                    (
                        match_id,
                        guild,
                        game,
                        season_ids[(guild, season)],
                        uid,
                        seat,
                        int(is_ai),
                        place,
                        rng.randint(0, 12) if game != "dreams" else None,
                        None,
                        size,
                        int(ai_seat),
                        int(rng.random() < 0.02),
                        at,
                    )
                )
            left -= size
        con.executemany(
            "insert into matches (id, guild_id, channel_id, host_id, game_id, options, status, seats, version, seed,"
            " notes, created_at, updated_at, finished_at) values (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            matches,
        )
        con.executemany(
            "insert into results (match_id, guild_id, game_id, season_id, user_id, seat, is_ai, place, score, team,"
            " players, has_ai, left, created_at) values (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            results,
        )
        total += len(results)
    con.commit()
    con.close()
    return total


async def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--results", type=int, default=200_000)
    parser.add_argument("--pages", type=int, default=1_000, help="page queries to time")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.db"
        repo = Repository(f"sqlite:///{path}")
        await repo.migrate()
        lb = LeaderboardService(repo)

        # Seasons: the first server has a closed season 1 and a current season 2.
        season_ids: dict[tuple[int, int], int] = {}
        for guild in GUILDS:
            season_ids[(guild, 1)] = (await lb.current_season(guild)).id
        boards = plan_boards(args.players, args.results)
        t = time.perf_counter()
        # Season 1 results first, then close season 1 (archiving champions), then season 2.
        first = [b for b in boards if b[2] == 1]
        second = [b for b in boards if b[2] == 2]
        n = generate(path, season_ids, first, args.players, rng)
        for guild, game, season, _, _ in first:
            await lb.store.rebuild_board(guild, game, season_ids[(guild, season)])
        t_roll = time.perf_counter()
        rollover = await lb.start_season(GUILDS[0], "Season 2", is_admin=True)
        roll_ms = (time.perf_counter() - t_roll) * 1000
        season_ids[(GUILDS[0], 2)] = rollover.opened.id
        n += generate(path, season_ids, second, args.players, rng)
        for guild, game, season, _, _ in second:
            await lb.store.rebuild_board(guild, game, season_ids[(guild, season)])
        build_s = time.perf_counter() - t

        con = sqlite3.connect(path)
        players = con.execute(
            "select count(distinct user_id) from results where user_id is not null"
        ).fetchone()[0]
        main_board = con.execute(
            "select count(*) from standings where guild_id = ? and game_id = 'crown' and season_id = ?",
            (GUILDS[0], season_ids[(GUILDS[0], 2)]),
        ).fetchone()[0]
        plan = con.execute(
            "explain query plan select * from standings where guild_id = ? and game_id = ? and season_id = ? "
            "order by ordinal desc, wins desc, played, user_id limit 10 offset 5000",
            (GUILDS[0], "crown", season_ids[(GUILDS[0], 2)]),
        ).fetchall()
        con.close()

        print(
            f"database: {n:,} results, {players:,} players, {len(boards)} boards in {len(GUILDS)} servers; "
            f"largest board {main_board:,} players; built in {build_s:.1f} s"
        )
        print("page query plan: " + " | ".join(str(r[-1]) for r in plan))

        # Warm up, then time random pages of the largest board (first and last included).
        page = await lb.board(GUILDS[0], "crown")
        pages = page.pages
        for p in range(5):
            await lb.board(GUILDS[0], "crown", page=p)
        wanted = [0, pages - 1] + [rng.randrange(pages) for _ in range(args.pages - 2)]
        page_ms = []
        for p in wanted:
            t = time.perf_counter()
            got = await lb.board(GUILDS[0], "crown", page=p)
            page_ms.append((time.perf_counter() - t) * 1000)
            assert got.rows and got.page == p
        old_ms = []
        for p in [rng.randrange(50) for _ in range(200)]:
            t = time.perf_counter()
            await lb.board(GUILDS[0], "crown", season=1, page=p)
            old_ms.append((time.perf_counter() - t) * 1000)

        # The SQL alone, without the async driver: the page query on a plain connection.
        con = sqlite3.connect(path)
        sql_ms = []
        sid = season_ids[(GUILDS[0], 2)]
        for p in wanted[:300]:
            t = time.perf_counter()
            con.execute(
                "select count(*) from standings where guild_id = ? and game_id = ? and season_id = ?",
                (GUILDS[0], "crown", sid),
            ).fetchone()
            con.execute(
                "select * from standings where guild_id = ? and game_id = ? and season_id = ? "
                "order by ordinal desc, wins desc, played, user_id limit 10 offset ?",
                (GUILDS[0], "crown", sid, p * 10),
            ).fetchall()
            sql_ms.append((time.perf_counter() - t) * 1000)
        con.close()

        stats_ms = []
        for u in rng.sample(range(args.players), 200):
            t = time.perf_counter()
            await lb.stats(GUILDS[0], FIRST_USER + u)
            stats_ms.append((time.perf_counter() - t) * 1000)

        # Finishing moves on the full database: results + season + standings, one transaction.
        finish_ms = []
        for i in range(200):
            users = rng.sample(range(args.players), 4)
            seats = [Seat(FIRST_USER + u, f"p{u}") for u in users]
            m = await repo.create_match(
                guild_id=GUILDS[0],
                channel_id=10_000 + i,
                host_id=seats[0].user_id or 0,
                game_id="crown",
                options={},
                seats=seats,
                seed=i,
            )
            m = await repo.start_match(
                m.id, m.version, state={}, seats=m.seats, deadline_at=None, deadline=None
            )
            rows = tuple(
                ResultRow(s, seats[s].user_id, False, s + 1, rng.randint(0, 9), None) for s in range(4)
            )
            t = time.perf_counter()
            await repo.apply_move(
                MatchUpdate(
                    m.id,
                    m.version,
                    {},
                    0,
                    seats[0].user_id,
                    "end",
                    {},
                    status=MatchStatus.FINISHED,
                    results=rows,
                )
            )
            finish_ms.append((time.perf_counter() - t) * 1000)
        await repo.close()

    print(f"season rollover (archive top 3 per game, open the next): {roll_ms:.1f} ms")
    print(figures("leaderboard page (service, current)", page_ms))
    print(figures("leaderboard page (service, season 1)", old_ms))
    print(figures("leaderboard page (SQL only)", sql_ms))
    print(figures("/stats (ranks + recent results)", stats_ms))
    print(figures("finishing move with standings", finish_ms))
    p99 = percentile(page_ms, 99)
    verdict = "within" if p99 < TARGET_MS else "OVER"
    print(
        f"leaderboard page p99 {p99:.2f} ms: {p99 / TARGET_MS:.3f} x the {TARGET_MS:.0f} ms target ({verdict})"
    )


if __name__ == "__main__":
    asyncio.run(main())
