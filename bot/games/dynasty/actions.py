"""The named moves of ``dynasty``: what each move code means, as a small frozen value.

Every move has a stable code (stored in the moves table, replayed, and part of the hand's
custom ids), so the codes are exactly those of earlier versions: ``p:<card>...`` a card
played, ``t:<card>...`` the dealer's choices for the table card, ``d`` a draw, ``c:<seat>``
a catch, ``r:<card>[:<seat>]`` a Risk card, ``k:<card>`` the Secret Key's pick, and the
one-word answers (``pass``, ``x``, ``acc``, ``def``, ``take``, ``og``, ``wait`` ...).

Each named move knows its ``kind`` (the code's first part, which the kit dispatches on:
:func:`bot.games.base.handles`) and spells its ``code``; :func:`action_of` is the pure
parser back from a code (memoised, as a pure function may be). There is no registry.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from bot.games.dynasty.cards import ARR, CODE, FACE_OF_CODE, KIND, SUIT_CODES, SUIT_OF_CODE

# The move kinds (a code's first part).
PLAY_CARD = "p"  # a card from hand, in a turn, as an extra or escort, or in answer
TABLE_CARD = "t"  # the dealer's choices for the first (table) card
DRAW_CARD = "d"
PASS_TURN = "pass"
END_TURN = "x"
ACCEPT = "acc"
DEFEND = "def"
TAKE_IT = "take"
KEY_TAKE = "k"
ASK_PARTNER = "ask"
SAY_YES = "yes"
SAY_NO = "no"
FORFEIT = "f"
CUT = "cut"
DEAL = "deal"
CALL = "og"
CATCH = "c"
RISK = "r"
WARLORD = "war"
ESCAPE = "esc"
WAIT = "wait"

# Direction choices of Queen's Option and the Wizard.
KEEP, REVERSE, SKIP = 0, 1, 2
DIR_LETTER = "krs"


@dataclass(frozen=True, slots=True)
class CardPlay:
    """One way of playing a card, as its move code spells it (unused choices are -1)."""

    op: str  # PLAY_CARD a card from hand, TABLE_CARD the dealer's choices for the table card
    face: int  # the card played
    as_face: int  # the card it acts as (a Magician's form), else ``face``
    direction_choice: int  # KEEP, REVERSE or SKIP (Queen's Option, Wizard)
    suit: int  # the suit named
    target: int  # the player aimed at (Catapult, Siege Tower, a Flaming Arrow's gift)
    burn: int  # the card a Flaming Arrow burns

    out_of_turn: ClassVar[bool] = False

    @property
    def kind(self) -> str:
        return self.op

    @property
    def code(self) -> str:
        parts = [self.op, CODE[self.face]]
        if self.as_face != self.face:
            parts.append(CODE[self.as_face])
        if self.direction_choice >= 0:
            parts.append(DIR_LETTER[self.direction_choice])
        if self.suit >= 0:
            parts.append(SUIT_CODES[self.suit])
        if self.burn >= 0:
            parts.append(CODE[self.burn])
        if self.target >= 0:
            parts.append(str(self.target))
        elif KIND[self.face] == ARR and self.burn >= 0:
            parts.append("x")
        return ":".join(parts)


@dataclass(frozen=True, slots=True)
class Word:
    """A move of one word: its code is its kind (a subclass names each)."""

    kind: ClassVar[str]
    out_of_turn: ClassVar[bool] = False  # made out of turn: the short windows stay open

    @property
    def code(self) -> str:
        return self.kind


@dataclass(frozen=True, slots=True)
class Draw(Word):
    kind = DRAW_CARD


@dataclass(frozen=True, slots=True)
class Pass(Word):
    kind = PASS_TURN


@dataclass(frozen=True, slots=True)
class EndTurn(Word):
    """No (more) extra card or escort: the turn ends."""

    kind = END_TURN


@dataclass(frozen=True, slots=True)
class Accept(Word):
    """The draw card aimed at the player is taken (draw, or the Dungeon)."""

    kind = ACCEPT


@dataclass(frozen=True, slots=True)
class Defend(Word):
    """A Defender answers the battle card."""

    kind = DEFEND


@dataclass(frozen=True, slots=True)
class LetItHappen(Word):
    """The battle card is let happen."""

    kind = TAKE_IT


@dataclass(frozen=True, slots=True)
class AskPartner(Word):
    kind = ASK_PARTNER


@dataclass(frozen=True, slots=True)
class Yes(Word):
    kind = SAY_YES


@dataclass(frozen=True, slots=True)
class No(Word):
    kind = SAY_NO


@dataclass(frozen=True, slots=True)
class Forfeit(Word):
    """After a partner's Yes: not going out (draw 2, lose the turn)."""

    kind = FORFEIT


@dataclass(frozen=True, slots=True)
class Cut(Word):
    """The dealer cuts for the dealing bonus."""

    kind = CUT


@dataclass(frozen=True, slots=True)
class Deal(Word):
    """The dealer deals without cutting."""

    kind = DEAL


