"""Embeds for lobbies, tables and hands. Pure presentation: snapshot in, embed out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.games.base import Game, Outcome, View, join_names, player_counts, said_to
from bot.service import MatchStatus, Snapshot, practice

COLOUR_LOBBY = discord.Colour.blurple()
COLOUR_RUNNING = discord.Colour.gold()
COLOUR_OVER = discord.Colour.dark_grey()
COLOUR_HAND = discord.Colour.green()
DESCRIPTION_LIMIT = 4000
FIELD_LIMIT = 1000


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def option_summary(game: Game, options: dict[str, str]) -> list[str]:
    lines = []
    for o in game.options:
        value = options.get(o.key, o.default_value)
        if o.is_moot(options) and value == o.default_value:
            continue  # nothing to say (the expansion's cards with the classic deck)
        labels = dict(o.choices)
        if o.multi:
            shown = ", ".join(labels.get(v, v) for v in value.split(",") if v) or o.empty
        else:
            shown = labels.get(value, value)
        lines.append(f"{o.label}: **{shown}**")
    return lines


def options_embed(snap: Snapshot) -> discord.Embed:
    embed = discord.Embed(
        title=f"Options: {snap.game.name} #{snap.id}",
        description="\n".join(option_summary(snap.game, snap.record.options))
        + "\n\nChanges show on the lobby at once; press Start there when ready.",
        colour=COLOUR_LOBBY,
    )
    embed.set_footer(text="Only the host sees this.")
    return embed


MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
# The table's "Last moves": every public event of the latest move (and of the moves since
# the table's last edit, when edits are paced), within this many characters, the oldest cut
# first. A count would cut a move's own events: an Imperial Tax taking a card from each of
# three players, a timed-out turn's notice before the default move's events.
EVENTS_BUDGET = FIELD_LIMIT


def seat_tags(snap: Snapshot, seat: int) -> list[str]:
    s = snap.seats[seat]
    tags = []
    if (
        s.user_id is not None
        and s.user_id == snap.record.host_id
        and not s.ai
        and snap.status == MatchStatus.LOBBY
    ):
        tags.append("host")
    if s.ai:
        tags.append(f"{s.level} AI")
    if s.left:
        tags.append("left, AI plays" if snap.status == MatchStatus.RUNNING else "left")
    return tags


def seat_lines(snap: Snapshot) -> list[str]:
    """The lobby's list of seats."""
    lines = []
    for i, seat in enumerate(snap.seats):
        tags = seat_tags(snap, i)
        lines.append(f"{i + 1}. {seat.name}" + (f" ({', '.join(tags)})" if tags else ""))
    return lines


def lobby_embed(snap: Snapshot) -> discord.Embed:
    game = snap.game
    closed = snap.status == MatchStatus.ABANDONED
    # The player counts of the chosen options (a tourney of King and Crown seats exactly 2).
    counts = player_counts(game, practice.of_game(snap.record.options)) or (
        game.min_players,
        game.max_players,
    )
    lo, hi = min(counts), max(counts)
    seats = f"{lo} players" if lo == hi else f"{lo} to {hi} players"
    description = f"{game.summary}\n{seats} · `/rules game:{game.id}` explains how to play."
    if not closed and len(snap.seats) > hi:
        description += (
            f"\n**{len(snap.seats)} have joined but these options seat at most {hi}:** "
            "someone must leave, or the host chooses other options."
        )
    embed = discord.Embed(
        title=f"{game.name}: lobby #{snap.id}{' (closed)' if closed else ''}{unrated(snap)}",
        description=description,
        colour=COLOUR_OVER if closed else COLOUR_LOBBY,
    )
    if snap.seats or not closed:  # a lobby closed as its last player left lists nobody
        embed.add_field(
            name=f"Players ({len(snap.seats)}/{hi})",
            value=clip("\n".join(seat_lines(snap)) or "nobody yet", FIELD_LIMIT),
            inline=True,
        )
    opts = option_summary(game, snap.record.options)
    if snap.practice:
        opts.append("**Practice, unrated**: no rating or leaderboard; your hand offers **Hint**")
    if opts:
        embed.add_field(name="Options", value=clip("\n".join(opts), FIELD_LIMIT), inline=True)
    if closed:
        embed.set_footer(text="This lobby was closed.")
    else:
        embed.set_footer(
            text=(
                "Join, then the host presses Start. The host can add AI players and change options. "
                "AI levels: easy plays random legal moves, normal the game's own AI, hard searches "
                "(it thinks up to a second a move). New here? /help is a short guide."
            )
        )
    return embed


