"""The party screens: its lobby and running embed, each player's tags and the options.
Pure presentation, like :mod:`bot.ui.render` (whose limits, colours and option summary it
shares): a party snapshot in, an embed out."""

from __future__ import annotations

from collections.abc import Mapping

import discord

from bot.service import MatchStatus
from bot.service.snapshot import PartySnapshot
from bot.ui.render import COLOUR_LOBBY, COLOUR_OVER, COLOUR_RUNNING, FIELD_LIMIT, MEDALS, clip, option_summary


def party_player_tags(party: PartySnapshot, player: int) -> list[str]:
    p = party.players[player]
    tags = []
    if p.user_id == party.record.host_id and not p.ai and party.status == MatchStatus.LOBBY:
        tags.append("host")
    if p.ai:
        tags.append(f"{p.level} AI")
    if p.left:
        tags.append("left, ranked last")
    return tags


def party_options(party: PartySnapshot) -> list[str]:
    return [
        f"Tables: **{party.record.tables}**",
        f"Rounds: **{party.record.rounds}**",
        *option_summary(party.game, party.record.options),
    ]


def party_embed(party: PartySnapshot, channels: Mapping[int, int] | None = None) -> discord.Embed:
    """The party's one public message: its lobby, then its standings round by round (edited
    in place), led by the winner once the party is over. ``channels``: table number -> the
    channel (thread) it plays in this round."""
    game, record = party.game, party.record
    name = f"{game.name} party #{party.id}"
    if party.status == MatchStatus.LOBBY:
        embed = discord.Embed(
            title=name,
            description=(
                f"Several tables at once: each round every table plays one match in a thread of this "
                f"channel; then each table's winner moves to the next table and the next round starts. "
                f"The {'lowest' if game.low_score_wins else 'highest'} party score (the sum of a player's "
                f"match totals) wins. 4 to 16 players; AI seats fill a table when needed."
            ),
            colour=COLOUR_LOBBY,
        )
        roster = [
            f"{i + 1}. {p.name}" + (f" ({', '.join(tags)})" if (tags := party_player_tags(party, i)) else "")
            for i, p in enumerate(party.players)
        ]
        embed.add_field(
            name=f"Players ({len(party.players)}/16)", value=clip("\n".join(roster), FIELD_LIMIT), inline=True
        )
        embed.add_field(name="Options", value=clip("\n".join(party_options(party)), FIELD_LIMIT), inline=True)
        embed.set_footer(
            text="Join, then the host presses Start. The host can add AI players and change options."
        )
        return embed
    over = party.status.over
    cancelled = party.status == MatchStatus.ABANDONED
    title = f"{name}: " + (
        "cancelled" if cancelled else "finished" if over else f"round {record.round} of {record.rounds}"
    )
    embed = discord.Embed(title=title, colour=COLOUR_OVER if over else COLOUR_RUNNING)
    lines = party.standings()
    winner = party.winner()
    intro = []
    if winner is not None:
        best = next(line for line in lines if line.player == winner)
        intro.append(f"🏆 **{party.players[winner].name}** wins the party with {best.total} points.")
    elif cancelled:
        intro.append("The party was cancelled; its running matches were cancelled too.")
    elif over:
        intro.append("The party is over; nobody who stayed to the end can win it.")
    else:
        intro.append("Every table plays in its own thread; when all have finished, the winners move on.")
    embed.description = "\n".join(intro)
    rows = []
    place = 0
    for line in lines:
        shown = ["–" if s is None else str(s) for s in line.rounds]
        if line.playing and shown and line.rounds[-1] is None:
            shown[-1] = "playing"
        rounds = " + ".join(shown) or "–"
        tags = party_player_tags(party, line.player)
        if line.ai:  # AI players are never party winners: no place among the people
            tags.append("not ranked")
            medal = "·"
        else:  # ranked by what is known: people whose table still plays come after the others
            if line.playing and not line.left:
                tags.append("table still playing")
            place += 1
            medal = MEDALS.get(place, f"{place}.") if over and not cancelled else f"{place}."
        rows.append(
            f"{medal} {party.players[line.player].name}"
            + (f" ({', '.join(tags)})" if tags else "")
            + f" · **{line.total}** ({rounds})"
        )
    embed.add_field(
        name="Party score (round by round)",
        value=clip("\n".join(rows) or "nobody", FIELD_LIMIT),
        inline=False,
    )
    if not over:
        tables = []
        for table in party.round_tables():
            names = ", ".join("AI" if p < 0 else party.players[p].name for p in table.seating)
            where = (
                f"<#{channels[table.table_no]}>" if channels and table.table_no in channels else "opening…"
            )
            state = "finished" if table.results is not None else "playing"
            tables.append(f"Table {table.table_no + 1} ({where}, {state}): {names}")
        embed.add_field(
            name=f"Round {record.round} tables", value=clip("\n".join(tables), FIELD_LIMIT), inline=False
        )
    embed.set_footer(text=clip(" · ".join(party_options(party)).replace("**", ""), 2000))
    return embed
