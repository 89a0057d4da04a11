"""Past one process: shard settings, each process restoring only its servers' matches, and
the version check holding between two processes writing to one database."""

from __future__ import annotations

import asyncio
import json
import sys
import textwrap
from pathlib import Path

import pytest

from bot.service import MatchService
from bot.settings import Settings
from db.records import Seat
from db.repository import Repository
from tests.postgres import BACKENDS, database_url, postgres_server

__all__ = ["postgres_server"]
ROOT = Path(__file__).resolve().parents[2]


def guild_on_shard(shard: int, count: int, n: int = 0) -> int:
    """A server id that Discord puts on ``shard`` of ``count`` (its id >> 22, modulo count)."""
    return ((shard + count * (n + 1)) << 22) | 12345


def test_shard_settings_are_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", "0-1,3")
    settings = Settings.from_env(load_dotenv_file=False)
    assert settings.shard_count == 4 and settings.shard_ids == (0, 1, 3)
    assert settings.runs_guild(guild_on_shard(1, 4)) and not settings.runs_guild(guild_on_shard(2, 4))
    monkeypatch.setenv("SHARD_IDS", "one")
    with pytest.raises(SystemExit, match="SHARD_IDS"):
        Settings.from_env(load_dotenv_file=False)


def test_without_shard_settings_a_process_runs_every_server() -> None:
    assert Settings(token="x").runs_guild(guild_on_shard(3, 4))


@pytest.fixture(params=BACKENDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return database_url(request, tmp_path)


@pytest.mark.asyncio
async def test_each_process_restores_only_the_matches_of_its_shards(url: str) -> None:
    repo = Repository(url)
    await repo.migrate()
    setup = MatchService(repo, ai_delay=0, default_turn_seconds=0)
    wanted: dict[int, set[int]] = {0: set(), 1: set()}
    for shard in (0, 1):
        for n in range(3):
            guild = guild_on_shard(shard, 2, n)
            m = await setup.open_lobby(
                guild_id=guild,
                channel_id=guild + 1,
                host_id=7,
                host_name="ann",
                game_id="crown",
                options={"variant": "defend"},
            )
            await setup.add_ai(m.id, 7)
            await setup.start(m.id, 7)
            wanted[shard].add(m.id)
    await setup.close()
    for shard in (0, 1):
        settings = Settings(token="x", shard_count=2, shard_ids=(shard,))
        process = MatchService(repo, ai_delay=0, default_turn_seconds=0, runs_guild=settings.runs_guild)
        restored = {s.id for s in await process.restore()}
        await process.close()
        assert restored == wanted[shard]
    await repo.close()


WRITER = textwrap.dedent(
    """
    import asyncio, json, sys
    from db.records import MatchUpdate
    from db.repository import Repository, StaleVersion

    async def main(url, match_id, start, tag):
        repo = Repository(url)
        won = []
        for version in range(start, start + 40):
            try:
                await repo.apply_move(MatchUpdate(match_id, version, {"by": tag}, 0, None, f"{tag}{version}", {}))
                won.append(version)
            except StaleVersion:
                pass
        await repo.close()
        print(json.dumps(won))

    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]))
    """
)


@pytest.mark.asyncio
async def test_two_processes_on_one_database_never_apply_a_move_twice(url: str) -> None:
    repo = Repository(url)
    await repo.migrate()
    m = await repo.create_match(
        guild_id=1, channel_id=2, host_id=3, game_id="crown", options={}, seats=[Seat(3, "Ann")], seed=1
    )
    m = await repo.start_match(m.id, m.version, state={}, seats=m.seats, deadline_at=None, deadline=None)
    await repo.close()
    # Both processes race for the same 40 versions, each move expecting the version before it.
    procs = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            WRITER,
            url,
            str(m.id),
            str(m.version),
            tag,
            cwd=ROOT,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        for tag in ("a", "b")
    ]
    outs = await asyncio.wait_for(asyncio.gather(*(p.communicate() for p in procs)), 120)
    assert all(p.returncode == 0 for p in procs), [err.decode() for _out, err in outs]
    won = [json.loads(out) for out, _err in outs]
    assert sorted(won[0] + won[1]) == sorted(set(won[0] + won[1])), "no version applied by both"
    repo = Repository(url)
    moves = await repo.moves(m.id)
    final = await repo.get_match(m.id)
    await repo.close()
    assert final is not None
    assert [mv.version for mv in moves] == list(range(m.version + 1, final.version + 1)), (
        "one move per version"
    )
    assert len(moves) == len(won[0]) + len(won[1])
