"""Paying for a card and being paid for one: trade-ins, coins, and the bank's exact change.

A purchase is paid with trade-in cards at their sale price (attack 5, Jack 10) and coins;
no change is given. The player chooses what to buy and which cards to trade in (how many
attack cards, which Jacks); the coins are then picked to overpay as little as possible
(the fewest cards among equals). Attack cards traded in are the buyer's lowest (8s before
9s before 10s), so the strong ones stay in hand. The prerequisites are checked after paying.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from bot.games.dreams.cards import (
    ATTACK,
    COIN,
    JACK,
    KING,
    PRICE,
    QUEEN,
    SUITS,
    kind,
    name,
    number,
    of_kind,
    suit,
)

ATTACK_TARGET = "a"  # buying from the face-down attack pile: the card is drawn at random


@dataclass(frozen=True, slots=True)
class Payment:
    """One way to buy one card: what is bought and everything given for it."""

    target: str  # ATTACK_TARGET, or the Jack, Queen or King chosen from its face-up pile
    attack_cards: tuple[str, ...]  # traded in
    jacks: tuple[str, ...]  # traded in
    coins: tuple[str, ...]  # paid

    @property
    def target_kind(self) -> str:
        return ATTACK if self.target == ATTACK_TARGET else kind(self.target)

    @property
    def price(self) -> int:
        return PRICE[self.target_kind]

    @property
    def given(self) -> tuple[str, ...]:
        return self.attack_cards + self.jacks + self.coins

    @property
    def paid(self) -> int:
        return 5 * len(self.attack_cards) + 10 * len(self.jacks) + sum(number(c) for c in self.coins)

    @property
    def code(self) -> str:
        jacks = ":" + ".".join(self.jacks) if self.jacks else ""
        return f"buy:{self.target}:{len(self.attack_cards)}{jacks}"

    @property
    def target_label(self) -> str:
        if self.target == ATTACK_TARGET:
            return f"Buy an attack card ({self.price})"
        if self.target_kind == KING:
            return f"Buy the King {name(self.target)} ({self.price})"
        return f"Buy {name(self.target)} ({self.price})"

    @property
    def payment_label(self) -> str:
        parts = []
        traded = [name(c) for c in self.attack_cards + self.jacks]
        if traded:
            parts.append("trade in " + " ".join(traded))
        if self.coins:
            parts.append("coins " + "+".join(str(number(c)) for c in self.coins))
        text = ", ".join(parts)
        over = self.paid - self.price
        return text + (f" ({over} over, no change)" if over else "")


def weakest_first(cards: tuple[str, ...]) -> tuple[str, ...]:
    """Attack cards in the order they are traded in: lowest number first."""
    return tuple(sorted(cards, key=lambda c: (number(c), SUITS.index(suit(c)))))


@lru_cache(maxsize=4096)
def _sums(counts: tuple[int, ...]) -> dict[int, tuple[int, ...]]:
    """Every sum the coins can make (``counts[v - 1]`` coins of value v), each with the
    fewest coins making it (as counts per value)."""
    best: dict[int, tuple[int, ...]] = {0: (0,) * len(counts)}
    for index, available in enumerate(counts):
        value = index + 1
        grown: dict[int, tuple[int, ...]] = {}
        for total, used in best.items():
            for k in range(available + 1):
                s = total + k * value
                combo = used[:index] + (k,) + used[index + 1 :]
                old = grown.get(s)
                if old is None or sum(combo) < sum(old):
                    grown[s] = combo
        best = grown
    return best


def _counts(coins: tuple[str, ...]) -> tuple[int, ...]:
    counts = [0] * 6
    for c in coins:
        counts[number(c) - 1] += 1
    return tuple(counts)


def _take(coins: tuple[str, ...], combo: tuple[int, ...]) -> tuple[str, ...]:
    """The first coins (in the given order) of each value, as many as ``combo`` says."""
    left = list(combo)
    out = []
    for c in coins:
        v = number(c) - 1
        if left[v]:
            left[v] -= 1
            out.append(c)
    return tuple(out)


def coins_for(coins: tuple[str, ...], need: int) -> tuple[str, ...] | None:
    """The coins paying at least ``need`` with the least overpayment, then the fewest coins;
    None if they cannot."""
    if need <= 0:
        return ()
    sums = _sums(_counts(coins))
    reachable = [s for s in sums if s >= need]
    if not reachable:
        return None
    return _take(coins, sums[min(reachable)])


def exact_change(pile: tuple[str, ...], amount: int) -> tuple[str, ...] | None:
    """Coins of the pile summing exactly to ``amount`` (the fewest, topmost first); None if
    the pile cannot make it."""
    combo = _sums(_counts(pile)).get(amount)
    return None if combo is None else _take(pile, combo)


def _prerequisites_hold(target_kind: str, attacks: int, jacks: int, queens: int) -> bool:
    """What the buyer must still hold after paying."""
    if target_kind == JACK:
        return attacks >= 1 and jacks == 0
    if target_kind == QUEEN:
        return attacks >= 1 and jacks == 1 and queens == 0
    if target_kind == KING:
        return attacks >= 1 and jacks == 1 and queens == 1
    return True


def _subsets(cards: tuple[str, ...]) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = [()]
    for c in cards:
        out += [s + (c,) for s in out]
    return sorted(out, key=lambda s: (len(s), s))


@lru_cache(maxsize=1024)
def _means(hand: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], int]:
    """What ``hand`` pays with: its attack cards (weakest first), Jacks and coins, and how
    many Queens it holds (a hand is asked this for every target)."""
    return (
        weakest_first(of_kind(hand, ATTACK)),
        of_kind(hand, JACK),
        of_kind(hand, COIN),
        len(of_kind(hand, QUEEN)),
    )


@lru_cache(maxsize=8192)
def payments(hand: tuple[str, ...], target: str) -> tuple[Payment, ...]:
    """Every sensible way ``hand`` can pay for ``target``.

    Sensible: each traded-in card is needed (without the cheapest of them the trade-ins
    would not cover the price); the coins overpay as little as they can. Cached: the legal
    moves, the AI and the purchase itself all ask it of the same hand."""
    target_kind = ATTACK if target == ATTACK_TARGET else kind(target)
    price = PRICE[target_kind]
    attacks, jacks, coins, queens = _means(hand)
    out = []
    for jack_set in _subsets(jacks):
        for n in range(len(attacks) + 1):
            traded = 5 * n + 10 * len(jack_set)
            if n + len(jack_set):
                cheapest = 5 if n else 10
                if traded - cheapest >= price:
                    break  # more attack cards only overpay more
            if not _prerequisites_hold(target_kind, len(attacks) - n, len(jacks) - len(jack_set), queens):
                continue
            paid = coins_for(coins, price - traded)
            if paid is None:
                continue
            out.append(Payment(target, attacks[:n], jack_set, paid))
    return tuple(out)