def unrated(snap: Snapshot) -> str:
    """What a practice match's lobby, table and end screen carry in their titles."""
    return f" · {practice.UNRATED}" if snap.practice else ""


def player_range(game: Game) -> str:
    lo, hi = game.min_players, game.max_players
    return f"{lo} players" if lo == hi else f"{lo} to {hi} players"


def deadline_text(snap: Snapshot) -> str:
    """`` · ⏳ <t:…:R>`` when a turn deadline runs, so every client shows a live countdown."""
    deadline = snap.record.deadline or {}
    turn = deadline.get("turn") if deadline.get("version") == snap.version else None
    return f" · ⏳ <t:{int(turn['at'])}:R>" if turn else ""


def scoreboard(snap: Snapshot, view: View) -> list[str]:
    """One line per seat: turn marker, name, tags, the game's figures and marks."""
    rows = {row.seat: row for row in view.scores}
    awaited = snap.awaited()
    lines = []
    for i, seat in enumerate(snap.seats):
        row = rows.get(i)
        name = f"**{seat.name}**" if i in awaited else seat.name
        parts = [("▶ " if i in awaited else "") + name]
        tags = seat_tags(snap, i)
        if tags:
            parts[0] += f" ({', '.join(tags)})"
        if row is not None:
            parts.extend(snap.name_text(t) for t in (*row.figures, *row.marks))
        lines.append(" · ".join(parts))
    return lines


def result_lines(
    snap: Snapshot, outcome: Outcome, skill: Mapping[int, float] | None = None
) -> tuple[str, list[str]]:
    """The headline (winner first) and the final scoreboard of a finished match.

    Places are :meth:`Snapshot.standings`, as stored for ratings and stats: players who left
    (the AI finished for them) are ranked after those who stayed and never credited with a
    win."""
    results = snap.standings(outcome)
    stayed = [r for r in results if not snap.seats[r.seat].left]
    winners = [r for r in stayed if r.place == 1]
    names = [snap.seats[r.seat].name for r in winners]
    teams = {r.team for r in winners}
    if not winners:
        headline = "Nobody wins: every player left."
    elif len(teams) == 1 and None not in teams and len(outcome.results) > 1:
        team = str(next(iter(teams)))
        label = f"The {team.capitalize()}" if len(team) > 1 else f"Team {team}"
        headline = f"🏆 {label} {'win' if len(team) > 1 else 'wins'}: {join_names(names)}"
    elif len(winners) == 1:
        headline = f"🏆 {names[0]} wins"
    else:
        headline = f"🏆 Tie for first place: {join_names(names)}"
    lines = []
    for r in results:
        seat, left = snap.seats[r.seat], snap.seats[r.seat].left
        medal = not left and (r.team is None or r.place == 1)  # no bronze for a team that lost
        mark = MEDALS.get(r.place, f"{r.place}.") if medal else f"{r.place}."
        bits = [f"{mark} {seat.name}"]
        if r.team:
            bits.append(f"team {r.team}" if len(str(r.team)) == 1 else str(r.team).capitalize())
        if r.score is not None:
            bits.append(str(r.score))
        if seat.ai:
            bits.append(f"{seat.level} AI")
        if left:
            bits.append("left (the AI finished for them)")
        if skill and r.seat in skill:
            bits.append(f"skill {skill[r.seat]:+.1f}")
        lines.append(" · ".join(bits))
    return headline, lines


