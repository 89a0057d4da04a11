"""A whole match played through the service, for the tests that need a finished one: the
host (seat 0) makes their first legal move whenever asked, normal AI seats the rest."""

from __future__ import annotations

import asyncio

from bot.games import GAMES
from bot.service import MatchService, errors


async def play_out(
    svc: MatchService,
    game_id: str,
    channel: int,
    options: dict[str, str] | None = None,
    *,
    guild_id: int = 1,
    host_id: int = 100,
    host_name: str = "Host",
) -> int:
    """A match of ``game_id`` at its fewest players, played to its end; its id."""
    game = GAMES[game_id]
    m = await svc.open_lobby(
        guild_id=guild_id,
        channel_id=channel,
        host_id=host_id,
        host_name=host_name,
        game_id=game_id,
        options=options or {},
    )
    for _ in range(game.min_players - 1):
        await svc.add_ai(m.id, host_id)
    m = await svc.start(m.id, host_id)
    for _ in range(50_000):
        snap = await svc.get(m.id)
        if snap.status != "running":
            return m.id
        if 0 in snap.to_act() and snap.legal_moves(0):
            try:
                await svc.play(m.id, host_id, snap.legal_moves(0)[0], version=snap.version)
            except errors.StaleVersion:
                pass  # an AI seat moved first; look again
        else:
            await asyncio.sleep(0.001)
    raise AssertionError(f"the {game_id} match did not end")
