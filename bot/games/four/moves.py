"""Kingdom Four's moves: dealing, the legal moves, and what playing and taking do.

A turn plays a card from the hand (``play:<card>``, or ``play:<card>:<taken>`` when it
matches several cards), then flips the draw pile's top; a flipped card that matches several
waits for its player's choice (``take:<card>``, the ``take`` phase). The kit judges a move
against :func:`legal_moves` before the game's handlers call :func:`play_card` or :func:`take`.
"""

from __future__ import annotations

from dataclasses import replace

from bot.games.base import Event, Move, p
from bot.games.four.cards import (
    COLOUR_EMOJI,
    ITEM_EMOJI,
    captures,
    deck,
    group,
    is_wild,
    name,
    short,
    sort,
    spelled,
)
from bot.games.four.scoring import score
from bot.games.four.state import FIELD_SIZE, HAND_SIZE, OVER, PLAY, TAKE, FourState
from bot.games.four.view import seat_points, summary

Played = tuple[FourState, list[Event]]


def legal_moves(state: FourState, seat: int) -> list[Move]:
    if state.phase == OVER or seat != state.turn:
        return []
    if state.phase == TAKE:
        return [
            Move(f"{TAKE}:{taken[0]}", (f"Take {spelled(taken[0])}",))
            for taken in captures(state.field, state.pending)
        ]
    moves = []
    for card in state.hands[seat]:
        options = captures(state.field, card)
        play = f"Play {spelled(card)}"
        if len(options) > 1:
            moves += [Move(f"{PLAY}:{card}:{t[0]}", (play, f"take {spelled(t[0])}")) for t in options]
        elif options and len(options[0]) == 3:
            moves.append(Move(f"{PLAY}:{card}", (f"{play}, takes the group of three",)))
        elif options:
            moves.append(Move(f"{PLAY}:{card}", (f"{play}, takes {short(options[0][0])}",)))
        else:
            moves.append(Move(f"{PLAY}:{card}", (play,)))
    return moves


def why_illegal(state: FourState, seat: int, code: str) -> str:
    """Why ``code`` (not among the legal moves) cannot be played now: one sentence."""
    parts = code.split(":")
    if state.phase == TAKE:
        if parts[0] != TAKE or len(parts) != 2:
            return f"Choose the card your flipped {name(state.pending)} takes first."
        return f"Your flipped {name(state.pending)} cannot take that card."
    if parts[0] != PLAY or len(parts) not in (2, 3):
        return "Play a card from your hand."
    card = parts[1]
    if card not in state.hands[seat]:
        return "That card is not in your hand."
    if len(captures(state.field, card)) > 1:
        if len(parts) == 2:
            return f"Your {name(card)} matches several cards: say which one it takes."
        return f"Your {name(card)} cannot take that card."
    return f"Your {name(card)} has no choice to make."


def deal(state: FourState) -> Played:
    """Deal the hand, again and again while a whole group lies in the field."""
    n = state.players
    size = HAND_SIZE[n] + state.wild
    events: list[Event] = []
    redeals = 0
    rng = state.rng
    while True:
        cards, rng = rng.shuffled(deck(state.wild))
        hands = tuple(sort(cards[i * size : (i + 1) * size]) for i in range(n))
        field = cards[n * size : n * size + FIELD_SIZE[n]]
        full = [
            g
            for g in {group(c) for c in field if not is_wild(c)}
            if sum(1 for c in field if not is_wild(c) and group(c) == g) == 4
        ]
        if not full:
            break
        redeals += 1
        g = full[0]
        events.append(
            Event(
                f"All four {COLOUR_EMOJI[g[0]]}{ITEM_EMOJI[g[1]]} cards lie in the field: the hand is dealt again."
            )
        )
    state = replace(
        state,
        rng=rng,
        hands=hands,
        field=field,
        pile=cards[n * size + FIELD_SIZE[n] :],
        captured=tuple(() for _ in range(n)),
        turn=(state.dealer + 1) % n,
        phase=PLAY,
        pending="",
        redeals=redeals,
    )
    events.append(
        Event(
            f"Hand {state.hand_no} of {state.hands_total}: {p(state.dealer)} deals; {p(state.turn)} plays first."
        )
    )
    return state, events


def play_card(state: FourState, seat: int, card: str, target: str | None) -> Played:
    """``seat`` plays ``card`` from its hand (taking ``target`` where it had the choice),
    then flips the draw pile's top."""
    options = captures(state.field, card)
    hands = list(state.hands)
    hands[seat] = tuple(c for c in hands[seat] if c != card)
    taken = (target,) if target else options[0] if options else ()
    field, captured, event = _land(state.field, state.captured, seat, card, taken, "plays")
    return _flip(replace(state, hands=tuple(hands), field=field, captured=captured), seat, [event])


def take(state: FourState, seat: int, target: str) -> Played:
    """The flipped card waiting for its player's choice takes ``target``."""
    field, captured, event = _land(state.field, state.captured, seat, state.pending, (target,), "flipped")
    return _end_turn(replace(state, phase=PLAY, pending="", field=field, captured=captured), [event])


def _flip(state: FourState, seat: int, events: list[Event]) -> Played:
    if not state.pile:
        return _end_turn(state, events)
    card, pile = state.pile[0], state.pile[1:]
    options = captures(state.field, card)
    if len(options) > 1:
        choices = " or ".join(short(t[0]) for t in options)
        events.append(Event(f"{p(seat)} flips {short(card)}: it may take {choices}."))
        return replace(state, pile=pile, phase=TAKE, pending=card), events
    field, captured, event = _land(
        state.field, state.captured, seat, card, options[0] if options else (), "flips"
    )
    return _end_turn(replace(state, pile=pile, field=field, captured=captured), [*events, event])


def _end_turn(state: FourState, events: list[Event]) -> Played:
    if any(state.hands):
        return replace(state, turn=(state.turn + 1) % state.players), events
    return _end_hand(state, events)


def _end_hand(state: FourState, events: list[Event]) -> Played:
    points = tuple(score(c).total for c in state.captured)
    totals = tuple(t + x for t, x in zip(state.totals, points, strict=True))
    # One short public line; each player's sets show in their own hand until the next hand ends.
    events.append(Event(f"Hand {state.hand_no} scored: {seat_points(points)}."))
    state = replace(state, totals=totals, last_hand=points, last_taken=state.captured)
    if state.hand_no >= state.hands_total:
        state = replace(state, phase=OVER)
        events.append(Event(summary(state)))
        return state, events
    state = replace(state, hand_no=state.hand_no + 1, dealer=(state.dealer + 1) % state.players)
    state, more = deal(state)
    return state, events + more


def _land(
    field: tuple[str, ...],
    captured: tuple[tuple[str, ...], ...],
    seat: int,
    card: str,
    taken: tuple[str, ...],
    verb: str,
) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...], Event]:
    """``card`` arrives in the field and takes ``taken`` (nothing: it stays there): the
    field and the captures after it, and what happened."""
    if not taken:
        return (
            field + (card,),
            captured,
            Event(f"{p(seat)} {verb} {short(card)}: no match, it stays in the field."),
        )
    mine = sort(captured[seat] + (card, *taken))
    field = tuple(c for c in field if c not in taken)
    what = " ".join(short(c) for c in taken)
    return (
        field,
        captured[:seat] + (mine,) + captured[seat + 1 :],
        Event(f"{p(seat)} {verb} {short(card)} and takes {what}."),
    )