def summary_text(snap: Snapshot, outcome: Outcome) -> str:
    """The engine's closing sentence, unless it names as winner a seat whose player left:
    the engine ranks seats, and such a seat was played to the end by the AI, so the
    sentence would contradict the headline; it says what became of that seat instead."""
    gone = [r.seat for r in outcome.results if r.place == 1 and snap.seats[r.seat].left]
    if not gone:
        return snap.name_text(outcome.summary)
    names = [snap.seats[s].name for s in gone]
    seats = join_names([f"{n}'s seat" for n in names])
    return (
        f"{seats}, played by the AI since {join_names(names)} left, finished first; "
        "players who leave are ranked after those who stayed."
    )


def recent_events(snap: Snapshot, since: int = 0) -> list[str]:
    """The table's "Last moves" lines: the public events of the latest move, or the latest
    ``since`` events if more (what happened since the table was last shown), within
    ``EVENTS_BUDGET`` characters; "…" first when older ones are cut."""
    log = snap.log()
    count = min(max(since, snap.move_events()), len(log))
    texts = [snap.name_text(t) for t in log[len(log) - count :]]
    lines: list[str] = []
    size = 0
    for text in reversed(texts):
        line = "• " + clip(text, EVENTS_BUDGET - 10)
        if lines and size + len(line) + 1 > EVENTS_BUDGET - 2:
            lines.append("…")
            break
        lines.append(line)
        size += len(line) + 1
    return lines[::-1]


def table_embed(
    snap: Snapshot,
    skill: Mapping[int, float] | None = None,
    party_note: str | None = None,
    since: int = 0,
) -> discord.Embed:
    """The public table: status line, scoreboard, the game's board, the latest move's events.
    ``skill``: seat -> change of skill by a finished, rated match (shown in the final scores);
    ``party_note``: at a party's table, what its end footer says instead of the rematch;
    ``since``: how many public events happened since the table was last shown (all are
    listed, within the budget)."""
    game = snap.game
    if snap.state is None:
        return lobby_embed(snap)
    view = snap.view(None)
    recent = recent_events(snap, since)
    if snap.status == MatchStatus.FINISHED:
        outcome = game.outcome(snap.state)
        embed = discord.Embed(title=f"{game.name} #{snap.id}: finished{unrated(snap)}", colour=COLOUR_OVER)
        if outcome is not None:
            headline, lines = result_lines(snap, outcome, skill)
            summary = "\n".join([summary_text(snap, outcome), *(snap.name_text(t) for t in outcome.details)])
            embed.description = clip(f"**{headline}**\n{summary}", DESCRIPTION_LIMIT)
            embed.add_field(name="Final scores", value=clip("\n".join(lines), FIELD_LIMIT), inline=False)
        note = party_note or "Rematch opens a new lobby for the same players"
        embed.set_footer(text=f"{note} · move {snap.version}")
        return embed
    if snap.status == MatchStatus.ABANDONED:
        embed = discord.Embed(title=f"{game.name} #{snap.id}: cancelled", colour=COLOUR_OVER)
        embed.description = "The match was cancelled; it counts for nobody."
        return embed
    status = f"**{snap.name_text(view.waiting)}**{deadline_text(snap)}"
    board = [snap.name_text(line) for line in view.board]
    embed = discord.Embed(title=f"{game.name} #{snap.id}{unrated(snap)}", colour=COLOUR_RUNNING)
    embed.description = clip("\n".join([status, *board]), DESCRIPTION_LIMIT)
    embed.add_field(name="Players", value=clip("\n".join(scoreboard(snap, view)), FIELD_LIMIT), inline=False)
    if recent:
        embed.add_field(name="Last moves", value=clip("\n".join(recent), FIELD_LIMIT), inline=False)
    embed.set_footer(text=f"My hand (or /hand): your cards and moves · move {snap.version}")
    return embed


def log_embed(snap: Snapshot) -> discord.Embed:
    """The latest public events of the match, newest last (as many as fit), and how many
    earlier ones are not shown."""
    lines = [snap.name_text(t) for t in snap.log()]
    shown: list[str] = []
    size = 0
    for line in reversed(lines):
        size += len(line) + 3
        if size > DESCRIPTION_LIMIT - 100:
            break
        shown.append(f"• {line}")
    shown.reverse()
    embed = discord.Embed(title=f"Log: {snap.game.name} #{snap.id}", colour=COLOUR_LOBBY)
    more = snap.log_count() - len(shown)  # the notes keep only the latest events
    text = "\n".join(shown) or "Nothing has happened yet."
    if more:
        text = f"*{more} earlier events not shown; `/match log` exports every move after the end.*\n" + text
    embed.description = text
    return embed


