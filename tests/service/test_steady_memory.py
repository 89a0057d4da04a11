"""A long-lived bot holds steady: what the service keeps for a running match does not grow
with the moves played (issue 47; ``benchmarks/bench_memory.py`` measures it)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from bot.service import MatchService
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
        assert len(svc._timers) == 2
    finally:
        await svc.close()
        await repo.close()
