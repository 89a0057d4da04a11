"""The flow of turns: giving the turn (lost turns, players who cannot play draw at
once), ending it, a draw card reaching its target, drawing and passing, and partners'
"may I go out?"."""

from __future__ import annotations

from bot.games.base import Event, join_names, p
from bot.games.dynasty.actions import Action
from bot.games.dynasty.catalogue import C_PLAY, Tables
from bot.games.dynasty.legal import card_plays
from bot.games.dynasty.playable import any_playable, has_answer
from bot.games.dynasty.scoring import HAND_ROUND_CAP, MATCH_TURN_CAP, end_hand
from bot.games.dynasty.state import (
    ANSWER,
    ASK,
    ASK_NO,
    ASK_NONE,
    ASK_PENDING,
    ASK_YES,
    DRAWN,
    GUARD_CALLED,
    GUARD_UNCALLED,
    PLAY,
    Work,
)
from bot.games.dynasty.table import (
    bury,
    can_draw,
    clear_pending_draw,
    close_windows,
    draw_card_target,
    draw_cards,
    replaced,
    seat_after,
    shared_event,
)


def begin_turn(
    w: Work, tables: Tables, seat: int, events: list[Event], *, escorting_first_card: bool = False
) -> None:
    """Give ``seat`` the turn. Lost turns (Dungeon, On Guard penalty) are served on the way,
    and a player who cannot play draws at once, as the rules require (and passes if the
    drawn card cannot be played either)."""
    n = tables.n
    while True:
        w.turn = seat
        w.phase = PLAY
        w.skips = 0
        w.cards_played = 0
        w.partner_asked = ASK_NONE
        w.called_ahead = False
        w.warlord = -1
        w.escorting_first_card = escorting_first_card
        w.hand_turns += 1
        w.match_turns += 1
        if w.hand_turns > HAND_ROUND_CAP * n or w.match_turns > MATCH_TURN_CAP:
            events.append(Event("This hand has gone on far too long: it ends as blocked."))
            end_hand(w, tables, -1, events)
            return
        bit = 1 << seat
        dun = w.dungeon[seat]
        if w.penalised & bit or dun:
            close_windows(w)  # the next player acts (draws): the windows of the last play lapse
            draws = 0
            why: list[str] = []
            if w.penalised & bit:
                w.penalised &= ~bit
                draws += 2
                why.append("the On Guard penalty")
            if dun:
                draws += 1
                why.append(serve_dungeon_turn(w, seat, events))
            draw_cards(w, seat, draws, events, f" for {' and '.join(why)} and loses the turn")
        elif any_playable(w, tables, w.hands[seat]):
            return
        elif can_draw(w):
            close_windows(w)  # drawing is acting: escape, Dark Knight and catch chances lapse
            w.stalled_turns = 0
            draw_cards(w, seat, 1, events, None)
            if any_playable(w, tables, w.hands[seat]):
                w.phase = DRAWN
                events.append(shared_event(("cd", seat), f"{p(seat)} cannot play and draws a card."))
                return
            events.append(shared_event(("cdp", seat), f"{p(seat)} cannot play, draws a card and passes."))
        else:
            close_windows(w)
            w.stalled_turns += 1
            events.append(shared_event(("cnp", seat), f"{p(seat)} can neither play nor draw, and passes."))
            if w.stalled_turns >= n:
                events.append(Event("Nobody can play or draw: the hand is blocked."))
                end_hand(w, tables, -1, events)
                return
        escorting_first_card = False
        seat = seat_after(w, seat, 1)


def serve_dungeon_turn(w: Work, seat: int, events: list[Event]) -> str:
    """Serve one lost turn in the Dungeon (the caller draws the card). Returns a reason."""
    lost = w.lost_turns[seat]
    bit = 1 << seat
    if lost > 0:
        lost -= 1
        w.lost_turns = replaced(w.lost_turns, seat, lost)
        if lost == 0:
            w.may_escape |= bit
            return "the Dungeon (they may now escape)"
        return "the Dungeon"
    # Escape missed: one more lost turn, then the Dungeon is discarded.
    bury(w, w.dungeon[seat])
    w.dungeon = replaced(w.dungeon, seat, ())
    w.may_escape &= ~bit
    return "a missed Dungeon escape (then they are released)"


def on_guard_after_play(w: Work, seat: int) -> None:
    """A play left ``seat`` with one card: On Guard is due (already called if announced)."""
    if len(w.hands[seat]) == 1:
        if w.called_ahead and seat == w.turn:
            w.on_guard = replaced(w.on_guard, seat, GUARD_CALLED)
            w.dark_knight_open |= 1 << seat
        else:
            w.on_guard = replaced(w.on_guard, seat, GUARD_UNCALLED)
    w.called_ahead = False


