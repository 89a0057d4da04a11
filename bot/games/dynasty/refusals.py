"""Why a move is refused: the sentences :class:`bot.games.dynasty.game.Dynasty` gives
the kit for a seat that may not act now and for a move that is not legal now."""

from __future__ import annotations

from bot.games.base import waiting_for
from bot.games.dynasty.actions import CALL, CATCH, DRAW_CARD, ESCAPE, PLAY_CARD, RISK, TABLE_CARD, WARLORD
from bot.games.dynasty.cards import (
    ANSWER_ONLY,
    CODE,
    DEF,
    FACE_OF_CODE,
    FM,
    KIND,
    KIND_NAME,
    KINGDOM,
    LAST_ONLY,
    MATCH_KEY,
    NAME,
    SUIT,
    SUIT2,
    SUIT_NAMES,
    TURN_ONLY,
)
from bot.games.dynasty.catalogue import Tables
from bot.games.dynasty.legal import awaited_mask
from bot.games.dynasty.state import ANSWER, ASK_YES, ESCORT, EXTRA, PLAY, DynastyState


def _spoken(name: str) -> str:
    return " ".join(name.casefold().replace("(", " ").replace(")", " ").split())


_CARD_OF_NAME: dict[str, str] = {}
for _face, _code in enumerate(CODE):
    _CARD_OF_NAME.setdefault(_code.casefold(), _code)
    _CARD_OF_NAME.setdefault(_spoken(NAME[_face]), _code)


def card_of_name(text: str) -> str | None:
    """The code of the card ``text`` names: its code (``2bl``) or its name in any case, the
    suit in brackets or not (``2 (blue)``, ``2 blue``, ``Magician``)."""
    return _CARD_OF_NAME.get(_spoken(text))


def _a(name: str) -> str:
    """A card's name with its article: "a Magician", "an 8 (gold)"."""
    return f"{'an' if name[:1].casefold() in 'aeiou8' else 'a'} {name}"


def why_not_your_turn(s: DynastyState, seat: int, tables: Tables) -> str:
    if not 0 <= seat < tables.n:
        return "You are not seated at this table."
    if (s.waived >> seat) & 1:
        return "You let this chance pass; wait for the next player to act."
    bl = awaited_mask(s, tables)
    return waiting_for(x for x in range(tables.n) if (bl >> x) & 1)


def why_illegal(s: DynastyState, seat: int, code: str, tables: Tables) -> str:
    parts = code.split(":")
    if parts[0] in (PLAY_CARD, TABLE_CARD) and len(parts) > 1:
        f = FACE_OF_CODE.get(parts[1])
        if f is None:
            return "That is not a card of this game."
        owner = s.turn
        if f not in s.hands[owner]:
            return f"You do not hold {_a(NAME[f])}."
        k = KIND[f]
        if s.phase == ANSWER:
            return f"{NAME[f]} cannot answer this draw: answer with a Royal Decree, a Protector, a Magician{', a Drawbridge' if s.drawbridge_may_stack else ''}, or draw."
        if k in ANSWER_ONLY:
            return f"{KIND_NAME[k]} can only be played in answer to {'a battle card' if k == DEF else 'a draw card aimed at you'}."
        if k in LAST_ONLY:
            return f"{KIND_NAME[k]} may only be played as your last card."
        if k in TURN_ONLY and s.phase in (EXTRA, ESCORT):
            return (
                f"{KIND_NAME[k]} is played only as the one card of a normal turn, not as an extra or escort."
            )
        if not KINGDOM[f] and SUIT[f] != s.suit and SUIT2[f] != s.suit and MATCH_KEY[f] != s.match_key:
            return f"{NAME[f]} does not match: play a {SUIT_NAMES[s.suit]} card, the same kind as the top card, or a Kingdom card."
        if k == FM:
            return "A Fair Maiden needs an escort: another card playable on it (same suit, a Fair Maiden or a Kingdom card)."
        if s.partner_asked == ASK_YES:
            return "After your partner's Yes you must go out now, or draw 2 and lose the turn."
        return f"That way of playing {NAME[f]} is not possible right now."
    if parts[0] == DRAW_CARD:
        return (
            "You cannot draw now."
            if s.phase != PLAY
            else "The draw pile and discard pile are empty: play a card or pass."
        )
    if parts[0] == CALL:
        return "You can call On Guard only when you have just got down to one card."
    if parts[0] == CATCH:
        return "Nobody can be caught right now: only a player down to one card who has not called On Guard, before the next player acts."
    if parts[0] == RISK:
        return "You have no such Risk card in front of you, or it cannot be played now."
    if parts[0] == WARLORD:
        return "The Warlord is played at the start of another player's turn."
    if parts[0] == ESCAPE:
        return "You can escape the Dungeon only after your second lost turn, before the next player acts."
    return "That move is not possible right now."
