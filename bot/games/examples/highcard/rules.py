"""The rulebook of High Card as players read it in ``/rules game:highcard``."""

RULES = """\
**High Card**: everyone gets five cards numbered 1 to 10. Each round all players play one card face down at the same time; then the cards are shown and the single highest number takes the round. A tie for highest takes nobody.
**Passing** (lobby option): before the first round everyone chooses two cards at the same time and passes them to the player on their left.
**End**: after 3 or 5 rounds (the lobby chooses), whoever took most rounds wins; equal counts share the place.
**Rulings of this bot**: a face-down card is final. When everyone but one player has played (or passed), that player has 30 seconds; then their lowest card is played (their two lowest cards are passed). The turn timer does the same.
"""
