"""Repository: migrations, one transaction per move, stale versions, channel exclusivity."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import event, update
from sqlalchemy.engine import Connection, create_engine
from sqlalchemy.exc import IntegrityError

from db.records import MatchStatus, MatchUpdate, ResultRow, Seat
from db.repository import ChannelBusy, Repository, StaleVersion, match_table, normalise_url
from db.writer import Checkpointer, WriterThread
from tests.postgres import postgres_server


async def _running(repo: Repository, channel: int = 2):
    m = await repo.create_match(
        guild_id=1,
        channel_id=channel,
        host_id=3,
        game_id="crown",
        options={"variant": "defend"},
        seats=[Seat(3, "Ann"), Seat(None, "AI 1", ai=True)],
        seed=7,
    )
    return await repo.start_match(
        m.id, m.version, state={"n": 0}, seats=m.seats, deadline_at=None, deadline=None
    )


def test_urls_get_async_drivers() -> None:
    assert normalise_url("sqlite:///x.db").startswith("sqlite+aiosqlite")
    assert normalise_url("postgresql://u:p@h/db").startswith("postgresql+asyncpg://u:p@h/db")


async def test_migrations_are_idempotent_and_wal(repo: Repository, tmp_path: Path) -> None:
    await repo.migrate()  # a second start applies nothing and loses nothing
    if not repo.is_sqlite:
        return  # the rest reads the SQLite file
    con = sqlite3.connect(tmp_path / "bot.db")
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {r[0] for r in con.execute("select name from sqlite_master where type='table'")}
    assert {"matches", "moves", "results", "alembic_version"} <= tables


async def test_one_active_match_per_channel(repo: Repository) -> None:
    await _running(repo)
    with pytest.raises(ChannelBusy):
        await repo.create_match(
            guild_id=1, channel_id=2, host_id=4, game_id="crown", options={}, seats=[], seed=1
        )
    other = await repo.create_match(
        guild_id=1, channel_id=9, host_id=4, game_id="crown", options={}, seats=[], seed=1
    )
    assert other.status == "lobby"


async def test_move_is_one_transaction_with_version_and_log(repo: Repository) -> None:
    m = await _running(repo)
    after = await repo.apply_move(
        MatchUpdate(m.id, m.version, {"n": 1}, 0, 3, "pick:K", {"0": ["You picked"]})
    )
    assert after.version == m.version + 1
    assert after.state == {"n": 1}
    assert after.notes == {"0": ["You picked"]}
    moves = await repo.moves(m.id)
    assert [(mv.version, mv.seat, mv.code) for mv in moves] == [(after.version, 0, "pick:K")]


async def test_stale_version_is_refused_and_writes_nothing(repo: Repository) -> None:
    m = await _running(repo)
    await repo.apply_move(MatchUpdate(m.id, m.version, {"n": 1}, 0, 3, "a", {}))
    with pytest.raises(StaleVersion):
        await repo.apply_move(MatchUpdate(m.id, m.version, {"n": 99}, 1, None, "b", {}))
    now = await repo.get_match(m.id)
    assert now is not None and now.state == {"n": 1}
    assert [mv.code for mv in await repo.moves(m.id)] == ["a"]


async def test_concurrent_moves_on_one_version_apply_exactly_once(repo: Repository) -> None:
    m = await _running(repo)
    attempts = [repo.apply_move(MatchUpdate(m.id, m.version, {"n": i}, 0, 3, f"m{i}", {})) for i in range(10)]
    outcomes = await asyncio.gather(*attempts, return_exceptions=True)
    assert sum(not isinstance(o, Exception) for o in outcomes) == 1
    assert all(isinstance(o, StaleVersion) for o in outcomes if isinstance(o, Exception))
    assert len(await repo.moves(m.id)) == 1


async def test_on_postgresql_a_move_does_not_queue_behind_the_one_writer(postgres_server) -> None:
    """A move that ends nothing is one statement on a pool of its own: it goes ahead while the
    one writer is busy (here: held), and moves of several matches run side by side. A match's
    last move (results, standings, ratings) still waits for the writer."""
    repo = Repository(postgres_server.database())
    await repo.migrate()
    try:
        matches = [await _running(repo, channel=20 + n) for n in range(3)]
        async with repo.database.write_lock:  # the writer is busy
            moved = await asyncio.wait_for(
                asyncio.gather(
                    *(repo.apply_move(MatchUpdate(m.id, m.version, {"n": 1}, 0, 3, "a", {})) for m in matches)
                ),
                10,
            )
            for before, after in zip(matches, moved, strict=True):
                assert after.version == before.version + 1 and after == await repo.get_match(before.id)
                assert [(mv.version, mv.code) for mv in await repo.moves(before.id)] == [(after.version, "a")]
            rows = (ResultRow(0, 3, False, 1, 2, None), ResultRow(1, None, True, 2, 0, None))
            last = asyncio.ensure_future(
                repo.apply_move(
                    MatchUpdate(
                        moved[0].id,
                        moved[0].version,
                        {"n": 2},
                        0,
                        3,
                        "b",
                        {},
                        status=MatchStatus.FINISHED,
                        results=rows,
                    )
                )
            )
            await asyncio.sleep(0.2)
            assert not last.done()  # the last move waits for the writer
        done = await asyncio.wait_for(last, 10)
        assert done.status == MatchStatus.FINISHED and await repo.results(done.id) == list(rows)
        assert [mv.code for mv in await repo.moves(done.id)] == ["a", "b"]
    finally:
        await repo.close()


async def test_finishing_move_stores_results(repo: Repository) -> None:
    m = await _running(repo)
    rows = (ResultRow(0, 3, False, 1, 2, None), ResultRow(1, None, True, 2, 0, None))
    done = await repo.apply_move(
        MatchUpdate(m.id, m.version, {"n": 1}, 0, 3, "x", {}, status=MatchStatus.FINISHED, results=rows)
    )
    assert done.status == "finished" and done.finished_at is not None
    assert done == await repo.get_match(m.id)
    assert await repo.results(m.id) == list(rows)
    assert await repo.active_in_channel(2) is None


async def test_the_record_a_move_returns_is_what_a_fresh_read_returns(repo: Repository) -> None:
    m = await _running(repo)
    await repo.set_message(m.id, 555)
    await repo.set_turn_message(m.id, 777)
    seats = (Seat(3, "Ann", missed=1), Seat(None, "AI 1", ai=True, level="hard"))
    moved = [
        await repo.apply_move(
            MatchUpdate(m.id, m.version, {"n": 1, "cards": [1, 2]}, 0, 3, "a", {"log": ["x"]})
        ),
    ]
    moved.append(
        await repo.apply_move(
            MatchUpdate(
                moved[-1].id,
                moved[-1].version,
                {"n": 2},
                1,
                None,
                "b",
                {"log": ["x", "y"]},
                seats=seats,
                deadline_at=1234.5,
                deadline={"seat": 0, "left": 30},
            )
        )
    )
    assert moved[-1].seats == seats and moved[-1].deadline == {"seat": 0, "left": 30}
    # Ending without results (abandoned): the fast path on SQLite sets finished_at.
    moved.append(
        await repo.apply_move(
            MatchUpdate(
                moved[-1].id,
                moved[-1].version,
                {"n": 3},
                0,
                3,
                "c",
                {},
                status=MatchStatus.ABANDONED,
            )
        )
    )
    assert moved[-1].status == MatchStatus.ABANDONED and moved[-1].finished_at is not None
    for rec in moved[:-1]:
        assert rec.message_id == 555 and rec.turn_message_id == 777 and rec.options == {"variant": "defend"}
    assert moved[-1] == await repo.get_match(m.id)
    assert [mv.code for mv in await repo.moves(m.id)] == ["a", "b", "c"]


async def test_matches_by_status_are_what_fresh_reads_return(repo: Repository) -> None:
    """The restart's read of every open match (on SQLite straight on the writer thread's
    connection) gives each match exactly as a single read does, in id order."""
    lobby = await repo.create_match(
        guild_id=1,
        channel_id=9,
        host_id=3,
        game_id="dynasty",
        options={"deck": "classic"},
        seats=[Seat(3, "Ann")],
        seed=2**61 + 5,
    )
    running = await _running(repo, channel=10)
    await repo.set_message(running.id, 555)
    running = await repo.apply_move(
        MatchUpdate(
            running.id,
            running.version,
            {"n": 1},
            1,
            None,
            "a",
            {"log": ["x"]},
            seats=(Seat(3, "Ann", missed=2), Seat(None, "AI 1", ai=True, level="hard")),
            deadline_at=99.5,
            deadline={"seat": 0},
        )
    )
    ended = await _running(repo, channel=11)
    await repo.apply_move(
        MatchUpdate(ended.id, ended.version, {"n": 1}, 0, 3, "x", {}, status=MatchStatus.ABANDONED)
    )
    found = await repo.matches_with_status(MatchStatus.LOBBY, MatchStatus.RUNNING)
    assert [m.id for m in found] == [lobby.id, running.id]
    assert found == [await repo.get_match(lobby.id), await repo.get_match(running.id)]
    assert (
        found[1].deadline == {"seat": 0} and found[1].seats[1].level == "hard" and found[0].seed == 2**61 + 5
    )
    assert [m.id for m in await repo.matches_with_status(MatchStatus.ABANDONED)] == [ended.id]


async def test_a_refused_move_leaves_the_writer_working(repo: Repository) -> None:
    m = await _running(repo)
    with pytest.raises(StaleVersion):
        await repo.apply_move(MatchUpdate(m.id, m.version + 5, {"n": 99}, 0, 3, "late", {}))
    with pytest.raises(StaleVersion):
        await repo.apply_move(MatchUpdate(m.id + 100, 0, {"n": 99}, 0, 3, "nowhere", {}))
    after = await repo.apply_move(MatchUpdate(m.id, m.version, {"n": 1}, 0, 3, "a", {}))
    assert after == await repo.get_match(m.id)
    assert [mv.code for mv in await repo.moves(m.id)] == ["a"]


async def test_a_move_failing_after_its_update_writes_nothing(repo: Repository) -> None:
    """The move row breaks a constraint after the match row was updated: all rolled back."""
    m = await _running(repo)
    first = await repo.apply_move(MatchUpdate(m.id, m.version, {"n": 1}, 0, 3, "a", {}))
    await repo.update_lobby(m.id, first.version, notes={"kept": True})  # a version with no move row
    lobby = await repo.get_match(m.id)
    assert lobby is not None
    # Rewind the version so the next move's row (version + 1) collides with move "a"'s.
    rewound = await repo.write(_rewind, m.id, lobby.version, m.version)
    assert rewound == 1
    with pytest.raises(IntegrityError):
        await repo.apply_move(MatchUpdate(m.id, m.version, {"n": 2}, 0, 3, "again", {"lost": True}))
    now = await repo.get_match(m.id)
    assert now is not None and now.version == m.version and now.notes == {"kept": True}
    assert [mv.code for mv in await repo.moves(m.id)] == ["a"]
    still = await repo.update_lobby(m.id, m.version, notes={"after": True})  # the writer still writes
    assert still == await repo.get_match(m.id) and still.version == m.version + 1


def _rewind(conn: Connection, match_id: int, version: int, to: int) -> int:
    statement = update(match_table).where(match_table.c.id == match_id, match_table.c.version == version)
    return int(conn.execute(statement.values(version=to)).rowcount)


def _in_a_transaction(conn: Connection) -> int:
    with conn.begin():
        return int(conn.exec_driver_sql("select 8").scalar_one())


async def test_the_writer_thread_skips_a_job_whose_caller_gave_up(tmp_path: Path) -> None:
    writer = WriterThread(create_engine(f"sqlite:///{tmp_path / 'w.db'}"))
    release, ran = threading.Event(), []
    busy = asyncio.ensure_future(writer.run(lambda _conn: release.wait(10)))
    queued = asyncio.ensure_future(writer.run(lambda _conn: ran.append("queued")))
    await asyncio.sleep(0.01)
    queued.cancel()
    release.set()
    assert await busy is True
    with pytest.raises(ZeroDivisionError):  # a job's error reaches its caller; the thread lives on
        await writer.run(lambda _conn: 1 / 0)
    assert (
        await writer.run(lambda conn: conn.exec_driver_sql("select 7").scalar()) == 7
    )  # left its transaction open
    assert await writer.run(_in_a_transaction) == 8  # the next job still begins its own
    await writer.close()
    assert ran == [] and queued.cancelled()
    await writer.close()  # closing twice is harmless; writing after is refused
    with pytest.raises(RuntimeError, match="closed"):
        await writer.run(lambda _conn: None)


async def test_a_short_job_runs_at_once_on_the_loop_when_the_writer_is_idle_and_queues_otherwise(
    tmp_path: Path,
) -> None:
    """``inline=True`` (a move's write) skips the hop to the writer thread when nothing is
    being written or waiting; behind a running or queued job it waits its turn in order."""
    writer = WriterThread(
        create_engine(f"sqlite:///{tmp_path / 'w.db'}", connect_args={"check_same_thread": False})
    )
    here = threading.get_ident()

    def where(order: list[str], name: str) -> Callable[[Connection], int]:
        def job(conn: Connection) -> int:
            order.append(name)
            return threading.get_ident()

        return job

    order: list[str] = []
    assert await writer.run(where(order, "quiet"), inline=True) == here, "idle: on the caller's thread"
    assert await writer.run(where(order, "queued"), inline=False) != here, "not inline: the writer thread"
    entered, release = threading.Event(), threading.Event()

    def busy_job(_conn: Connection) -> bool:
        entered.set()
        return release.wait(10)

    busy = asyncio.ensure_future(writer.run(busy_job))
    assert await asyncio.to_thread(entered.wait, 10), "the writer thread is inside the busy job"
    behind_busy = asyncio.ensure_future(writer.run(where(order, "behind the busy one"), inline=True))
    behind_that = asyncio.ensure_future(writer.run(where(order, "behind both"), inline=True))
    await asyncio.sleep(0.05)
    assert order == ["quiet", "queued"], "nothing jumps the queue while the writer is busy"
    release.set()
    assert await busy is True
    assert await behind_busy != here and await behind_that != here
    assert order == ["quiet", "queued", "behind the busy one", "behind both"]
    with pytest.raises(ZeroDivisionError):  # an inline job's error reaches its caller too
        await writer.run(lambda _conn: 1 / 0, inline=True)
    assert await writer.run(_in_a_transaction, inline=True) == 8
    await writer.close()


async def test_writers_of_several_processes_take_turns_on_the_lock_beside_the_database(
    tmp_path: Path,
) -> None:
    """Each write holds ``<file>-writer.lock`` (flock) for its transaction, so the writers of
    several processes on one SQLite file take turns, woken as soon as the lock is free,
    instead of polling SQLite's own lock with growing sleeps. Another process's writer is
    stood in for by a second open of the lock file (flock locks belong to the open file)."""
    fcntl = pytest.importorskip("fcntl")  # POSIX
    repo = Repository(f"sqlite:///{tmp_path / 'bot.db'}")
    await repo.migrate()
    m = await _running(repo)
    other = os.open(tmp_path / "bot.db-writer.lock", os.O_RDWR)
    fcntl.flock(other, fcntl.LOCK_EX)
    move = asyncio.ensure_future(repo.apply_move(MatchUpdate(m.id, m.version, {"n": 1}, 0, 3, "a", {})))
    await asyncio.sleep(0.2)
    assert not move.done()  # waits for the other writer
    fcntl.flock(other, fcntl.LOCK_UN)
    assert (await asyncio.wait_for(move, 5)).version == m.version + 1
    fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)  # and left the lock free
    os.close(other)
    await repo.close()


async def test_a_move_never_waits_on_the_event_loop_for_a_lock_held_outside_the_bot(tmp_path: Path) -> None:
    """SQLite's own write lock taken by something that is not one of the bot's writers (an
    admin's shell): the move, which would run at once on the event loop, meets it without
    waiting, rolls back and waits its turn on the writer thread, so the bot goes on answering;
    it is written once the lock is let go."""
    path = tmp_path / "bot.db"
    repo = Repository(f"sqlite:///{path}")
    await repo.migrate()
    m = await _running(repo)
    shell = sqlite3.connect(path, isolation_level=None)
    shell.execute("BEGIN IMMEDIATE")  # holds the write lock
    started = time.monotonic()
    move = asyncio.ensure_future(repo.apply_move(MatchUpdate(m.id, m.version, {"n": 1}, 0, 3, "a", {})))
    await asyncio.sleep(0.2)
    assert time.monotonic() - started < 1.0, "the event loop must not wait for the lock"
    assert not move.done()
    shell.execute("COMMIT")
    assert (await asyncio.wait_for(move, 5)).version == m.version + 1
    assert [mv.code for mv in await repo.moves(m.id)] == ["a"]
    # And the next move, nothing held, runs at once again on the loop with the usual timeout.
    again = await repo.apply_move(MatchUpdate(m.id, m.version + 1, {"n": 2}, 0, 3, "b", {}))
    assert again.version == m.version + 2
    shell.close()
    await repo.close()


def _in_the_database_file(path: Path) -> int | None:
    """Rows of ``t`` in the database file itself, the WAL left aside (None: not there yet)."""
    con = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
    try:
        return int(con.execute("select count(*) from t").fetchone()[0])
    except sqlite3.OperationalError:
        return None
    finally:
        con.close()


async def _copied(path: Path, rows: int) -> bool:
    """Whether the file comes to hold ``rows`` rows within five seconds. A look taken while the
    checkpointer is still writing pages may find the file half copied (SQLite calls it
    malformed: an immutable read takes no lock); that look counts as not yet."""
    for _ in range(200):
        try:
            if _in_the_database_file(path) == rows:
                return True
        except sqlite3.DatabaseError:
            pass
        await asyncio.sleep(0.025)
    return False


def _checkpointed_writer(path: Path, every: int, idle_seconds: float) -> WriterThread:
    """A writer on a WAL database whose connection never checkpoints, with a checkpointer."""
    engine = create_engine(f"sqlite:///{path}")

    def wal_without_automatic_checkpoint(dbapi_conn: sqlite3.Connection, _record: object) -> None:
        dbapi_conn.execute("PRAGMA journal_mode=WAL")
        dbapi_conn.execute("PRAGMA wal_autocheckpoint=0")

    event.listen(engine, "connect", wal_without_automatic_checkpoint)
    return WriterThread(engine, Checkpointer(str(path), every=every, idle_seconds=idle_seconds))


def _insert_row(conn: Connection) -> None:
    conn.exec_driver_sql("create table if not exists t (x)")
    conn.exec_driver_sql("insert into t values (1)")
    conn.commit()


@pytest.mark.parametrize("every, idle_seconds", [(3, 60.0), (100, 0.05)])
async def test_the_checkpointer_copies_the_wal_into_the_database_file(
    tmp_path: Path, every: int, idle_seconds: float
) -> None:
    """After ``every`` writes, or after a quiet ``idle_seconds``; never by the writer itself."""
    path = tmp_path / "c.db"
    writer = _checkpointed_writer(path, every, idle_seconds)
    await writer.run(_insert_row)
    await writer.run(_insert_row)
    if idle_seconds > 1:  # not quiet long enough for the other trigger
        assert _in_the_database_file(path) is None  # only in the WAL so far
    await writer.run(_insert_row)
    assert await _copied(path, 3)
    await writer.close()


async def test_the_checkpointer_waits_for_quiet_not_for_a_timer(tmp_path: Path) -> None:
    """Writes every 30 ms for 0.5 s never leave 0.15 s of quiet: nothing is copied until they stop."""
    path = tmp_path / "q.db"
    writer = _checkpointed_writer(path, every=1_000, idle_seconds=0.15)
    for _ in range(17):
        await writer.run(_insert_row)
        await asyncio.sleep(0.03)
    assert _in_the_database_file(path) is None  # a timer would have copied by now (three times)
    assert await _copied(path, 17)
    await writer.close()


async def test_the_repository_writer_leaves_checkpoints_to_the_checkpointer(tmp_path: Path) -> None:
    repo = Repository(f"sqlite:///{tmp_path / 'bot.db'}")
    await repo.migrate()
    assert await repo.write(lambda conn: conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar()) == 0
    await repo.close()


async def test_state_survives_reopening_the_database(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'bot.db'}"
    r1 = Repository(url)
    await r1.migrate()
    m = await _running(r1)
    await r1.close()
    r2 = Repository(url)
    await r2.migrate()
    again = await r2.get_match(m.id)
    assert again == m
    assert [x.id for x in await r2.matches_with_status(MatchStatus.RUNNING)] == [m.id]
    await r2.close()


__all__ = ["postgres_server"]  # the session fixture, used through database_url
