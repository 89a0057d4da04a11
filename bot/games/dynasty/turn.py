"""The flow of turns: giving the turn (lost turns, players who cannot play draw at
once), ending it, a draw card reaching its target, drawing and passing, and partners'
"may I go out?"."""

from __future__ import annotations

from bot.games.base import Event
from bot.games.dynasty.legal import gen_plays
from bot.games.dynasty.matching import any_playable, has_answer
from bot.games.dynasty.scoring import HAND_ROUND_CAP, MATCH_TURN_CAP, end_hand
from bot.games.dynasty.state import (
    ANSWER,
    ASK,
    DRAWN,
    PLAY,
    Work,
)
from bot.games.dynasty.tables import (
    C_PLAY,
    Tables,
    p,
)
from bot.games.dynasty.working import (
    _cached_event,
    _clear_pending,
    _put,
    adv,
    bury,
    can_draw,
    close_windows,
    draw_cards,
    target_of,
)


def begin_turn(w: Work, T: Tables, seat: int, ev: list[Event], first_fm: bool = False) -> None:
    """Give ``seat`` the turn. Lost turns (Dungeon, On Guard penalty) are served on the way,
    and a player who cannot play draws at once, as the rules require (and passes if the
    drawn card cannot be played either)."""
    n = T.n
    while True:
        w.turn = seat
        w.phase = PLAY
        w.skips = 0
        w.played_n = 0
        w.ask = 0
        w.precall = False
        w.proxy = -1
        w.first_fm = first_fm
        w.hturns += 1
        w.mturns += 1
        if w.hturns > HAND_ROUND_CAP * n or w.mturns > MATCH_TURN_CAP:
            ev.append(Event("This hand has gone on far too long: it ends as blocked."))
            end_hand(w, T, -1, ev)
            return
        bit = 1 << seat
        dun = w.dungeon[seat]
        if w.penalty & bit or dun:
            close_windows(w)  # the next player acts (draws): the windows of the last play lapse
            k = 0
            why: list[str] = []
            if w.penalty & bit:
                w.penalty &= ~bit
                k += 2
                why.append("the On Guard penalty")
            if dun:
                k += 1
                why.append(dungeon_turn(w, seat, ev))
            draw_cards(w, seat, k, ev, f" for {' and '.join(why)} and loses the turn")
        elif any_playable(w, T, w.hands[seat]):
            return
        elif can_draw(w):
            close_windows(w)  # drawing is acting: escape, Dark Knight and catch chances lapse
            w.stall = 0
            draw_cards(w, seat, 1, ev, None)
            if any_playable(w, T, w.hands[seat]):
                w.phase = DRAWN
                ev.append(_cached_event(("cd", seat), f"{p(seat)} cannot play and draws a card."))
                return
            ev.append(_cached_event(("cdp", seat), f"{p(seat)} cannot play, draws a card and passes."))
        else:
            close_windows(w)
            w.stall += 1
            ev.append(_cached_event(("cnp", seat), f"{p(seat)} can neither play nor draw, and passes."))
            if w.stall >= n:
                ev.append(Event("Nobody can play or draw: the hand is blocked."))
                end_hand(w, T, -1, ev)
                return
        first_fm = False
        seat = adv(w, seat, 1)


def dungeon_turn(w: Work, seat: int, ev: list[Event]) -> str:
    """Serve one lost turn in the Dungeon (the caller draws the card). Returns a reason."""
    lost = w.lost[seat]
    bit = 1 << seat
    if lost > 0:
        lost -= 1
        w.lost = _put(w.lost, seat, lost)
        if lost == 0:
            w.escape |= bit
            return "the Dungeon (they may now escape)"
        return "the Dungeon"
    # Escape missed: one more lost turn, then the Dungeon is discarded.
    bury(w, w.dungeon[seat])
    w.dungeon = _put(w.dungeon, seat, ())
    w.escape &= ~bit
    return "a missed Dungeon escape (then they are released)"


