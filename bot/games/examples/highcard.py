"""High Card: the example game of docs/ADDING_A_GAME.md, small but complete.

2 to 4 players each get five cards from a deck of 1-10 in two suits. Each round everyone
plays one card face down at the same time; when all have played, the cards are shown and
the single highest number takes the round (a tie for highest takes nobody). After the
rounds chosen in the lobby (3 or 5), whoever took most rounds wins; equal counts share the
place.

Everything a game needs is here: a frozen state with its random generator inside, secret
hands and secret picks (``view`` and ``resample``), simultaneous moves (``to_act``), one
declared slash command, a lobby option, an AI, and the end (``outcome``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from bot.games.base import (
    CardGroup,
    Command,
    Event,
    GameBase,
    GameInfo,
    Move,
    NotYourTurn,
    Option,
    Outcome,
    Parties,
    Rng,
    ScoreLine,
    SeatResult,
    SuiteHints,
    View,
    deal_hidden,
    handles,
    join_names,
    plural,
    seat_token,
    waiting_for,
)

SUITS = {"s": "suns", "m": "moons"}
DECK = tuple(f"{n}{s}" for s in SUITS for n in range(1, 11))  # "7s" is the 7 of suns
HAND_SIZE = 5
PLAY = "play"  # the one move kind: "play:7s"


def number(card: str) -> int:
    return int(card[:-1])


def card_name(card: str) -> str:
    return f"{number(card)} of {SUITS[card[-1]]}"


@dataclass(frozen=True, slots=True)
class HighCardState:
    rng: Rng
    rounds: int  # rounds to play
    round: int  # the round being played, from 1
    hands: tuple[tuple[str, ...], ...]
    chosen: tuple[str | None, ...]  # this round's face-down cards
    taken: tuple[int, ...]  # rounds taken per seat
    stock: tuple[str, ...]  # cards nobody was dealt (hidden from everyone)
    last: tuple[str, ...] = ()  # the cards shown at the last reveal, per seat

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def over(self) -> bool:
        return self.round > self.rounds


RULES = """\
**High Card**: everyone gets five cards numbered 1 to 10. Each round all players play one card face down at the same time; then the cards are shown and the single highest number takes the round. A tie for highest takes nobody.
**End**: after 3 or 5 rounds (the lobby chooses), whoever took most rounds wins; equal counts share the place.
**Rulings of this bot**: a face-down card is final. The turn timer plays your lowest card.
"""


class HighCard(GameBase[HighCardState]):
    state_types = (HighCardState,)
    info = GameInfo(
        id="highcard",
        name="High Card",
        summary="Everyone plays a card face down; the highest takes the round.",
        rules=RULES,
        min_players=2,
        max_players=4,
        options=(Option("rounds", "Rounds", (("3", "3 rounds"), ("5", "5 rounds"))),),
        commands=(Command("play", "Play a card face down.", (PLAY,), "card", "The card to play"),),
        parties=Parties(),
        hints=SuiteHints(players=2, vary=("rounds",)),
    )

    # --- set-up and whose move ---------------------------------------------------------

    def setup(self, players: int, seed: int, options: Mapping[str, str]) -> HighCardState:
        self.check_players(players, options)
        deck, rng = Rng.from_seed(seed).shuffled(DECK)
        hands = tuple(
            tuple(sorted(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE], key=number)) for i in range(players)
        )
        return HighCardState(
            rng=rng,
            rounds=int(options.get("rounds", "3")),
            round=1,
            hands=hands,
            chosen=(None,) * players,
            taken=(0,) * players,
            stock=deck[players * HAND_SIZE :],
        )

    def to_act(self, state: HighCardState) -> frozenset[int]:
        if state.over:
            return frozenset()
        return frozenset(s for s in range(state.players) if state.chosen[s] is None)

    def legal_moves(self, state: HighCardState, seat: int) -> list[Move]:
        if seat not in self.to_act(state):
            return []
        return [Move(f"{PLAY}:{c}", (f"Play the {card_name(c)}",)) for c in state.hands[seat]]

    # --- moves -------------------------------------------------------------------------

    def is_over(self, state: HighCardState) -> bool:
        return state.over

    def not_your_turn(self, state: HighCardState, seat: int) -> str:
        return waiting_for(self.to_act(state), "You have already played this round")

    def why_illegal(self, state: HighCardState, seat: int, code: str) -> str:
        return "That card is not in your hand."

    @handles(PLAY)
    def _play(self, state: HighCardState, seat: int, move: Move) -> tuple[HighCardState, list[Event]]:
        (card,) = move.args
        hands = list(state.hands)
        hands[seat] = tuple(c for c in hands[seat] if c != card)
        chosen = list(state.chosen)
        chosen[seat] = card
        state = replace(state, hands=tuple(hands), chosen=tuple(chosen))
        events = [Event(f"{seat_token(seat)} plays a card face down.")]
        if self.to_act(state):
            return state, events
        return self._reveal(state, events)

    def _reveal(self, state: HighCardState, events: list[Event]) -> tuple[HighCardState, list[Event]]:
        shown = tuple(c for c in state.chosen if c is not None)
        best = max(number(c) for c in shown)
        top = [s for s, c in enumerate(state.chosen) if c is not None and number(c) == best]
        listing = ", ".join(f"{seat_token(s)} {card_name(c)}" for s, c in enumerate(shown))
        events.append(Event(f"Round {state.round}: {listing}."))
        taken = list(state.taken)
        if len(top) == 1:
            taken[top[0]] += 1
            events.append(Event(f"{seat_token(top[0])} takes round {state.round}."))
        else:
            events.append(Event(f"A tie for highest: nobody takes round {state.round}."))
        state = replace(
            state, round=state.round + 1, chosen=(None,) * state.players, taken=tuple(taken), last=shown
        )
        if state.over:
            events.append(Event(self._summary(state)))
        return state, events

    def default_move(self, state: HighCardState, seat: int) -> Move:
        moves = self.legal_moves(state, seat)
        if not moves:
            raise NotYourTurn("You have nothing to do right now.")
        return moves[0]  # the hand is sorted: the lowest card

    def ai_move(self, state: HighCardState, seat: int, rng: Rng) -> Move:
        """Play the highest card in the first rounds that can still be won, else the lowest."""
        moves = self.legal_moves(state, seat)
        if not moves:
            raise NotYourTurn("Nothing to do.")
        left = state.rounds - state.round + 1
        return moves[-1] if left > len(moves) // 2 else moves[0]

    # --- what players see, and the end -----------------------------------------------------

    def view(self, state: HighCardState, seat: int | None) -> View:
        board = [f"Round {min(state.round, state.rounds)} of {state.rounds}"]
        if state.last:
            board.append("Last shown: " + ", ".join(card_name(c) for c in state.last))
        scores = tuple(
            ScoreLine(
                s,
                (plural(state.taken[s], "round"), f"{len(state.hands[s])} cards"),
                ("played ✓",) if state.chosen[s] is not None and not state.over else (),
            )
            for s in range(state.players)
        )
        hand: tuple[CardGroup, ...] = ()
        private: tuple[str, ...] = ()
        data: dict[str, Any] = {"round": state.round, "taken": list(state.taken)}
        if seat is not None:
            hand = (CardGroup("", tuple(card_name(c) for c in state.hands[seat])),)
            mine = state.chosen[seat]
            if mine is not None:
                private = (f"Face down: **{card_name(mine)}**",)
            data["hand"] = list(state.hands[seat])
        if state.over:
            waiting = self._summary(state)
        else:
            waiting = f"Waiting for {join_names([seat_token(s) for s in sorted(self.to_act(state))])} to play a card."
        return View(seat, waiting, board=tuple(board), scores=scores, hand=hand, private=private, data=data)

    def _summary(self, state: HighCardState) -> str:
        best = max(state.taken)
        names = " and ".join(seat_token(s) for s, t in enumerate(state.taken) if t == best)
        return f"{names} took most rounds ({best})."

    def outcome(self, state: HighCardState) -> Outcome | None:
        if not state.over:
            return None
        ranks = sorted(set(state.taken), reverse=True)
        results = tuple(
            SeatResult(seat=s, place=1 + ranks.index(t), score=t) for s, t in enumerate(state.taken)
        )
        return Outcome(results, self._summary(state))

    # --- persistence and invariants ----------------------------------------------------------

    def card_count(self, state: HighCardState) -> int:
        played = (state.round - 1) * state.players + sum(c is not None for c in state.chosen)
        return sum(len(h) for h in state.hands) + len(state.stock) + played

    def resample(self, state: HighCardState, seat: int, rng: Rng) -> HighCardState:
        """Deal again what ``seat`` cannot see: the others' hands and face-down cards, the stock."""
        others = [s for s in range(state.players) if s != seat]
        down = [(s, c) for s in others if (c := state.chosen[s]) is not None]
        places = [*state.hands, *((c,) for _s, c in down), state.stock]
        hidden = [*others, *range(state.players, state.players + len(down)), len(places) - 1]
        dealt, _ = deal_hidden(places, hidden, rng)
        chosen = list(state.chosen)
        for i, (s, _c) in enumerate(down):
            chosen[s] = dealt[state.players + i][0]
        hands = tuple(tuple(sorted(h, key=number)) for h in dealt[: state.players])
        return replace(state, hands=hands, chosen=tuple(chosen), stock=dealt[-1])


GAME = HighCard()
