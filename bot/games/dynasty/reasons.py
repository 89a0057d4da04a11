"""A practice hint's reason for a King's Dynasty move (the kit's ``hint_reason``): what the
move does by the rules (RULES.md), in facts the seat can check from its own hand and the
public table (hand sizes), or None where no plain fact says why (the hand then says it is the
hard AI's choice).

Each card kind is explained by its own effect: a battle card by what it does to the hands, a
draw card by the draw, an answer by what it does to the draw. A card without an effect of its
own is explained by the points it sheds or the suit it leaves to follow.
"""

from __future__ import annotations

from bot.games.base import Move, p
from bot.games.dynasty.actions import (
    ACCEPT,
    CALL,
    CATCH,
    DEFEND,
    PLAY_CARD,
    REVERSE,
    SKIP,
    TABLE_CARD,
    TAKE_IT,
    WAIT,
    CardPlay,
    card_play,
)
from bot.games.dynasty.cards import (
    ARR,
    CAN,
    CAT,
    CJ,
    DB,
    DEC,
    DEF,
    DRA,
    DUCHESS,
    DUKE,
    DUN,
    KIND,
    KIND_NAME,
    KING,
    KINGDOM,
    KN,
    MAG,
    NAME,
    NUM,
    POINTS,
    POT,
    PRO,
    QUEEN,
    RANK,
    SIE,
    SUIT,
    SUIT2,
    SUIT_NAMES,
    TAX,
    TRE,
    WIZ,
)
from bot.games.dynasty.state import ANSWER, DynastyState

ANSWERS = frozenset({PRO, DEC, MAG})
DRAWS = {DB: 2, DRA: 3, WIZ: 5}
NOT_OUT = frozenset({CAN, CAT})
ANY_SUIT = frozenset(
    {WIZ, DRA, KING, QUEEN, DUKE, DUCHESS, DUN, ARR, SIE, TAX}
)  # on a normal turn  # a last card that brings cards back: no going out


def hint_reason(state: DynastyState, seat: int, move: Move) -> str | None:
    hand = state.hands[seat]
    if move.kind == CALL:
        return "without the call anyone may catch you, and then you draw 2 and lose your next turn"
    if move.kind == CATCH:
        return "they draw 2 and lose their next turn"
    if move.kind == WAIT:  # the hand offers no button for it: doing nothing is the same
        return "the game goes on without you, so there is nothing to press"
    if move.kind == ACCEPT:
        kept = sorted({KIND_NAME[KIND[f]] for f in hand if KIND[f] in ANSWERS})
        return f"it keeps your {' and '.join(kept)} for a later draw card" if kept else None
    if move.kind == DEFEND:
        return "the Defender cancels the battle card for you, and it leaves your hand only this way"
    if move.kind == TAKE_IT and not any(KIND[f] == DEF for f in hand):
        return "you hold no Defender, the only card that cancels a battle card"
    if move.kind == PLAY_CARD:
        return _play_reason(state, seat, card_play(move.code))
    if move.kind == TABLE_CARD:
        return _suit_reason(card_play(move.code), hand)
    return None


def _play_reason(state: DynastyState, seat: int, play: CardPlay) -> str | None:
    hand = state.hands[seat]
    kind = KIND[play.as_face]
    if state.phase == ANSWER:
        if kind == DEC:
            return "the draw goes back to the player of the draw card, and the direction reverses"
        if kind == PRO:
            return "it cancels the draw card: you draw nothing, and the suit before it stays"
        if kind == DB:
            return "the draws add up and pass on to the next player"
    if len(hand) == 1 and kind not in NOT_OUT:
        return "it is your last card: you go out and score 0 this hand"
    battle = _battle_reason(state, seat, play)
    if battle is not None:
        return battle
    if kind in DRAWS:
        return f"the next player draws {DRAWS[kind]} and loses their turn"
    if kind == DUN:
        return "the next player loses two turns, drawing a card on each"
    two = len(state.hands) == 2
    if kind == CJ or (two and kind == KN) or play.direction_choice == SKIP:
        return (
            "the next player loses their turn, so you play again"
            if two
            else "the next player loses their turn"
        )
    if (kind == KN and not two) or play.direction_choice == REVERSE:
        return "the direction reverses: the player who just played moves next"
    if kind in (KING, QUEEN):
        return "it goes on any suit, and you may add one more playable card"
    rest = _without(hand, play.face)
    return _costliest(play.face, hand) or _suit_reason(play, rest) or _keeps_any_suit(play, rest)


