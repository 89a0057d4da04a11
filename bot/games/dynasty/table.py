"""The table every part of the ``dynasty`` rules works on: its random generator, the card
piles, drawing cards, the seat order, the short windows, and the public event sentences.

The rules never change a frozen :class:`~bot.games.dynasty.state.DynastyState`: a move
copies it into a :class:`~bot.games.dynasty.state.Work` object (``w`` below), edits that
copy and freezes it again. This module holds what every step needs on that copy: the
random generator (kept in ``w.rng``), the card piles, drawing cards, the seat order, and
the public event sentences. Randomness comes only from the splitmix64 state in the state.
"""

from __future__ import annotations

import random
from bisect import bisect_right

from bot.games.base import Event, p, plural
from bot.games.dynasty.cards import (
    FRONT_KINDS,
    KIND,
    NAME,
)
from bot.games.dynasty.state import (
    GUARD_NONE,
    GUARD_UNCALLED,
    DynastyState,
    Work,
)

HAND_SIZE = 7  # cards dealt to each player
LOG_SIZE = 8  # public events kept in the state's log

# --- randomness (the generator's state lives in ``w.rng``) ------------------------------------

MASK64 = (1 << 64) - 1


def _splitmix_step(x: int) -> tuple[int, int]:
    """One splitmix64 step: (output, new state), same as bot.games.base.Rng.next64."""
    s = (x + 0x9E3779B97F4A7C15) & MASK64
    z = s
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31), s


