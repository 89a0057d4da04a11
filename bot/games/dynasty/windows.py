"""Answers and out-of-turn windows: answering a draw card (Drawbridge, Royal Decree,
Protector, Magician), Defender answers to a battle card, the On Guard call and catch, Risk
cards and the Dark Knight bet, the Warlord, the Dungeon escape, letting a chance pass."""

from __future__ import annotations

from bot.games.base import Event, p
from bot.games.dynasty.actions import Action, CardPlay, Catch
from bot.games.dynasty.cards import (
    DB,
    DEC,
    DEF,
    DKN,
    FIR,
    KIND,
    KIND_NAME,
    MATCH_KEY,
    NAME,
    POI,
    POINTS,
    PRO,
    SUIT,
    SUIT_NAMES,
    WAR,
    hand_label,
)
from bot.games.dynasty.catalogue import Tables
from bot.games.dynasty.deal import redeal
from bot.games.dynasty.effects import resolve_battle
from bot.games.dynasty.scoring import DK_VALUE, end_hand, go_out
from bot.games.dynasty.state import (
    GUARD_CALLED,
    GUARD_NONE,
    GUARD_UNCALLED,
    Work,
)
from bot.games.dynasty.table import (
    bury,
    clear_pending_draw,
    draw_cards,
    remove_one,
    replaced,
    seat_after,
    set_hand,
)
from bot.games.dynasty.turn import aim_draw_at, begin_turn, on_guard_after_play

WARLORD_COST = 50


def answer_card(w: Work, tables: Tables, play: CardPlay, events: list[Event]) -> None:
    """The player a draw card is aimed at answers it: a Drawbridge stacks it on the next
    player, a Royal Decree sends it back, a Protector cancels it (a Magician as any)."""
    face, as_face = play.face, play.as_face
    t = w.turn
    set_hand(w, t, remove_one(w.hands[t], face))
    w.stalled_turns = 0
    k = KIND[as_face]
    w.discard_pile = w.discard_pile + (face,)
    w.top_acts_as = as_face if as_face != face else -1
    label = NAME[face] + (f" as {NAME[as_face]}" if as_face != face else "")
    if k == DB:
        w.match_key = MATCH_KEY[as_face]
        w.suit = SUIT[as_face]
        w.pending_draws += 2
        w.drawbridge_may_stack = True
        w.draw_source = t
        nxt = seat_after(w, t, 1)
        events.append(Event(f"{p(t)} stacks {label}: {p(nxt)} now faces {w.pending_draws} cards."))
    elif k == DEC:
        w.match_key = -1
        w.direction = -w.direction
        nxt = w.draw_source
        w.draw_source = t
        w.drawbridge_may_stack = False
        events.append(
            Event(f"{p(t)} answers with {label}: the draw goes back to {p(nxt)} and the direction reverses.")
        )
    else:  # Protector
        w.match_key = -1
        if w.suit_before_draw >= 0:
            w.suit = w.suit_before_draw
        # else: a first card drew; no suit was active before it, so the suit it named stays
        bury(w, w.pending_dungeons)
        clear_pending_draw(w)
        nxt = seat_after(w, t, 1)
        events.append(
            Event(f"{p(t)} answers with {label}: the draw is cancelled, {SUIT_NAMES[w.suit]} stays the suit.")
        )
    if not w.hands[t]:
        if k != PRO:
            w.draw_target = nxt
        go_out(w, tables, t, events)
        return
    on_guard_after_play(w, t)
    if k == PRO:
        begin_turn(w, tables, nxt, events)
    else:
        aim_draw_at(w, tables, nxt, events)


def battle_answer(w: Work, tables: Tables, seat: int, events: list[Event], *, defend: bool) -> None:
    """``seat``, hit by a battle card, answers with a Defender or lets it happen."""
    bit = 1 << seat
    if defend:
        hand = w.hands[seat]
        for f in hand:
            if KIND[f] == DEF:
                set_hand(w, seat, remove_one(hand, f))
                w.discard_pile = w.discard_pile + (f,)
                w.top_acts_as = -1
                break
        w.battle_defended |= bit
        events.append(
            Event(f"{p(seat)} answers with a Defender: the {KIND_NAME[w.battle[0]]} does not touch them.")
        )
        if len(w.hands[seat]) == 1:  # the Defender was their next-to-last card: On Guard is due
            w.on_guard = replaced(w.on_guard, seat, GUARD_UNCALLED)
    else:
        events.append(Event(f"{p(seat)} lets the {KIND_NAME[w.battle[0]]} happen."))
    w.battle_waiting &= ~bit
    if not w.battle_waiting:
        resolve_battle(w, tables, events)


