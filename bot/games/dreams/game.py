"""Kingdom of Dreams (seed 001): coins, buying, attacks and the trump pile.

The engine object registered as ``dreams``: whose move, the legal moves, applying one,
what each seat may see, the end, persistence and the privacy re-deal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from typing import Any

from bot.games.base import (
    CardGroup,
    Command,
    Event,
    GameBase,
    GameInfo,
    IllegalMove,
    MatchOver,
    Move,
    NotYourTurn,
    Option,
    Outcome,
    Rng,
    ScoreLine,
    Search,
    SeatResult,
    SuiteHints,
    TimedMove,
    View,
    deal_hidden,
    join_names,
    plural,
    ranked,
    seat_token,
    waiting_for,
)
from bot.games.dreams import ai
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
    SALE,
    TRUMPS,
    kind,
    name,
    number,
    sorted_cards,
)
from bot.games.dreams.combat import ATTACKER, NOBODY, Verdict, resolve, trump_text
from bot.games.dreams.payment import ATTACK_TARGET, Payment, exact_change, payments
from bot.games.dreams.rules import RULES
from bot.games.dreams.state import KING_BOUGHT, SAFETY_VALVE, TURN_CAP, DreamsState, dump, load

COUNTER_SECONDS = 120.0  # a defender's time to choose their counter
SAFETY_TURNS = 150  # turns per player after which any match ends on value (a stall valve)
TURN_CAPS = (
    ("0", "No turn cap (printed rules)"),
    ("15", "15 turns each, then most value wins (short)"),
    ("25", "25 turns each, then most value wins"),
    ("40", "40 turns each, then most value wins"),
)

# Move kinds (the part of a code before the first ":").
COIN_MOVE, BUY, SELL, ATTACK_MOVE, COUNTER, SHUFFLE, PEEK = (
    "coin",
    "buy",
    "sell",
    "attack",
    "counter",
    "shuffle",
    "peek",
)

# How the status line names each kind of move, in the order it lists them.
ACTION_WORDS = (
    (COIN_MOVE, "take a coin"),
    (BUY, "buy"),
    (SELL, "sell"),
    (ATTACK_MOVE, "attack"),
    (SHUFFLE, "shuffle the trump pile"),
    (PEEK, "peek at it"),
)

GROUPS = (
    (COIN, "🪙 Coins"),
    (ATTACK, "⚔️ Attack cards"),
    (JACK, "🤺 Jacks"),
    (QUEEN, "👸 Queens"),
    (KING, "👑 King"),
)


def p(seat: int) -> str:
    return seat_token(seat)


def _without(cards: tuple[str, ...], gone: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    out = list(cards)
    for c in gone:
        out.remove(c)
    return tuple(out)


def _with(cards: tuple[str, ...], *added: str) -> tuple[str, ...]:
    return sorted_cards(list(cards) + list(added))


@lru_cache(maxsize=8192)
def _buy_moves(hand: tuple[str, ...], target: str) -> tuple[Move, ...]:
    """The moves buying ``target`` with ``hand``, one per payment (cached like the payments:
    a hand is asked for its moves again and again)."""
    return tuple(Move(pay.code, (pay.target_label, pay.payment_label)) for pay in payments(hand, target))


@lru_cache(maxsize=256)
def _best_hand(coins: int, attacks: int, jacks: int, queens: int) -> tuple[str, ...]:
    """The richest hand a seat with these counts can hold: its coins the highest there are
    (the table shows only how many). Whatever it cannot buy, no hand with these counts can."""
    richest = sorted(COINS, key=number, reverse=True)[:coins]
    return sorted_cards(richest + list(ATTACKS[:attacks] + JACKS[:jacks] + QUEENS[:queens]))


def _set(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return items[:index] + (value,) + items[index + 1 :]


def _royals(counts: Mapping[str, int]) -> str:
    """A seat's Queens and Jacks as the end of a match says them: "1 Queen and 2 Jacks"."""
    royals = [plural(counts[kind], name) for kind, name in ((QUEEN, "Queen"), (JACK, "Jack")) if counts[kind]]
    return join_names(royals) if royals else "no Jack or Queen"


