"""Round scoring: courted cards, in-hand runs, off-suit cards, prisoners, sandbags, flops."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.court.cards import INITIATORS, MIN_RUN, RANKS, SUIT_SYMBOL, rank, runs, suit

COURTED, COURTED_INITIATOR, KING_BONUS = 10, 15, 15
IN_HAND_RUN, OFF_SUIT = 5, -5
SANDBAG, FLOP = 60, -15


def kings_court(courted: Sequence[str], king_suit: str) -> bool:
    """All twelve cards of the King's suit courted."""
    return len(courted) == len(RANKS) and all(suit(c) == king_suit for c in courted)


def courted_points(courted: Sequence[str], king_suit: str) -> int:
    """10 a courted card of the King's suit, 15 an A, Q or 7; robbed cards (prisoners) 0;
    a King's Court adds the King's 15 (150 in all)."""
    if not courted or suit(courted[0]) != king_suit:
        return 0
    points = sum(COURTED_INITIATOR if rank(c) in INITIATORS else COURTED for c in courted)
    return points + (KING_BONUS if kings_court(courted, king_suit) else 0)


def hand_points(hand: Sequence[str], king_suit: str) -> int:
    """+5 a card in a run of 3+ of the King's suit; 0 other cards of that suit; -5 off-suit."""
    own = [c for c in hand if suit(c) == king_suit]
    in_runs = sum(len(r) for r in runs(own, MIN_RUN))
    return IN_HAND_RUN * in_runs + OFF_SUIT * (len(hand) - len(own))


def round_points(hand: Sequence[str], king_suit: str, courted: Sequence[str], bags: int, flops: int) -> int:
    """A player's round score before any bid: what knocking is measured by."""
    return courted_points(courted, king_suit) + hand_points(hand, king_suit) + SANDBAG * bags + FLOP * flops


def round_parts(
    hand: Sequence[str], king_suit: str, courted: Sequence[str], bags: int, flops: int
) -> tuple[tuple[str, int], ...]:
    """:func:`round_points` part by part, in words for the player: (what, points). Their
    points add up to ``round_points``; cards of the King's suit outside runs show with 0."""
    parts: list[tuple[str, int]] = []
    mine = SUIT_SYMBOL[king_suit]
    if courted:
        points = courted_points(courted, king_suit)
        if suit(courted[0]) != king_suit:
            parts.append((f"{len(courted)} robbed {SUIT_SYMBOL[suit(courted[0])]} (prisoners)", points))
        else:
            whole = " (a King's Court)" if kings_court(courted, king_suit) else ""
            parts.append((f"{len(courted)} {mine} courted{whole}", points))
    own = [c for c in hand if suit(c) == king_suit]
    in_runs = sum(len(r) for r in runs(own, MIN_RUN))
    if in_runs:
        parts.append((f"{in_runs} {mine} in runs in hand", IN_HAND_RUN * in_runs))
    if len(own) > in_runs:
        parts.append((f"{len(own) - in_runs} other {mine} in hand", 0))
    off = len(hand) - len(own)
    if off:
        parts.append((f"{off} off-suit in hand", OFF_SUIT * off))
    if bags:
        parts.append((f"{bags} sandbag{'s' * (bags > 1)}", SANDBAG * bags))
    if flops:
        parts.append((f"King flopped{f' x{flops}' if flops > 1 else ''}", FLOP * flops))
    return tuple(parts)


def parts_text(parts: Sequence[tuple[str, int]]) -> str:
    """``"3 ♥ courted +35; 9 off-suit in hand -45"``."""
    return "; ".join(f"{what} {points:+d}" if points else f"{what} 0" for what, points in parts) or "nothing"
