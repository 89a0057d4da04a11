"""The end of a hand and of the match: hand points, going out, totals, the Dark
Knight bets, the exact-limit halving, the match-length and safety-valve endings, placings.

A scored hand does not deal the next one itself: it leaves the phase ``NEXT_HAND`` and
:func:`bot.games.dynasty.deal.deal_next_hands` deals it once the move is done.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.games.base import Event, join_names, p
from bot.games.dynasty.cards import (
    DEF,
    KIND,
    NUM,
    POINTS,
    POT,
    RANK,
    TRE,
)
from bot.games.dynasty.catalogue import (
    Tables,
)
from bot.games.dynasty.state import (
    GUARD_NONE,
    NEXT_HAND,
    OVER,
    Work,
)
from bot.games.dynasty.table import clear_pending_draw, draw_card_target, draw_cards, replaced

# Safety valves, so that every match ends whatever the players do (random play would
# otherwise go on for ever: voluntary draws keep hands full and Risk-card costs keep
# totals down). Matches at the default length rarely meet them.
HAND_ROUND_CAP = 150  # a hand lasting this many rounds (turns per player) ends as blocked
MATCH_TURN_CAP = 2400  # after this many turns in a match, the hand is scored and the match ends
MATCH_HAND_CAP = 200  # a match this long ends on the totals
DK_VALUE = 100


def hand_points(hand: tuple[int, ...], dungeon: tuple[int, ...] = ()) -> int:
    """Points of a hand at the end of a hand. Magic Potion: only number cards count (the
    negative Defender and Hidden Treasure still deduct)."""
    potion = False
    for f in hand:
        if KIND[f] == POT:
            potion = True
            break
    pts = 0
    for f in hand + dungeon:
        k = KIND[f]
        if k == NUM:
            pts += RANK[f]
        elif k == DEF or k == TRE or not potion:
            pts += POINTS[f]
    return pts


def go_out(w: Work, tables: Tables, seat: int, events: list[Event]) -> None:
    """``seat`` has no cards left: a last draw card's target draws first, then the hand is scored."""
    events.append(Event(f"{p(seat)} goes out!"))
    if w.pending_draws or w.pending_dungeons:
        target = w.draw_target if w.draw_target >= 0 else draw_card_target(w, seat)
        count = w.pending_draws
        if w.pending_dungeons:
            count += 1 if w.dungeon[target] else 2
            w.dungeon = replaced(w.dungeon, target, w.dungeon[target] + w.pending_dungeons)
        clear_pending_draw(w)
        draw_cards(w, target, count, events, " for the last card's draw requirement; they count")
    end_hand(w, tables, seat, events)


def end_hand(w: Work, tables: Tables, out: int, events: list[Event]) -> None:
    """Score the hand (``out`` went out; -1: nobody did), then end the match or leave the
    next hand to be dealt (phase NEXT_HAND)."""
    n = tables.n
    rounds, notes = _hand_scores(w, tables, out)
    totals = list(w.totals)
    for t in range(tables.nteams):
        totals[t] += sum(rounds[m] for m in tables.members[t])
    limit = tables.config.limit
    halved = [t for t in range(tables.nteams) if totals[t] == limit]
    for t in halved:
        totals[t] //= 2
        notes.append(f"{team_label(tables, t)} scores exactly {limit} and halves it to {totals[t]}.")
    w.totals = tuple(totals)
    head = f"Hand {w.hand_number} over: " + (f"{p(out)} went out." if out >= 0 else "nobody went out.")
    scores = ", ".join(f"{p(s)} {rounds[s]:+d}" for s in range(n))
    tot = ", ".join(f"{team_label(tables, t)} {totals[t]}" for t in range(tables.nteams))
    lines = [head, f"Hand points: {scores}.", f"Totals: {tot}.", *notes]
    w.last_hand = tuple(lines)
    for line in lines:
        events.append(Event(line))
    why_over = _why_the_match_ends(w, tables, totals, halved)
    if why_over is not None:
        events.append(Event(why_over))
        _end_match(w, tables, totals, events)
        return
    w.dealer = (w.dealer + 1) % n
    w.hand_number += 1
    w.phase = NEXT_HAND  # dealt by deal.deal_next_hands once the move is done


def hand_summary(last_hand: tuple[str, ...]) -> str:
    """The scored hand in one line, from its lines (:func:`end_hand`): "Hand 2: {p0} went
    out · hand points {p0} +0, {p1} +85, {p2} -3"."""
    head = last_hand[0].replace(" over:", ":", 1).removesuffix(".")
    if len(last_hand) < 2 or not last_hand[1].startswith("Hand points: "):
        return head
    return f"{head} · hand points {last_hand[1].removeprefix('Hand points: ').removesuffix('.')}"


