"""A party's seating rules and standings, as pure functions (no database, no Discord).

A party seats its players (indices into the party's player list) at tables; a table is the
list of player indices in seat order, ``AI_FILL`` for a seat the AI fills to reach the
game's smallest table. Between rounds the winner of each table moves to the next table
(the last table's winner to the first); with partners, every table's order is drawn again
so that nobody keeps the same partner where possible (partners sit opposite: seat ``i``
with seat ``i + n/2``, as in dynasty).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

AI_FILL = -1  # a seat the AI fills (no party player)

MIN_PLAYERS = 4
MAX_PLAYERS = 16
MIN_TABLE = 2
MAX_TABLE = 8

Table = list[int]


class SeatingError(ValueError):
    """The players cannot be seated at these tables; the message says why."""


def table_sizes(players: int, tables: int) -> list[int]:
    """Table sizes as even as possible (larger tables first): 7 players at 2 tables -> [4, 3]."""
    if tables < 1:
        raise SeatingError("A party needs at least one table.")
    base, extra = divmod(players, tables)
    return [base + 1 if t < extra else base for t in range(tables)]


def check_seating(players: int, tables: int, *, game_min: int, game_max: int, partners: bool = False) -> None:
    """Raise SeatingError with a sentence unless ``players`` fit at ``tables`` tables."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise SeatingError(f"A party is for {MIN_PLAYERS} to {MAX_PLAYERS} players (now {players}).")
    if tables < 2:
        raise SeatingError("A party plays at two tables or more.")
    sizes = table_sizes(players, tables)
    if min(sizes) < MIN_TABLE:
        raise SeatingError(f"{players} players cannot fill {tables} tables of at least {MIN_TABLE}.")
    if max(sizes) > min(MAX_TABLE, game_max):
        raise SeatingError(
            f"{players} players at {tables} tables makes a table of {max(sizes)}; at most {min(MAX_TABLE, game_max)} fit."
        )
    if partners and any(size % 2 or max(size, game_min) < 4 for size in sizes):
        raise SeatingError(
            f"Partners need tables of 4, 6 or 8: {players} players at {tables} tables make {sizes}."
        )


def first_seating(players: int, tables: int, rng: random.Random) -> list[Table]:
    """Round one: the players drawn at random, dealt round the tables."""
    order = list(range(players))
    rng.shuffle(order)
    sizes = table_sizes(players, tables)
    seating: list[Table] = []
    start = 0
    for size in sizes:
        seating.append(order[start : start + size])
        start += size
    return seating


def move_winners(seating: Sequence[Sequence[int]], winners: Sequence[int | None]) -> list[Table]:
    """The winner of table ``t`` (a player index, or None when the table has none) moves to
    table ``t + 1`` (the last table's winner to the first); table sizes stay the same. AI
    fill seats are dropped: :func:`fill_ai` adds them again."""
    tables = [[p for p in table if p != AI_FILL] for table in seating]
    count = len(tables)
    moving: list[int | None] = []
    for table, winner in zip(tables, winners, strict=True):
        if winner is not None and winner in table:
            table.remove(winner)
            moving.append(winner)
        else:
            moving.append(None)
    for t, winner in enumerate(moving):
        if winner is not None:
            tables[(t + 1) % count].append(winner)
    return tables


def partner_pairs(table: Sequence[int]) -> set[frozenset[int]]:
    """The partnerships of a table in seat order (seat ``i`` with ``i + n/2``); AI fill excluded."""
    half = len(table) // 2
    return {
        frozenset((table[i], table[i + half]))
        for i in range(half)
        if table[i] != AI_FILL and table[i + half] != AI_FILL
    }


def draw_partners(
    table: Sequence[int], previous: set[frozenset[int]], rng: random.Random, tries: int = 200
) -> Table:
    """The table's players in a new random order in which as few partnerships as possible
    repeat one of ``previous`` (none, where that is possible)."""
    best = list(table)
    rng.shuffle(best)
    best_repeats = len(partner_pairs(best) & previous)
    for _ in range(tries):
        if best_repeats == 0:
            break
        candidate = list(table)
        rng.shuffle(candidate)
        repeats = len(partner_pairs(candidate) & previous)
        if repeats < best_repeats:
            best, best_repeats = candidate, repeats
    return best


