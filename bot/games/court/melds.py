"""Melds: courted runs (from A, Q or 7, extended later), sandbags and in-hand runs."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.games.court.cards import INITIATORS, RANKS, natural, rank, suit

MIN_RUN = 3
BAG_RANKS = ("A", "Q", "7")


def _contiguous(numbers: Sequence[int]) -> bool:
    ordered = sorted(numbers)
    return len(set(ordered)) == len(ordered) and ordered == list(range(ordered[0], ordered[0] + len(ordered)))


def court_problem(courted: Sequence[str], cards: Sequence[str]) -> str | None:
    """Why laying ``cards`` onto the run ``courted`` is not a court (None: it is).

    A first court is a run of 3+ cards of one suit that starts at A (upward), Q (downward)
    or 7 (either way): in natural order A 2 ... 10 J Q that is a run holding an A, a Q or a 7.
    Later courts extend that single run at an end it may grow from (one card is enough)."""
    if not cards:
        return "Choose the cards to court."
    if len(set(cards)) != len(cards):
        return "Each card once, please."
    suits = {suit(c) for c in (*courted, *cards)}
    if len(suits) != 1:
        return "A court is one suit only: your run's suit, fixed by your first court."
    if not courted:
        if len(cards) < MIN_RUN:
            return "A first court needs a run of at least 3 cards."
        if not _contiguous([natural(c) for c in cards]):
            return "Courted cards must form one run in natural order (A 2 ... 10 J Q)."
        if not INITIATORS & {rank(c) for c in cards}:
            return "A courted run starts at an A (upward), a Q (downward) or a 7 (either way)."
        return None
    if not _contiguous([natural(c) for c in (*courted, *cards)]):
        return "A later court only extends your run, with no gap."
    return None


def court_candidates(hand: Sequence[str], courted: Sequence[str]) -> tuple[str, ...]:
    """The hand's cards that can take part in some court now (the select's choices)."""
    if courted:
        run_suit = suit(courted[0])
        low = min(natural(c) for c in courted)
        high = max(natural(c) for c in courted)
        mine = {natural(c): c for c in hand if suit(c) == run_suit}
        out = []
        n = low - 1
        while n in mine:
            out.append(mine[n])
            n -= 1
        n = high + 1
        while n in mine:
            out.append(mine[n])
            n += 1
        return tuple(out)
    out = []
    for segment in runs(hand, MIN_RUN):
        if INITIATORS & {rank(c) for c in segment}:
            out.extend(segment)
    return tuple(out)


def best_court(hand: Sequence[str], courted: Sequence[str]) -> tuple[str, ...]:
    """The largest court possible now (empty if none): every candidate for an extension,
    else the longest run holding an initiator."""
    if courted:
        return court_candidates(hand, courted)
    options = [seg for seg in runs(hand, MIN_RUN) if INITIATORS & {rank(c) for c in seg}]
    return max(options, key=len) if options else ()


def runs(cards: Iterable[str], least: int) -> list[tuple[str, ...]]:
    """Maximal runs of ``least``+ cards of one suit in natural order."""
    by_suit: dict[str, dict[int, str]] = {}
    for c in cards:
        by_suit.setdefault(suit(c), {})[natural(c)] = c
    out = []
    for s in sorted(by_suit):
        numbers = by_suit[s]
        n = 1
        while n <= len(RANKS):
            if n in numbers:
                segment = []
                while n in numbers:
                    segment.append(numbers[n])
                    n += 1
                if len(segment) >= least:
                    out.append(tuple(segment))
            n += 1
    return out


def bag_ranks(hand: Sequence[str]) -> tuple[str, ...]:
    """The ranks (A, Q, 7) of which the hand holds all four: sandbags it may lay."""
    return tuple(r for r in BAG_RANKS if sum(1 for c in hand if rank(c) == r) == 4)