def charge_other_teams(w: Work, tables: Tables, seat: int, value: int) -> None:
    """Every other team deducts ``value`` from its total (the cost of a Risk card)."""
    mine = tables.team[seat]
    w.totals = tuple(v - value if t != mine else v for t, v in enumerate(w.totals))


def play_risk(
    w: Work, tables: Tables, seat: int, kind: int, events: list[Event], *, bet_against: int = -1
) -> None:
    """``seat`` plays the Risk card of ``kind`` from in front of them (the Dark Knight: a bet
    against the On Guard caller ``bet_against``)."""
    fr = w.in_front[seat]
    face = next(f for f in fr if KIND[f] == kind)
    w.in_front = replaced(w.in_front, seat, remove_one(fr, face))
    w.set_aside = replaced(w.set_aside, seat, w.set_aside[seat] + (face,))
    if kind == DKN:
        w.dark_knight_bets = w.dark_knight_bets + ((seat, bet_against),)
        w.dark_knight_open &= ~(1 << bet_against)
        events.append(
            Event(
                f"{p(seat)} plays the Dark Knight: a bet of {DK_VALUE} that {p(bet_against)} will not go out this hand."
            )
        )
        return
    value = POINTS[face]
    charge_other_teams(w, tables, seat, value)
    # A cost that helps the others (the lowest total wins), said in their terms.
    others = (
        f"every other team takes {value} off its total"
        if tables.config.partners
        else f"every other player takes {value} off their total"
    )
    if kind == POI:
        events.append(Event(f"{p(seat)} plays the Poison Garden: the hand ends now; {others}."))
        end_hand(w, tables, -1, events)
    elif kind == FIR:
        events.append(
            Event(
                f"{p(seat)} plays the Castle Fire: all hands are discarded and {p(w.dealer)} deals again; {others}."
            )
        )
        redeal(w, tables, events)
    else:  # King's Goblet
        events.append(Event(f"{p(seat)} plays the King's Goblet: everyone draws five; {others}."))
        for i in range(tables.n):
            s = (seat + i) % tables.n
            draw_cards(w, s, 5, events, "")


def play_warlord(w: Work, tables: Tables, seat: int, events: list[Event]) -> None:
    """``seat`` plays the Warlord and makes this turn for its player (+50 to ``seat``)."""
    fr = w.in_front[seat]
    face = next(f for f in fr if KIND[f] == WAR)
    w.in_front = replaced(w.in_front, seat, remove_one(fr, face))
    w.set_aside = replaced(w.set_aside, seat, w.set_aside[seat] + (face,))
    w.added_points = replaced(w.added_points, seat, w.added_points[seat] + WARLORD_COST)
    w.warlord = seat
    t = w.turn
    events.append(
        Event(
            f"{p(seat)} plays the Warlord and makes {p(t)}'s turn for them (+{WARLORD_COST} to {p(seat)} this hand)."
        )
    )
    events.append(Event(f"{p(t)}'s hand: {hand_label(w.hands[t])}.", seat))


def escape_dungeon(w: Work, seat: int, events: list[Event]) -> None:
    """``seat`` discards the Dungeon in front of them (the card under it stays in play)."""
    bury(w, w.dungeon[seat])
    w.dungeon = replaced(w.dungeon, seat, ())
    w.lost_turns = replaced(w.lost_turns, seat, 0)
    w.may_escape &= ~(1 << seat)
    events.append(
        Event(
            f"{p(seat)} escapes the Dungeon: it goes to the discard pile (the card under it stays in play)."
        )
    )


def call_on_guard(w: Work, tables: Tables, seat: int, action: Action, events: list[Event]) -> None:
    """``seat`` calls On Guard: down to one card, or ahead, while playing down to one."""
    if w.on_guard[seat] == GUARD_UNCALLED:
        w.on_guard = replaced(w.on_guard, seat, GUARD_CALLED)
        w.dark_knight_open |= 1 << seat
        events.append(Event(f"{p(seat)} calls On Guard!"))
    else:  # announced during the turn, for the card that will leave one in hand
        w.called_ahead = True
        events.append(Event(f"{p(seat)} calls On Guard before playing down to one card."))


def catch_on_guard(w: Work, tables: Tables, seat: int, action: Action, events: list[Event]) -> None:
    """``seat`` catches the player ``action.caught``, down to one card without calling On Guard."""
    assert isinstance(action, Catch)
    caught = action.caught
    w.on_guard = replaced(w.on_guard, caught, GUARD_NONE)
    w.penalised |= 1 << caught
    events.append(
        Event(
            f"{p(seat)} catches {p(caught)}: no On Guard call. {p(caught)} will draw 2 and lose their next turn."
        )
    )


def let_it_pass(w: Work, tables: Tables, seat: int, action: Action, events: list[Event]) -> None:
    """``seat`` hides their out-of-turn moves until the next player acts."""
    w.waived |= 1 << seat
