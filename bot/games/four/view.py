"""What each seat of a Kingdom Four match sees: the table (field, piles, scoreboard), its
own hand and captures, the status line and the end's summary."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games.base import CardGroup, ScoreLine, View, p
from bot.games.four.cards import ITEM_EMOJI, ITEMS, by_colour, is_wild, short, sort
from bot.games.four.scoring import score
from bot.games.four.state import OVER, TAKE, FourState


def view(state: FourState, seat: int | None) -> View:
    board = [
        f"Hand {min(state.hand_no, state.hands_total)} of {state.hands_total} · dealer {p(state.dealer)} · draw pile {len(state.pile)}"
    ]
    if state.redeals:
        times = "once" if state.redeals == 1 else f"{state.redeals} times"
        board.append(f"This hand was dealt again {times}: a whole group lay in the field.")
    field = field_lines(state.field)
    board += field
    if state.pending:
        board.append(f"Flipped: {short(state.pending)} (its match is being chosen)")
    context = tuple(field) + tuple(board[-1:] if state.pending else ())
    if state.last_hand:
        board.append(last_hand_line(state))
    scores = []
    for s in range(state.players):
        took = state.captured[s]
        figures = [f"{len(state.hands[s])} in hand"]
        if took:
            figures.append(f"took {by_colour_counts(took)}")
        figures.append(f"{score(took).total} this hand · total {state.totals[s]}")
        scores.append(ScoreLine(s, tuple(figures), ("dealer",) if s == state.dealer else ()))
    data: dict[str, Any] = {
        "hand_no": state.hand_no,
        "hands_total": state.hands_total,
        "dealer": state.dealer,
        "turn": state.turn,
        "phase": state.phase,
        "field": list(state.field),
        "pending": state.pending,
        "pile": len(state.pile),
        "captured": [list(c) for c in state.captured],
        "totals": list(state.totals),
        "hand_sizes": [len(h) for h in state.hands],
    }
    hand: tuple[CardGroup, ...] = ()
    private: tuple[str, ...] = ()
    if seat is not None:
        hand = tuple(
            CardGroup(label, tuple(short(c) for c in cards)) for label, cards in by_colour(state.hands[seat])
        )
        private = own_lines(state, seat)
        data["hand"] = list(state.hands[seat])
    return View(
        seat,
        waiting(state),
        board=tuple(board),
        scores=tuple(scores),
        hand=hand,
        private=private,
        data=data,
        context=context,
        last_deal=last_deal_line(state, seat),
    )


def waiting(state: FourState) -> str:
    if state.phase == OVER:
        return summary(state)
    if state.phase == TAKE:
        return f"{p(state.turn)} to choose the card the flipped {short(state.pending)} takes."
    return f"{p(state.turn)} to play a card to the field, then flip one."


def summary(state: FourState) -> str:
    best = max(state.totals)
    winners = [s for s, t in enumerate(state.totals) if t == best]
    hands = f"after {state.hands_total} hands"
    if len(winners) == 1:
        return f"{p(winners[0])} has the highest total {hands}: {best} points."
    return f"{' and '.join(p(s) for s in winners)} share the highest total {hands}: {best} points."


def field_lines(field: Sequence[str]) -> list[str]:
    """The field by colour, and within a colour by item, each card written as in the hand:
    ``🟥 red: 🟥1🗝️ 🟥3🗝️ · 🟥2🪓``."""
    if not field:
        return ["Field: empty"]
    lines = []
    for label, cards in by_colour(field):
        if label.startswith("✨"):
            lines.append(f"{label}: {' '.join(short(c) for c in cards)}")
            continue
        parts = []
        for it in ITEMS:
            mine = [short(c) for c in cards if c[2] == it]
            if mine:
                three = " (group of three)" if len(mine) == 3 else ""
                parts.append(" ".join(mine) + three)
        lines.append(f"{label}: {' · '.join(parts)}")
    return lines


def compact(cards: Sequence[str]) -> str:
    """Cards in one run, as the hand writes them: ``🟥1🗝️ 🟥3🗝️ 🟦2🪙 👑🟥``."""
    return " ".join(short(c) for c in sort(cards))


def colour_groups(cards: Sequence[str]) -> str:
    """Cards grouped by colour on one line, the colour said once a group:
    ``🟥 3🗝️ 4🗝️ · 🟦 1🪙 · ✨ 👑🟥 🃏🪓`` (wild cards written whole)."""
    parts = []
    for label, cards_of in by_colour(cards):
        mark = label.split(" ")[0]
        shown = [short(c) if is_wild(c) else f"{c[0]}{ITEM_EMOJI[c[2]]}" for c in cards_of]
        parts.append(f"{mark} {' '.join(shown)}")
    return " · ".join(parts)


def seat_points(points: Sequence[int]) -> str:
    """``"{p0} 38 · {p1} 14 · {p2} 40"``."""
    return " · ".join(f"{p(s)} {x}" for s, x in enumerate(points))


def last_hand_line(state: FourState) -> str:
    """``"Last hand: {p0} 38 · {p1} 14 · {p2} 40"``."""
    return f"Last hand: {seat_points(state.last_hand)}"


def by_colour_counts(cards: Sequence[str]) -> str:
    """How many cards of each colour, for the table: ``🟥×2 🟦×1 ✨×1``."""
    counts = [(label.split(" ")[0], len(group_cards)) for label, group_cards in by_colour(cards)]
    return " ".join(f"{mark}×{n}" for mark, n in counts)


def sets_text(cards: Sequence[str]) -> str:
    """The points of captured cards and the sets that make them: ``22 — Kingdom Three 🟩2s (10); …``."""
    got = score(cards)
    return f"{got.total} — {'; '.join(got.sets)}" if got.sets else f"{got.total} (no scoring sets)"


def own_lines(state: FourState, seat: int) -> tuple[str, ...]:
    """What the hand view adds for its player: the cards they took this hand with their
    points so far, what each other player took (public, but the table only counts it, to
    stay phone-sized; here a player can see which sets the others are building), and at
    the end their last hand's sets (during the match the hand shows them at the start of
    the next hand: :func:`last_deal_line`)."""
    lines = []
    took = state.captured[seat]
    if took and state.phase != OVER:
        lines.append(f"You took ({len(took)}): {compact(took)} · worth {sets_text(took)}")
    if state.phase != OVER:
        for other in range(state.players):
            if other != seat and state.captured[other]:
                took = state.captured[other]
                lines.append(f"{p(other)} took {len(took)}: {colour_groups(took)}")
    if state.last_taken and state.phase == OVER:
        lines.append(f"Your last hand: {sets_text(state.last_taken[seat])}")
    return tuple(lines)


def last_deal_line(state: FourState, seat: int | None) -> str:
    """How the last hand ended for ``seat`` (:attr:`View.last_deal`), while the next is
    played: ``"Hand 1: you scored 10 — Kingdom Three 🟥3s (10)"``."""
    if seat is None or not state.last_taken or state.phase == OVER:
        return ""
    return f"Hand {state.hand_no - 1}: you scored {sets_text(state.last_taken[seat])}"
