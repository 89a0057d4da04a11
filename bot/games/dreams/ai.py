"""The Kingdom of Dreams AI: saves up, buys in order, attacks when the odds are good.

It reads only what its seat may see: its own cards, the public counts and piles, the
attacking card, and the trump pile's order while its own peek is valid. In order of
preference: buy the King; with a valid peek, attack where it cannot lose (or destroy a
leader's Jack when the joker is on top); peek when holding a Queen; buy a Queen, a Jack,
a first attack card; keep value as attack cards when the coin pile runs dry; else take a
coin, and shuffle when nothing else helps.
"""

from __future__ import annotations

from bot.games.base import Move, Rng
from bot.games.dreams.cards import ATTACK, JACK, JACKS, JOKER, QUEEN, coin_total, kind, number, suit
from bot.games.dreams.combat import suit_order
from bot.games.dreams.payment import payments
from bot.games.dreams.state import DreamsState


def _known_order(state: DreamsState, seat: int) -> tuple[str, ...] | None:
    """The trump pile top first, if this seat's peek is still valid."""
    return state.trump_pile if state.peeked[seat] else None


def counter(state: DreamsState, seat: int, moves: list[Move]) -> Move:
    """The defender's answer: a sure win if there is one, else the best chance, keeping
    the strongest cards."""
    attacking = state.attack_card
    cards = {m.code.split(":", 1)[1]: m for m in moves}
    order = _known_order(state, seat)
    if kind(attacking) == JACK:
        if order and order[0] != JOKER:
            ranks = suit_order(order)
            return cards[min(cards, key=lambda c: ranks.index(suit(c)))]
        return moves[0]
    same_higher = [c for c in cards if suit(c) == suit(attacking) and number(c) > number(attacking)]
    if same_higher:
        return cards[min(same_higher, key=number)]
    other_suit = [c for c in cards if suit(c) != suit(attacking)]
    if order and order[0] != JOKER:
        ranks = suit_order(order)
        winning = [c for c in other_suit if ranks.index(suit(c)) < ranks.index(suit(attacking))]
        if winning:
            return cards[min(winning, key=number)]
    pool = other_suit or list(cards)
    return cards[min(pool, key=number)]


def _best_buy(moves: list[Move], prefix: str, state: DreamsState, seat: int) -> Move | None:
    """Of the buy moves for targets starting with ``prefix``, the one overpaying least,
    then trading in the most cards (coins stay flexible)."""
    best: tuple[int, int, str] | None = None
    chosen: Move | None = None
    by_code = {m.code: m for m in moves if m.code.startswith(f"buy:{prefix}")}
    if not by_code:
        return None
    targets = {code.split(":")[1] for code in by_code}
    for target in sorted(targets):
        for pay in payments(state.hands[seat], target):
            if pay.code not in by_code:
                continue
            key = (pay.paid - pay.price, -len(pay.attack_cards) - len(pay.jacks), pay.code)
            if best is None or key < best:
                best, chosen = key, by_code[pay.code]
    return chosen


def _sure_attack(state: DreamsState, seat: int, moves: list[Move], order: tuple[str, ...]) -> Move | None:
    """An attack the known trump order says cannot be lost."""
    ranks = suit_order(order)
    attacks = [m for m in moves if m.kind == "attack"]
    unseen_jacks = [j for j in JACKS if j not in state.jack_pile and j not in state.hands[seat]]
    best: tuple[int, Move] | None = None
    for m in attacks:
        parts = m.code.split(":")
        card = parts[1]
        if kind(card) == JACK:
            if state.count(seat, JACK) > 1:
                continue  # hoarding Jacks would starve the table (and a spare one is sold)
            if all(ranks.index(suit(card)) < ranks.index(suit(j)) for j in unseen_jacks):
                target = int(parts[2])
                # Prefer taking a Jack from whoever is nearest the King.
                weight = 10 + 5 * state.count(target, QUEEN) + state.count(target, JACK)
                if best is None or weight > best[0]:
                    best = (weight, m)
        elif ranks.index(suit(card)) == 0 and (number(card) == 10 or state.count(seat, ATTACK) > 1):
            weight = 5 + number(card)
            if best is None or weight > best[0]:
                best = (weight, m)
    return best[1] if best else None


def _spoiler(state: DreamsState, seat: int, moves: list[Move]) -> Move | None:
    """With the joker known on top, a Jack attack sends both Jacks back: worth it against a
    player holding a Queen when this seat holds none."""
    if state.count(seat, QUEEN):
        return None
    for m in moves:
        parts = m.code.split(":")
        if m.kind == "attack" and len(parts) == 3 and state.count(int(parts[2]), QUEEN):
            return m
    return None


def choose(state: DreamsState, seat: int, moves: list[Move], rng: Rng) -> Move:
    """The AI's move among ``moves`` (the seat's legal moves). It is deterministic: the
    random generator is not needed, so replays and the privacy checks see the same choice."""
    del rng
    if state.attacking:
        return counter(state, seat, moves)
    codes = {m.code: m for m in moves}
    king = _best_buy(moves, "K", state, seat)
    if king is not None:
        return king
    order = _known_order(state, seat)
    if order is not None:
        pick = _spoiler(state, seat, moves) if order[0] == JOKER else _sure_attack(state, seat, moves, order)
        if pick is not None:
            return pick
    if "peek" in codes and (state.count(seat, JACK) or state.count(seat, ATTACK) > 1):
        return codes["peek"]
    for prefix, have in (("Q", QUEEN), ("J", JACK)):
        if not state.count(seat, have):
            buy = _best_buy(moves, prefix, state, seat)
            if buy is not None:
                return buy
    if not state.count(seat, ATTACK):
        buy = _best_buy(moves, "a", state, seat)
        if buy is not None:
            return buy
    if not state.coin_pile:
        # Keep value as attack cards (they trade in at full price): the coins go back to the
        # pile for everyone, so the match cannot dry up.
        exact = [m for m in moves if m.code == "buy:a:0" and "over" not in m.path[-1]]
        if exact and state.count(seat, ATTACK) < 4:
            return exact[0]
    # Spare cards go back into circulation (so the match cannot dry up), then save up.
    spare = [m for m in moves if m.kind == "sell" and _spare(state, seat, m.code.split(":")[1])]
    if spare:
        return spare[0]
    needed = _still_needed(state, seat)
    power = coin_total(state.hands[seat]) + 5 * max(0, state.count(seat, ATTACK) - 1)
    if "coin" in codes and power < needed:
        return codes["coin"]
    if "peek" in codes:
        return codes["peek"]
    exact = [m for m in moves if m.code == "buy:a:0" and "over" not in m.path[-1]]
    if exact and state.count(seat, ATTACK) < 3:
        return exact[0]
    if "coin" in codes:
        return codes["coin"]
    return codes.get("shuffle", moves[0])


def _still_needed(state: DreamsState, seat: int) -> int:
    """Coins this seat still wants for the rest of its way to the King."""
    need = 40
    if not state.count(seat, QUEEN):
        need += 20
    if not state.count(seat, JACK):
        need += 10
    if not state.count(seat, ATTACK):
        need += 5
    return need


def _spare(state: DreamsState, seat: int, card: str) -> bool:
    """A card this seat can do without: a second Jack (attack cards are savings: they
    trade in at full price)."""
    return kind(card) == JACK and state.count(seat, JACK) > 1
