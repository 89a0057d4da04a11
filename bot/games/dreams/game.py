"""Kingdom of Dreams (seed 001): coins, buying, attacks and the trump pile.

The engine object registered as ``dreams``: what the game declares, whose move, the phases
(a seat's turn, an attack's answer) and their move handlers (the moves themselves are in
``moves``, what each seat sees in ``view``, the end in ``scoring``), the counter's rule
timer, and the privacy re-deal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from bot.games.base import (
    Command,
    Event,
    GameBase,
    GameInfo,
    Move,
    Option,
    Outcome,
    Rng,
    Search,
    SuiteHints,
    TimedMove,
    View,
    deal_hidden,
    handles,
    waiting_for,
)
from bot.games.dreams import ai, guide, moves, scoring, view
from bot.games.dreams.cards import (
    ATTACK,
    ATTACKS,
    COIN,
    COINS,
    JACK,
    JACKS,
    KING,
    KINGS,
    QUEEN,
    QUEENS,
    TRUMPS,
    kind,
    sorted_cards,
)
from bot.games.dreams.rules import RULES
from bot.games.dreams.state import (
    ANSWER,
    ATTACK_MOVE,
    BUY,
    COIN_MOVE,
    COUNTER,
    PEEK,
    SAFETY_TURNS,
    SELL,
    SHUFFLE,
    TURN,
    DreamsState,
)

COUNTER_SECONDS = 120.0  # a defender's time to choose their counter
TURN_CAPS = (
    ("0", "No turn cap (printed rules)"),
    ("15", "15 turns each, then most value wins (short)"),
    ("25", "25 turns each, then most value wins"),
    ("40", "40 turns each, then most value wins"),
)
Played = tuple[DreamsState, list[Event]]

__all__ = ["COUNTER_SECONDS", "GAME", "SAFETY_TURNS", "Dreams", "DreamsState"]


class Dreams(GameBase[DreamsState]):
    state_types = (DreamsState,)
    info = GameInfo(
        id="dreams",
        name="Kingdom of Dreams",
        summary="Collect coins, buy attack cards, a Jack and a Queen, fight over the trump pile, and be first to buy the King.",
        rules=RULES,
        min_players=2,
        max_players=4,
        options=(Option("turns", "Turn cap", TURN_CAPS),),
        commands=(
            Command("coin", "Take the top coin card.", (COIN_MOVE,)),
            Command(
                "buy",
                "Buy a card with coins and trade-ins (no change).",
                (BUY,),
                "card",
                "What to buy and how to pay",
            ),
            Command(
                "sell",
                "Sell an attack card (5) or a Jack (10) for exact coins from the coin pile.",
                (SELL,),
                "card",
                "The card to sell",
            ),
            Command(
                "attack",
                "Attack the next player with an attack card, or a Jack holder with a Jack.",
                (ATTACK_MOVE,),
                "with",
                "Your card and whom it attacks",
            ),
            Command(
                "counter",
                "Answer an attack on you with a card of the same type.",
                (COUNTER,),
                "card",
                "Your counter",
            ),
            Command("shuffle", "Shuffle the trump pile.", (SHUFFLE,)),
            Command("peek", "Look at the trump pile's order (Queen holders).", (PEEK,)),
        ),
        card_kinds=(SELL, ATTACK_MOVE, COUNTER),  # each names the card held as its second part
        hints=SuiteHints(players=2, quick={"turns": "15"}, vary=("turns",)),
        # rollouts valued by the standing after 20 moves (measured no weaker, cheaper); a hint's
        # work in rollout moves (docs/MEASUREMENTS.md)
        search=Search(horizon=20, hint_moves=1_500),
    )
    _last_moves: tuple[DreamsState, int, tuple[Move, ...]] | None = None

    # --- set-up, whose move, which moves -------------------------------------------------

    def setup(self, players: int, seed: int, options: Mapping[str, str]) -> DreamsState:
        self.check_players(players, options)
        rng = Rng.from_seed(seed)
        coins, rng = rng.shuffled(COINS)
        trumps, rng = rng.shuffled(TRUMPS)
        attacks, rng = rng.shuffled(ATTACKS)
        king, rng = rng.choice(KINGS)
        first, rng = rng.below(players)
        return DreamsState(
            rng=rng,
            turn=first,
            hands=((),) * players,
            coin_pile=coins,
            trump_pile=trumps,
            attack_pile=attacks,
            jack_pile=JACKS,
            queen_pile=QUEENS,
            king_pile=(king,),
            peeked=(False,) * players,
            turn_cap=int(options.get("turns", "0")),
        )

    def to_act(self, state: DreamsState) -> frozenset[int]:
        if state.over:
            return frozenset()
        return frozenset({state.defender if state.attacking else state.turn})

    def phase(self, state: DreamsState) -> str:
        return ANSWER if state.attacking else TURN

    def is_over(self, state: DreamsState) -> bool:
        return state.over

    def legal_moves(self, state: DreamsState, seat: int) -> list[Move]:
        # The AI lists a state's moves and ``apply`` finds its move among them again: the
        # last answer is kept for that state (the same object, which it keeps alive).
        last = self._last_moves
        if last is not None and last[0] is state and last[1] == seat:
            return list(last[2])
        found = moves.legal_moves(state, seat)
        self._last_moves = (state, seat, tuple(found))
        return found

    def not_your_turn(self, state: DreamsState, seat: int) -> str:
        if state.attacking and 0 <= seat < state.players:
            return waiting_for(self.to_act(state), "An attack is being answered")
        return waiting_for(self.to_act(state))

    def why_illegal(self, state: DreamsState, seat: int, code: str) -> str:
        return moves.why_illegal(state, code, seat)

    def typed_code(self, state: DreamsState, seat: int, kinds: Sequence[str], text: str) -> str | None:
        bought = moves.typed_purchase(state, text) if not kinds or BUY in kinds else None
        return bought or super().typed_code(state, seat, kinds, text)

    # --- the moves of a turn ---------------------------------------------------------------

    @handles(COIN_MOVE, phase=TURN)
    def _take_coin(self, state: DreamsState, seat: int, move: Move) -> Played:
        events: list[Event] = []
        state = moves.take_coin(state, seat, events)
        return moves.end_turn(state, events), events

    @handles(BUY, phase=TURN)
    def _buy(self, state: DreamsState, seat: int, move: Move) -> Played:
        events: list[Event] = []
        state = moves.buy(state, seat, move.code, events)
        if state.over:  # the King was bought
            return state, events
        return moves.end_turn(state, events), events

    @handles(SELL, phase=TURN)
    def _sell(self, state: DreamsState, seat: int, move: Move) -> Played:
        events: list[Event] = []
        state, sold = moves.sell(state, seat, move.args[0], events)
        if not sold:  # the bank could not pay: the seat chooses another action
            return state, events
        return moves.end_turn(state, events), events

    @handles(ATTACK_MOVE, phase=TURN)
    def _attack(self, state: DreamsState, seat: int, move: Move) -> Played:
        card, *target = move.args
        defender = int(target[0]) if target else moves.next_seat(state, seat)
        events: list[Event] = []
        return moves.attack(state, seat, card, defender, events), events

    @handles(SHUFFLE, phase=TURN)
    def _shuffle(self, state: DreamsState, seat: int, move: Move) -> Played:
        events: list[Event] = []
        state = moves.shuffle(state, seat, events)
        return moves.end_turn(state, events), events

    @handles(PEEK, phase=TURN)
    def _peek(self, state: DreamsState, seat: int, move: Move) -> Played:
        events: list[Event] = []
        state = moves.peek(state, seat, events)
        return moves.end_turn(state, events), events

    # --- the answer to an attack -----------------------------------------------------------

    @handles(COUNTER, phase=ANSWER)
    def _counter(self, state: DreamsState, seat: int, move: Move) -> Played:
        events: list[Event] = []
        return moves.counter(state, seat, move.args[0], events), events

    def purchases(self, state: DreamsState, seat: int) -> list[moves.Payment]:
        """Every way ``seat`` can buy a card now (a target of each pile, each payment)."""
        return moves.purchases(state, seat)

    # --- timers, defaults, AI ---------------------------------------------------------------

    def choose_default(self, state: DreamsState, seat: int, legal: list[Move]) -> Move:
        if state.attacking:
            return ai.counter(state, seat, legal)
        # An absent player's turn: take a coin (harmless), or shuffle when the pile is empty.
        return next((m for m in legal if m.code == COIN_MOVE), next(m for m in legal if m.code == SHUFFLE))

    def timer(self, state: DreamsState) -> TimedMove | None:
        if not state.attacking or state.over:
            return None
        move = self.default_move(state, state.defender)
        return TimedMove(COUNTER_SECONDS, state.defender, move.code, "the time to counter an attack ran out")

    def situations(self, state: DreamsState, seat: int) -> tuple[tuple[str, str], ...]:
        return guide.situations(state, seat, self.legal_moves(state, seat))

    def hint_reason(self, state: DreamsState, seat: int, move: Move) -> str | None:
        return guide.hint_reason(state, seat, move)

    def choose_ai(self, state: DreamsState, seat: int, legal: list[Move], rng: Rng) -> Move:
        return ai.choose(state, seat, legal, rng)

    # --- what players see, and the end -------------------------------------------------------

    def view(self, state: DreamsState, seat: int | None) -> View:
        return view.view(state, seat)

    def outcome(self, state: DreamsState) -> Outcome | None:
        return scoring.outcome(state)

    def standing(self, state: DreamsState) -> Outcome | None:
        """The turn cap's ruling applied now: most total value wins."""
        return scoring.standing(state)

    # --- invariants --------------------------------------------------------------------------

    def card_count(self, state: DreamsState) -> int:
        piles = (
            state.coin_pile,
            state.trump_pile,
            state.attack_pile,
            state.jack_pile,
            state.queen_pile,
            state.king_pile,
        )
        return sum(len(x) for x in piles) + sum(len(h) for h in state.hands)

    def resample(self, state: DreamsState, seat: int, rng: Rng) -> DreamsState:
        """Deal again what ``seat`` cannot see: the coin and attack piles and the other seats'
        coins, attack cards, Jacks and Queens (counts kept), and the trump pile's order unless
        ``seat`` holds a valid peek. The attacking card on the table stays where it is."""
        others = [s for s in range(state.players) if s != seat]
        shown = (state.attack_card,) if state.attacking else ()
        parts: dict[str, list[tuple[str, ...]]] = {}
        for group in (COIN, ATTACK, JACK, QUEEN):
            parts[group] = [
                tuple(c for c in state.hands[s] if kind(c) == group and not (s == state.turn and c in shown))
                for s in range(state.players)
            ]
        coin_places, rng = deal_hidden([state.coin_pile, *parts[COIN]], [0, *(1 + s for s in others)], rng)
        attack_places, rng = deal_hidden(
            [state.attack_pile, *parts[ATTACK]], [0, *(1 + s for s in others)], rng
        )
        jack_places, rng = deal_hidden(parts[JACK], others, rng)
        queen_places, rng = deal_hidden(parts[QUEEN], others, rng)
        hands = []
        for s in range(state.players):
            kept = tuple(c for c in state.hands[s] if kind(c) == KING or (s == state.turn and c in shown))
            cards = coin_places[1 + s] + attack_places[1 + s] + jack_places[s] + queen_places[s] + kept
            hands.append(sorted_cards(list(cards)))
        trumps = state.trump_pile
        if not state.peeked[seat]:
            trumps, rng = rng.shuffled(sorted(trumps, key=repr))
        return replace(
            state,
            hands=tuple(hands),
            coin_pile=coin_places[0],
            attack_pile=attack_places[0],
            trump_pile=trumps,
        )


GAME = Dreams()
