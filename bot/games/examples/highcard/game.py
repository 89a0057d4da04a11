"""High Card: the example game of docs/ADDING_A_GAME.md, small but complete.

2 to 4 players each get five cards from a deck of 1-10 in two suits. Each round everyone
plays one card face down at the same time; when all have played, the cards are shown and
the single highest number takes the round (a tie for highest takes nobody). After the
rounds chosen in the lobby (3 or 5), whoever took most rounds wins. With the lobby's
"pass" option, everyone first passes two cards to the left.

What a game declares and what the kit does with it: ``info`` (id, name, players, options,
commands, parties, test hints); the phases (``phase``) and a handler per move kind and
phase (``@handles``: the kit has judged the move before); secret hands and simultaneous
moves (``to_act``, ``view``, ``resample``); a pick of several cards and a move in two steps
(the pass, ``moves``); a rule timer (``timer``); stages (``stage``); an AI; the state saved by the kit's codec (``state_types``).
Its card pictures are ``bot/images/highcard.py``; its scenario tests
``tests/engines/test_highcard.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from bot.games.base import (
    Command,
    Event,
    GameBase,
    GameInfo,
    Move,
    Option,
    Outcome,
    Parties,
    Rng,
    SuiteHints,
    TimedMove,
    View,
    deal_hidden,
    handles,
    waiting_for,
)
from bot.games.examples.highcard import ai, guide, moves, scoring, view
from bot.games.examples.highcard.cards import DECK, HAND_SIZE, by_number
from bot.games.examples.highcard.rules import RULES
from bot.games.examples.highcard.state import PASS, PLAY, HighCardState

LAST_SECONDS = 30.0  # the last seat to play (or pass) has this long, then its lowest card goes
Played = tuple[HighCardState, list[Event]]


class HighCard(GameBase[HighCardState]):
    state_types = (HighCardState,)
    info = GameInfo(
        id="highcard",
        name="High Card",
        summary="Everyone plays a card face down; the highest takes the round.",
        rules=RULES,
        min_players=2,
        max_players=4,
        options=(
            Option("rounds", "Rounds", (("3", "3 rounds"), ("5", "5 rounds"))),
            Option("pass", "Passing", (("off", "No passing"), ("on", "Pass two cards to the left first"))),
        ),
        commands=(
            Command("play", "Play a card face down.", (PLAY,), "card", "The card to play"),
            Command("pass", "Pass two cards to the left.", (PASS,), "cards", "The two cards to pass"),
        ),
        card_kinds=(PLAY,),
        parties=Parties(),
        hints=SuiteHints(players=2, vary=("rounds", "pass")),
    )

    # --- set-up, whose move, which moves -----------------------------------------------

    def setup(self, players: int, seed: int, options: Mapping[str, str]) -> HighCardState:
        self.check_players(players, options)
        deck, rng = Rng.from_seed(seed).shuffled(DECK)
        hands = tuple(by_number(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE]) for i in range(players))
        return HighCardState(
            rng=rng,
            rounds=int(options.get("rounds", "3")),
            round=1,
            hands=hands,
            chosen=(None,) * players,
            taken=(0,) * players,
            stock=deck[players * HAND_SIZE :],
            passing=(None,) * players if options.get("pass", "off") == "on" else (),
        )

    def to_act(self, state: HighCardState) -> frozenset[int]:
        return moves.to_act(state)

    def phase(self, state: HighCardState) -> str:
        return state.phase

    def is_over(self, state: HighCardState) -> bool:
        return state.over

    def stage(self, state: HighCardState) -> int:
        """Each round is scored on its own. (A game that can also score a match cut short
        declares ``standing``, and the search AI's rollouts then end with the stage.)"""
        return state.round

    def legal_moves(self, state: HighCardState, seat: int) -> list[Move]:
        return moves.legal_moves(state, seat)

    def not_your_turn(self, state: HighCardState, seat: int) -> str:
        done = "You have already passed" if state.passing else "You have already played this round"
        return waiting_for(self.to_act(state), done)

    def why_illegal(self, state: HighCardState, seat: int, code: str) -> str:
        return moves.why_illegal(state, code)

    # --- a handler per move kind and phase (the kit has judged the move) ----------------

    @handles(PASS, phase=PASS)
    def _pass(self, state: HighCardState, seat: int, move: Move) -> Played:
        (cards,) = move.args
        return moves.pass_cards(state, seat, tuple(cards.split(".")))

    @handles(PLAY, phase=PLAY)
    def _play(self, state: HighCardState, seat: int, move: Move) -> Played:
        (card,) = move.args
        return moves.play_card(state, seat, card)

    # --- timers, defaults, AI --------------------------------------------------------------

    def choose_default(self, state: HighCardState, seat: int, legal: list[Move]) -> Move:
        return legal[0]  # the hand is sorted: the lowest card (or the two lowest, to pass)

    def timer(self, state: HighCardState) -> TimedMove | None:
        """The rule timer: when only one seat is left to act, it has LAST_SECONDS."""
        waiting = self.to_act(state)
        if len(waiting) != 1:
            return None
        (seat,) = waiting
        move = self.default_move(state, seat)
        return TimedMove(LAST_SECONDS, seat, move.code, "the last player's time ran out")

    def situations(self, state: HighCardState, seat: int) -> tuple[tuple[str, str], ...]:
        return guide.situations(state, seat, self.legal_moves(state, seat))

    def hint_reason(self, state: HighCardState, seat: int, move: Move) -> str | None:
        return guide.hint_reason(state, seat, move)

    def choose_ai(self, state: HighCardState, seat: int, legal: list[Move], rng: Rng) -> Move:
        return ai.choose(state, seat, legal)

    # --- what players see, and the end ------------------------------------------------------

    def view(self, state: HighCardState, seat: int | None) -> View:
        return view.view(state, seat)

    def outcome(self, state: HighCardState) -> Outcome | None:
        return scoring.outcome(state)

    # --- invariants ---------------------------------------------------------------------------

    def card_count(self, state: HighCardState) -> int:
        played = (state.round - 1) * state.players + sum(c is not None for c in state.chosen)
        return sum(len(h) for h in state.hands) + len(state.stock) + played

    def resample(self, state: HighCardState, seat: int, rng: Rng) -> HighCardState:
        """Deal again what ``seat`` cannot see: the others' hands and face-down cards, the
        stock. Cards another seat chose to pass stay in its hand, hidden like the rest, so
        its choice is dealt again too."""
        others = [s for s in range(state.players) if s != seat]
        down = [(s, c) for s in others if (c := state.chosen[s]) is not None]
        places = [*state.hands, *((c,) for _s, c in down), state.stock]
        hidden = [*others, *range(state.players, state.players + len(down)), len(places) - 1]
        dealt, _ = deal_hidden(places, hidden, rng)
        chosen = list(state.chosen)
        for i, (s, _c) in enumerate(down):
            chosen[s] = dealt[state.players + i][0]
        hands = tuple(by_number(h) for h in dealt[: state.players])
        passing = tuple(
            None if given is None else given if s == seat else hands[s][: len(given)]
            for s, given in enumerate(state.passing)
        )
        return replace(state, hands=hands, chosen=tuple(chosen), stock=dealt[-1], passing=passing)


GAME = HighCard()
