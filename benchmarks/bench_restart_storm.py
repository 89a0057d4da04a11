"""A restart on many running matches, as Discord sees it: requests a second, pings sent again,
and a player's move answered meanwhile.

``--matches`` running two-player King and Crown matches (defend), each in a channel of its own
on the fake Discord, are made in the database; a first start of the bot posts their tables and
turn pings (unpaced, to build the world quickly) and stops cleanly. Then the bot is started
again twice, each time timed from the start for ``--seconds``:

- **the bot**: table marks kept (a clean stop), and ``--behind`` matches whose table marks were
  lost (as after a crash before their timed save; a ping's mark is saved before the ping is sent,
  so a crash cannot lose it): only those tables are caught up, at the bot's pace;
- **the baseline**: every mark lost and no pace, which is what every restart did before
  (every table edited and every turn pinged again, all at once).

Each run prints the most requests the bot sent in any one second, the turn pings it sent
again (in the matches nobody moved in), and the time a player's move (My hand, then a move) took to be answered when pressed
right after the bot was ready. Text-only tables (no pictures), to keep the run short. Not a
timed test.

    .venv/bin/python benchmarks/bench_restart_storm.py [--matches 1000] [--behind 100] [--seconds 12]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.app import KingBot
from bot.settings import Settings
from bot.ui import table as table_module
from tests.e2e_support import World, answer_ids, fire_component
from tests.fakediscord import FakeDiscord, FakeMessage, InteractionRecord


def make_bot(world: World) -> KingBot:
    return KingBot(
        Settings(token=world.fake.token, database_url=world.db_url, ai_delay=0, sync_commands=False)
    )


async def build(world: World, count: int) -> list[int]:
    """``count`` running matches of ann and bob, each in a channel of its own, made through the
    service (a lobby, a join, a start), with the server's tables text only."""
    ann, bob = world.users[:2]
    bot = make_bot(world)
    await bot.repo.migrate()
    await bot.service.settings.set_server_settings(world.guild.id, is_admin=True, text_only=True)
    ids = []
    for i in range(count):
        channel = world.fake.add_channel(world.guild, f"t{i}")
        snap = await bot.service.open_lobby(
            guild_id=world.guild.id,
            channel_id=channel.id,
            host_id=ann.id,
            host_name="ann",
            game_id="crown",
            options={"variant": "defend"},
        )
        await bot.service.join(snap.id, bob.id, "bob")
        ids.append((await bot.service.start(snap.id, ann.id)).id)
    await bot.service.close()
    await bot.repo.close()
    return ids


def requests_sent(fake: FakeDiscord, since: int, start: float, seconds: float) -> list[float]:
    """When each REST request of the bot (not its interaction answers) arrived, from ``start``."""
    return [
        r.at - start
        for r in fake.requests[since:]
        if "/interactions/" not in r.path and r.method != "GET" and r.at - start <= seconds
    ]


def busiest_second(times: list[float]) -> int:
    times = sorted(times)
    best, low = 0, 0
    for high, at in enumerate(times):
        while at - times[low] >= 1.0:
            low += 1
        best = max(best, high - low + 1)
    return best


def pings(fake: FakeDiscord, since: int, moved_in: int) -> int:
    """Turn pings posted since ``since``, but in channel ``moved_in`` (where a move was made)."""
    return sum(
        1
        for r in fake.requests[since:]
        if r.method == "POST"
        and r.path.endswith("/messages")
        and f"/channels/{moved_in}/" not in r.path
        and "your turn" in str(r.body)
    )


async def answered(rec: InteractionRecord, timeout: float = 10.0) -> float:
    start = time.monotonic()
    while not rec.acknowledged and time.monotonic() - start < timeout:
        await asyncio.sleep(0.002)
    return time.monotonic() - start


async def a_move(world: World, table: FakeMessage) -> float:
    """ann opens her hand from the table and plays its first move: the move's answer time."""
    fake, ann = world.fake, world.users[0]
    hand = next(b.custom_id for b in table.buttons if b.label == "My hand" and b.custom_id)
    opened = fire_component(fake, ann, table, hand)
    await answered(opened)
    move = next(c for c in answer_ids(opened) if c.startswith("kg:m:"))
    assert opened.original_message_id is not None
    pressed = fire_component(fake, ann, fake.message(opened.original_message_id), move)
    return await answered(pressed)


async def restart(
    world: World, lost: list[int], seconds: float, played: int, *, crash: bool
) -> tuple[int, int, int, float]:
    """``crash``: ``lost`` lose their tables' marks (pings' marks are saved before the ping);
    else every mark of ``lost`` is gone, as before the bot kept marks."""
    db = world.db_url.removeprefix("sqlite:///")
    forget = "UPDATE table_marks SET shown = NULL" if crash else "DELETE FROM table_marks"
    with sqlite3.connect(db) as conn:
        conn.executemany(f"{forget} WHERE match_id = ?", [(m,) for m in lost])
    fake = world.fake
    since, start = len(fake.requests), time.monotonic()
    bot = make_bot(world)
    async with fake.bot_running(bot):
        snap = await bot.service.get(played)
        assert snap.record.message_id is not None
        moved_in = snap.record.channel_id
        moved = await a_move(world, fake.message(snap.record.message_id))
        await asyncio.sleep(max(0.0, seconds - (time.monotonic() - start)))
        sent = requests_sent(fake, since, start, seconds)
        again = pings(fake, since, moved_in)
        await bot.service.settle()
    return len(sent), busiest_second(sent), again, moved


async def main(count: int, behind: int, seconds: float) -> None:
    logging.basicConfig(level=logging.WARNING)
    tmp = Path(tempfile.mkdtemp())
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Court")
        channel = fake.add_channel(guild, "tables")
        users = [fake.add_user(name) for name in ("ann", "bob")]
        world = World(fake, guild, channel, users, f"sqlite:///{tmp / 'bot.db'}", tmp)
        ids = await build(world, count)
        table_module.CATCH_UP_PER_SECOND = 1e9  # the first start posts every table at once
        async with fake.bot_running(make_bot(world)) as bot:
            while [m for m in ids if (await bot.service.get(m)).record.turn_message_id is None]:
                await asyncio.sleep(0.2)
            await bot.service.settle()
        print(f"{count} running matches restarted; each run timed for its first {seconds:.0f} s")
        print(
            "| restart | requests sent | most in one second | turn pings sent again | "
            "a player's move right after the start: answered in | ratio of the busiest second to the baseline's |"
        )
        print("|---|---|---|---|---|---|")
        table_module.CATCH_UP_PER_SECOND = 40.0
        runs = {}
        runs["bot"] = await restart(world, ids[:behind], seconds, ids[-1], crash=True)
        table_module.CATCH_UP_PER_SECOND = 1e9
        runs["baseline"] = await restart(world, ids, seconds, ids[-2], crash=False)
        base = runs["baseline"][1]
        for name, label in (
            ("bot", f"the bot, {behind} behind"),
            ("baseline", "**the baseline**: every table and ping sent again, unpaced"),
        ):
            sent, busiest, again, moved = runs[name]
            print(
                f"| {label} | {sent} | {busiest} | {again} | {moved * 1000:.0f} ms | {busiest / base:.2f}x |"
            )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--behind", type=int, default=100, help="matches whose marks a crash lost")
    parser.add_argument("--seconds", type=float, default=12.0)
    args = parser.parse_args()
    asyncio.run(main(args.matches, args.behind, args.seconds))
