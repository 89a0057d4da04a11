"""What each seat of a King and Crown match sees: the board, the scores, the hand, private
lines and the waiting line."""

from __future__ import annotations

from typing import Any

from bot.games.base import CardGroup, ScoreLine, View, join_names, p, plural
from bot.games.crown import atcourt, find, picks
from bot.games.crown.cards import NAME, TEAM, WITCH, card_label
from bot.games.crown.scoring import counts_rounds, last_reveal
from bot.games.crown.state import TITLE, CourtState, CrownState, FindState, PickState


class Table:
    """A view being written: the board, each seat's score row and marks, and the rest."""

    def __init__(self, state: CrownState, seat: int | None) -> None:
        self.seat = seat
        self.board: list[str] = []
        self.private: list[str] = []
        self.hand: tuple[CardGroup, ...] = ()
        self.rows: list[list[str]] = [[] for _ in range(state.players)]
        self.marks: list[list[str]] = [[] for _ in range(state.players)]
        round_ = state.round if isinstance(state, PickState) else 1
        self.data: dict[str, Any] = {"variant": state.variant, "phase": state.phase, "round": round_}

    def lord_and_vassal(self, lord: int, parity: bool) -> None:
        self.marks[lord].append("lord" + (" (even)" if parity else ""))
        self.marks[1 - lord].append("vassal" + (" (odd)" if parity else ""))
        self.data["lord"] = lord


def view(state: CrownState, seat: int | None) -> View:
    table = Table(state, seat)
    rounds = f" · round {state.round}" if isinstance(state, PickState) else ""
    table.board.append(f"**{TITLE[state.variant]}**{rounds}")
    if isinstance(state, FindState):
        find_view(state, table)
    elif isinstance(state, PickState):
        pick_view(state, table)
    else:
        court_view(state, table)
    scores = tuple(ScoreLine(s, tuple(table.rows[s]), tuple(table.marks[s])) for s in range(state.players))
    return View(
        seat,
        waiting(state),
        board=tuple(table.board),
        scores=scores,
        hand=table.hand,
        private=tuple(table.private),
        data=table.data,
    )


def find_view(state: FindState, table: Table) -> None:
    table.lord_and_vassal(state.lord, parity=False)
    over = state.phase == "over"  # the match is over: every place is turned up
    places = [
        f"{i + 1}: {NAME[c]}" if i in state.revealed or over else f"{i + 1}: 🂠"
        for i, c in enumerate(state.spread)
    ]
    table.board.append("Places: " + " | ".join(places))
    table.data["revealed"] = {i + 1: state.spread[i] for i in state.revealed}


def pick_view(state: PickState, table: Table) -> None:
    seat = table.seat
    if state.lord is not None:
        table.lord_and_vassal(state.lord, parity=True)
    if counts_rounds(state):
        for s, w in enumerate(state.wins):
            table.rows[s].append(f"{plural(w, 'round')} won")
        table.data["wins"] = list(state.wins)
    if state.variant == "defend" and state.players > 2:
        for s in range(state.players):
            out = state.out_round[s]
            table.rows[s].append("standing" if out == 0 else f"out in round {out}")
        table.data["out_round"] = list(state.out_round)
    if state.variant == "tourney":
        for s in range(2):
            left = " ".join(NAME[c] for c in state.hands[s])
            table.rows[s].append(f"cards: {left or 'none'}")
        table.data["hands"] = [list(h) for h in state.hands]
    if state.last_picks:
        # On the board until the next reveal (the table's last events show only the latest
        # move's): the hand repeats it beside the next pick (the board's line after its
        # title), so that a seat that picked before the others learns the picks and who
        # took the round (the reveal's events went with another's move).
        table.board.append(last_reveal(state))
    table.data["last_picks"] = list(state.last_picks)
    if state.phase == "pick":
        for s in range(state.players):
            if state.chosen[s] is not None:
                table.marks[s].append("picked ✓")
        table.data["picked"] = [c is not None for c in state.chosen]
    mine = state.chosen[seat] if seat is not None and state.phase == "pick" else None
    if mine is not None:
        table.private.append(f"Your secret pick: **{card_label(mine)}**")
        table.data["my_pick"] = mine
    if seat is not None and picks.standing(state, seat):
        table.hand = (CardGroup("", tuple(card_label(c) for c in state.hands[seat])),)
    elif seat is not None:
        table.private.append(f"You are out since round {state.out_round[seat]}; the others play on.")


def court_view(state: CourtState, table: Table) -> None:
    seat = table.seat
    table.marks[state.king].append("👑 King")
    table.data["king"] = state.king
    if state.shown:
        # Public at a real table: what the Witch revealed stays on the board, so that
        # nobody has to find it in the log. The re-dealt cards are not shown.
        witch = p(state.shown.index(WITCH))
        table.board.append(
            f"The Witch has struck: {witch} revealed {atcourt.shown_text(state.shown)}; "
            "the cards were then dealt again."
        )
        table.data["shown"] = list(state.shown)
    elif state.witch_used:  # a match stored before the reveal was kept
        table.board.append("The Witch has struck: the cards were dealt again.")
    if state.accused is not None:
        table.marks[state.accused].append("accused")
    if state.phase == "question":
        for s in state.ready:
            table.marks[s].append("ready ✓")
        table.data["ready"] = list(state.ready)
    if state.phase == "over":
        for s, c in enumerate(state.cards):
            table.rows[s].append(NAME[c])
        table.data["cards"] = list(state.cards)
    if seat is not None:
        mine = state.cards[seat]
        table.hand = (CardGroup(f"{TEAM[mine].capitalize()} team", (card_label(mine),)),)
        table.data["my_card"] = mine
        if seat == state.peeker and state.peeked is not None:
            table.private.append(
                f"You looked: {p(state.peeked)} holds the {NAME[state.cards[state.peeked]]}."
            )
            table.data["peek"] = [state.peeked, state.cards[state.peeked]]


def waiting(state: CrownState) -> str:
    if state.phase == "over":
        return "The match is over."
    if isinstance(state, PickState):
        names = [p(s) for s in sorted(picks.to_act(state))]
        return f"Waiting for {join_names(names)} to pick a card in secret."
    if isinstance(state, FindState):
        return f"Waiting for {p(find.vassal(state))} to reveal a place."
    if state.phase == "question":
        if not atcourt.asking(state):  # nobody may strike or look any more
            return f"Everyone is ready: waiting for {p(state.king)} to end questioning (5 minutes at most)."
        # Who is still asking shows on the scoreboard (▶); named here beside "Witch",
        # a name would look like a hint about who holds her.
        extra = ""
        if state.peeker is not None and atcourt.may_look(state):
            extra = f" {p(state.peeker)} may look at one card."
        elif WITCH in state.cards and not state.witch_used:
            extra = " The Witch may strike once, before saying she is ready."
        return (
            "Questioning: ask and answer in the channel, then say you are ready. "
            f"{p(state.king)} may end it (5 minutes at most).{extra}"
        )
    if state.phase == "accuse":
        return f"Waiting for {p(state.king)} to accuse someone of being the Dragon."
    return "The Beggar, if not accused, has 30 seconds to decide."
