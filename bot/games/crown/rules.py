"""The rulebook of King and Crown as players read it (``/crown rules``), with this bot's rulings."""

from __future__ import annotations

RULES = """\
**King and Crown**: every player has (or shares) a five-card deck: King 5, Dragon 4, Knight 3, Witch 2, Beggar 1.
Thwarts: King > Beggar, Knight; Dragon > King, Witch; Knight > Dragon, Beggar; Witch > Knight, King; Beggar > Witch, Dragon. Wise team: King, Knight, Beggar. Wicked team: Dragon, Witch.

**Find the King** (find, 2): the lord's deck is shuffled into five face-down places; the vassal reveals one. King: the vassal wins. Knight: reveal one more. Anything else: the lord wins.
**Defend the King** (defend, 2+): everyone picks a card in secret; all are revealed together. Two players: the card that thwarts the other wins the round, same cards are picked again; best of 3. Three or more: everyone whose card is thwarted by another revealed card is out; if nobody or everybody would be out, pick again; last standing wins.
**Support the King** (support, 2): lord and vassal pick in secret; an even sum wins the round for the lord, odd for the vassal. Best of 3.
**Tourney for the King** (tourney, 2): five rounds, each card used once; the higher card wins. On a tie the player whose unused cards add up higher wins the round; still tied, the round is drawn. Most rounds wins; equal rounds is a draw.
**The King at Court** (atcourt, 3-5, one deck): King, Dragon, Knight (+Witch with 4, +Beggar with 5) are dealt in secret. The King is revealed. Questioning happens in the channel (lying allowed) for at most 5 minutes; the King may end it early. Once during questioning the Witch may reveal every card; then all non-King cards are reshuffled and re-dealt in secret, and the player who held the Knight may look at one other player's card. Everyone but the King says when they are ready (done questioning). The King accuses one player. A Beggar who was not accused then has 30 seconds to reveal and join the Wicked. If the accused holds the Dragon the Wise win, else the Wicked win. Teams are decided by the cards held at the end.

**Rulings of this bot**
- Secret picks are final once made and stay hidden until everyone has picked; then all are revealed at once.
- In find, defend and support the lord is drawn at random. In find, a Knight obliges one more reveal; find is a single round.
- In defend and support each round is picked from the full deck. In defend with 3+ players, players who go out in the same round share their placing.
- In tourney, "unused cards" are those still in hand after the round's cards are set aside.
- In atcourt the Witch's look-back goes to whoever held the Knight before the re-deal, even if no longer the Knight; the look must happen before that player says they are ready and before the King ends questioning, and it cannot be at the King, whose card everyone knows. What the Witch revealed stays on the table. With 3 players there is no Witch, so no special. If the King does not end questioning, it ends after 5 minutes; if the Beggar does not decide within 30 seconds, they stay Wise.
- In atcourt every player but the King looks at their card and says **ready** when done questioning; saying ready gives up a special not yet used (the Witch's strike, the look). The Witch's strike re-deals, so everyone says ready again. The King may end questioning at any time; an AI King waits until everyone else is ready, and an AI Witch strikes, if at all, only once the others are ready. The table's turn timer runs for saying ready and, once everyone is ready, for the King's end of questioning (whoever runs out is made ready, or the questioning ends); it does not run in the Beggar's window.
"""