def seat_summary(last_hand: tuple[str, ...], seat: int) -> str:
    """How the scored hand ended for ``seat``, in one line from its lines: "Hand 2: {p0}
    went out · you +85" (the seat's own hand points, as the table's line has them)."""
    if not last_hand:
        return ""
    head = last_hand[0].replace(" over:", ":", 1).removesuffix(".")
    points = last_hand[1] if len(last_hand) > 1 and last_hand[1].startswith("Hand points: ") else ""
    found = re.search(rf"{re.escape(p(seat))} ([+-]\d+)", points)
    return f"{head} · you {found[1]}" if found else head


def hand_details(last_hand: tuple[str, ...]) -> tuple[str, ...]:
    """The last hand of a match for its end: the line of :func:`hand_summary`, then how bets
    and the exact limit changed the totals (the lines after "Totals: ...")."""
    if not last_hand:
        return ()
    return (hand_summary(last_hand), *last_hand[3:])


def _hand_scores(w: Work, tables: Tables, out: int) -> tuple[list[int], list[str]]:
    """Each seat's points this hand (cards left, Dungeons, the Warlord's +50, Dark Knight
    bets settled) and the notes on the bets."""
    n = tables.n
    rounds = [0] * n
    for s in range(n):
        pts = 0 if s == out else hand_points(w.hands[s], w.dungeon[s])
        rounds[s] = pts + w.added_points[s]
    notes: list[str] = []
    for knight, caller in w.dark_knight_bets:
        if caller == out:
            rounds[caller] -= DK_VALUE
            notes.append(f"Dark Knight: {p(caller)} went out after all and deducts {DK_VALUE}.")
        else:
            rounds[knight] -= DK_VALUE
            notes.append(
                f"Dark Knight: {p(caller)} did not go out; {p(knight)} wins the bet and deducts {DK_VALUE}."
            )
    return rounds, notes


def _why_the_match_ends(w: Work, tables: Tables, totals: list[int], halved: list[int]) -> str | None:
    """The sentence saying why the match ends after this hand, or None if it goes on."""
    limit = tables.config.limit
    hands = tables.config.hands
    lo = min(totals)
    lows = [t for t in range(tables.nteams) if totals[t] == lo]
    if halved and len(lows) == 1 and lows[0] in halved:
        return f"{team_label(tables, lows[0])} halved to the single lowest total and wins at once!"
    if max(totals) > limit:
        return f"A total passed {limit}: the match is over, lowest total wins."
    if hands and w.hand_number >= hands:
        return f"That was the last of {hands} hand{'s' if hands > 1 else ''}: lowest total wins."
    if w.hand_number >= MATCH_HAND_CAP or w.match_turns >= MATCH_TURN_CAP:
        return "The match has gone on far too long: it ends on the totals."
    return None


def placings(tables: Tables, totals: Sequence[int]) -> tuple[int, ...]:
    """Each seat's placing by its team's total, lowest first: team ranks are dense with
    partners (1, 2, 2, 3: each team is one placing), seats use competition ranking
    (1, 2, 2, 4)."""
    if tables.config.partners:
        team_place = [1 + len({u for u in totals if u < totals[t]}) for t in range(tables.nteams)]
    else:
        team_place = [1 + sum(1 for u in totals if u < totals[t]) for t in range(tables.nteams)]
    return tuple(team_place[tables.team[s]] for s in range(tables.n))


def _end_match(w: Work, tables: Tables, totals: list[int], events: list[Event]) -> None:
    """Placings by total, lowest first, and the winner's announcement."""
    w.phase = OVER
    w.places = placings(tables, totals)
    winners = join_names(
        [team_label(tables, t) for t in range(tables.nteams) if w.places[tables.members[t][0]] == 1]
    )
    events.append(Event(f"Winner: {winners}."))
    close_windows_at_match_end(w)


def close_windows_at_match_end(w: Work) -> None:
    w.warlord = -1
    w.battle = ()
    w.battle_waiting = 0
    w.may_escape = 0
    w.dark_knight_open = 0
    w.waived = 0
    w.on_guard = (GUARD_NONE,) * len(w.on_guard)


def team_label(tables: Tables, t: int) -> str:
    if tables.config.partners:
        return "Team " + "ABCD"[t] + " (" + " & ".join(p(s) for s in tables.members[t]) + ")"
    return p(t)
