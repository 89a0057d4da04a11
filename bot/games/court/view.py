"""What each seat (or the table) sees of a King's Court match."""

from __future__ import annotations

from typing import Any

from bot.games.base import CardGroup, ScoreLine, View, p, seat_token
from bot.games.court.bids import BY_KEY
from bot.games.court.cards import SUITS, label, labels, suit, suit_label
from bot.games.court.melds import after_moves
from bot.games.court.rounds import summary
from bot.games.court.scoring import parts_text
from bot.games.court.state import (
    AFTER,
    BAG_KIND,
    BID,
    COURT_KIND,
    DUEL,
    FOLLOW,
    KNOCK,
    LEAD,
    LOSING_TOTAL,
    OVER,
    PICK,
    PLAYERS,
    TRICK_CAP,
    CourtState,
    LastTrick,
)


def build(state: CourtState, seat: int | None) -> View:
    waiting = waiting_line(state, seat)
    trick = min(state.tricks + (state.phase in (LEAD, FOLLOW, DUEL)), TRICK_CAP)
    stage = "bidding" if state.phase == BID else f"trick {trick} of {TRICK_CAP}"
    board = [
        f"Round {state.round} · {stage} · to {state.target} or {LOSING_TOTAL} · knock from {state.going_board}"
    ]
    if state.phase in (FOLLOW, DUEL):
        shown = [f"{seat_token(s)} {labels(state.trick[s])}" for s in state.play_order() if state.trick[s]]
        board.append("Trick: " + " · ".join(shown))
    if state.phase == DUEL or any(state.duel):
        duel = [f"{seat_token(s)} {labels(state.duel[s])}" for s in range(PLAYERS) if state.duel[s]]
        if duel:
            board.append("Duel: " + " · ".join(duel))
    if state.pool:
        board.append(f"Pool: {labels(state.pool)}")
    if state.last_trick is not None:  # public: every seat and the table see the same line
        board.append(last_trick_line(state.last_trick))
    context = tuple(line for line in board[1:] if line.startswith(("Trick: ", "Duel: ", "Pool: ")))
    # The last round's summary stays from its end until the next round's first trick is won.
    summary_shown = bool(state.last_round) and (state.phase in (BID, OVER) or state.tricks == 0)
    if summary_shown:
        board.append(round_summary_line(state))
    scores = tuple(_score_line(state, s) for s in range(PLAYERS))
    data: dict[str, Any] = {
        "phase": state.phase,
        "turn": state.turn,
        "round": state.round,
        "scores": list(state.scores),
        "trick": {s: list(state.trick[s]) for s in range(PLAYERS) if state.trick[s]},
        "pool": list(state.pool),
        "last_trick": _last_trick_data(state.last_trick),
        "courted": [len(c) for c in state.courted],
        "sandbags": [len(b) // 4 for b in state.bags],
        "flops": list(state.flops),
        "bids": list(state.bids),
        "hand_sizes": [len(h) for h in state.hands],
    }
    if seat is None:
        return View(seat, waiting, board=tuple(board), scores=scores, data=data, context=context)
    last = (state.last_detail[seat],) if state.last_detail else ()
    if state.phase == BID and summary_shown:  # every hand during the bids: how the round ended
        last = (round_summary_line(state), *last)
    if state.phase == OVER or state.phase == BID:
        return View(
            seat, waiting, board=tuple(board), scores=scores, private=last, data=data, context=context
        )
    hand, private = _own(state, seat, data)
    return View(
        seat,
        waiting,
        board=tuple(board),
        scores=scores,
        hand=hand,
        private=private + last,
        data=data,
        context=context,
    )


def waiting_line(state: CourtState, seat: int | None = None) -> str:
    """The status line. After a trick the winner's own view lists the moves they have;
    everyone else reads one fixed line from public facts only (the round score and the runs
    in hand are private): every move of the game's menu, or, after a court or a sandbag,
    that the winner is still deciding."""
    if state.over:
        return summary(state)
    who = p(state.turn)
    if state.phase == BID:
        return f"{who} may bid before the deal."
    if state.phase == LEAD:
        return f"{who} to lead."
    if state.phase == FOLLOW:
        need = len(state.trick[state.leader])
        return f"{who} to play {need} card{'s' * (need > 1)}."
    if state.phase == DUEL:
        return f"{who} to lay a duel card."
    if state.phase == PICK:
        return f"{who} to take {state.owed[state.turn]} from the pool."
    assert state.phase == AFTER
    return _after_line(state, seat)


def _after_line(state: CourtState, seat: int | None) -> str:
    who, board = p(state.turn), state.going_board
    if seat == state.turn:  # the winner's own view, said to them (the table's line is below)
        kinds = {move.kind for move in after_moves(state, seat)}
        if state.forced:
            return f"You must {'knock or ' * (KNOCK in kinds)}flop your King."
        words = [w for k, w in ((COURT_KIND, "court"), (BAG_KIND, "sandbag"), (KNOCK, "knock")) if k in kinds]
        done = "You courted" if state.courted_now else "You sandbagged" if state.bagged_now else ""
        if words:
            return f"{done or 'You won the trick'}: {', '.join(words)} or pass."
        return (
            f"{done}: press Pass to end your turn."
            if done
            else "You won the trick: nothing to court, press Pass."
        )
    knock = state.blind(state.turn)  # a blind bidder may always knock; anyone else by a private score
    if state.forced:
        if knock:
            return f"{who} must knock or flop their King."
        return f"{who} must flop their King, or knock with a round score of {board} or more."
    # One wording whatever the winner holds: their options are private (RULES.md's secrecy
    # ruling), and a list of them would contradict the winner's own hand.
    if state.courted_now:
        return f"{who} courted and is deciding what else to do."
    if state.bagged_now:
        return f"{who} sandbagged and is deciding what else to do."
    return f"{who} won the trick and is deciding: court, sandbag, knock or pass."


def last_round_line(state: CourtState) -> str:
    """``"Last round ({p2} knocked): {p0} -50 · {p1} -25 · {p2} +30 · {p3} +5"``."""
    why = f" ({state.last_reason})" if state.last_reason else ""
    return f"Last round{why}: " + " · ".join(
        f"{seat_token(s)} {pt:+d}" for s, pt in enumerate(state.last_round)
    )


def round_summary_line(state: CourtState) -> str:
    """The last round scored, as the table and (during the bids) every hand show it until the
    next round's first trick is won: why it ended, then each seat's King, round points and
    new total: ``"Round 1 ({p2} knocked): {p0} K♠ -50 (total -50) · {p1} K♥ -25 (total -25) ·
    ..."``. A save from before the Kings were kept shows it without them."""
    number = state.round if state.over else state.round - 1
    why = f" ({state.last_reason})" if state.last_reason else ""
    kings = state.last_kings or ("",) * len(state.last_round)
    seats = (
        f"{seat_token(s)}{' ' + label(king) if king else ''} {points:+d} (total {state.scores[s]})"
        for s, (king, points) in enumerate(zip(kings, state.last_round, strict=True))
    )
    return f"Round {number}{why}: " + " · ".join(seats)


def last_trick_line(last: LastTrick) -> str:
    """``"Last trick: {p1} 5♦ 5♠ · {p2} 8♥ 8♠ · {p3} 2♣ 3♣ · {p0} 4♦ 4♥ — {p2} won it"``, in play
    order; a duel's cards follow the trick's, ``" (duel: {p1} Q♠ · {p2} 9♣)"``."""
    order = last.order()
    played = " · ".join(f"{seat_token(s)} {labels(last.cards[s])}" for s in order if last.cards[s])
    duel = " · ".join(f"{seat_token(s)} {labels(last.duel[s])}" for s in order if last.duel[s])
    laid = f" (duel: {duel})" if duel else ""
    return f"Last trick: {played}{laid} — {seat_token(last.winner)} won it"


def _last_trick_data(last: LastTrick | None) -> dict[str, Any] | None:
    if last is None:
        return None
    return {
        "leader": last.leader,
        "winner": last.winner,
        "cards": {s: list(last.cards[s]) for s in last.order() if last.cards[s]},
        "duel": {s: list(last.duel[s]) for s in last.order() if last.duel[s]},
    }


def _score_line(state: CourtState, seat: int) -> ScoreLine:
    figures = [f"{state.scores[seat]} pts", f"{len(state.hands[seat])} in hand"]
    if state.courted[seat]:
        figures.append(f"{len(state.courted[seat])} courted")
    if state.bags[seat]:
        figures.append(f"{len(state.bags[seat]) // 4} sandbag{'s' * (len(state.bags[seat]) > 4)}")
    marks = []
    if seat == state.dealer:
        marks.append("dealer")
    if state.bids[seat]:
        marks.append(f"bid {BY_KEY[state.bids[seat]].name}")
    if state.flops[seat]:
        shown = f" {label(state.kings[seat])}" if state.king_public(seat) else ""
        marks.append(f"King flopped{shown}" + (f" x{state.flops[seat]}" if state.flops[seat] > 1 else ""))
    if state.streak[0] == seat and state.streak[1] >= 2:
        marks.append(f"{state.streak[1]} in a row")
    return ScoreLine(seat, tuple(figures), tuple(marks))


def _own(state: CourtState, seat: int, data: dict[str, Any]) -> tuple[tuple[CardGroup, ...], tuple[str, ...]]:
    blind = state.blind(seat)
    mine = None if blind else state.king_suit(seat)
    order = sorted(SUITS, key=lambda s: (s != mine, SUITS.index(s)))
    groups = []
    for s in order:
        cards = tuple(label(c) for c in state.hands[seat] if suit(c) == s)
        if cards:
            tag = " (your King)" if s == mine else ""
            groups.append(CardGroup(f"{suit_label(s)}{tag}", cards))
    private = []
    if blind:
        private.append("Your King: face down, hidden from you too (you bid blind)")
    else:
        private.append(
            f"Your King: {label(state.kings[seat])}, your suit is {suit_label(state.king_suit(seat))}"
        )
    seen = {
        other: state.kings[other]
        for other in range(PLAYERS)
        if other != seat and state.blind(other) and state.king_seen_by(other, seat)
    }
    for other, king in seen.items():
        private.append(f"{seat_token(other)} bid blind; their flopped King, hidden from them: {label(king)}")
    if seen:
        data["blind_flopped_kings"] = dict(seen)
    run = state.courted[seat]
    if run:
        robbed = "" if blind or suit(run[0]) == mine else " (robbed: prisoners, 0)"
        private.append(f"Courted: {labels(run)}{robbed}")
    if state.bags[seat]:
        private.append(f"Sandbagged: {labels(state.bags[seat])}")
    if not blind:
        so_far = state.score_so_far(seat)
        private.append(
            f"If the round ended now: {so_far:+d} ({parts_text(state.score_parts(seat))}) · knock from {state.going_board}"
        )
        data["score_so_far"] = so_far
    data["hand"] = list(state.hands[seat])
    data["king"] = None if blind else state.kings[seat]
    data["my_courted"] = list(run)
    return tuple(groups), tuple(private)