def hand_lines(snap: Snapshot, view: View, new_cards: Sequence[tuple[str, str]] = ()) -> list[str]:
    """The hand, one group per line; cards new since the last look, ``(group label, card)``,
    are marked once."""
    fresh = list(new_cards)
    lines = []
    for group in view.hand:
        cards = []
        for card in group.cards:
            if (group.label, card) in fresh:
                fresh.remove((group.label, card))
                cards.append(f"{card} 🆕")
            else:
                cards.append(card)
        text = ", ".join(cards) or "none"
        lines.append(f"{snap.name_text(group.label)}: {text}" if group.label else text)
    return lines


def single_spaced(lines: Sequence[str]) -> list[str]:
    """``lines`` with no blank line at the start and never two blank lines in a row (a part
    of the hand that is empty leaves no gap)."""
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    return out


def hand_embed(
    snap: Snapshot,
    seat: int,
    view: View,
    *,
    notice: Sequence[str] = (),
    new_cards: Sequence[tuple[str, str]] = (),
    step: Sequence[str] = (),
    has_moves: bool = True,
    hint: str = "",
) -> discord.Embed:
    """A player's hand; ``hint``: a practice hint's line, shown just above the moves."""
    over = snap.status.over
    embed = discord.Embed(
        title=f"Your hand: {snap.game.name} #{snap.id}", colour=COLOUR_OVER if over else COLOUR_HAND
    )
    parts: list[str] = []
    outcome = snap.game.outcome(snap.state) if snap.status == MatchStatus.FINISHED else None
    if outcome is not None:  # the result leads, above what the player last did
        parts.extend(["**" + result_lines(snap, outcome)[0] + "**", ""])
    moving = not over and (has_moves or bool(step))
    if hint and not moving:  # no moves to show it beside: it stays with the lines above the hand
        notice = [*notice, hint]
    if notice:
        parts.extend([*(snap.name_text(t) for t in notice), ""])
    count = sum(len(g.cards) for g in view.hand)
    if view.hand and (count or not over):  # an empty hand at the end says nothing
        parts.append(f"**Your cards ({count})**")
        parts.extend(hand_lines(snap, view, new_cards))
    parts.extend(snap.name_text(line) for line in view.private)
    parts.append("")
    if snap.status == MatchStatus.FINISHED:
        parts.append("The match is over; the table has the final scores.")
    elif over:
        parts.append("The match was cancelled.")
    elif has_moves or step:
        awaited = seat in snap.awaited()
        context = view.table_context if awaited else ()
        if context:  # what the decision depends on, as the table shows it (public lines only)
            parts.append("**On the table**")
            parts.extend(snap.name_text(line) for line in context)
            parts.append("")
        status = snap.name_text(said_to(view.waiting, seat))  # "Your turn to ..." if it waits for them
        parts.append(f"*{status}*{deadline_text(snap) if awaited else ''}")
        if hint:
            parts.append(snap.name_text(hint))
        if step:
            parts.append("Choosing: **" + " → ".join(snap.name_text(s) for s in step) + "**")
        elif view.optional and not awaited:  # a chance out of turn: the game goes on without it
            parts.append(snap.name_text(view.optional))
        else:
            parts.append("**Your move:** choose below.")
    else:
        # The table's status line: a waiting hand is edited when it changes (the tracker's signature)
        if view.waiting:
            parts.append(f"*{snap.name_text(view.waiting)}*{deadline_text(snap)}")
        parts.append("Nothing for you to do right now; this message updates itself when that changes.")
    embed.description = clip("\n".join(single_spaced(parts)), DESCRIPTION_LIMIT)
    embed.set_footer(text=f"Seat {seat + 1} · move {snap.version} · only you can see this")
    return embed