def _battle_reason(state: DynastyState, seat: int, play: CardPlay) -> str | None:
    """A battle card by its effect (RULES.md), with the hand sizes everyone sees."""
    kind = KIND[play.face]
    rest = len(state.hands[seat]) - 1
    if kind == CAT:
        theirs = len(state.hands[play.target])
        return f"you swap hands with {p(play.target)}: your other {_cards(rest)} for their {_cards(theirs)}"
    if kind == CAN:
        others = [len(h) for o, h in enumerate(state.hands) if o != seat]
        average = sum(others) / len(others)
        if rest > average:
            return (
                f"all hands are dealt out again, one card at a time: you hold {rest} after playing it, "
                f"the others {average:.0f} on average"
            )
        short = min(range(len(state.hands)), key=lambda o: (o == seat, len(state.hands[o])))
        if len(state.hands[short]) <= 2:
            return f"all hands are dealt out again, so {p(short)}, close to going out, gets more cards"
        return "all hands are dealt out again, one card at a time from the dealer's left"
    hand = state.hands[seat]
    shed = _points(play.face, hand)
    sheds = f", and it sheds a {shed}-point card" if shed else ""
    if kind == ARR:
        if play.burn < 0:
            return f"it sheds {shed} points from your hand, and the arrow burns nothing"
        total = shed + _points(play.burn, hand)
        where = p(play.target) if play.target >= 0 else "the discard pile"
        return f"it sheds {total} points from your hand: the arrow, and your {NAME[play.burn]}, which goes to {where}"
    if kind == SIE:
        return f"it shows you {p(play.target)}'s hand{sheds}"
    if kind == TAX:
        return f"each other player loses a random card and draws one{sheds}"
    return None


def _points(face: int, hand: tuple[int, ...]) -> int:
    """What ``face`` would count in ``hand`` at the end of the hand (a Magic Potion held
    leaves only number cards, and the Defender and Hidden Treasure, counting)."""
    potion = any(KIND[f] == POT for f in hand)
    if KIND[face] == NUM:
        return RANK[face]
    return POINTS[face] if (KIND[face] in (DEF, TRE) or not potion) else 0


def _costliest(face: int, hand: tuple[int, ...]) -> str | None:
    others = _without(hand, face)
    points = _points(face, hand)
    if others and points > 0 and points >= max(_points(f, hand) for f in others):
        return f"it sheds your costliest card ({points} points)"
    return None


def _suit_reason(play: CardPlay, rest: tuple[int, ...]) -> str | None:
    """The suit the play leaves to follow, when the seat holds more of it than of any other."""
    suit = play.suit if play.suit >= 0 else (SUIT[play.as_face] if not KINGDOM[play.as_face] else -1)
    if suit < 0:
        return None
    counts = [0] * len(SUIT_NAMES)
    for f in rest:
        for s in (SUIT[f], SUIT2[f]):
            if s >= 0:
                counts[s] += 1
    if counts[suit] == 0 or counts[suit] < max(counts):
        return None
    named = "names" if play.suit >= 0 else "leaves"
    return f"it {named} {SUIT_NAMES[suit]} to follow, the suit you hold most of"


def _cards(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"


def _keeps_any_suit(play: CardPlay, rest: tuple[int, ...]) -> str | None:
    """A suit card played while the seat holds a card that goes on any suit in a normal turn."""
    if KINGDOM[play.face]:
        return None
    kept = sorted({KIND_NAME[KIND[f]] for f in rest if KIND[f] in ANY_SUIT})
    if not kept:
        return None
    which = "which goes" if len(kept) == 1 else "which go"
    return f"it keeps your {' and '.join(kept)}, {which} on any suit, for when nothing else plays"


def _without(hand: tuple[int, ...], face: int) -> tuple[int, ...]:
    i = hand.index(face) if face in hand else len(hand)
    return hand[:i] + hand[i + 1 :]
