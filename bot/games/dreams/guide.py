"""A guided match's explanations and a hint's reasons for Kingdom of Dreams, from what the
seat sees: its own cards, the public counts and piles, its legal moves."""

from __future__ import annotations

from bot.games.base import Move
from bot.games.dreams.cards import ATTACK, ATTACKS, JACKS, SUIT_SYMBOL, kind, number, suit
from bot.games.dreams.combat import beats
from bot.games.dreams.state import ATTACK_MOVE, BUY, COIN_MOVE, COUNTER, PEEK, SELL, SHUFFLE, DreamsState

BUYS = {"a": "an attack card", "j": "a Jack", "q": "a Queen", "k": "the King"}


def situations(state: DreamsState, seat: int, moves: list[Move]) -> tuple[tuple[str, str], ...]:
    kinds = {move.kind for move in moves}
    found: list[tuple[str, str]] = []
    if COIN_MOVE in kinds:
        found.append(
            (
                "turn",
                (
                    "Your turn: do one thing. Take a coin, buy, sell, attack, shuffle the trump pile or "
                    "(with a Queen) peek at it. You need an attack card, then a Jack, then a Queen: the "
                    "first player to buy the King (40) wins."
                ),
            )
        )
    if BUY in kinds:
        found.append(
            (
                "buy",
                (
                    "You can buy: choose the coins to pay with, worth at least the price. No change is "
                    "given, so pay as close to the price as you can."
                ),
            )
        )
    if any(move.kind == BUY and "trade in" in move.label for move in moves):
        found.append(
            (
                "trade_in",
                "You can trade in: an attack card counts 5 and a Jack 10 toward a price, like coins.",
            )
        )
    if ATTACK_MOVE in kinds:
        found.append(
            (
                "attack",
                (
                    "You can attack: with an attack card only the next player (if they hold one), with a "
                    "Jack anyone holding a Jack. The same suit: the higher card wins; otherwise the trump "
                    "pile decides. The winner takes both cards."
                ),
            )
        )
    if state.defender == seat and moves:
        found.append(
            (
                "counter",
                (
                    "You are attacked: answer with a card of the same type. Your choice stays secret until "
                    "it is revealed; the winner takes both cards."
                ),
            )
        )
    if PEEK in kinds:
        found.append(
            ("peek", "Your Queen lets you peek at the trump pile: you see who would win a duel of suits.")
        )
    return tuple(found)


def _answers(state: DreamsState, seat: int, card: str) -> list[str]:
    """The cards the defender could answer ``card`` with, from what the seat sees: any attack
    card not in its hand (the attack pile is face down), or any Jack neither in its hand nor in
    the face-up Jack pile."""
    hand = state.hands[seat]
    if kind(card) == ATTACK:
        return [c for c in ATTACKS if c not in hand]
    return [c for c in JACKS if c not in hand and c not in state.jack_pile]


def _sure_win(state: DreamsState, seat: int, card: str) -> str | None:
    """Why the attack wins whatever the defender answers, if the seat can be sure of it: a
    same-suit attack card lower than ``card``, or another suit its own peek ranks below."""
    answers = _answers(state, seat, card)
    peek = state.trump_pile if state.peeked[seat] else None
    same = [c for c in answers if kind(card) == ATTACK and suit(c) == suit(card)]
    other = [c for c in answers if c not in same]
    if not answers or any(number(c) > number(card) for c in same):
        return None
    if other and (peek is None or not all(beats(card, c, peek) for c in other)):
        return None
    mine = SUIT_SYMBOL[suit(card)]
    if not other:
        why = f"no {mine} card they could answer with is higher"
    elif same:
        why = f"your peek shows {mine} beats every other suit they can answer with, and no {mine} card they could answer with is higher"
    else:
        why = f"your peek shows {mine} beats every suit they can answer with"
    return f"{why}: you win the duel and take their card"


def hint_reason(state: DreamsState, seat: int, move: Move) -> str | None:
    hand = state.hands[seat]
    if move.kind == BUY:
        what = BUYS.get(move.args[0] if move.args else "", "a card")
        if what == "the King":
            return "buying the King wins the match"
        return f"{what} is the next step toward the King"
    if move.kind == COIN_MOVE:
        return (
            "you need more to pay for the next step" if hand else "you start with nothing: coins come first"
        )
    if move.kind == SELL:
        return "it turns a card you can spare into coins"
    if move.kind == ATTACK_MOVE:
        if move.args and (sure := _sure_win(state, seat, move.args[0])):
            return sure
        return "winning the duel takes their card as well as keeping yours"
    if move.kind == SHUFFLE:
        return "a shuffle spoils what a peek told the others"
    if move.kind == PEEK:
        return "knowing the trump order tells you which duels you win"
    if move.kind == COUNTER:
        return "a higher card of the attacking suit wins outright; another suit leaves it to the trumps"
    return None