def fill_ai(seating: Sequence[Sequence[int]], game_min: int) -> list[Table]:
    """Each table with AI seats added up to the game's smallest table."""
    return [list(table) + [AI_FILL] * max(0, game_min - len(table)) for table in seating]


def next_seating(
    seating: Sequence[Sequence[int]],
    winners: Sequence[int | None],
    rng: random.Random,
    *,
    partners: bool,
    game_min: int,
) -> list[Table]:
    """The next round: winners move; with partners, partners are drawn again; AI fills."""
    moved = move_winners(seating, winners)
    if partners:
        previous: set[frozenset[int]] = set()
        for table in seating:
            previous |= partner_pairs(table)
        moved = [draw_partners(table, previous, rng) for table in moved]
    return fill_ai(moved, game_min)


# --- standings --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableResult:
    """One seat's result at one table: the party player (or AI_FILL), place and total."""

    player: int
    place: int
    score: int | None


def table_winner(results: Sequence[TableResult], *, low_score_wins: bool) -> int | None:
    """The party player who won the table: place 1 (with partners, the partner with the
    better own total), then the earlier seat. None if only AI fill seats won."""
    firsts = [r for r in results if r.place == 1 and r.player != AI_FILL]
    if not firsts:
        return None
    sign = 1 if low_score_wins else -1
    return min(firsts, key=lambda r: sign * (r.score or 0)).player


@dataclass(frozen=True, slots=True)
class Standing:
    player: int
    total: int
    rounds: tuple[int | None, ...]  # the player's total of each round (None: not scored)
    left: bool
    ai: bool
    playing: bool = False  # their table of the current round has not finished yet

    @property
    def scored(self) -> bool:
        """Whether any of the player's matches has ended (a total of 0 before that is no score)."""
        return any(s is not None for s in self.rounds)


def standings(
    players: int,
    rounds: Sequence[Mapping[int, int | None]],
    *,
    left: Sequence[bool],
    ai: Sequence[bool],
    low_score_wins: bool,
    playing: Sequence[bool] = (),
) -> list[Standing]:
    """Every party player's score, best first: the sum of their match totals. People who
    are still in come first, then AI players (never party winners), then those who left.
    Mid-round, players with no score yet (their first table still ``playing``) come after
    those with one: a round not yet scored is not a total of 0."""
    lines = []
    for p in range(players):
        per_round = tuple(r.get(p) for r in rounds)
        total = sum(s for s in per_round if s is not None)
        busy = p < len(playing) and playing[p]
        lines.append(Standing(p, total, per_round, left[p], ai[p], busy))
    sign = 1 if low_score_wins else -1
    return sorted(lines, key=lambda s: (s.left, s.ai, not s.scored, sign * s.total, s.player))


def places(lines: Sequence[Standing], *, low_score_wins: bool) -> dict[int, int]:
    """Each person's place (player -> place), as a match's final standings rank: the people
    who stayed by their party score, ties sharing a place (one more than the number placed
    strictly better), then those who left, ranked the same way after every stayer. AI
    players and people with no score yet have no place."""
    sign = 1 if low_score_wins else -1
    stayed = [s for s in lines if not s.ai and not s.left and s.scored]
    went = [s for s in lines if not s.ai and s.left and s.scored]
    out = {s.player: 1 + sum(1 for o in stayed if sign * o.total < sign * s.total) for s in stayed}
    for s in went:
        out[s.player] = 1 + len(stayed) + sum(1 for o in went if sign * o.total < sign * s.total)
    return out


def party_winners(lines: Sequence[Standing], *, low_score_wins: bool) -> list[int]:
    """The people in first place who stayed (several on a tie), best first; none if nobody stayed."""
    spots = places(lines, low_score_wins=low_score_wins)
    return [s.player for s in lines if not s.left and spots.get(s.player) == 1]