class Dreams(GameBase[DreamsState]):
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
        search=Search(
            horizon=20
        ),  # rollouts valued by the standing after 20 moves (measured no weaker, cheaper)
    )
    _last_moves: tuple[DreamsState, int, tuple[Move, ...]] | None = None

    # --- set-up and whose move ---------------------------------------------------------

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

    def next_seat(self, state: DreamsState, seat: int) -> int:
        return (seat + 1) % state.players

    # --- the legal moves -------------------------------------------------------------------

    def legal_moves(self, state: DreamsState, seat: int) -> list[Move]:
        # The AI lists a state's moves and ``apply`` checks its move against them again: the
        # last answer is kept for that state (the same object, which it keeps alive).
        last = self._last_moves
        if last is not None and last[0] is state and last[1] == seat:
            return list(last[2])
        moves = self._legal_moves(state, seat)
        self._last_moves = (state, seat, tuple(moves))
        return moves

    def _legal_moves(self, state: DreamsState, seat: int) -> list[Move]:
        if seat not in self.to_act(state):
            return []
        if state.attacking:
            return [
                Move(f"{COUNTER}:{c}", (f"Counter with {name(c)}",))
                for c in state.holding(seat, kind(state.attack_card))
            ]
        moves: list[Move] = []
        if state.coin_pile:
            moves.append(Move(COIN_MOVE, ("Take a coin",)))
        for wanted in self._targets(state):
            moves += _buy_moves(state.hands[seat], wanted)
        for card in sorted_cards(list(set(state.holding(seat, ATTACK) + state.holding(seat, JACK)))):
            price = SALE[kind(card)]
            if price not in state.refused:
                moves.append(Move(f"{SELL}:{card}", (f"Sell {name(card)} ({price})",)))
        nxt = self.next_seat(state, seat)
        if state.count(nxt, ATTACK):
            for card in state.holding(seat, ATTACK):
                moves.append(Move(f"{ATTACK_MOVE}:{card}", (f"Attack {p(nxt)} with {name(card)}",)))
        for jack in state.holding(seat, JACK):
            for target in range(state.players):
                if target != seat and state.count(target, JACK):
                    moves.append(
                        Move(f"{ATTACK_MOVE}:{jack}:{target}", (f"Attack {p(target)} with {name(jack)}",))
                    )
        moves.append(Move(SHUFFLE, ("Shuffle the trump pile",)))
        if state.count(seat, QUEEN) and not state.peeked[seat]:
            moves.append(Move(PEEK, ("Peek at the trump pile",)))
        return moves

    def purchases(self, state: DreamsState, seat: int) -> list[Payment]:
        """Every way ``seat`` can buy a card now (a target of each pile, each payment)."""
        return [pay for target in self._targets(state) for pay in payments(state.hands[seat], target)]

    def _targets(self, state: DreamsState) -> tuple[str, ...]:
        """What may be bought now: the attack pile's top (drawn at random), every Jack,
        Queen and King face up."""
        attack = (ATTACK_TARGET,) if state.attack_pile else ()
        return attack + state.jack_pile + state.queen_pile + state.king_pile

    # --- playing a move ----------------------------------------------------------------------

    def apply(self, state: DreamsState, seat: int, move: Move | str) -> tuple[DreamsState, list[Event]]:
        code = move if isinstance(move, str) else move.code
        if state.over:
            raise MatchOver("This match is over.")
        if seat not in self.to_act(state):
            if state.attacking and 0 <= seat < state.players:
                raise NotYourTurn(waiting_for(self.to_act(state), "An attack is being answered"))
            raise NotYourTurn(waiting_for(self.to_act(state)))
        legal = {m.code: m for m in self.legal_moves(state, seat)}
        if code not in legal:
            raise IllegalMove(self._why_not(state, seat, code))
        kind_ = code.split(":", 1)[0]
        events: list[Event] = []
        if kind_ == COUNTER:
            return self._counter(state, seat, code.split(":")[1], events)
        if kind_ == SELL:
            state, done = self._sell(state, seat, code.split(":")[1], events)
            if not done:
                return state, events
        elif kind_ == ATTACK_MOVE:
            return self._attack(state, seat, code, events), events
        elif kind_ == COIN_MOVE:
            card = state.coin_pile[0]
            state = replace(
                state,
                coin_pile=state.coin_pile[1:],
                hands=_set(state.hands, seat, _with(state.hands[seat], card)),
            )
            events += [
                Event(f"{p(seat)} takes a coin."),
                Event(f"You took {name(card)} (worth {number(card)}).", seat),
            ]
        elif kind_ == BUY:
            state = self._buy(state, seat, code, events)
            if state.over:
                return state, events
        elif kind_ == SHUFFLE:
            trumps, rng = state.rng.shuffled(state.trump_pile)
            state = replace(state, trump_pile=trumps, rng=rng, peeked=(False,) * state.players)
            events.append(Event(f"{p(seat)} shuffles the trump pile."))
        elif kind_ == PEEK:
            state = replace(state, peeked=_set(state.peeked, seat, True))
            # The order itself is a line of the peeker's hand while the peek holds (view).
            events.append(Event(f"{p(seat)} peeks at the trump pile."))
        return self._end_turn(state, events), events

    def _why_not(self, state: DreamsState, seat: int, code: str) -> str:
        kind_ = code.split(":", 1)[0]
        if state.attacking:
            return f"Answer the attack with one of your {'Jacks' if kind(state.attack_card) == JACK else 'attack cards'}."
        reasons = {
            COIN_MOVE: "The coin pile is empty.",
            BUY: "You cannot buy that now: check the price (no change is given), the pile, and what you must "
            "still hold after paying (Jack: an attack card, no Jack; Queen: an attack card, one Jack, no "
            "Queen; King: an attack card, one Jack, one Queen).",
            SELL: "You can sell only an attack card or a Jack you hold (and not again this turn at a price the "
            "bank could not pay).",
            ATTACK_MOVE: "Attack the next player with an attack card (they must hold one), or a Jack holder with a Jack.",
            COUNTER: "There is no attack to answer.",
            PEEK: "Only a Queen holder may peek, once until the trump pile is next shuffled.",
        }
        return reasons.get(kind_, "That is not a move of Kingdom of Dreams; /hand shows yours.")

    def _end_turn(self, state: DreamsState, events: list[Event]) -> DreamsState:
        turns = state.turns + 1
        state = replace(state, turn=self.next_seat(state, state.turn), turns=turns, refused=())
        if state.turn_cap and turns >= state.turn_cap * state.players:
            return self._end_on_value(state, TURN_CAP, events)
        if turns >= SAFETY_TURNS * state.players:
            return self._end_on_value(state, SAFETY_VALVE, events)
        return state

    def _end_on_value(self, state: DreamsState, why: str, events: list[Event]) -> DreamsState:
        values = tuple(state.value_of(s) for s in range(state.players))
        state = replace(state, ended=why, final_values=values)
        events.append(Event(self._summary(state)))
        return state

    def _buy(self, state: DreamsState, seat: int, code: str, events: list[Event]) -> DreamsState:
        pay = next(pay for pay in self.purchases(state, seat) if pay.code == code)
        hand = _without(state.hands[seat], pay.given)
        coin_pile, rng = state.rng.shuffled(state.coin_pile + pay.coins)
        attack_pile = state.attack_pile + pay.attack_cards
        jack_pile = sorted_cards(list(state.jack_pile + pay.jacks))
        queen_pile, king_pile = state.queen_pile, state.king_pile
        if pay.target == ATTACK_TARGET:
            index, rng = rng.below(len(attack_pile))
            bought = attack_pile[index]
            attack_pile = attack_pile[:index] + attack_pile[index + 1 :]
        else:
            bought = pay.target
            jack_pile = _without(jack_pile, (bought,)) if kind(bought) == JACK else jack_pile
            queen_pile = _without(queen_pile, (bought,)) if kind(bought) == QUEEN else queen_pile
            king_pile = _without(king_pile, (bought,)) if kind(bought) == KING else king_pile
        state = replace(
            state,
            rng=rng,
            hands=_set(state.hands, seat, _with(hand, bought)),
            coin_pile=coin_pile,
            attack_pile=attack_pile,
            jack_pile=jack_pile,
            queen_pile=queen_pile,
            king_pile=king_pile,
        )
        given = []
        if pay.coins:
            given.append("paying " + plural(len(pay.coins), "coin card"))
        traded = ([plural(len(pay.attack_cards), "attack card")] if pay.attack_cards else []) + [
            name(j) for j in pay.jacks
        ]
        if traded:
            given.append("trading in " + " and ".join(traded))
        what = "an attack card" if pay.target == ATTACK_TARGET else name(bought)
        events.append(Event(f"{p(seat)} buys {what}, {' and '.join(given)}."))
        mine = f"You paid {' '.join(name(c) for c in pay.given)}."  # the move's label gave the sums
        if pay.target == ATTACK_TARGET:
            mine += f" You drew {name(bought)}."
        events.append(Event(mine, seat))
        if kind(bought) == KING:
            state = replace(state, ended=KING_BOUGHT, winner=seat, turns=state.turns + 1)
            events.append(Event(self._summary(state)))
        return state

    def _sell(
        self, state: DreamsState, seat: int, card: str, events: list[Event]
    ) -> tuple[DreamsState, bool]:
        price = SALE[kind(card)]
        change = exact_change(state.coin_pile, price)
        what = name(card) if kind(card) == JACK else "an attack card"
        if change is None:
            events.append(
                Event(
                    f"{p(seat)} offers {what} for sale, but the coin pile cannot pay exactly {price}: the sale is "
                    f"refused and {p(seat)} chooses another action."
                )
            )
            return replace(state, refused=tuple(sorted(state.refused + (price,)))), False
        coin_pile, rng = state.rng.shuffled(_without(state.coin_pile, change))
        hand = _with(_without(state.hands[seat], (card,)), *change)
        if kind(card) == JACK:
            state = replace(state, jack_pile=sorted_cards(list(state.jack_pile) + [card]))
        else:
            state = replace(state, attack_pile=state.attack_pile + (card,))
        state = replace(state, rng=rng, coin_pile=coin_pile, hands=_set(state.hands, seat, hand))
        events.append(
            Event(f"{p(seat)} sells {what} for {price}, paid in {plural(len(change), 'coin card')}.")
        )
        events.append(
            Event(f"You sold {name(card)}; the bank paid {' '.join(name(c) for c in change)}.", seat)
        )
        return state, True

    def _attack(self, state: DreamsState, seat: int, code: str, events: list[Event]) -> DreamsState:
        parts = code.split(":")
        card = parts[1]
        target = int(parts[2]) if len(parts) > 2 else self.next_seat(state, seat)
        state = replace(state, defender=target, attack_card=card)
        what = "a Jack" if kind(card) == JACK else "an attack card"
        events.append(
            Event(f"{p(seat)} attacks {p(target)} with {name(card)}; {p(target)} must answer with {what}.")
        )
        return state

    def _counter(
        self, state: DreamsState, seat: int, card: str, events: list[Event]
    ) -> tuple[DreamsState, list[Event]]:
        attacker, attacking = state.turn, state.attack_card
        verdict = resolve(attacking, card, state.trump_pile)
        hands = _set(state.hands, attacker, _without(state.hands[attacker], (attacking,)))
        hands = _set(hands, seat, _without(hands[seat], (card,)))
        attack_pile, jack_pile = state.attack_pile, state.jack_pile
        head = f"{p(seat)} counters {p(attacker)}'s {name(attacking)} with {name(card)}."
        if verdict.winner == NOBODY:
            if kind(card) == JACK:
                jack_pile = sorted_cards(list(jack_pile) + [attacking, card])
            else:
                attack_pile = attack_pile + (attacking, card)
            result = "both cards went back"
            text = f"{head} {verdict.reason}"
        else:
            winner = attacker if verdict.winner == ATTACKER else seat
            hands = _set(hands, winner, _with(hands[winner], attacking, card))
            result = f"{p(winner)} won both"
            text = f"{head} {verdict.reason} {p(winner)} wins both cards."
        events.append(Event(text))
        events += self._told_result(state, verdict, attacker, attacking, seat, card)
        rng, trumps, peeked = state.rng, state.trump_pile, state.peeked
        if verdict.flipped:
            trumps, rng = rng.shuffled(trumps)
            peeked = (False,) * state.players
            events.append(Event("The trump pile is reshuffled."))
        last = f"{p(attacker)} {name(attacking)} vs {p(seat)} {name(card)}: {result}"
        if verdict.flipped:
            last += f" (trump {trump_text(state.trump_pile)})"
        state = replace(
            state,
            rng=rng,
            hands=hands,
            attack_pile=attack_pile,
            jack_pile=jack_pile,
            trump_pile=trumps,
            peeked=peeked,
            defender=-1,
            attack_card="",
            last_attack=last,
        )
        return self._end_turn(state, events), events

    @staticmethod
    def _told_result(
        state: DreamsState, verdict: Verdict, attacker: int, attacking: str, defender: int, card: str
    ) -> list[Event]:
        """The attack's result told to each side in its own words (the public event starts
        with the defender's name, which the defender's hand echo leaves out as his own move)."""
        if verdict.winner == NOBODY:
            return [
                Event(
                    f"The joker came up: your {name(attacking)} and {p(defender)}'s {name(card)} went back to the pile.",
                    attacker,
                ),
                Event(
                    f"The joker came up: your {name(card)} and {p(attacker)}'s {name(attacking)} went back to the pile.",
                    defender,
                ),
            ]
        why = f"trump {trump_text(state.trump_pile)}" if verdict.flipped else "same suit, the higher wins"
        if verdict.winner == ATTACKER:
            return [
                Event(f"You won {p(defender)}'s {name(card)} with your {name(attacking)} ({why}).", attacker),
                Event(f"You lost {name(card)} to {p(attacker)}'s {name(attacking)} ({why}).", defender),
            ]
        return [
            Event(f"You lost {name(attacking)} to {p(defender)}'s {name(card)} ({why}).", attacker),
            Event(f"You won {p(attacker)}'s {name(attacking)} with your {name(card)} ({why}).", defender),
        ]

    # --- timers, defaults, AI ---------------------------------------------------------------

    def default_move(self, state: DreamsState, seat: int) -> Move:
        moves = self.legal_moves(state, seat)
        if not moves:
            raise NotYourTurn("You have nothing to do right now.")
        if state.attacking:
            return ai.counter(state, seat, moves)
        # An absent player's turn: take a coin (harmless), or shuffle when the pile is empty.
        return next((m for m in moves if m.code == COIN_MOVE), next(m for m in moves if m.code == SHUFFLE))

    def timer(self, state: DreamsState) -> TimedMove | None:
        if not state.attacking or state.over:
            return None
        move = self.default_move(state, state.defender)
        return TimedMove(COUNTER_SECONDS, state.defender, move.code, "the time to counter an attack ran out")

    def ai_move(self, state: DreamsState, seat: int, rng: Rng) -> Move:
        moves = self.legal_moves(state, seat)
        if not moves:
            raise NotYourTurn("Nothing to do.")
        return ai.choose(state, seat, moves, rng)

    # --- what players see ---------------------------------------------------------------------

    def view(self, state: DreamsState, seat: int | None) -> View:
        cap = f" of {state.turn_cap * state.players}" if state.turn_cap else ""
        board = [
            (
                f"Turn {state.turns + (0 if state.over else 1)}{cap} · piles: coins {len(state.coin_pile)}, "
                f"trump {len(state.trump_pile)}, attack {len(state.attack_pile)}"
            ),
            "Jacks "
            + (" ".join(name(c) for c in state.jack_pile) or "none")
            + " · Queens "
            + (" ".join(name(c) for c in state.queen_pile) or "none")
            + " · King "
            + (" ".join(name(c) for c in state.king_pile) or "bought"),
        ]
        if state.attacking:
            board.append(f"⚔️ {p(state.turn)} attacks {p(state.defender)} with {name(state.attack_card)}")
        if state.last_attack:
            board.append(f"Last attack: {state.last_attack}")
        scores = []
        for s in range(state.players):
            counts = state.counts(s)
            figures = (
                plural(counts[COIN], "coin"),
                plural(counts[ATTACK], "attack card"),
                plural(counts[JACK], "Jack"),
                plural(counts[QUEEN], "Queen"),
            )
            marks: list[str] = []
            if counts[KING]:
                marks.append("👑 King")
            if state.peeked[s]:
                marks.append("👁 knows the trump order")
            if state.final_values:
                marks.append(f"value {state.final_values[s]}")
            scores.append(ScoreLine(s, figures, tuple(marks)))
        data: dict[str, Any] = {
            "turn": state.turn,
            "turns": state.turns,
            "counts": [state.counts(s) for s in range(state.players)],
            "piles": {
                "coins": len(state.coin_pile),
                "trump": len(state.trump_pile),
                "attack": len(state.attack_pile),
                "jacks": list(state.jack_pile),
                "queens": list(state.queen_pile),
                "king": list(state.king_pile),
            },
            "attack": [state.turn, state.defender, state.attack_card] if state.attacking else None,
            "last_attack": state.last_attack,
            "peeked": list(state.peeked),
        }
        hand: tuple[CardGroup, ...] = ()
        private: list[str] = []
        if seat is not None:
            mine = state.hands[seat]
            groups = ((label, tuple(name(c) for c in mine if kind(c) == group)) for group, label in GROUPS)
            hand = tuple(CardGroup(label, cards) for label, cards in groups if cards)
            worth = sum(number(c) for c in mine if kind(c) == COIN)
            private.append(
                f"Your coins are worth {worth}; everything you hold is worth {state.value_of(seat)}."
            )
            data["hand"] = list(mine)
            if state.peeked[seat]:
                private.append(
                    f"You peeked, top first: {trump_text(state.trump_pile)} (until the next shuffle)."
                )
                data["trump_order"] = list(state.trump_pile)
        return View(
            seat,
            self._waiting(state, seat),
            board=tuple(board),
            scores=tuple(scores),
            hand=hand,
            private=tuple(private),
            data=data,
        )

    def _waiting(self, state: DreamsState, seat: int | None = None) -> str:
        if state.over:
            return self._summary(state)
        if state.attacking:
            what = "a Jack" if kind(state.attack_card) == JACK else "an attack card"
            return (
                f"Waiting for {p(state.defender)} to counter {p(state.turn)}'s attack ({name(state.attack_card)}) "
                f"with {what}."
            )
        if seat == state.turn:  # the player's own hand: their own legal moves
            kinds = {m.kind for m in self.legal_moves(state, seat)}
        else:
            kinds = self._public_kinds(state, state.turn)
        words = [word for kind_, word in ACTION_WORDS if kind_ in kinds]
        said = ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]
        return f"Waiting for {p(state.turn)} to {said}."

    def _public_kinds(self, state: DreamsState, seat: int) -> set[str]:
        """The kinds of move ``seat`` may have, told from what the table shows (the counts
        of what each seat holds, the piles): which coins and attack cards it holds is
        hidden, so a buy is named when the best hand with these counts could pay."""
        counts = state.counts(seat)
        kinds = {SHUFFLE}
        if state.coin_pile:
            kinds.add(COIN_MOVE)
        best = _best_hand(counts[COIN], counts[ATTACK], counts[JACK], counts[QUEEN])
        if any(_buy_moves(best, target) for target in self._targets(state)):
            kinds.add(BUY)
        if any(counts[k] and SALE[k] not in state.refused for k in (ATTACK, JACK)):
            kinds.add(SELL)
        nxt = self.next_seat(state, seat)
        jack_rivals = any(state.count(s, JACK) for s in range(state.players) if s != seat)
        if (counts[ATTACK] and state.count(nxt, ATTACK)) or (counts[JACK] and jack_rivals):
            kinds.add(ATTACK_MOVE)
        if counts[QUEEN] and not state.peeked[seat]:
            kinds.add(PEEK)
        return kinds

    # --- the end ----------------------------------------------------------------------------------

    def _summary(self, state: DreamsState) -> str:
        if state.ended == KING_BOUGHT:
            held = "; ".join(
                f"{p(s)} held {_royals(state.counts(s))}" for s in range(state.players) if s != state.winner
            )
            return f"{p(state.winner)} buys the King and wins! {held}."
        best = max(state.final_values)
        leaders = " and ".join(p(s) for s, v in enumerate(state.final_values) if v == best)
        why = (
            f"The turn cap ({state.turn_cap} turns each) is reached"
            if state.ended == TURN_CAP
            else f"The match stalled ({SAFETY_TURNS} turns each)"
        )
        return f"{why}: {leaders} {'wins' if ' and ' not in leaders else 'share first place'} with the most value ({best})."

    def outcome(self, state: DreamsState) -> Outcome | None:
        if not state.over:
            return None
        if state.ended == KING_BOUGHT:
            results = tuple(SeatResult(s, 1 if s == state.winner else 2) for s in range(state.players))
        else:
            values = state.final_values
            results = tuple(
                SeatResult(s, 1 + sum(1 for v in values if v > values[s]), values[s])
                for s in range(state.players)
            )
        return Outcome(results, self._summary(state))

    def standing(self, state: DreamsState) -> Outcome | None:
        """The turn cap's ruling applied now: most total value wins."""
        if state.over:
            return self.outcome(state)
        return ranked([state.value_of(s) for s in range(state.players)])

    # --- persistence and invariants ---------------------------------------------------------------

    def dump(self, state: DreamsState) -> dict[str, Any]:
        return dump(state)

    def load(self, data: Mapping[str, Any]) -> DreamsState:
        return load(data)

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
