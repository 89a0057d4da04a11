"""A lobby seats as many players as its chosen options allow: King and Crown's tourney
seats exactly two, so a third Join is refused in one sentence, the lobby says "2 players"
and "Players (2/2)", and a lobby holding more than the options seat says so."""

from __future__ import annotations

import pytest

from bot.service import MatchService, errors
from bot.ui import render
from tests.postgres import postgres_server

HOST, BOB, CAT, DAN = 100, 200, 300, 400


async def test_a_tourney_lobby_is_full_at_two_and_says_so(svc: MatchService) -> None:
    m = await svc.open_lobby(
        guild_id=1,
        channel_id=5,
        host_id=HOST,
        host_name="ann",
        game_id="crown",
        options={"variant": "tourney"},
    )
    m = await svc.join(m.id, BOB, "bob")
    with pytest.raises(errors.LobbyError, match=r"^This lobby is full \(2 players\)\.$"):
        await svc.join(m.id, CAT, "cat")
    text = render.lobby_embed(await svc.get(m.id)).to_dict()
    assert "2 players ·" in text["description"] and "2 to 8" not in text["description"]
    assert text["fields"][0]["name"] == "Players (2/2)"


async def test_a_lobby_with_more_players_than_the_new_options_seat_says_so(svc: MatchService) -> None:
    m = await svc.open_lobby(guild_id=1, channel_id=6, host_id=HOST, host_name="ann", game_id="crown")
    for user, name in ((BOB, "bob"), (CAT, "cat"), (DAN, "dan")):
        m = await svc.join(m.id, user, name)
    m = await svc.store.change(m.id, options={"variant": "tourney"})  # the host switches variant
    description = render.lobby_embed(m).to_dict()["description"]
    assert "4 have joined but these options seat at most 2" in description


__all__ = ["postgres_server"]