def guard_after_play(w: Work, seat: int) -> None:
    """A play left ``seat`` with one card: On Guard is due (already called if announced)."""
    if len(w.hands[seat]) == 1:
        if w.precall and seat == w.turn:
            w.guard = _put(w.guard, seat, 2)
            w.dkwin |= 1 << seat
        else:
            w.guard = _put(w.guard, seat, 1)
    w.precall = False


def end_turn(w: Work, T: Tables, ev: list[Event]) -> None:
    t = w.turn
    if w.played_n:
        guard_after_play(w, t)
        w.stall = 0
    w.first_fm = False
    w.proxy = -1
    if w.dn or w.dd:
        target = w.dtarget if w.dtarget >= 0 else target_of(w, t)
        w.dtarget = -1
        w.skips = 0
        w.played_n = 0
        enter_answer(w, T, target, ev)
    else:
        begin_turn(w, T, adv(w, t, 1 + w.skips), ev)


def enter_answer(w: Work, T: Tables, target: int, ev: list[Event]) -> None:
    w.turn = target
    w.phase = ANSWER
    w.proxy = -1
    w.ask = 0
    w.precall = False
    w.played_n = 0
    w.skips = 0
    if w.dungeon[target] or not has_answer(w, w.hands[target]):
        take_draws(w, T, target, ev)


def take_draws(w: Work, T: Tables, target: int, ev: list[Event]) -> None:
    """``target`` accepts the pending draw requirement and loses the turn."""
    k = w.dn
    dd = w.dd
    bit = 1 << target
    why: list[str] = []
    if w.penalty & bit:
        w.penalty &= ~bit
        k += 2
        why.append("the On Guard penalty")
    in_dungeon = bool(w.dungeon[target])
    if dd:
        w.dungeon = _put(w.dungeon, target, w.dungeon[target] + dd)
        w.lost = _put(w.lost, target, 1)  # two lost turns; this one is the first
        w.escape &= ~bit
        k += 1
        ev.append(Event(f"{p(target)} goes to the Dungeon: two lost turns, one card each."))
    elif in_dungeon:
        k += 1
        why.append(dungeon_turn(w, target, ev))
    _clear_pending(w)
    reason = f" ({' and '.join(why)})" if why else ""
    draw_cards(w, target, k, ev, f"{reason} and loses the turn")
    begin_turn(w, T, adv(w, target, 1), ev)


def _h_draw(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    t = w.turn
    draw_cards(w, t, 1, ev)
    w.stall = 0
    w.phase = DRAWN
    if not gen_plays(w, T, w.hands[t], C_PLAY, t):
        ev.append(Event(f"{p(t)} cannot play and passes."))
        end_turn(w, T, ev)


def _h_pass(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    t = w.turn
    ev.append(Event(f"{p(t)} passes."))
    if w.phase == PLAY:  # nothing could be drawn
        w.stall += 1
        if w.stall >= T.n:
            ev.append(Event("Nobody can play or draw: the hand is blocked."))
            end_hand(w, T, -1, ev)
            return
    end_turn(w, T, ev)


def _h_noextra(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    end_turn(w, T, ev)


def _h_accept(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    take_draws(w, T, w.turn, ev)


def _h_forfeit(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    t = w.turn
    draw_cards(w, t, 2, ev, " after a Yes without going out, and loses the turn")
    end_turn(w, T, ev)


def _h_ask(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    w.ask = 1
    w.phase = ASK
    ev.append(Event(f"{p(w.turn)} asks {p(T.partner[w.turn])}: may I go out?"))


def _h_yes(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    w.ask = 2
    w.phase = PLAY
    ev.append(Event(f"{p(seat)} answers Yes: {p(w.turn)} must go out now or draw 2 and lose the turn."))


def _h_no(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    w.ask = 3
    w.phase = PLAY
    ev.append(Event(f"{p(seat)} answers No."))
