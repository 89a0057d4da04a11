"""A guided match's explanations and a hint's reasons for King's Court, from what the seat
sees: its hand, its own King (unless it bid blind), the trick, the pool, its legal moves."""

from __future__ import annotations

from bot.games.base import Move
from bot.games.court.cards import suit
from bot.games.court.state import (
    AFTER,
    BAG_KIND,
    BID,
    COURT_KIND,
    DUEL,
    FLOP,
    FOLLOW,
    FOLLOW_KIND,
    KNOCK,
    LEAD,
    LEAD_KIND,
    LOSING_TOTAL,
    PICK,
    TAKE_KIND,
    CourtState,
)
from bot.games.court.tricks import best_seats, classify

BY_PHASE = {
    BID: (
        "bid",
        (
            "Before the deal, the players behind the leader may bid: a nil, a blind (your King stays "
            "hidden from you) and the rest score big if they come true and cost points if not. No bid is "
            "the safe choice."
        ),
    ),
    LEAD: (
        "lead",
        (
            "You lead the trick: a single, a pair, three or four of a kind, or a five-card straight "
            "flush. Everyone must play as many cards. Trick order: 7 above A and Q, then J, 10 ... 2."
        ),
    ),
    FOLLOW: (
        "follow",
        (
            "Follow with as many cards as were led. Only the same type at a higher rank beats the lead; "
            "anything else just goes to the pool. Equal best hands duel card by card."
        ),
    ),
    DUEL: ("duel", "A duel: the tied players lay single cards in turn until one is higher."),
    PICK: (
        "pool",
        (
            "The pool: every card played lies here, and you take back as many as you played, any of "
            "them. Cards of your King's suit are worth keeping; off-suit cards cost 5 each at the end."
        ),
    ),
}
MELDS = (
    "You won the trick: you may court (lay a run of your suit face down, from A up, Q down or 7 either way)"
)


def goal(state: CourtState) -> str:
    """What a round and the match are about (RULES.md), told at the seat's first decision."""
    return (
        "Your King is secret and its suit is yours this round: courted cards of it score 10 (A, Q "
        "and 7: 15), and each off-suit card left in hand costs 5. Win a trick with a round score of "
        f"{state.going_board} or more (your hand shows it) and you may knock to end the round. The match "
        f"ends when someone reaches {state.target} or falls to {LOSING_TOTAL}; the highest total wins."
    )


def _after(state: CourtState, moves: list[Move]) -> str:
    """The trick winner's choices, knocking only as their moves allow it now."""
    if any(move.kind == KNOCK for move in moves):
        return f"{MELDS}, sandbag four A, Q or 7, or knock to end the round; or pass."
    return (
        f"{MELDS} or sandbag four A, Q or 7; or pass. Knocking, to end the round, needs a round score "
        f"of {state.going_board} or more."
    )


def situations(state: CourtState, seat: int, moves: list[Move]) -> tuple[tuple[str, str], ...]:
    if not moves or state.turn != seat:
        return ()
    # First, so the seat's first decision tells it (and it stays in the hand until they move).
    found = [("goal", goal(state))]
    if state.phase == AFTER and not state.forced:  # a forced winner is told below
        found.append(("after", _after(state, moves)))
    elif state.phase in BY_PHASE:
        found.append(BY_PHASE[state.phase])
    if any(move.kind == FLOP for move in moves):
        found.append(("forced", "Your third trick in a row: knock now, or flop your King (-15) to go on."))
    return tuple(found)


def _mine(state: CourtState, seat: int) -> str | None:
    return None if state.blind(seat) else state.king_suit(seat)


def _against_trick(state: CourtState, seat: int, cards: list[str]) -> str | None:
    """Whether a follow beats or ties the best hand played so far, from the cards on the table
    (only the lead's type at a higher rank beats it; equal best hands duel)."""
    lead = classify(state.trick[state.leader])
    played = [(s, state.trick[s]) for s in state.play_order() if s != seat and state.trick[s]]
    if lead is None or not played or classify(cards) is None:
        return None
    best = best_seats(lead, [*played, (seat, cards)])
    last = len(played) == len(state.trick) - 1
    if best == [seat]:
        return "it beats every hand played, so it wins the trick" if last else "it beats the best hand so far"
    if seat in best:
        return "it ties the best hand: a duel decides the trick" if last else "it ties the best hand so far"
    return None


def _off_suit(count: int) -> str:
    if count == 1:
        return "it plays an off-suit card (it would cost 5 in hand) and keeps your King's suit"
    return "it plays off-suit cards (they cost 5 each in hand) and keeps your King's suit"


def hint_reason(state: CourtState, seat: int, move: Move) -> str | None:
    mine = _mine(state, seat)
    cards = move.args[0].split(".") if move.args else []
    if move.kind == FOLLOW_KIND and state.phase == FOLLOW and (told := _against_trick(state, seat, cards)):
        return told
    if move.kind == COURT_KIND:
        if mine is not None and cards and all(suit(c) == mine for c in cards):
            return "it builds your King's run: 10 a card, 15 for A, Q and 7"
        return "a run laid down now scores whatever comes later"
    if move.kind == BAG_KIND:
        return "a sandbag scores 60"
    if move.kind == KNOCK:
        return "it ends the round while your score stands well"
    if move.kind == FLOP:
        return "it costs 15 but keeps the round going"
    if mine is None or not cards:
        return None
    if move.kind in (LEAD_KIND, FOLLOW_KIND) and all(suit(c) != mine for c in cards):
        return _off_suit(len(cards))
    if move.kind == TAKE_KIND and any(suit(c) == mine for c in cards):
        return "it takes back cards of your King's suit"
    return None
