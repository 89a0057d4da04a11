"""Which cards may be played on the top card: suit, kind, Kingdom cards, the Fair
Maiden's escort, the Magician's forms, answers to a draw card, and whether a hand can be
played out in one turn (partners ask before going out)."""

from __future__ import annotations

from functools import lru_cache

from bot.games.base import Move
from bot.games.dynasty.cards import (
    ANSWER_ONLY,
    ARR,
    CAN,
    CAT,
    DB,
    DEC,
    EXTRA_KINDS,
    FM,
    KEY,
    KIND,
    KINGDOM,
    LAST_ONLY,
    MAG,
    MATCH_KEY,
    PRO,
    SUIT,
    SUIT2,
    TURN_ONLY,
)
from bot.games.dynasty.catalogue import (
    C_ESCORT,
    C_EXTRA,
    C_PLAY,
    FM_KEY,
    MAG_FACE,
    Tables,
)
from bot.games.dynasty.state import (
    DynastyState,
    Work,
)
from bot.games.dynasty.table import remove_one


def has_escort(hand: tuple[int, ...], maiden: int, suit: int) -> bool:
    """Whether ``hand`` minus one ``maiden`` holds a card that may escort a Fair Maiden of
    ``suit``: same suit, another Fair Maiden, or a Kingdom card (not an answer-only or
    turn-only card; Magic Potion / Hidden Treasure only as the last card)."""
    skipped = False
    last = len(hand) == 2
    for e in hand:
        if e == maiden and not skipped:
            skipped = True
            continue
        if KINGDOM[e]:
            k = KIND[e]
            if k in ANSWER_ONLY or k in TURN_ONLY:
                continue
            if k in LAST_ONLY and not last:
                continue
            return True
        if SUIT[e] == suit or SUIT2[e] == suit or KIND[e] == FM:
            return True
    return False


def magician_plays(
    tables: Tables, context: int, hand: tuple[int, ...], match_key: int, suit: int, is_escort: bool
) -> list[Move]:
    """The Magician's forms playable on (``match_key``, ``suit``) from ``hand``; ``is_escort``:
    a Fair Maiden played now is itself an escort."""
    out: list[Move] = []
    nh = len(hand)
    for m, as_face, _named in tables.magician(context):
        if KINGDOM[as_face]:
            if KIND[as_face] in LAST_ONLY and nh != 1:
                continue
        else:
            if SUIT[as_face] != suit and SUIT2[as_face] != suit and MATCH_KEY[as_face] != match_key:
                continue
            if KIND[as_face] == FM and not is_escort and not has_escort(hand, MAG_FACE, SUIT[as_face]):
                continue
        out.append(m)
    return out


def any_playable(s: Work | DynastyState, tables: Tables, hand: tuple[int, ...]) -> bool:
    """Whether ``hand`` holds a card that may be played now (a normal turn)."""
    return can_play(tables, hand, s.match_key, s.suit, s.escorting_first_card)


def can_play(tables: Tables, hand: tuple[int, ...], match_key: int, suit: int, is_escort: bool) -> bool:
    """Whether a normal turn could play a card of ``hand`` on (``match_key``, ``suit``)."""
    ok = tables.playable(match_key, suit)
    for f in hand:
        if f in ok:
            if KIND[f] != FM or is_escort or has_escort(hand, f, SUIT[f]):
                return True
        elif KINGDOM[f]:
            k = KIND[f]
            if k in ANSWER_ONLY or (k in LAST_ONLY and len(hand) != 1):
                continue
            if k == MAG and not magician_plays(tables, C_PLAY, hand, match_key, suit, is_escort):
                continue
            return True
    return False


def has_answer(s: Work | DynastyState, hand: tuple[int, ...]) -> bool:
    """Whether ``hand`` can answer the pending draw card (Decree, Protector, Magician, or a
    Drawbridge when it may stack)."""
    for f in hand:
        k = KIND[f]
        if k == DEC or k == PRO or k == MAG or (k == DB and s.drawbridge_may_stack):
            return True
    return False


@lru_cache(maxsize=65536)
def can_play_out(
    hand: tuple[int, ...], match_key: int, suit: int, context: int, suits: tuple[int, ...]
) -> bool:
    """Whether ``hand`` can be played out completely in one turn from this position
    (chains of King/Queen/Wizard extras, Fair Maiden escorts, a Flaming Arrow burn)."""
    if not hand:
        return True
    nh = len(hand)
    prev = -1
    for f in hand:
        if f == prev:
            continue
        prev = f
        k = KIND[f]
        if KINGDOM[f]:
            if k in ANSWER_ONLY or (k in LAST_ONLY and nh != 1):
                continue
            if k in TURN_ONLY and context != C_PLAY:
                continue
            rest = remove_one(hand, f)
            if not rest:
                if k in (CAN, CAT, KEY):
                    continue
                return True
            if k in EXTRA_KINDS or k == MAG:
                for s2 in suits:
                    if can_play_out(rest, -1, s2, C_EXTRA, suits):
                        return True
            elif k == ARR and nh == 2:
                return True
            continue
        if SUIT[f] != suit and SUIT2[f] != suit and MATCH_KEY[f] != match_key:
            continue
        rest = remove_one(hand, f)
        if k == FM and context != C_ESCORT:
            if rest and can_play_out(rest, FM_KEY, SUIT[f], C_ESCORT, suits):
                return True
            continue
        if not rest:
            return True
    return False
