"""How far a busy table lags behind its match, under Discord's edit limit.

The fake Discord enforces Discord's limit on editing one message (5 edits per 5 seconds,
answered 429 past it, as Discord does; discord.py then waits). One person and three AI seats
play King's Dynasty fast (the AI waits ``--ai-delay`` seconds, the person answers at once)
for ``--seconds``. For every new state of the match, the lag is the time until the table
shows it or a newer one. Run twice in one process: with the bot's pacing (a table edited at
most once per ``TABLE_EDIT_SECONDS``, 1 s, coalescing to the newest state) and without it
(every change edits the table: the baseline). Prints the lag's p50/p99/max and the 429s.

    .venv/bin/python benchmarks/bench_table_lag.py [--seconds 20] [--ai-delay 0.2]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.app import KingBot
from bot.games.base import Event, GameError, Rng
from bot.service import ServiceError, Snapshot
from bot.settings import Settings
from tests.e2e_support import World, open_match
from tests.fakediscord import FakeDiscord

SHOWN = re.compile(r"move (\d+)")


class Committed:
    """A service listener noting when each version of the match was committed."""

    def __init__(self) -> None:
        self.at: dict[int, float] = {}

    async def match_changed(self, snap: Snapshot, events: Sequence[Event]) -> None:
        self.at.setdefault(snap.version, time.monotonic())

    async def remind(self, snap: Snapshot, seats: Sequence[int], seconds_left: float) -> None:
        return None


async def run(pacing: float, seconds: float, ai_delay: float) -> tuple[list[float], int, int]:
    tmp = Path(tempfile.mkdtemp())
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Bench")
        channel = fake.add_channel(guild, "t")
        ann = fake.add_user("ann")
        world = World(fake, guild, channel, [ann], f"sqlite:///{tmp / 'bot.db'}", tmp)
        bot = KingBot(
            Settings(
                token=fake.token,
                database_url=world.db_url,
                ai_delay=ai_delay,
                sync_commands=True,
                table_edit_seconds=pacing,
            )
        )
        async with fake.bot_running(bot):
            committed = Committed()
            bot.service.add_listener(committed)
            table = await open_match(
                world, ann, [], game="dynasty", options={"deck": "classic", "hands": "8"}, ais=3
            )
            fake.edit_limit = (5, 5.0)
            match_id = (await bot.repo.latest_in_channel(channel.id)).id
            shown: list[tuple[float, int]] = []
            end = time.monotonic() + seconds
            rng = Rng.from_seed(1)
            while time.monotonic() < end:
                snap = await bot.service.get(match_id)
                found = SHOWN.search(table.text)
                if found:
                    shown.append((time.monotonic(), int(found.group(1))))
                if snap.status != "running":
                    break
                seat = snap.seat_of(ann.id)
                if seat is not None and seat in snap.awaited():
                    _, rng = rng.next64()
                    with contextlib.suppress(GameError, ServiceError):  # someone moved first: look again
                        await bot.service.play(match_id, ann.id, snap.game.ai_move(snap.state, seat, rng))
                await asyncio.sleep(0.01)
            lags = []
            for version, at in committed.at.items():
                seen = next((t for t, v in shown if v >= version and t >= at), None)
                if seen is not None:
                    lags.append(seen - at)
            return lags, len(fake.rate_limited), len(committed.at)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def main(seconds: float, ai_delay: float) -> None:
    print("| table edits | states | lag p50 s | lag p99 s | lag max s | 429 answers |")
    print("|---|---|---|---|---|---|")
    for name, pacing in (("at most one a second (bot)", 1.0), ("one per change (baseline)", 0.0)):
        lags, limited, states = await run(pacing, seconds, ai_delay)
        print(
            f"| {name} | {states} | {statistics.median(lags):.2f} | {pct(lags, 0.99):.2f} | {max(lags):.2f} | {limited} |",
            flush=True,
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--ai-delay", type=float, default=0.2)
    args = parser.parse_args()
    logging.disable(logging.WARNING)  # the baseline's 429s are counted, not logged
    asyncio.run(main(args.seconds, args.ai_delay))
