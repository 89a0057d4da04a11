"""Small helpers every engine uses: seat names in text, lists in words, refusals that name
whom the table waits for, the status line said to the seat it waits for, outcomes from
scores, table sizes, and hidden deals."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TypeVar

from bot.games.kit.rng import Rng
from bot.games.kit.values import SEAT_TOKEN_RE, Outcome, SeatResult, seat_token

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


# "Waiting for {p1} to ...", "waiting for {p0}, {p1} and {p2} to ...", "Waiting for {p1} (Warlord, ...): ..."
_AWAITED = re.compile(
    r"([Ww])aiting for ((?:\{p\d+\}, )*\{p\d+\}(?: and \{p\d+\})?)(?: (\([^()]*\)))?(:| to )"
)
# "{p1} to lead.", "{p1} may bid before the deal.": a line or sentence that starts with a seat
_SUBJECT = re.compile(r"(^|\. )(\{p\d+\}) (to|may) ")


def said_to(line: str, seat: int | None) -> str:
    """A status line (:attr:`View.waiting`) as ``seat``'s own hand says it: where the line
    names the seat as the one the table waits for, it speaks to them, so that a player does
    not read of themselves in the third person ("Waiting for {p1} to play or draw." is "Your
    turn to play or draw." in seat 1's hand); the table's line (``seat`` None) and what is
    said of others stay as they are.

    The forms it reads, which the games' status lines are written in: "Waiting for {pN} to
    ..." ("Your turn to ..."), "Waiting for {pN}: ..." and "Waiting for {pN} (...) to ..."
    ("Your turn (...): ..."), several names with the seat among them ("Waiting for you and
    {p2} to ..."), and at the start of a sentence "{pN} to ..." ("Your turn to ...") and
    "{pN} may ..." ("You may ..."). Only the seat's own placeholder changes: the line tells
    the seat nothing its view did not."""
    if seat is None:
        return line
    me = seat_token(seat)

    def awaited(m: re.Match[str]) -> str:
        w, names, aside, joint = m.group(1), SEAT_TOKEN_RE.findall(m.group(2)), m.group(3), m.group(4)
        if str(seat) not in names:
            return m.group(0)
        if len(names) > 1:  # one of several: the others are named beside "you"
            others = [seat_token(int(n)) for n in names if n != str(seat)]
            return f"{w}aiting for {join_names(['you', *others])}{' ' + aside if aside else ''}{joint}"
        turn = "Your turn" if w == "W" else "your turn"
        if aside:  # "Your turn (Warlord, playing {p0}'s turn): play or draw."
            return f"{turn} {aside}:" + ("" if joint == ":" else " ")
        return f"{turn}:" if joint == ":" else f"{turn} to "

    def subject(m: re.Match[str]) -> str:
        if m.group(2) != me:
            return m.group(0)
        return m.group(1) + ("Your turn to " if m.group(3) == "to" else "You may ")

    return _SUBJECT.sub(subject, _AWAITED.sub(awaited, line))


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