@dataclass(frozen=True, slots=True)
class CallOnGuard(Word):
    kind = CALL
    out_of_turn = True


@dataclass(frozen=True, slots=True)
class PlayWarlord(Word):
    kind = WARLORD
    out_of_turn = True


@dataclass(frozen=True, slots=True)
class Escape(Word):
    """The Dungeon is discarded."""

    kind = ESCAPE
    out_of_turn = True


@dataclass(frozen=True, slots=True)
class Wait(Word):
    """The out-of-turn chance is let pass."""

    kind = WAIT
    out_of_turn = True


@dataclass(frozen=True, slots=True)
class Catch:
    """Catching ``caught``, down to one card without calling On Guard."""

    caught: int

    kind: ClassVar[str] = CATCH
    out_of_turn: ClassVar[bool] = True

    @property
    def code(self) -> str:
        return f"{CATCH}:{self.caught}"


@dataclass(frozen=True, slots=True)
class Risk:
    """Playing the Risk card ``face`` lying in front (the Dark Knight: a bet against
    ``bet_against``, else -1)."""

    face: int
    bet_against: int = -1

    kind: ClassVar[str] = RISK
    out_of_turn: ClassVar[bool] = True

    @property
    def code(self) -> str:
        tail = f":{self.bet_against}" if self.bet_against >= 0 else ""
        return f"{RISK}:{CODE[self.face]}{tail}"


@dataclass(frozen=True, slots=True)
class KeyTake:
    """The Secret Key: taking ``face`` from the draw pile."""

    face: int

    kind: ClassVar[str] = KEY_TAKE
    out_of_turn: ClassVar[bool] = False

    @property
    def code(self) -> str:
        return f"{KEY_TAKE}:{CODE[self.face]}"


Action = CardPlay | Word | Catch | Risk | KeyTake

WORDS: dict[str, Word] = {
    word.kind: word
    for word in (
        Draw(),
        Pass(),
        EndTurn(),
        Accept(),
        Defend(),
        LetItHappen(),
        AskPartner(),
        Yes(),
        No(),
        Forfeit(),
        Cut(),
        Deal(),
        CallOnGuard(),
        PlayWarlord(),
        Escape(),
        Wait(),
    )
}


@lru_cache(maxsize=16384)
def action_of(code: str) -> Action:
    """The named move a code stands for (the inverse of its ``code``); ValueError for a code
    no move of this game has."""
    parts = code.split(":")
    kind = parts[0]
    if kind in WORDS and len(parts) == 1:
        return WORDS[kind]
    if kind in (PLAY_CARD, TABLE_CARD):
        return _card_play(parts)
    if kind == CATCH and len(parts) == 2 and parts[1].isdigit():
        return Catch(int(parts[1]))
    if kind == RISK and len(parts) in (2, 3) and parts[1] in FACE_OF_CODE:
        bet = parts[2] if len(parts) == 3 else "-1"
        if bet.lstrip("-").isdigit():
            return Risk(FACE_OF_CODE[parts[1]], int(bet))
    if kind == KEY_TAKE and len(parts) == 2 and parts[1] in FACE_OF_CODE:
        return KeyTake(FACE_OF_CODE[parts[1]])
    raise ValueError(f"not a move code of dynasty: {code!r}")


def card_play(code: str) -> CardPlay:
    """The card play a code of a card (``p:...`` or ``t:...``) stands for."""
    play = action_of(code)
    if not isinstance(play, CardPlay):
        raise TypeError(f"not a card play: {code!r}")
    return play


def _card_play(parts: list[str]) -> CardPlay:
    """Read the parts of a card play in the order :attr:`CardPlay.code` writes them."""
    if len(parts) < 2 or parts[1] not in FACE_OF_CODE:
        raise ValueError(f"not a move code of dynasty: {':'.join(parts)!r}")
    face = FACE_OF_CODE[parts[1]]
    rest = parts[2:]
    as_face = face
    if rest and rest[0] in FACE_OF_CODE and KIND[face] != ARR:
        as_face = FACE_OF_CODE[rest.pop(0)]
    direction_choice = suit = burn = target = -1
    if rest and rest[0] in DIR_LETTER and len(rest[0]) == 1:
        direction_choice = DIR_LETTER.index(rest.pop(0))
    if rest and rest[0] in SUIT_OF_CODE:
        suit = SUIT_OF_CODE[rest.pop(0)]
    if rest and rest[0] in FACE_OF_CODE:
        burn = FACE_OF_CODE[rest.pop(0)]
    if rest and rest[0].isdigit():
        target = int(rest.pop(0))
    elif rest and rest[0] == "x" and burn >= 0:
        rest.pop(0)
    if rest:
        raise ValueError(f"not a move code of dynasty: {':'.join(parts)!r}")
    play = CardPlay(parts[0], face, as_face, direction_choice, suit, target, burn)
    if play.code != ":".join(parts):
        raise ValueError(f"not a move code of dynasty: {':'.join(parts)!r}")
    return play
