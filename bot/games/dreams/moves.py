"""Kingdom of Dreams' moves: the legal moves of a turn and of an attack's answer, why a
move is refused, and what each kind of move does.

On its turn a seat takes a coin, buys (``buy:<target>:<attack cards>[:<jacks>]``), sells,
attacks, shuffles the trump pile or peeks at it; an attack waits for the defender's
``counter`` (the ``answer`` phase). The kit judges a move against :func:`legal_moves`
before the game's handlers call the functions here.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Any

from bot.games.base import Event, Move, p, plural
from bot.games.dreams.cards import (
    ATTACK,
    ATTACKS,
    COIN,
    COINS,
    JACK,
    JACKS,
    KING,
    PRICE,
    QUEEN,
    QUEENS,
    SALE,
    kind,
    name,
    number,
    sorted_cards,
)
from bot.games.dreams.combat import ATTACKER, NOBODY, Verdict, resolve, trump_text
from bot.games.dreams.payment import ATTACK_TARGET, Payment, exact_change, payments
from bot.games.dreams.scoring import summary
from bot.games.dreams.state import (
    ATTACK_MOVE,
    BUY,
    COIN_MOVE,
    COUNTER,
    KING_BOUGHT,
    PEEK,
    SAFETY_TURNS,
    SAFETY_VALVE,
    SELL,
    SHUFFLE,
    TURN_CAP,
    DreamsState,
)


def next_seat(state: DreamsState, seat: int) -> int:
    return (seat + 1) % state.players


def targets(state: DreamsState) -> tuple[str, ...]:
    """What may be bought now: the attack pile's top (drawn at random), every Jack, Queen
    and King face up."""
    attack = (ATTACK_TARGET,) if state.attack_pile else ()
    return attack + state.jack_pile + state.queen_pile + state.king_pile


def purchases(state: DreamsState, seat: int) -> list[Payment]:
    """Every way ``seat`` can buy a card now (a target of each pile, each payment)."""
    return [pay for target in targets(state) for pay in payments(state.hands[seat], target)]


@lru_cache(maxsize=8192)
def buy_moves(hand: tuple[str, ...], target: str) -> tuple[Move, ...]:
    """The moves buying ``target`` with ``hand``, one per payment (cached like the payments:
    a hand is asked for its moves again and again)."""
    return tuple(Move(pay.code, (pay.target_label, pay.payment_label)) for pay in payments(hand, target))


@lru_cache(maxsize=256)
def best_hand(coins: int, attacks: int, jacks: int, queens: int) -> tuple[str, ...]:
    """The richest hand a seat with these counts can hold: its coins the highest there are
    (the table shows only how many). Whatever it cannot buy, no hand with these counts can."""
    richest = sorted(COINS, key=number, reverse=True)[:coins]
    return sorted_cards(richest + list(ATTACKS[:attacks] + JACKS[:jacks] + QUEENS[:queens]))


def legal_moves(state: DreamsState, seat: int) -> list[Move]:
    if state.over or seat != (state.defender if state.attacking else state.turn):
        return []
    if state.attacking:
        return [
            Move(f"{COUNTER}:{c}", (f"Counter with {name(c)}",))
            for c in state.holding(seat, kind(state.attack_card))
        ]
    moves: list[Move] = []
    if state.coin_pile:
        moves.append(Move(COIN_MOVE, ("Take a coin",)))
    for wanted in targets(state):
        moves += buy_moves(state.hands[seat], wanted)
    for card in sorted_cards(list(set(state.holding(seat, ATTACK) + state.holding(seat, JACK)))):
        price = SALE[kind(card)]
        if price not in state.refused:
            moves.append(Move(f"{SELL}:{card}", (f"Sell {name(card)} ({price})",)))
    nxt = next_seat(state, seat)
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


def typed_purchase(state: DreamsState, text: str) -> str | None:
    """The purchase a typed card names (``King``, ``a Queen``, ``J♠``, ``attack card``), as a
    code the judge reads (``buy:<target>:0``), legal or not; None if it names none."""
    word = text.strip().casefold().removeprefix("buy").strip().removeprefix("the ").removeprefix("a ").strip()
    word = word.removeprefix("an ").strip()
    if word in ("attack", "attack card", "an attack card"):
        return f"{BUY}:{ATTACK_TARGET}:0"
    piles = {KING: state.king_pile, QUEEN: state.queen_pile, JACK: state.jack_pile}
    if word in piles:
        pile = piles[word]
        return f"{BUY}:{pile[0] if pile else word}:0"
    for card in (*state.jack_pile, *state.queen_pile, *state.king_pile):
        if word in (card.casefold(), name(card).casefold()):
            return f"{BUY}:{card}:0"
    return None


_NEEDS = {
    JACK: "To buy a Jack you must hold an attack card and no Jack.",
    QUEEN: "To buy a Queen you must hold an attack card, exactly one Jack and no Queen.",
    KING: "To buy the King you must hold an attack card, one Jack and one Queen.",
}


def why_not_buy(state: DreamsState, seat: int, code: str) -> str | None:
    """Why buying ``code``'s card is refused, when one reason stands out: the money, a card
    the purchase needs, or nothing of that kind left to buy (None: no single reason)."""
    target = (code.split(":") + [""])[1]
    if target in (KING, QUEEN, JACK):
        return f"There is no {target.capitalize()} left to buy."
    if target != ATTACK_TARGET and target not in targets(state):
        return None
    if target == ATTACK_TARGET and not state.attack_pile:
        return "The attack pile is empty."
    wanted = ATTACK if target == ATTACK_TARGET else kind(target)
    what = "an attack card" if wanted == ATTACK else ("the King" if wanted == KING else name(target))
    coins = sum(number(c) for c in state.holding(seat, COIN))
    trade = 5 * state.count(seat, ATTACK) + 10 * state.count(seat, JACK)
    if coins + trade < PRICE[wanted]:
        extra = f" and {trade} in cards to trade in" if trade else ""
        return f"You have {plural(coins, 'coin', 'coins') if not extra else f'{coins} in coins{extra}'}; {what} costs {PRICE[wanted]}."
    return _NEEDS.get(wanted)


def why_illegal(state: DreamsState, code: str, seat: int | None = None) -> str:
    """Why ``code`` (not among the legal moves) cannot be played now: one sentence."""
    kind_ = code.split(":", 1)[0]
    if state.attacking:
        return f"Answer the attack with one of your {'Jacks' if kind(state.attack_card) == JACK else 'attack cards'}."
    if kind_ == BUY and seat is not None:
        reason = why_not_buy(state, seat, code)
        if reason:
            return reason
    if kind_ == COIN_MOVE and (code != COIN_MOVE or state.coin_pile):
        return "That is not one of your moves now; /hand shows yours."
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


# --- what the moves of a turn do -------------------------------------------------------------


def take_coin(state: DreamsState, seat: int, events: list[Event]) -> DreamsState:
    card = state.coin_pile[0]
    events += [
        Event(f"{p(seat)} takes a coin."),
        Event(f"You took {name(card)} (worth {number(card)}).", seat),
    ]
    return replace(
        state, coin_pile=state.coin_pile[1:], hands=_set(state.hands, seat, _with(state.hands[seat], card))
    )


def shuffle(state: DreamsState, seat: int, events: list[Event]) -> DreamsState:
    trumps, rng = state.rng.shuffled(state.trump_pile)
    events.append(Event(f"{p(seat)} shuffles the trump pile."))
    return replace(state, trump_pile=trumps, rng=rng, peeked=(False,) * state.players)


def peek(state: DreamsState, seat: int, events: list[Event]) -> DreamsState:
    # The order itself is a line of the peeker's hand while the peek holds (view).
    events.append(Event(f"{p(seat)} peeks at the trump pile."))
    return replace(state, peeked=_set(state.peeked, seat, True))


def buy(state: DreamsState, seat: int, code: str, events: list[Event]) -> DreamsState:
    pay = next(pay for pay in purchases(state, seat) if pay.code == code)
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
        events.append(Event(summary(state)))
    return state


def sell(state: DreamsState, seat: int, card: str, events: list[Event]) -> tuple[DreamsState, bool]:
    """Sell ``card`` to the bank for exact coins; False when the bank cannot pay (the seat
    then chooses another action)."""
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
    events.append(Event(f"{p(seat)} sells {what} for {price}, paid in {plural(len(change), 'coin card')}."))
    events.append(Event(f"You sold {name(card)}; the bank paid {' '.join(name(c) for c in change)}.", seat))
    return state, True


def attack(state: DreamsState, seat: int, card: str, target: int, events: list[Event]) -> DreamsState:
    what = "a Jack" if kind(card) == JACK else "an attack card"
    events.append(
        Event(f"{p(seat)} attacks {p(target)} with {name(card)}; {p(target)} must answer with {what}.")
    )
    return replace(state, defender=target, attack_card=card)


def counter(state: DreamsState, seat: int, card: str, events: list[Event]) -> DreamsState:
    """``seat`` answers the attack with ``card``: who wins both cards, and the turn ends."""
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
    events += _told_result(state, verdict, attacker, attacking, seat, card)
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
    return end_turn(state, events)


def end_turn(state: DreamsState, events: list[Event]) -> DreamsState:
    turns = state.turns + 1
    state = replace(state, turn=next_seat(state, state.turn), turns=turns, refused=())
    if state.turn_cap and turns >= state.turn_cap * state.players:
        return _end_on_value(state, TURN_CAP, events)
    if turns >= SAFETY_TURNS * state.players:
        return _end_on_value(state, SAFETY_VALVE, events)
    return state


def _end_on_value(state: DreamsState, why: str, events: list[Event]) -> DreamsState:
    values = tuple(state.value_of(s) for s in range(state.players))
    state = replace(state, ended=why, final_values=values)
    events.append(Event(summary(state)))
    return state


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


def _without(cards: tuple[str, ...], gone: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    out = list(cards)
    for c in gone:
        out.remove(c)
    return tuple(out)


def _with(cards: tuple[str, ...], *added: str) -> tuple[str, ...]:
    return sorted_cards(list(cards) + list(added))


def _set(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return items[:index] + (value,) + items[index + 1 :]
