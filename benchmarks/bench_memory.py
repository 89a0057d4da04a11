"""Memory a running match holds in the service, after 10, 100 and 1,000 moves a match.

``--matches`` two-player King's Dynasty matches (played until a total passes the limit, so a
match lasts past 1,000 moves) run side by side in one service on a SQLite file, with the turn
timer on (every move arms the next deadline). Both players are people playing random legal
moves through :meth:`MatchService.play`, round after round: one move in every match, then
the next. At each mark the memory traced by ``tracemalloc`` (after a full collection) less
what was traced before the first lobby opened, over the matches running, is a match's share;
**the baseline** is that share after 10 moves a match, and each mark prints its ratio to it.
The files that grew most from the first mark to the last are printed too. A match that ends
is opened again and played from its start, so the count of running matches stays the same.
Not a timed test.

Before anything is traced, ``--warm`` moves of random matches straight through the engine
fill the process's own caches (King's Dynasty's move catalogue and its shared events: made
once for every match, bounded by the cards, about 0.9 MiB after some 40,000 moves of any
matches); without it they grew through the run and, shared by 20 matches, looked like
some 40 KiB a match.

    .venv/bin/python benchmarks/bench_memory.py [--matches 100] [--moves 10 100 1000] [--warm 40000]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import sys
import tempfile
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games import GAMES
from bot.service import MatchService, Snapshot
from db.records import MatchStatus
from db.repository import Repository

OPTIONS = {"deck": "dynasty", "hands": "limit"}


async def open_match(svc: MatchService, index: int) -> int:
    host, guest = 1_000_000 + 2 * index, 1_000_001 + 2 * index
    snap = await svc.open_lobby(
        guild_id=1, channel_id=10_000 + index, host_id=host, host_name="a", game_id="dynasty", options=OPTIONS
    )
    await svc.join(snap.id, guest, "b")
    return (await svc.start(snap.id, host)).id


async def one_move(svc: MatchService, match_id: int, rng: random.Random) -> Snapshot:
    snap = await svc.get(match_id)
    seat = min(snap.to_act())
    moves = snap.legal_moves(seat)
    user = snap.seats[seat].user_id
    assert user is not None
    result = await svc.play(match_id, user, rng.choice(moves))
    return result.snapshot


def warm_up(moves: int, rng: random.Random) -> None:
    """Random matches through the engine alone, ``moves`` moves in all (the process's caches)."""
    game = GAMES["dynasty"]
    played = 0
    while played < moves:
        state = game.setup(2, rng.randrange(1 << 30), OPTIONS)
        while game.outcome(state) is None and played < moves:
            seat = min(game.to_act(state))
            state, _events = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
            played += 1


def traced() -> int:
    gc.collect()
    return tracemalloc.get_traced_memory()[0]


async def main(count: int, marks: list[int], warm: int) -> None:
    path = Path(tempfile.mkdtemp()) / "memory.db"
    repo = Repository(f"sqlite:///{path}")
    await repo.migrate()
    svc = MatchService(repo, ai_delay=0)
    rng = random.Random(7)
    warm_up(warm, random.Random(11))
    tracemalloc.start(1)
    before = traced()
    matches = [await open_match(svc, i) for i in range(count)]
    reopened, played = 0, 0
    first: tracemalloc.Snapshot | None = None
    baseline = 0.0
    print(
        f"{count} running two-player King's Dynasty matches in one service, turn timer on; "
        f"{warm} moves played first to fill the process's caches"
    )
    print("| moves a match | KiB a running match | ratio to 10 moves (**the baseline**) |")
    print("|---|---|---|")
    for mark in marks:
        while played < mark:
            for i, match_id in enumerate(matches):
                snap = await one_move(svc, match_id, rng)
                if snap.status != MatchStatus.RUNNING:
                    matches[i] = await open_match(svc, count + reopened)
                    reopened += 1
            played += 1
            await asyncio.sleep(0)
        await svc.settle()
        share = (traced() - before) / count / 1024
        if first is None:
            first, baseline = tracemalloc.take_snapshot(), share
        print(f"| {mark} | {share:.1f} | {share / baseline:.2f}x |", flush=True)
    assert first is not None
    grown = tracemalloc.take_snapshot().compare_to(first, "lineno")[:8]
    print(f"{reopened} matches ended and were opened again; grown most from {marks[0]} to {marks[-1]} moves:")
    for stat in grown:
        print(
            f"  {stat.traceback[0].filename}:{stat.traceback[0].lineno}: {stat.size_diff / 1024:+.0f} KiB, {stat.count_diff:+d} blocks"
        )
    tracemalloc.stop()
    await svc.close()
    await repo.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--moves", type=int, nargs="+", default=[10, 100, 1000], help="marks (moves a match)")
    parser.add_argument("--warm", type=int, default=40_000, help="engine moves to fill the caches first")
    args = parser.parse_args()
    asyncio.run(main(args.matches, sorted(args.moves), args.warm))
