"""A round of King's Court: the bids before the deal, the deal, and the scoring at its end
(which ends the match, or starts the next round)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bot.games.base import Event, Move, Rng, join_names, p
from bot.games.court.bids import BY_KEY, bid_points, legal_bids
from bot.games.court.cards import DECK, KINGS, label, sorted_cards
from bot.games.court.scoring import parts_text
from bot.games.court.state import (
    BID,
    BID_KIND,
    LEAD,
    LOSING_TOTAL,
    NO_BID,
    NOBODY,
    OVER,
    PLAYERS,
    CourtState,
    with_seat,
)

# What a new round clears: the Kings gathered, every card back, no bid, no trick (nor a last one).
FRESH_ROUND: dict[str, Any] = {
    "kings": KINGS,
    "hands": NOBODY,
    "courted": NOBODY,
    "bags": NOBODY,
    "flops": (0,) * PLAYERS,
    "bids": ("",) * PLAYERS,
    "trick": NOBODY,
    "duel": NOBODY,
    "duelists": (),
    "laid": (),
    "winner": -1,
    "played": NOBODY,
    "pool": (),
    "owed": (0,) * PLAYERS,
    "tricks": 0,
    "streak": (-1, 0),
    "forced": False,
    "courted_now": False,
    "bagged_now": False,
    "last_trick": None,
}


def new_match(seed: int, options: Mapping[str, str]) -> CourtState:
    """The first round of a match: the first dealer drawn at random, then bids or the deal."""
    rng = Rng.from_seed(seed)
    dealer, rng = rng.below(PLAYERS)
    state = CourtState(
        rng=rng,
        target=int(options.get("target", "500")),
        going_board=int(options.get("board", "0")),
        scores=(0,) * PLAYERS,
        round=1,
        dealer=dealer,
        phase=BID,
        turn=dealer,
        leader=dealer,
        **FRESH_ROUND,
    )
    return start_round(state, [])


def start_round(state: CourtState, events: list[Event]) -> CourtState:
    """Gather the round's Kings and cards, then bids (if anyone may bid) or the deal."""
    state = replace(state, **FRESH_ROUND)
    seats = bidders(state)
    if seats:
        events.append(Event(f"Round {state.round}: before the deal, {p(seats[0])} may bid."))
        return replace(state, phase=BID, turn=seats[0])
    return deal(state, events)[0]


def bidders(state: CourtState) -> list[int]:
    """The seats that may bid this round, in turn from the dealer's left."""
    order = [(state.dealer + 1 + i) % PLAYERS for i in range(PLAYERS)]
    return [s for s in order if legal_bids(state.scores, s)]


def deal(state: CourtState, events: list[Event]) -> tuple[CourtState, list[Event]]:
    """Each seat draws a secret King; the 48 others are dealt one at a time from the dealer's left."""
    kings, rng = state.rng.shuffled(KINGS)
    deck, rng = rng.shuffled(DECK)
    first = (state.dealer + 1) % PLAYERS
    hands: list[list[str]] = [[] for _ in range(PLAYERS)]
    for i, card in enumerate(deck):  # one card at a time, clockwise from the dealer's left
        hands[(first + i) % PLAYERS].append(card)
    state = replace(
        state,
        rng=rng,
        kings=kings,
        hands=tuple(sorted_cards(h) for h in hands),
        phase=LEAD,
        turn=first,
        leader=first,
    )
    events.append(
        Event(
            f"Round {state.round}: {p(state.dealer)} deals; everyone draws a secret King. {p(first)} leads."
        )
    )
    # Each seat's King (or that it is hidden from a blind bidder) is a line of its own hand.
    return state, events


# --- bids ----------------------------------------------------------------------------------------


def bid_moves(state: CourtState, seat: int) -> list[Move]:
    moves = [Move.simple(f"{BID_KIND}:{NO_BID}", "No bid")]
    for bid in legal_bids(state.scores, seat):
        # "Bid Nil: end with only your King's suit in hand (+150 / -30)": what it asks, then its stakes
        stakes = "+30 / -10 a courted card" if bid.key == "blind" else f"+{bid.value} / {bid.miss}"
        moves.append(Move.simple(f"{BID_KIND}:{bid.key}", f"Bid {bid.name}: {bid.means} ({stakes})"))
    return moves


