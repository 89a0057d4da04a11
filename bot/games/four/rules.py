"""The rules of Kingdom Four as players read them in ``/rules game:four``."""

RULES = """\
**Kingdom Four**: 3 or 4 players collect cards of the King's Keys deck: numbers 1-4 in four colours (🟨 yellow, 🟥 red, 🟩 green, 🟦 blue) and four items (🗝️ key, 🪓 axe, 🛡️ shield, 🪙 coin), one card of each, 64 in all. A card numbered n shows n items.
**The deal**: 4 players get 7 cards each and 8 go face up to the field; 3 players get 9 each and 10 go to the field. The rest is the draw pile. If all four cards of one colour and item lie in the field, the same dealer deals again. The player left of the dealer begins; turns go left.
**A turn**: play a card from your hand to the field, then flip the top card of the draw pile and play it the same way. Cards of the same colour and item match. A card that matches takes one matching card of your choice; if three cards of its colour and item lie in the field (a group of three), the fourth takes all three. A card that matches nothing stays in the field. Taking is not optional. Taken cards lie face up in front of you.
**End of a hand**: when the last player has played their last card. Each player scores their taken cards in three categories, each arranged for their best score (a card counts once in each category):
- the King: Kingdom Four (one number in one colour, all four items) 15; Kingdom Three (three of them) 10;
- the Queen: Queen's Straight 1-2-3-4 in one colour with four different items 10; 1-2-3 or 2-3-4 with three different items 5;
- the Joker: for each item, add up the numbers of your cards of that item; a sum of 12 or more scores 1 point, plus 1 for each item above 12.
**The end**: the deal passes left. After every player has dealt (once, twice or three times: the lobby's length; the printed rules say three times), the highest total wins.
**Wild cards** (lobby option): 4 Kingdom cards (one per colour) and 4 Jokers (one per item) join the deck, and every player gets one more card. A Kingdom card matches any card of its colour, a Joker any card of its item; a wild never matches another wild. In scoring, a Kingdom card stands for any card of its colour and a Joker for any card of its item, a different card in each category if that scores more.

**Rulings of this bot**
- The first dealer is drawn at random. A redeal after a whole group in the field is announced; the dealer stays.
- Whoever flips a card makes its choice. When a played or flipped card matches two or more cards, you choose; when it matches one, or the fourth meets a group of three, the take happens by itself.
- A wild card played to the field takes one card it matches (your choice), even out of a group of three. A number card meeting its group of three takes the three; a wild lying there stays.
- In scoring, a wild card stands for a card of the deck that is not already in the arrangement (never for a card you took yourself in the same category); two wild cards never stand for the same card.
- Cards left in the field or the draw pile at the end of a hand (possible with wild cards) score for nobody.
- Equal totals share the place. The turn timer plays the first card your hand lists.
"""