def end_turn(w: Work, tables: Tables, events: list[Event]) -> None:
    t = w.turn
    if w.cards_played:
        on_guard_after_play(w, t)
        w.stalled_turns = 0
    w.escorting_first_card = False
    w.warlord = -1
    if w.pending_draws or w.pending_dungeons:
        target = w.draw_target if w.draw_target >= 0 else draw_card_target(w, t)
        w.draw_target = -1
        w.skips = 0
        w.cards_played = 0
        aim_draw_at(w, tables, target, events)
    else:
        if w.skips:
            skipped = dict.fromkeys(seat_after(w, t, step) for step in range(1, 1 + w.skips))
            names = join_names([p(seat) for seat in skipped])
            events.append(Event(f"{names} {'is' if len(skipped) == 1 else 'are'} skipped."))
        begin_turn(w, tables, seat_after(w, t, 1 + w.skips), events)


def aim_draw_at(w: Work, tables: Tables, target: int, events: list[Event]) -> None:
    w.turn = target
    w.phase = ANSWER
    w.warlord = -1
    w.partner_asked = ASK_NONE
    w.called_ahead = False
    w.cards_played = 0
    w.skips = 0
    if w.dungeon[target] or not has_answer(w, w.hands[target]):
        take_pending_draws(w, tables, target, events)


def take_pending_draws(w: Work, tables: Tables, target: int, events: list[Event]) -> None:
    """``target`` accepts the pending draw requirement and loses the turn. Drawing is acting:
    the windows of the draw card's play (catch, Dark Knight, Dungeon escape) lapse, whether
    the target chose to take the cards or had no answer and took them at once."""
    close_windows(w)
    draws = w.pending_draws
    dungeons = w.pending_dungeons
    bit = 1 << target
    why: list[str] = []
    if w.penalised & bit:
        w.penalised &= ~bit
        draws += 2
        why.append("the On Guard penalty")
    in_dungeon = bool(w.dungeon[target])
    if dungeons:
        w.dungeon = replaced(w.dungeon, target, w.dungeon[target] + dungeons)
        w.lost_turns = replaced(w.lost_turns, target, 1)  # two lost turns; this one is the first
        w.may_escape &= ~bit
        draws += 1
        events.append(Event(f"{p(target)} goes to the Dungeon: two lost turns, one card each."))
    elif in_dungeon:
        draws += 1
        why.append(serve_dungeon_turn(w, target, events))
    clear_pending_draw(w)
    reason = f" for {' and '.join(why)}" if why else ""
    draw_cards(w, target, draws, events, f"{reason} and loses the turn")
    begin_turn(w, tables, seat_after(w, target, 1), events)


def draw_instead_of_playing(w: Work, tables: Tables, seat: int, action: Action, events: list[Event]) -> None:
    t = w.turn
    draw_cards(w, t, 1, events)
    w.stalled_turns = 0
    w.phase = DRAWN
    if not card_plays(w, tables, w.hands[t], C_PLAY, t):
        events.append(Event(f"{p(t)} cannot play and passes."))
        end_turn(w, tables, events)


def pass_turn(w: Work, tables: Tables, seat: int, action: Action, events: list[Event]) -> None:
    t = w.turn
    events.append(Event(f"{p(t)} passes."))
    if w.phase == PLAY:  # nothing could be drawn
        w.stalled_turns += 1
        if w.stalled_turns >= tables.n:
            events.append(Event("Nobody can play or draw: the hand is blocked."))
            end_hand(w, tables, -1, events)
            return
    end_turn(w, tables, events)


def end_without_extra(w: Work, tables: Tables, seat: int, action: Action, events: list[Event]) -> None:
    end_turn(w, tables, events)


def accept_draw(w: Work, tables: Tables, seat: int, action: Action, events: list[Event]) -> None:
    take_pending_draws(w, tables, w.turn, events)


def decline_to_go_out(w: Work, tables: Tables, seat: int, action: Action, events: list[Event]) -> None:
    t = w.turn
    draw_cards(w, t, 2, events, " after a Yes without going out, and loses the turn")
    end_turn(w, tables, events)


def ask_partner(w: Work, tables: Tables, seat: int, action: Action, events: list[Event]) -> None:
    w.partner_asked = ASK_PENDING
    w.phase = ASK
    events.append(Event(f"{p(w.turn)} asks {p(tables.partner[w.turn])}: may I go out?"))


def partner_says_yes(w: Work, tables: Tables, seat: int, action: Action, events: list[Event]) -> None:
    w.partner_asked = ASK_YES
    w.phase = PLAY
    events.append(Event(f"{p(seat)} answers Yes: {p(w.turn)} must go out now or draw 2 and lose the turn."))


def partner_says_no(w: Work, tables: Tables, seat: int, action: Action, events: list[Event]) -> None:
    w.partner_asked = ASK_NO
    w.phase = PLAY
    events.append(Event(f"{p(seat)} answers No."))
