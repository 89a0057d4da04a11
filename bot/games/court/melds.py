"""Melds: courted runs (from A, Q or 7, extended later) and sandbags; then the moves of the
trick winner's turn: court, sandbag, knock, flop their King (a third trick in a row) or pass."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.games.base import Event, IllegalMove, Move, Pick, p
from bot.games.court import rounds
from bot.games.court.cards import (
    INITIATORS,
    MIN_RUN,
    cards_problem,
    code_cards,
    label,
    labels,
    natural,
    rank,
    runs,
    suit,
)
from bot.games.court.scoring import kings_court
from bot.games.court.state import (
    AFTER,
    BAG_KIND,
    COURT_KIND,
    DONE,
    FLOP,
    KNOCK,
    LEAD,
    PLAYERS,
    TRICK_CAP,
    CourtState,
    with_seat,
    without,
)

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


def bag_ranks(hand: Sequence[str]) -> tuple[str, ...]:
    """The ranks (A, Q, 7) of which the hand holds all four: sandbags it may lay."""
    return tuple(r for r in BAG_RANKS if sum(1 for c in hand if rank(c) == r) == 4)


# --- the trick winner's turn -----------------------------------------------------------------------

FORCED_FIRST = "Third trick in a row: knock or flop your King first."


def after_moves(state: CourtState, seat: int) -> list[Move]:
    knock = Move.simple(KNOCK, "Knock: end the round")
    if state.forced:
        flop = Move.simple(FLOP, "Flop your King (-15)")
        return [flop, knock] if state.can_knock(seat) else [flop]
    moves = [Move.simple(DONE, "Pass")]
    hand, run = state.hands[seat], state.courted[seat]
    if not state.courted_now:
        best = best_court(hand, run)
        if best:
            candidates = court_candidates(hand, run)
            pick = Pick(
                COURT_KIND, tuple((c, label(c)) for c in candidates), 1 if run else 3, len(candidates)
            )
            moves.append(Move(pick.code(best), ("Court",), pick))
    for r in bag_ranks(hand):
        moves.append(Move.simple(f"{BAG_KIND}:{r}", f"Sandbag the four {label(r + 'c')[:-1]}s"))
    if not (state.courted_now or state.bagged_now) and state.can_knock(seat):
        moves.append(knock)
    return moves


def start_after(state: CourtState, events: list[Event]) -> CourtState:
    """The pool is picked: the winner's turn (court, sandbag, knock or pass) begins."""
    winner = state.winner
    state = replace(
        state,
        phase=AFTER,
        turn=winner,
        forced=state.streak[1] >= 3,
        courted_now=False,
        bagged_now=False,
        played=((),) * PLAYERS,
    )
    if state.forced:
        events.append(Event(f"Third trick in a row: {p(winner)} must knock or flop their King."))
    return _go_on(state, events)


def _go_on(state: CourtState, events: list[Event]) -> CourtState:
    """The winner's turn goes on until they pass (or knock), even when passing is all they
    can do: ending it for them would show the table that they hold no run to court, no four
    to sandbag and too low a score to knock (RULES.md's secrecy ruling). The rule timer
    passes for them after a while, the same for every winner. A winner left with no card
    (which everyone sees) ends the round at once."""
    if not state.hands[state.turn] and not state.forced:
        return next_trick(state, events)
    return state


def court(state: CourtState, seat: int, move: Move) -> tuple[CourtState, list[Event]]:
    cards = code_cards(move.code)
    problem = court_problem(state.courted[seat], cards)
    if problem is not None:  # the rule of a run that the pick of candidates cannot say
        raise IllegalMove(problem)
    run = tuple(sorted((*state.courted[seat], *cards), key=natural))
    # Said once each: the player's own hand already echoes the cards they chose.
    count = f"{len(cards)} card{'s' * (len(cards) > 1)}"
    said = (
        f"courts {count} more face down ({len(run)} courted)"
        if state.courted[seat]
        else f"courts {count} face down"
    )
    events = [Event(f"{p(seat)} {said}.")]
    state = replace(
        state,
        hands=with_seat(state.hands, seat, without(state.hands[seat], cards)),
        courted=with_seat(state.courted, seat, run),
        courted_now=True,
    )
    if kings_court(run, state.king_suit(seat)):
        events.append(
            Event(f"{p(seat)} has a King's Court: all twelve of their King's suit! The round ends.")
        )
        return rounds.end_round(state, events, f"{p(seat)}'s King's Court"), events
    return _go_on(state, events), events


