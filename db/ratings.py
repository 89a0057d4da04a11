"""How one finished match changes its players' standings. Pure: no SQL, no clock.

Ratings are openskill's Plackett-Luce model over the placings, with its default
parameters (mu 25, sigma 25/3, beta 25/6, tau 25/300). Seats that share a ``team`` (crown's
``atcourt`` Wise and Wicked, dynasty partners) are rated as one team; every other seat is a
team of its own. A player who left the match (``left``) is rated as a team of their own in
last place and takes a loss, whatever their seat's final place_score. Matches with an AI seat
count for the humans' played/wins/losses and placings but leave every rating unchanged, so
on boards where ratings tie the average placing decides.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from openskill.models import PlackettLuce

from db.records import ResultRow

MODEL = PlackettLuce()
DEFAULT_MU: float = MODEL.mu
DEFAULT_SIGMA: float = MODEL.sigma
Z = 3.0  # ordinal = mu - Z * sigma, the conservative skill the leaderboard sorts by


def ordinal(mu: float, sigma: float) -> float:
    return mu - Z * sigma


@dataclass(frozen=True, slots=True)
class Tally:
    """A player's line on one board."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    rated: int = 0
    played: int = 0
    wins: int = 0
    losses: int = 0
    points: int = 0
    scored: int = 0
    last_at: float = 0.0
    place_score: float = 0.0  # average placing score: 1 always first, 0 always last (ties rank by it)

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)


def humans(rows: Iterable[ResultRow]) -> list[ResultRow]:
    return [r for r in rows if r.user_id is not None and not r.is_ai]


def is_win(row: ResultRow) -> bool:
    """A win is first place (shared first places included) by a player who stayed."""
    return row.place == 1 and not row.left


def placing_score(row: ResultRow, rows: Sequence[ResultRow]) -> float:
    """Where ``row`` finished among the match's distinct placings: 1 first, 0 last.

    Teams and ties share a placing; a player who left scores 0 (last)."""
    if row.left:
        return 0.0
    places = sorted({r.place for r in rows if not r.left})
    if len(places) < 2:
        return 1.0
    return 1.0 - places.index(row.place) / (len(places) - 1)


def rated(rows: Sequence[ResultRow]) -> bool:
    """Whether a match changes ratings: no AI seats and at least two sides."""
    if any(r.is_ai or r.user_id is None for r in rows):
        return False
    return len(_sides(humans(rows))) >= 2


def _sides(rows: Sequence[ResultRow]) -> list[tuple[int, list[int]]]:
    """(rank, user ids) per side: teams grouped by name, leavers alone and last."""
    stayed = [r for r in rows if not r.left]
    last = max((r.place for r in stayed), default=0) + 1
    teams: dict[str, tuple[int, list[int]]] = {}
    sides: list[tuple[int, list[int]]] = []
    for r in rows:
        assert r.user_id is not None
        if r.left:
            sides.append((last, [r.user_id]))
        elif r.team is not None:
            rank, members = teams.get(r.team, (r.place, []))
            members.append(r.user_id)
            teams[r.team] = (min(rank, r.place), members)
        else:
            sides.append((r.place, [r.user_id]))
    sides.extend(teams.values())
    return sides


def rate(
    rows: Sequence[ResultRow], skills: Mapping[int, tuple[float, float]]
) -> dict[int, tuple[float, float]]:
    """New (mu, sigma) for every human of a rated match; {} for a match that is not rated.

    ``skills`` holds the players' current (mu, sigma); missing players start at the default.
    """
    if not rated(rows):
        return {}
    sides = _sides(humans(rows))
    teams = [
        [MODEL.rating(*skills.get(uid, (DEFAULT_MU, DEFAULT_SIGMA))) for uid in members]
        for _, members in sides
    ]
    new = MODEL.rate(teams, ranks=[float(rank) for rank, _ in sides])
    out: dict[int, tuple[float, float]] = {}
    for (_, members), team in zip(sides, new):
        for uid, rating in zip(members, team):
            out[uid] = (rating.mu, rating.sigma)
    return out


def apply_match(tallies: Mapping[int, Tally], rows: Sequence[ResultRow], at: float) -> dict[int, Tally]:
    """The updated tallies of the match's human players (others are not returned)."""
    players = humans(rows)
    current = {r.user_id: tallies.get(r.user_id, Tally()) for r in players if r.user_id is not None}
    skills = rate(rows, {uid: (t.mu, t.sigma) for uid, t in current.items()})
    out: dict[int, Tally] = {}
    for r in players:
        assert r.user_id is not None
        t = current[r.user_id]
        won = is_win(r)
        mu, sigma = skills.get(r.user_id, (t.mu, t.sigma))
        out[r.user_id] = replace(
            t,
            mu=mu,
            sigma=sigma,
            rated=t.rated + (1 if r.user_id in skills else 0),
            played=t.played + 1,
            wins=t.wins + (1 if won else 0),
            losses=t.losses + (0 if won else 1),
            points=t.points + (r.score or 0),
            scored=t.scored + (1 if r.score is not None else 0),
            last_at=max(t.last_at, at),
            place_score=(t.place_score * t.played + placing_score(r, rows)) / (t.played + 1),
        )
    return out
