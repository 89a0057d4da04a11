"""Tricks: what a set of played cards is (single, pair, three or four of a kind, straight
flush), which hands tie or beat the lead, and duels; then the moves of a trick: the lead,
the follows, the duel and the picks from the pool."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.games.base import Event, IllegalMove, Move, Pick, join_names, p
from bot.games.court import melds
from bot.games.court.cards import (
    cards_problem,
    code_cards,
    label,
    labels,
    natural,
    not_there,
    rank,
    sorted_cards,
    suit,
    trick_rank,
)
from bot.games.court.state import (
    DUEL,
    DUEL_KIND,
    FOLLOW,
    FOLLOW_KIND,
    LEAD_KIND,
    NOBODY,
    PICK,
    PLAYERS,
    TAKE_KIND,
    CourtState,
    LastTrick,
    with_seat,
    without,
)

SINGLE, PAIR, TRIPS, QUADS, FLUSH = "single", "pair", "three of a kind", "four of a kind", "straight flush"
KIND_BY_SIZE = {1: SINGLE, 2: PAIR, 3: TRIPS, 4: QUADS, 5: FLUSH}
MAX_LEAD = 5


@dataclass(frozen=True, slots=True, order=True)
class TrickHand:
    """A legal hand: its type and its trick rank (a straight flush: its highest card's)."""

    kind: str
    strength: int


def classify(cards: Sequence[str]) -> TrickHand | None:
    """The legal hand these cards form, or None (a follower's mixed cards)."""
    size = len(cards)
    if size == 0 or size > MAX_LEAD:
        return None
    if size < 5:
        if len({rank(c) for c in cards}) != 1:
            return None
        return TrickHand(KIND_BY_SIZE[size], trick_rank(cards[0]))
    if len({suit(c) for c in cards}) != 1:
        return None
    order = sorted(natural(c) for c in cards)
    if order != list(range(order[0], order[0] + 5)):
        return None
    return TrickHand(FLUSH, max(trick_rank(c) for c in cards))


def best_seats(lead: TrickHand, played: Sequence[tuple[int, Sequence[str]]]) -> list[int]:
    """The seats holding the best hand of the trick, in play order (the leader first).

    ``played`` is (seat, cards) in play order, the lead first. Only hands of the lead's type
    count; a follower beats the lead only with a higher rank; equal best hands all stay
    (they duel)."""
    hands = [(seat, classify(cards)) for seat, cards in played]
    same = [(seat, h) for seat, h in hands if h is not None and h.kind == lead.kind]
    top = max(h.strength for _seat, h in same)
    return [seat for seat, h in same if h.strength == top]


def duel_round(laid: Sequence[tuple[int, str | None]]) -> list[int]:
    """One round of a duel: each duelist's single card (None: could not lay and loses).

    Returns the seats still tied for the highest card (one seat: the duel's winner). If
    nobody could lay, the first duelist wins (the one who played first in the trick)."""
    cards = [(seat, card) for seat, card in laid if card is not None]
    if not cards:
        return [laid[0][0]]
    top = max(trick_rank(card) for _seat, card in cards)
    return [seat for seat, card in cards if trick_rank(card) == top]


# --- the moves of a trick ------------------------------------------------------------------------


def card_items(cards: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """A pick's items: each card with its label."""
    return tuple((c, label(c)) for c in cards)


def lead_size(state: CourtState) -> int:
    """The most cards a lead may have: five, and never more than the smallest hand."""
    return min(MAX_LEAD, min(len(h) for h in state.hands))


def sets_in(hand: Sequence[str], sizes: range) -> tuple[tuple[str, ...], ...]:
    """The hands of ``sizes`` cards (two or more) that ``hand`` can make, what a command
    offers first: of each rank its first cards in hand order, then each straight flush."""
    by_rank: dict[str, list[str]] = {}
    by_suit: dict[str, list[str]] = {}
    for c in hand:
        by_rank.setdefault(rank(c), []).append(c)
        by_suit.setdefault(suit(c), []).append(c)
    found = [tuple(same[:n]) for same in by_rank.values() if len(same) > 1 for n in sizes if n <= len(same)]
    if 5 in sizes:
        for cards in by_suit.values():
            if len(cards) >= 5:
                at = {natural(c): c for c in cards}
                found += [
                    tuple(at[n + step] for step in range(5))
                    for n in sorted(at)
                    if all(n + step in at for step in range(1, 5))
                ]
    return tuple(found)


def lead_moves(state: CourtState, seat: int) -> list[Move]:
    hand = state.hands[seat]
    most = lead_size(state)
    pick = Pick(LEAD_KIND, card_items(hand), 1, most, sets_in(hand, range(2, most + 1)))
    low = min(hand, key=trick_rank)  # the first of equals, as min keeps it
    return [Move(pick.code([low]), ("Lead",), pick)]  # the menu says how many: "Lead: choose 1-5"


def follow_moves(state: CourtState, seat: int) -> list[Move]:
    hand = state.hands[seat]
    need = len(state.trick[state.leader])
    pick = Pick(
        FOLLOW_KIND, card_items(hand), need, need, sets_in(hand, range(need, need + 1)) if need > 1 else ()
    )
    lowest = sorted(hand, key=trick_rank)[:need]  # a stable sort: equals in hand order
    return [Move(pick.code(lowest), ("Follow",), pick)]


def duel_moves(state: CourtState, seat: int) -> list[Move]:
    return [Move.simple(f"{DUEL_KIND}:{c}", f"Duel with {label(c)}") for c in state.hands[seat]]


def take_moves(state: CourtState, seat: int) -> list[Move]:
    need = state.owed[seat]
    pick = Pick(TAKE_KIND, card_items(state.pool), need, need)
    own = [c for c in state.played[seat] if c in state.pool]  # your own cards back first,
    rest = [c for c in state.pool if c not in own]  # then the first ones left in the pool
    return [Move(pick.code((own + rest)[:need]), ("Take from the pool",), pick)]


def lead(state: CourtState, seat: int, move: Move) -> tuple[CourtState, list[Event]]:
    hand = classify(code_cards(move.code))
    if hand is None:  # the one rule of a lead that its pick of 1 to 5 cards cannot say
        raise IllegalMove(NOT_A_LEAD)
    cards = sorted_cards(code_cards(move.code))
    article = "a " if hand.kind != TRIPS else ""
    events = [Event(f"{p(seat)} leads {article}{hand.kind}: {labels(cards)}.")]
    state = replace(
        state,
        hands=with_seat(state.hands, seat, without(state.hands[seat], cards)),
        trick=with_seat(NOBODY, seat, cards),
        duel=NOBODY,
        played=NOBODY,
        leader=seat,
        phase=FOLLOW,
        turn=(seat + 1) % PLAYERS,
    )
    return state, events


def follow(state: CourtState, seat: int, move: Move) -> tuple[CourtState, list[Event]]:
    cards = sorted_cards(code_cards(move.code))
    events = [Event(f"{p(seat)} plays {labels(cards)}.")]
    state = replace(
        state,
        hands=with_seat(state.hands, seat, without(state.hands[seat], cards)),
        trick=with_seat(state.trick, seat, cards),
    )
    after = (seat + 1) % PLAYERS
    if after != state.leader:
        return replace(state, turn=after), events
    return _resolve(state, events), events


def duel(state: CourtState, seat: int, move: Move) -> tuple[CourtState, list[Event]]:
    card = move.args[0]
    events = [Event(f"{p(seat)} lays {label(card)} in the duel.")]
    state = replace(
        state,
        hands=with_seat(state.hands, seat, without(state.hands[seat], [card])),
        duel=with_seat(state.duel, seat, (*state.duel[seat], card)),
        laid=(*state.laid, card),
    )
    return _duel_next(state, events), events


def take(state: CourtState, seat: int, move: Move) -> tuple[CourtState, list[Event]]:
    events: list[Event] = []
    return _taken(state, seat, code_cards(move.code), events), events


def _resolve(state: CourtState, events: list[Event]) -> CourtState:
    lead_hand = classify(state.trick[state.leader])
    assert lead_hand is not None
    best = best_seats(lead_hand, [(s, state.trick[s]) for s in state.play_order()])
    if len(best) == 1:
        return _won(state, best[0], events)
    names = join_names([p(s) for s in best])
    events.append(
        Event(f"{names} tie with the best {lead_hand.kind}: they duel, single cards, {p(best[0])} first.")
    )
    return _duel_next(replace(state, duelists=tuple(best), laid=()), events)


def _duel_next(state: CourtState, events: list[Event]) -> CourtState:
    while True:
        if len(state.laid) == len(state.duelists):
            standing = duel_round([(s, c or None) for s, c in zip(state.duelists, state.laid, strict=True)])
            if len(standing) == 1:
                return _won(replace(state, duelists=(), laid=()), standing[0], events)
            events.append(Event(f"{join_names([p(s) for s in standing])} tie again and duel on."))
            state = replace(state, duelists=tuple(standing), laid=())
            continue
        seat = state.duelists[len(state.laid)]
        if state.hands[seat]:
            return replace(state, phase=DUEL, turn=seat)
        events.append(Event(f"{p(seat)} has no card to lay and loses the duel."))
        state = replace(state, laid=(*state.laid, ""))


def _won(state: CourtState, winner: int, events: list[Event]) -> CourtState:
    """The trick is won: the pool forms and the picking starts with the winner; the table
    shows the trick as the last one until the next is won."""
    order = state.play_order()
    played = tuple(state.trick[s] + state.duel[s] for s in range(PLAYERS))
    pool = tuple(c for s in order for c in state.trick[s]) + tuple(c for s in order for c in state.duel[s])
    seat_streak, count = state.streak
    streak = (winner, count + 1 if seat_streak == winner else 1)
    tricks = state.tricks + 1
    in_row = f" ({streak[1]} in a row)" if streak[1] > 1 else ""
    events.append(Event(f"{p(winner)} wins trick {tricks}{in_row} and picks first from the pool."))
    state = replace(
        state,
        trick=NOBODY,
        duel=NOBODY,
        played=played,
        pool=pool,
        owed=tuple(len(c) for c in played),
        winner=winner,
        last_trick=LastTrick(state.leader, winner, state.trick, state.duel),
        tricks=tricks,
        streak=streak,
        phase=PICK,
        turn=winner,
    )
    return _pick_next(state, events)


def _pick_next(state: CourtState, events: list[Event]) -> CourtState:
    seat = state.turn
    if state.owed[seat] == 0:
        return melds.start_after(state, events)
    if state.owed[seat] == len(state.pool):  # the last picker takes what is left
        return _taken(state, seat, state.pool, events)
    return state


def _taken(state: CourtState, seat: int, cards: Sequence[str], events: list[Event]) -> CourtState:
    events.append(Event(f"{p(seat)} takes {labels(sorted_cards(cards))} from the pool."))
    state = replace(
        state,
        hands=with_seat(state.hands, seat, sorted_cards((*state.hands[seat], *cards))),
        pool=without(state.pool, cards),
        owed=with_seat(state.owed, seat, 0),
        turn=(seat + 1) % PLAYERS,
    )
    return _pick_next(state, events)


# --- refusals: why a code is none of the legal moves -------------------------------------------------

NOT_A_LEAD = "A lead is a single, a pair, three or four of a kind, or a five-card straight flush."


def why_not_lead(state: CourtState, seat: int, code: str) -> str | None:
    cards = code_cards(code)
    most = lead_size(state)
    return (
        cards_problem(code, state.hands[seat], "your hand")
        or (
            f"A lead may have at most {most} cards (the smallest hand at the table)."
            if len(cards) > most
            else None
        )
        or (NOT_A_LEAD if classify(cards) is None else None)
    )


def why_not_follow(state: CourtState, seat: int, code: str) -> str | None:
    need = len(state.trick[state.leader])
    cards = code_cards(code)
    wrong_count = f"Play exactly {need} card{'s' * (need > 1)}, as many as the lead."
    return cards_problem(code, state.hands[seat], "your hand") or (
        wrong_count if len(cards) != need else None
    )


def why_not_duel(state: CourtState, seat: int, code: str) -> str | None:
    card = code.partition(":")[2]
    return not_there([card], "your hand") if card not in state.hands[seat] else None


def why_not_take(state: CourtState, seat: int, code: str) -> str | None:
    need = state.owed[seat]
    cards = code_cards(code)
    wrong_count = f"Take exactly {need} cards, as many as you played."
    return cards_problem(code, state.pool, "the pool") or (wrong_count if len(cards) != need else None)