def bag(state: CourtState, seat: int, move: Move) -> tuple[CourtState, list[Event]]:
    four = tuple(c for c in state.hands[seat] if rank(c) == move.args[0])
    events = [
        Event(f"{p(seat)} sandbags a four of a kind face down."),
        Event(f"You sandbag {labels(four)}.", seat),
    ]
    state = replace(
        state,
        hands=with_seat(state.hands, seat, without(state.hands[seat], four)),
        bags=with_seat(state.bags, seat, (*state.bags[seat], *four)),
        bagged_now=True,
    )
    return _go_on(state, events), events


def knock(state: CourtState, seat: int, move: Move) -> tuple[CourtState, list[Event]]:
    events = [Event(f"{p(seat)} knocks: the round ends.")]
    return rounds.end_round(state, events, f"{p(seat)} knocked"), events


def flop(state: CourtState, seat: int, move: Move) -> tuple[CourtState, list[Event]]:
    shown = "" if state.blind(seat) else f" {label(state.kings[seat])} face up"
    events = [Event(f"{p(seat)} flops their King{shown} (-15).")]
    if state.blind(seat):  # face up for the others, hidden from its blind owner
        king = label(state.kings[seat])
        events.extend(
            Event(f"{p(seat)} bid blind: their flopped King is {king}.", other)
            for other in range(PLAYERS)
            if other != seat
        )
    state = replace(
        state, flops=with_seat(state.flops, seat, state.flops[seat] + 1), streak=(seat, 0), forced=False
    )
    return _go_on(state, events), events


def done(state: CourtState, seat: int, move: Move) -> tuple[CourtState, list[Event]]:
    events: list[Event] = []
    return next_trick(state, events), events


def next_trick(state: CourtState, events: list[Event]) -> CourtState:
    """The winner's turn is over: the next lead, or the round's end (trick cap, empty hand)."""
    if state.tricks >= TRICK_CAP:
        events.append(Event(f"{TRICK_CAP} tricks played: the round ends as if knocked."))
        return rounds.end_round(state, events, f"{TRICK_CAP} tricks")
    empty = [s for s in range(PLAYERS) if not state.hands[s]]
    if empty:
        events.append(Event(f"{p(empty[0])} has no card left in hand: the round ends as if knocked."))
        return rounds.end_round(state, events, f"{p(empty[0])} out of cards")
    laid_down = state.courted_now or state.bagged_now
    leader = (state.winner + 1) % PLAYERS if laid_down else state.winner
    return replace(
        state,
        phase=LEAD,
        turn=leader,
        leader=leader,
        forced=False,
        courted_now=False,
        bagged_now=False,
        winner=-1,
    )


def why_not_after(state: CourtState, seat: int, code: str) -> str | None:
    """Why a court, sandbag, knock, flop or pass is not possible now (None: no reason found)."""
    kind, _sep, rest = code.partition(":")
    if kind == COURT_KIND:
        if state.forced:
            return FORCED_FIRST
        if state.courted_now:
            return "One court a turn: extend your run after another trick."
        problem = cards_problem(code, state.hands[seat], "your hand")
        return problem or court_problem(state.courted[seat], code_cards(code))
    if kind == BAG_KIND:
        if state.forced:
            return FORCED_FIRST
        if rest.upper().replace("10", "T") not in bag_ranks(state.hands[seat]):
            return "You can sandbag only a four of a kind of A, Q or 7 that you hold."
        return None
    if kind == KNOCK:
        if code != KNOCK:
            return "Knock takes nothing more."
        if state.courted_now or state.bagged_now:
            return "You may not court and knock in the same turn."
        if not state.can_knock(seat):
            return f"You may knock only with a round score of at least {state.going_board} (the going board)."
        return None
    if kind == FLOP:
        return (
            "You flop your King only on a third trick won in a row."
            if code != FLOP or not state.forced
            else None
        )
    if code != DONE:
        return "Pass takes nothing more."
    return "Third trick in a row: knock or flop your King." if state.forced else None
