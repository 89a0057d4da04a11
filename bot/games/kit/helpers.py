"""Small helpers every engine uses: seat names in text, lists in words, refusals that name
whom the table waits for, outcomes from scores, table sizes, and hidden deals."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from bot.games.kit.rng import Rng
from bot.games.kit.values import Outcome, SeatResult, seat_token

S = TypeVar("S")


def p(seat: int) -> str:
    """A seat as it appears in text for people: a placeholder the UI replaces with the
    seat's display name (:func:`seat_token`)."""
    return seat_token(seat)


def plural(n: int, word: str, many: str | None = None) -> str:
    """``"1 hand"``, ``"2 hands"``; ``many`` for a plural other than ``word + "s"``."""
    return f"{n} {word if n == 1 else many or word + 's'}"


def join_names(names: Sequence[str]) -> str:
    """``"a"``, ``"a and b"``, ``"a, b and c"``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def waiting_for(awaited: Iterable[int], lead: str = "It is not your turn") -> str:
    """A refusal to a seat that may not act now, naming the seats the table waits for (as
    seat tokens, which the service turns into names): "It is not your turn: waiting for
    {p1} and {p2}." Who is awaited is public (the table shows it)."""
    who = [seat_token(seat) for seat in sorted(awaited)]
    return f"{lead}: waiting for {join_names(who)}." if who else f"{lead}."


def ranked(scores: Sequence[float], summary: str = "", lowest_wins: bool = False) -> Outcome:
    """An outcome placing seats by ``scores`` (higher is better, or lower with
    ``lowest_wins``), equal scores sharing a place; scores are kept rounded down."""
    sign = -1 if lowest_wins else 1
    results = tuple(
        SeatResult(seat, 1 + sum(1 for other in scores if sign * other > sign * mine), int(mine))
        for seat, mine in enumerate(scores)
    )
    return Outcome(results, summary)


def deal_hidden(
    places: Sequence[Sequence[S]], hidden: Sequence[int], rng: Rng
) -> tuple[tuple[tuple[S, ...], ...], Rng]:
    """Shuffle the cards of the ``hidden`` places among them, keeping each place's size.

    The usual body of :meth:`Game.resample`: ``places`` are every hand or pile, ``hidden``
    the indices of those the resampling seat cannot see. The hidden cards are sorted (by
    ``repr``) before the shuffle, so the deal tells nothing of where they lay."""
    pool = sorted((card for i in hidden for card in places[i]), key=repr)
    shuffled, rng = rng.shuffled(pool)
    out = [tuple(place) for place in places]
    start = 0
    for i in hidden:
        size = len(places[i])
        out[i] = tuple(shuffled[start : start + size])
        start += size
    return tuple(out), rng