def shuffle(w: Work, seq: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """A deterministic shuffle driven by the state's RNG (a private generator seeded from
    one splitmix64 output; never the global ``random``)."""
    z, w.rng = _splitmix_step(w.rng)
    rr = random.Random(z).random
    return tuple(sorted(seq, key=lambda _: rr()))


def random_below(w: Work, n: int) -> int:
    """A random number in ``0 .. n-1``."""
    z, w.rng = _splitmix_step(w.rng)
    return z % n


# --- tuples, hands and piles ---------------------------------------------------------------------


def replaced(values: tuple, index: int, value: object) -> tuple:
    """``values`` with the item at ``index`` replaced by ``value``."""
    items = list(values)
    items[index] = value
    return tuple(items)


def remove_one(hand: tuple[int, ...], face: int) -> tuple[int, ...]:
    """``hand`` without one copy of ``face``."""
    i = hand.index(face)
    return hand[:i] + hand[i + 1 :]


def holds_kind(hand: tuple[int, ...], kind: int) -> bool:
    for f in hand:
        if KIND[f] == kind:
            return True
    return False


def set_hand(w: Work, seat: int, hand: tuple[int, ...]) -> None:
    """Give ``seat`` a new hand; an On Guard mark lapses once they no longer hold one card."""
    hs = list(w.hands)
    hs[seat] = hand
    w.hands = tuple(hs)
    if w.on_guard[seat] and len(hand) != 1:
        w.on_guard = replaced(w.on_guard, seat, GUARD_NONE)


def bury(w: Work, cards: tuple[int, ...] | list[int]) -> None:
    """Put cards into the discard pile under the top card (the top stays in play)."""
    if not cards:
        return
    d = w.discard_pile
    w.discard_pile = (d[:-1] + tuple(cards) + d[-1:]) if d else tuple(cards)


def seat_after(w: Work | DynastyState, seat: int, steps: int) -> int:
    """The seat ``steps`` places after ``seat`` in the direction of play."""
    return (seat + steps * w.direction) % w.config.players


def reshuffle(w: Work, events: list[Event]) -> bool:
    """Shuffle the discard pile but its top card into the draw pile (False: nothing to shuffle)."""
    if len(w.discard_pile) <= 1:
        return False
    top = w.discard_pile[-1]
    w.draw_pile = shuffle(w, w.discard_pile[:-1]) + w.draw_pile
    w.discard_pile = (top,)
    events.append(Event("The discard pile (except its top card) is shuffled into a new draw pile."))
    return True


def can_draw(s: Work | DynastyState) -> bool:
    return bool(s.draw_pile) or len(s.discard_pile) > 1


def put_in_front(w: Work, seat: int, faces: list[int], events: list[Event]) -> None:
    """Risk cards and the Warlord a player receives lie face up in front of them."""
    w.in_front = replaced(w.in_front, seat, w.in_front[seat] + tuple(faces))
    for f in faces:
        events.append(
            Event(
                f"{p(seat)} receives the {NAME[f]}: it goes face up in front of them and they draw a replacement."
            )
        )


def draw_cards(w: Work, seat: int, count: int, events: list[Event], why: str | None = "") -> list[int]:
    """Draw ``count`` cards into ``seat``'s hand (Risk cards and the Warlord go in front and
    are replaced). ``why`` completes the public sentence; None suppresses it."""
    got: list[int] = []
    if count > 0:
        pile = w.draw_pile
        fronted: list[int] = []
        while count > 0:
            if not pile:
                w.draw_pile = pile
                if not reshuffle(w, events):
                    break
                pile = w.draw_pile
            f = pile[-1]
            pile = pile[:-1]
            if KIND[f] in FRONT_KINDS:
                fronted.append(f)
                continue
            got.append(f)
            count -= 1
        w.draw_pile = pile
        if fronted:
            put_in_front(w, seat, fronted, events)
        if got:
            hand = w.hands[seat]
            if len(got) == 1:
                f = got[0]
                i = bisect_right(hand, f)
                hand = hand[:i] + (f,) + hand[i:]
                events.append(shared_event(("drew", seat, f), f"You drew {NAME[f]}.", seat))
            else:
                hand = tuple(sorted(hand + tuple(got)))
                events.append(Event(f"You drew {', '.join([NAME[f] for f in got])}.", seat))
            set_hand(w, seat, hand)
            if w.warlord >= 0 and w.turn == seat and w.warlord != seat:
                events.append(Event(f"{p(seat)} drew {', '.join([NAME[f] for f in got])}.", w.warlord))
    if why is not None:
        events.append(
            shared_event(("draws", seat, len(got), why), f"{p(seat)} draws {plural(len(got), 'card')}{why}.")
        )
    return got


# --- events ---------------------------------------------------------------------------------------

_SHARED_EVENTS: dict[tuple, Event] = {}


def known_event(key: tuple) -> Event | None:
    """The shared event made earlier under ``key``, if any (saves writing its text again)."""
    return _SHARED_EVENTS.get(key)


def shared_event(key: tuple, text: str, seat: int | None = None) -> Event:
    """Events are immutable values, so identical ones are shared."""
    e = _SHARED_EVENTS.get(key)
    if e is None:
        if len(_SHARED_EVENTS) > 50_000:
            _SHARED_EVENTS.clear()
        e = _SHARED_EVENTS[key] = Event(text, seat)
    return e


# --- draw cards and short windows ------------------------------------------------------------------


def clear_pending_draw(w: Work) -> None:
    """No draw card is pending any more."""
    w.pending_draws = 0
    w.pending_dungeons = ()
    w.drawbridge_may_stack = False
    w.draw_source = -1
    w.draw_target = -1


def draw_card_target(w: Work, player: int) -> int:
    """The player hit by this turn's draw cards: the next one after skips, never ``player``."""
    target = seat_after(w, player, 1 + w.skips)
    if target == player:
        target = seat_after(w, player, 1)
    return target


def close_windows(w: Work) -> None:
    """The next player acts: uncalled On Guards can no longer be caught, Dark Knight and
    Dungeon-escape chances lapse, and every waiver is forgotten."""
    if GUARD_UNCALLED in w.on_guard:
        w.on_guard = tuple(GUARD_NONE if g == GUARD_UNCALLED else g for g in w.on_guard)
    w.dark_knight_open = 0
    w.may_escape = 0
    w.waived = 0
