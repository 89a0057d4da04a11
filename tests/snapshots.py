"""A match as the service would hand it to the Discord layer, built in memory: for the tests
that render a table, a hand or an end screen from a state without a database."""

from __future__ import annotations

import time
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from bot.games.base import Game
from bot.service import MatchStatus, Snapshot
from db.records import MatchRecord, Seat


def snapshot_of(
    game: Game,
    state: Any,
    names: Sequence[str],
    *,
    options: Mapping[str, str] | None = None,
    status: MatchStatus = MatchStatus.RUNNING,
    match_id: int = 7,
    version: int = 1,
    notes: dict[str, Any] | None = None,
    turn_timer: float | None = None,
    left: Collection[int] = (),
    ai: Collection[int] = (),
) -> Snapshot:
    """Match ``match_id`` of ``game`` at ``state`` (None: no state, as a finished match's end
    screen may be drawn), one seat per name (user ids 100, 101, ...; an ``ai`` seat has
    none), those in ``left`` having left; ``turn_timer`` seconds arm the turn deadline of
    seat 0."""
    now = time.time()
    deadline = None
    if turn_timer is not None:
        deadline = {
            "version": version,
            "turn": {"at": now + turn_timer, "warn_at": now, "warned": False, "seats": [0]},
        }
    record = MatchRecord(
        id=match_id,
        guild_id=1,
        channel_id=2,
        message_id=3,
        host_id=100,
        game_id=game.id,
        options=dict(options or {}),
        status=status,
        seats=tuple(
            Seat(None if i in ai else 100 + i, name, ai=i in ai, left=i in left)
            for i, name in enumerate(names)
        ),
        version=version,
        seed=1,
        state=None if state is None else game.dump(state),
        notes=dict(notes or {}),
        deadline_at=None if turn_timer is None else now + turn_timer,
        deadline=deadline,
        created_at=now,
        updated_at=now,
    )
    return Snapshot(record, game, state)
