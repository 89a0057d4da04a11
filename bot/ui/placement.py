"""Every component acts only where it was posted.

A custom id names its match, party or server; one copied into another channel or server (a
hand's button, a lobby's Join) must not act there. The items of one match, one party or one
server's boards take one of these mixins before their look, and discord.py asks its
``interaction_check`` before the callback: pressed anywhere else, the player is told so in
one sentence and nothing changes.
"""

from __future__ import annotations

from bot.games.base import GameError
from bot.service import ServiceError
from bot.ui.replies import Interaction, refuse, restored, say, service_of

ELSEWHERE = {
    "match": "That belongs to a match in another channel; use the buttons there.",
    "party": "That belongs to a party in another channel; use the buttons there.",
    "server": "That belongs to another server's leaderboard.",
    "replay": "That replay belongs to a match of another server.",
}


async def in_place(interaction: Interaction, guild_id: int | None, channel_id: int | None, what: str) -> bool:
    """True when the interaction comes from ``guild_id`` (and ``channel_id``, if given); else
    the player is told where the component belongs."""
    if interaction.guild_id == guild_id and (channel_id is None or interaction.channel_id == channel_id):
        return True
    await say(interaction, ELSEWHERE[what])
    return False


def home_channel(interaction: Interaction, channel_id: int, private_ok: bool) -> int | None:
    """The channel a component must be pressed in: its match's or party's, or None (anywhere in
    the server) for a private message's components (``private_ok``): only the bot can put
    them on an ephemeral message, wherever the player asked for it."""
    message = interaction.message
    return None if private_ok and message is not None and message.flags.ephemeral else channel_id


class OfMatch:
    """A component of the match ``match_id``: it acts only in that match's channel. A hand's
    moves (``private_ok``) also act on the private hand ``/hand`` sent the player in another
    channel of the same server: only the bot can put them on an ephemeral message."""

    match_id: int
    private_ok = False

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        await restored(interaction)
        try:
            snap = await service_of(interaction).get(self.match_id)
        except (GameError, ServiceError) as err:
            await refuse(interaction, err)
            return False
        channel = home_channel(interaction, snap.record.channel_id, self.private_ok)
        return await in_place(interaction, snap.record.guild_id, channel, "match")


class OfParty:
    """A component of the party ``party_id``: it acts only in that party's channel. A private
    answer's buttons (``private_ok``: the leave question /leave asks in a table's thread)
    also act where the bot sent it, in the same server."""

    party_id: int
    private_ok = False

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        await restored(interaction)
        try:
            party = await service_of(interaction).parties.get(self.party_id)
        except (GameError, ServiceError) as err:
            await refuse(interaction, err)
            return False
        channel = home_channel(interaction, party.record.channel_id, self.private_ok)
        return await in_place(interaction, party.record.guild_id, channel, "party")


class OfServer:
    """A component of one server's boards (``guild_id``): it acts only in that server."""

    guild_id: int

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        return await in_place(interaction, self.guild_id, None, "server")


class OfReplay:
    """A component of a finished match's replay (``match_id``): a replay may be posted in any
    channel of the match's server, so it acts in any of them, and in no other server."""

    match_id: int

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        try:
            snap = await service_of(interaction).get(self.match_id)
        except (GameError, ServiceError) as err:
            await refuse(interaction, err)
            return False
        return await in_place(interaction, snap.record.guild_id, None, "replay")
