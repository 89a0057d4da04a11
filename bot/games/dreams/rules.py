"""The ``/rules game:dreams`` help text, with every ruling this bot makes.

``RULES`` is one markdown string; each **bold heading** starts a page of ``/rules``.
"""

from __future__ import annotations

RULES_SECTIONS: tuple[str, ...] = (
    """**Kingdom of Dreams**: be the first to buy the one King. 2-4 players start with nothing; the first player is drawn at random and turns go left.
**The five piles**: coins A-6 (face down; a coin is worth its number, ace 1), the trump pile (the four 7s and the joker, face down), attack cards 8-10 (face down, price 5, bought at random), Jacks (price 10) and Queens (price 20) face up (the buyer chooses), and one King (price 40).""",
    """**A turn**: do exactly one thing.
1. *Take a coin*: the top card of the coin pile.
2. *Buy* one card with coins and trade-ins (attack 5, Jack 10); no change. A Jack needs at least one attack card and no Jack; a Queen at least one attack card, exactly one Jack and no Queen; the King an attack card, one Jack and one Queen. These must still be held after paying. Buying the King wins.
3. *Sell* an attack card (5) or a Jack (10): the bank pays coins from the coin pile summing exactly to the price, or refuses (you keep your turn). Queens and the King cannot be sold.
4. *Attack*, 5. *Shuffle the trump pile*, 6. *Peek* at it (Queen holders).""",
    """**Attacks**: with an attack card, only the next player, and only if they hold an attack card; with a Jack, anyone holding a Jack. The defender sees the attacking card and answers in private with a card of the same type. Two attack cards of one suit: the higher wins. Otherwise the trump pile is flipped: joker on top, both cards go back to their piles; else the suit whose 7 lies higher wins. The winner takes both cards, and a flipped trump pile is reshuffled.
**Peek**: the order (top first) is shown only to you and stays valid until the trump pile is next shuffled (by a player or after a flip).""",
    """**Rulings of this bot**
- Spent coins go back into the coin pile, which is reshuffled; so is the pile after the bank pays a sale.
- You choose what to buy and what to trade in (how many attack cards, which Jacks); your lowest attack cards go first (8s before 9s before 10s), and the bot picks the coins that overpay least. Payments that trade in a card not needed are not offered.
- Coins paid and the attack card drawn are told only to you; Jacks and Queens are face up, so the one bought is named.
- A defender who does not answer within 2 minutes counters with the card the bot's AI would pick; a player whose turn times out takes a coin (or shuffles, if the coin pile is empty). A valid peek is not offered again.
- **Turn cap** (lobby, off by default): after that many turns each, the highest total value wins (coins at face value, attack cards 5, Jacks 10, Queens 20); equal totals share the place. A safety valve ends any match the same way after 150 turns each.""",
)

RULES: str = "\n\n".join(RULES_SECTIONS)

assert all(len(section) < 1000 for section in RULES_SECTIONS), [len(s) for s in RULES_SECTIONS]
