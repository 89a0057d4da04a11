"""A long-lived bot holds steady: what the service keeps for a running match does not grow
with the moves played (issue 47; ``benchmarks/bench_memory.py`` measures it)."""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import replace
from pathlib import Path

from bot.games import GAMES
from bot.games.base import Event
from bot.service import MatchService, MatchStatus, Snapshot
from bot.service.snapshot import LOG_CHARS, LOG_KEPT, add_events
from bot.ui.render import log_embed
from db.records import MatchRecord, Seat
from db.repository import Repository

HOST, GUEST = 100, 200


async def test_moves_leave_no_cancelled_timer_in_the_event_loops_queue(tmp_path: Path) -> None:
    """Every move sets the next turn deadline. A handle cancelled and made again each time
    stays in the loop's queue behind any earlier deadline (another match waiting for its
    player) until its own time comes, three minutes later, or until cancelled ones are half
    of the queue: one match's 60 moves beside a waiting match left 60 of them (8,000 moves of
    1,000 matches: about 13,000 asyncio objects). One handle a match serves every deadline now."""
    repo = Repository(f"sqlite:///{tmp_path / 'bot.db'}")
    await repo.migrate()
    svc = MatchService(repo, ai_delay=0)
    rng = random.Random(3)
    try:
        for channel in (4, 5):  # the first waits for its player, with the earlier deadline
            snap = await svc.open_lobby(
                guild_id=1, channel_id=channel, host_id=HOST, host_name="Host", game_id="dynasty", options={}
            )
            await svc.join(snap.id, GUEST, "Guest")
            snap = await svc.start(snap.id, HOST)
            await asyncio.sleep(0.01)
        for _ in range(60):
            seat = min(snap.to_act())
            user = snap.seats[seat].user_id
            assert user is not None
            snap = (await svc.play(snap.id, user, rng.choice(snap.legal_moves(seat)))).snapshot
            await asyncio.sleep(0)
        assert snap.record.deadline_at is not None
        queue = asyncio.get_running_loop()._scheduled  # type: ignore[attr-defined]
        cancelled = [h for h in queue if h.cancelled()]
        assert cancelled == [], f"{len(cancelled)} cancelled timer handles wait in the loop's queue"
        assert len(svc.deadlines.timers) == 2
    finally:
        await svc.close()
        await repo.close()


async def _play(svc: MatchService, match_id: int, moves: int, rng: random.Random) -> tuple[Snapshot, int]:
    """``moves`` random legal moves of the two people; the public events they made."""
    public = 0
    snap = await svc.get(match_id)
    for _ in range(moves):
        seat = min(snap.to_act())
        user = snap.seats[seat].user_id
        assert user is not None
        result = await svc.play(match_id, user, rng.choice(snap.legal_moves(seat)))
        public += len(result.public)
        snap = result.snapshot
        assert snap.status == MatchStatus.RUNNING
    return snap, public


async def test_a_matchs_notes_stay_the_same_size_however_long_it_runs(tmp_path: Path) -> None:
    """The public log kept with a match holds what the Log can show (``LOG_CHARS``) and a
    count of every event, so its notes, in memory and in its row, do not grow with the moves
    (until issue 47 they kept the latest 400 events: 4 times the size after 400 moves as
    after 100). The Log still says how many earlier events it does not show."""
    repo = Repository(f"sqlite:///{tmp_path / 'bot.db'}")
    await repo.migrate()
    svc = MatchService(repo, ai_delay=0)
    rng = random.Random(5)
    try:
        snap = await svc.open_lobby(
            guild_id=1,
            channel_id=4,
            host_id=HOST,
            host_name="Host",
            game_id="dynasty",
            options={"deck": "dynasty", "hands": "limit"},
        )
        await svc.join(snap.id, GUEST, "Guest")
        snap = await svc.start(snap.id, HOST)
        events = len(snap.log())
        sizes = []
        for moves in (100, 300, 300):
            snap, public = await _play(svc, snap.id, moves, rng)
            events += public
            stored = await repo.get_match(snap.id)
            assert stored is not None and stored.notes == snap.record.notes
            log = stored.notes["log"]
            assert len(log) <= LOG_KEPT and sum(len(text) + 3 for text in log) <= LOG_CHARS
            assert snap.log_count() == events, "the count of every public event"
            sizes.append(len(json.dumps(stored.notes)))
        assert events > 3 * len(snap.log()), "the test plays far more events than the log keeps"
        assert max(sizes) <= LOG_CHARS + 1_000, sizes
        text = log_embed(snap).description or ""
        shown = text.count("\n• ") + text.startswith("• ")
        assert f"*{events - shown} earlier events not shown;" in text
    finally:
        await svc.close()
        await repo.close()


def test_notes_stored_with_a_long_log_still_load_and_shrink_at_the_next_move() -> None:
    """Notes stored before the log was bounded hold up to 400 events and no count of them."""
    game = GAMES["crown"]
    state = game.setup(2, 1, {"variant": "defend"})
    now = time.time()
    old = {"log": [f"{{p0}} did thing number {n}." for n in range(400)], "0": ["a"], "counts": {"0": 1}}
    record = MatchRecord(
        id=7,
        guild_id=1,
        channel_id=2,
        message_id=3,
        host_id=HOST,
        game_id="crown",
        options={"variant": "defend"},
        status=MatchStatus.RUNNING,
        seats=(Seat(HOST, "Host"), Seat(GUEST, "Guest")),
        version=400,
        seed=1,
        state=game.dump(state),
        notes=old,
        deadline_at=None,
        deadline=None,
        created_at=now,
        updated_at=now,
    )
    snap = Snapshot(record, game, state)
    assert snap.log_count() == 400
    text = log_embed(snap).description or ""
    shown = text.count("• ")
    assert 0 < shown < 400 and text.endswith("Host did thing number 399.")
    assert f"*{400 - shown} earlier events not shown;" in text
    notes = add_events(old, [Event("{p1} did the next thing.")])
    assert notes["counts"] == {"0": 1, "log": 401, "move": 1} and notes["0"] == ["a"]  # "move": 033eea7
    assert notes["log"][-1] == "{p1} did the next thing." and len(notes["log"]) == LOG_KEPT
    assert sum(len(t) + 3 for t in notes["log"]) <= LOG_CHARS
    newer = Snapshot(replace(record, notes=notes), game, state)
    assert newer.log_count() == 401
    assert newer.log()[-2:] == ["{p0} did thing number 399.", "{p1} did the next thing."]
