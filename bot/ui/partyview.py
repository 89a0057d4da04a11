"""The party screens: its lobby and running embed, each player's tags and the options.
Pure presentation, like :mod:`bot.ui.render` (whose limits, colours and option summary it
shares): a party snapshot in, an embed out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.games.base import join_names, plural
from bot.service import MatchStatus
from bot.service.seating import Standing
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


def seated_name(party: PartySnapshot, player: int) -> str:
    """A player's name where the party lists who plays: a player who left is marked so."""
    p = party.players[player]
    return f"{p.name} (left, ranked last)" if p.left else p.name


def party_options(party: PartySnapshot) -> list[str]:
    return [
        f"Tables: **{party.record.tables}**",
        f"Rounds: **{party.record.rounds}**",
        *option_summary(party.game, party.record.options),
    ]


def standing_rows(
    party: PartySnapshot, lines: Sequence[Standing], *, medals: bool
) -> tuple[list[str], list[int]]:
    """The standings' rows (places shared on a tie, AI players unplaced) and the players
    with no score yet, whose first table still plays (no place, no 0)."""
    places = party.places()
    rows, waiting = [], []
    for line in lines:
        if not line.scored:
            waiting.append(line.player)
            continue
        shown = ["–" if s is None else str(s) for s in line.rounds]
        if line.playing and line.rounds[-1] is None:
            shown[-1] = "playing"
        tags = party_player_tags(party, line.player)
        if line.ai:  # AI players are never party winners: no place among the people
            tags.append("not ranked")
        place = places.get(line.player)
        medal = "·" if place is None else MEDALS.get(place, f"{place}.") if medals else f"{place}."
        rows.append(
            f"{medal} {party.players[line.player].name}"
            + (f" ({', '.join(tags)})" if tags else "")
            + f" · **{line.total}**"
            + (f" ({' + '.join(shown)})" if len(shown) > 1 else "")
        )
    return rows, waiting


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
    winners = party.winners()
    best = "lowest" if game.low_score_wins else "highest"
    if winners:
        total = next(line.total for line in lines if line.player == winners[0])
        who = join_names([f"**{party.players[w].name}**" for w in winners])
        wins = "wins the party" if len(winners) == 1 else "share the party win"
        score = f"a total of {total}" if game.low_score_wins else f"{total} points"  # as its tables say
        intro = f"🏆 {who} {wins} with {score}."
    elif cancelled:
        intro = "The party was cancelled; its running matches were cancelled too."
    elif over:
        intro = "The party is over; nobody who stayed to the end can win it."
    else:
        count = plural(len(party.round_tables()), "table")
        then = (
            f"the {best} party score wins"
            if record.round >= record.rounds
            else f"each table's winner moves to the next table and round {record.round + 1} starts"
        )
        this = "This last round" if record.round >= record.rounds > 1 else f"Round {record.round}"
        intro = f"{this} is being played at {count}, each in its own thread. When every table has finished, {then}."
    embed.description = intro
    rows, waiting = standing_rows(party, lines, medals=over and not cancelled)
    if rows and waiting:  # before any table has finished, the tables below say who plays
        names = ", ".join(seated_name(party, p) for p in waiting)
        rows.append(f"Still playing, no score yet: {names}" if not over else f"No score: {names}")
    if rows:
        embed.add_field(
            name="Party score (round by round)" if record.round > 1 else "Party score",
            value=clip("\n".join(rows), FIELD_LIMIT),
            inline=False,
        )
    if not over:
        tables = []
        for table in party.round_tables():
            fills = iter(party.fill_names(table))
            names = ", ".join(next(fills) if p < 0 else seated_name(party, p) for p in table.seating)
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


def table_footer(party: PartySnapshot, match_id: int) -> str:
    """What a finished table of the party says in its footer (instead of Rematch): where the
    party goes on. A finished table's message may not be edited again when the party moves
    on, so the words stay true after that: the last round's tables say the end comes once
    every table has finished."""
    table = next((t for t in party.tables if t.match_id == match_id), None)
    round_no = party.record.round if table is None else table.round
    rounds = party.record.rounds
    name = f"party #{party.id}"
    if party.status == MatchStatus.ABANDONED:
        return f"A table of {name}, which was cancelled"
    if party.status.over:
        return f"A table of {name}, which is over: the party's message has the final standings"
    if round_no >= rounds:
        return (
            f"A table of {name}'s last round: the party's message shows the final standings "
            "once every table has finished"
        )
    return (
        f"A table of {name} (round {round_no} of {rounds}): the party's message has the standings; "
        f"round {round_no + 1} starts in new threads once every table has finished"
    )