def bid(state: CourtState, seat: int, move: Move) -> tuple[CourtState, list[Event]]:
    events: list[Event] = []
    key = move.args[0]
    if key != NO_BID:
        state = replace(state, bids=with_seat(state.bids, seat, key))
        events.append(Event(f"{p(seat)} bids {BY_KEY[key].name}."))
    else:
        events.append(Event(f"{p(seat)} makes no bid."))
    seats = bidders(state)
    later = seats[seats.index(seat) + 1 :]
    if later:
        return replace(state, turn=later[0]), events
    return deal(state, events)


def why_not_bid(state: CourtState, seat: int, code: str) -> str:
    return "That bid is not open to you (only players far enough behind the leader may bid)."


# --- the end of a round and of the match -----------------------------------------------------------


def end_round(state: CourtState, events: list[Event], reason: str) -> CourtState:
    """Score the round; ``reason`` (why it ended, "{p1} knocked") heads its score line,
    since the table shows only the last three events and the knock may be gone from them."""
    points, shown, detail = [], [], []
    for seat in range(PLAYERS):
        king_suit = state.king_suit(seat)
        parts = list(state.score_parts(seat))
        bid_score = bid_points(state.bids[seat], state.hands[seat], king_suit, state.courted[seat])
        bid_text = ""
        if state.bids[seat]:
            bid_text = f", {BY_KEY[state.bids[seat]].name} {bid_score:+d}"
            parts.append((f"bid {BY_KEY[state.bids[seat]].name}", bid_score))
        total = state.score_so_far(seat) + bid_score
        points.append(total)
        shown.append(f"{p(seat)} ({label(state.kings[seat])}{bid_text}) {total:+d}")
        detail.append(f"Your last round: {total:+d} — {parts_text(parts)}")
    # One short public line (the Kings are shown now); each player's parts show in their own hand.
    events.append(Event(f"Round {state.round} ({reason}) scored: {' · '.join(shown)}."))
    scores = tuple(s + pt for s, pt in zip(state.scores, points, strict=True))
    state = replace(
        state,
        scores=scores,
        last_round=tuple(points),
        last_detail=tuple(detail),
        last_reason=reason,
        last_kings=state.kings,
    )
    if max(scores) >= state.target or min(scores) <= LOSING_TOTAL:
        state = replace(state, phase=OVER, turn=-1)
        events.append(Event(summary(state)))
        return state
    state = replace(state, round=state.round + 1, dealer=(state.dealer + 1) % PLAYERS)
    return start_round(state, events)


def summary(state: CourtState) -> str:
    """Who won the match, with how many points, and why it ended ("the match", not the
    game's name, which is also the name of a meld: a King's Court)."""
    best = max(state.scores)
    names = join_names([p(s) for s in range(PLAYERS) if state.scores[s] == best])
    return f"{names} win{'s' if names.count('{') == 1 else ''} the match with {best} points{_why(state)}."


def _why(state: CourtState) -> str:
    """Why the match ended: ``": {p1} fell to -215, and -200 or below ends the match"``."""
    reasons = []
    fallen = [s for s in range(PLAYERS) if state.scores[s] <= LOSING_TOTAL]
    if len(fallen) == 1:
        reasons.append(
            f"{p(fallen[0])} fell to {state.scores[fallen[0]]}, and {LOSING_TOTAL} or below ends the match"
        )
    elif fallen:
        who = join_names([f"{p(s)} ({state.scores[s]})" for s in fallen])
        reasons.append(f"{who} fell to {LOSING_TOTAL} or below, which ends the match")
    reached = [s for s in range(PLAYERS) if state.scores[s] >= state.target]
    if reached:
        reasons.append(f"{join_names([p(s) for s in reached])} reached the target of {state.target}")
    return ": " + "; ".join(reasons) if reasons else ""
