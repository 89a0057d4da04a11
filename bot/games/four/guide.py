"""A guided match's explanations and a hint's reasons for Kingdom Four, from what the seat
sees: its hand, the field and everyone's captures (all public)."""

from __future__ import annotations

from bot.games.base import Move
from bot.games.four.cards import (
    COLOUR_EMOJI,
    COLOUR_NAME,
    ITEM_EMOJI,
    captures,
    colour,
    deck,
    is_wild,
    item,
    matching,
    number,
    short,
)
from bot.games.four.scoring import score
from bot.games.four.state import PLAY, TAKE, FourState

PLAY_TEXT = (
    "Your turn: play a card to the field, then the top card of the pile is flipped and played for "
    "you. A card of the same colour and item captures a card it matches; one that matches nothing "
    "stays in the field."
)
SCORING = (
    "Your captures score at the end of the hand, each kind on its own. King: one number in one "
    "colour, all four items 15, three items 10; Queen: a straight of one colour in different items, "
    "1-2-3-4 10, three in a row 5. Joker: an item's numbers added up, 12 or more scoring the sum "
    "minus 11."
)
SCORING_WILD = " A wild card counts as any one card it matches, in each kind."
BY_CAPTURE = (
    ("capture", "Some of your cards capture now: the button says what each one takes."),
    ("group", "Three cards of one group lie in the field: the fourth card of that group takes all three."),
    ("choose", "A card that matches several cards in the field takes one of them: you choose which."),
    (
        "nothing",
        (
            "None of your cards captures now. The card you play stays in the field, where a player "
            "holding its match may take it: give away the least."
        ),
    ),
)


def situations(state: FourState, seat: int) -> tuple[tuple[str, str], ...]:
    if state.turn != seat:
        return ()
    if state.phase == PLAY:
        found = [("play", PLAY_TEXT)]
        if state.captured[seat]:
            found.append(("scoring", SCORING + (SCORING_WILD if state.wild else "")))
        options = [captures(state.field, card) for card in state.hands[seat]]
        seen = {
            "capture": any(options),
            "group": any(len(o) == 1 and len(o[0]) == 3 for o in options),
            "choose": any(len(o) > 1 for o in options),
            "nothing": not any(options),
        }
        found += [(key, text) for key, text in BY_CAPTURE if seen[key]]
        return tuple(found)
    if state.phase == TAKE:
        return (
            ("take", "The flipped card matches more than one card in the field: choose which one it takes."),
        )
    return ()


def hint_reason(state: FourState, seat: int, move: Move) -> str | None:
    """Why the hard AI's move, in facts the seat can check: what a capture adds to its
    sets, or, for a card that takes nothing, how few unseen cards could take it. A capture
    passed up is the search's own finding from its play-outs, and the reason says so."""
    if move.kind == TAKE:
        return _gain(state.captured[seat], (state.pending, move.args[0]))
    if move.kind != PLAY:
        return None
    card = move.args[0]
    if len(move.args) > 1:
        return _gain(state.captured[seat], (card, move.args[1]))
    options = captures(state.field, card)
    if options:
        return _gain(state.captured[seat], (card, *options[0]))
    hand = state.hands[seat]
    if any(captures(state.field, other) for other in hand):
        return (
            "it captures nothing: in the hard AI's play-outs from what you can see, keeping your "
            "captures for later did better than taking one now"
        )
    risk = {other: _unseen_matches(state, seat, other) for other in hand}
    if risk[card] > min(risk.values()):
        return None  # the search's own pick: no simple fact says why
    if risk[card] == 0:
        return "none of your cards captures, and no card you have not seen can take this one"
    cards = (
        "1 card you have not seen matches"
        if risk[card] == 1
        else f"{risk[card]} cards you have not seen match"
    )
    tied = sum(1 for other in hand if risk[other] == risk[card]) > 1
    hard = "as hard for the others to take as any of yours" if tied else "the hardest for the others to take"
    return f"none of your cards captures, and this one is {hard}: only {cards} it"


def _unseen_matches(state: FourState, seat: int, card: str) -> int:
    seen = set(state.hands[seat]) | set(state.field) | {c for took in state.captured for c in took}
    return len(matching(card) & (frozenset(deck(state.wild)) - seen))


def _gain(mine: tuple[str, ...], taken: tuple[str, ...]) -> str:
    """What ``taken`` adds to the captures ``mine``, by the scoring rules: points, or a set
    on its way (two of a Kingdom set, the start of a straight, an item's numbers near 12)."""
    before, after = score(mine), score((*mine, *taken))
    if after.total > before.total:
        new = [s for s in after.sets if s not in before.sets]
        made = f"it makes {new[0]}, and " if new else ""
        return f"{made}your captures would score {after.total} instead of {before.total}"
    if any(is_wild(c) for c in taken):
        return "it takes a wild card, which counts as any card it matches when your captures score"
    numbered = [c for c in (*mine, *taken) if not is_wild(c)]
    new_cards = [c for c in taken if not is_wild(c)]
    for c in new_cards:
        same = sum(1 for d in numbered if colour(d) == colour(c) and number(d) == number(c))
        if same >= 2:
            both = f"{COLOUR_EMOJI[c[1]]}{number(c)}s"
            return f"you would hold {same} of the four {both} (three of them are a Kingdom Three, 10 points)"
    for c in new_cards:
        for d in numbered:
            if colour(d) == colour(c) and abs(number(d) - number(c)) == 1 and item(d) != item(c):
                low, high = sorted((c, d), key=number)
                return (
                    f"{short(low)} and {short(high)} start a {COLOUR_NAME[c[1]]} straight (three in a "
                    "row in different items score 5)"
                )
    for c in new_cards:
        total = sum(number(d) for d in numbered if item(d) == item(c))
        if total >= 7:
            return f"your {ITEM_EMOJI[c[2]]} numbers would add up to {total} (12 or more score for the Joker)"
    return "it builds no set yet, but every card you take is one the others cannot score"
