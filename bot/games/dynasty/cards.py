"""The cards of King's Court / King's Dynasty / Bonus, built from one data table.

A card in play is a *face*: a small int indexing the parallel tuples below (``KIND``,
``SUIT``, ``POINTS`` ...). Identical physical cards (two gold 7s) share one face, so hands
and piles are plain tuples of ints. The deck of a match is a multiset of faces produced by
:func:`build_deck` from :data:`DECK_TABLE`; nothing else in the package lists cards.
"""

from __future__ import annotations

from collections.abc import Iterable

# --- suits ------------------------------------------------------------------------------

SUIT_CODES: tuple[str, ...] = ("gd", "gn", "bl", "bu", "pu", "si", "or")
SUIT_NAMES: tuple[str, ...] = ("gold", "green", "blue", "burgundy", "purple", "silver", "orange")
SUIT_OF_CODE = {c: i for i, c in enumerate(SUIT_CODES)}
NO_SUIT = -1

# --- kinds ------------------------------------------------------------------------------

NUM = 0
FM, DB, QO, KN, CJ = 1, 2, 3, 4, 5  # suit scrolls
WIZ, DRA, KING, QUEEN, DUKE, DUCHESS = 6, 7, 8, 9, 10, 11  # wild cards
DEC, MAG, POT, PRO, DUN = 12, 13, 14, 15, 16  # defensive, magic, dungeon
DKN, POI, FIR, GOB = 17, 18, 19, 20  # risk cards
CAN, CAT, ARR, SIE, TAX, DEF = 21, 22, 23, 24, 25, 26  # battle cards and Defender
TRE, WAR, KEY = 27, 28, 29  # Bonus shields and the mail-order Secret Key

KIND_CODE: dict[int, str] = {
    FM: "FM",
    DB: "DB",
    QO: "QO",
    KN: "KN",
    CJ: "CJ",
    WIZ: "WIZ",
    DRA: "DRA",
    KING: "KIN",
    QUEEN: "QUE",
    DUKE: "DUK",
    DUCHESS: "DCH",
    DEC: "DEC",
    MAG: "MAG",
    POT: "POT",
    PRO: "PRO",
    DUN: "DUN",
    DKN: "DKN",
    POI: "POI",
    FIR: "FIR",
    GOB: "GOB",
    CAN: "CAN",
    CAT: "CAT",
    ARR: "ARR",
    SIE: "SIE",
    TAX: "TAX",
    DEF: "DEF",
    TRE: "TRE",
    WAR: "WAR",
    KEY: "KEY",
}
KIND_OF_CODE = {v: k for k, v in KIND_CODE.items()}
KIND_NAME: dict[int, str] = {
    NUM: "Number",
    FM: "Fair Maiden",
    DB: "Drawbridge",
    QO: "Queen's Option",
    KN: "Knight",
    CJ: "Court Jester",
    WIZ: "Wizard",
    DRA: "Dragon",
    KING: "King",
    QUEEN: "Queen",
    DUKE: "Duke",
    DUCHESS: "Duchess",
    DEC: "Royal Decree",
    MAG: "Magician",
    POT: "Magic Potion",
    PRO: "Protector",
    DUN: "Dungeon",
    DKN: "Dark Knight",
    POI: "Poison Garden",
    FIR: "Castle Fire",
    GOB: "King's Goblet",
    CAN: "Cannonball",
    CAT: "Catapult",
    ARR: "Flaming Arrow",
    SIE: "Siege Tower",
    TAX: "Imperial Tax",
    DEF: "Defender",
    TRE: "Hidden Treasure",
    WAR: "Warlord",
    KEY: "Secret Key",
}
# Printed point values (number cards count their rank). Dark Knight's 100 is the bet.
# The Secret Key has no printed value; this bot counts it 35 like the other action shields.
KIND_POINTS: dict[int, int] = {
    FM: 20,
    DB: 20,
    QO: 30,
    KN: 20,
    CJ: 20,
    WIZ: 50,
    DRA: 35,
    KING: 25,
    QUEEN: 25,
    DUKE: 20,
    DUCHESS: 20,
    DEC: 50,
    MAG: 50,
    POT: 0,
    PRO: 35,
    DUN: 35,
    DKN: 100,
    POI: 75,
    FIR: 75,
    GOB: 50,
    CAN: 35,
    CAT: 35,
    ARR: 35,
    SIE: 35,
    TAX: 35,
    DEF: -35,
    TRE: -100,
    WAR: 50,
    KEY: 35,
}

WILDS = frozenset({WIZ, DRA, KING, QUEEN, DUKE, DUCHESS})
EXTRA_KINDS = frozenset({WIZ, KING, QUEEN})  # may add one extra playable card
DRAW_KINDS = frozenset({WIZ, DRA, DUN, DB})
ANSWER_ONLY = frozenset({DEC, PRO, DEF})  # played only in answer to something
LAST_ONLY = frozenset({POT, TRE})  # played only as the last card
RISK_KINDS = frozenset({DKN, POI, FIR, GOB})
FRONT_KINDS = frozenset({DKN, POI, FIR, GOB, WAR})  # go face up in front when received
BATTLE_KINDS = frozenset({CAN, CAT, ARR, SIE, TAX})
TURN_ONLY = frozenset({CAN, CAT, ARR, SIE, TAX, KEY})  # the one card of a normal turn
SHIELD_KINDS = frozenset({DKN, POI, FIR, GOB, CAN, CAT, ARR, SIE, TAX, DEF, TRE, WAR, KEY})

# --- the one deck table -----------------------------------------------------------------
# (box, card, suits, copies of each). ``card`` is a rank ("0".."10") or a kind code;
# ``suits`` lists suit codes (a "/" pair is one Queen's Option with two suits) or is empty
# for Kingdom cards. Boxes: KC classic 108, KD Dynasty 55, BONUS 36, KEY the mail-order
# Secret Key. KC ranks 4-8 give 2 cards to a rotating pair of suits and 1 to the other two;
# KD ranks 4-8 give 2 to purple on even ranks and to silver on odd ranks.
DECK_TABLE: tuple[tuple[str, str, str, int], ...] = (
    ("KC", "1", "gd gn bl bu", 2),
    ("KC", "2", "gd gn bl bu", 2),
    ("KC", "3", "gd gn bl bu", 2),
    ("KC", "4", "gd gn", 2),
    ("KC", "4", "bl bu", 1),
    ("KC", "5", "gn bl", 2),
    ("KC", "5", "gd bu", 1),
    ("KC", "6", "bl bu", 2),
    ("KC", "6", "gd gn", 1),
    ("KC", "7", "bu gd", 2),
    ("KC", "7", "gn bl", 1),
    ("KC", "8", "gd gn", 2),
    ("KC", "8", "bl bu", 1),
    ("KC", "9", "gd gn bl bu", 1),
    ("KC", "10", "gd gn bl bu", 1),
    ("KC", "FM", "gd gn bl bu", 2),
    ("KC", "DB", "gd gn bl bu", 2),
    ("KC", "QO", "gd/bl gn/bu", 1),
    ("KC", "KN", "gd gn bl bu", 1),
    ("KC", "CJ", "gd gn bl bu", 1),
    ("KC", "WIZ", "", 1),
    ("KC", "DRA", "", 4),
    ("KC", "KIN", "", 4),
    ("KC", "DUK", "", 4),
    ("KC", "DEC", "", 1),
    ("KC", "MAG", "", 1),
    ("KC", "POT", "", 1),
    ("KC", "PRO", "", 2),
    ("KC", "DUN", "", 2),
    ("KD", "1", "pu si", 2),
    ("KD", "2", "pu si", 2),
    ("KD", "3", "pu si", 2),
    ("KD", "4", "pu", 2),
    ("KD", "4", "si", 1),
    ("KD", "5", "si", 2),
    ("KD", "5", "pu", 1),
    ("KD", "6", "pu", 2),
    ("KD", "6", "si", 1),
    ("KD", "7", "si", 2),
    ("KD", "7", "pu", 1),
    ("KD", "8", "pu", 2),
    ("KD", "8", "si", 1),
    ("KD", "9", "pu si", 1),
    ("KD", "10", "pu si", 1),
    ("KD", "FM", "pu si", 1),
    ("KD", "DB", "pu si", 1),
    ("KD", "QO", "pu/si", 1),
    ("KD", "KN", "pu si", 1),
    ("KD", "CJ", "pu si", 1),
    ("KD", "QUE", "", 2),
    ("KD", "DCH", "", 2),
    ("KD", "DKN", "", 1),
    ("KD", "POI", "", 1),
    ("KD", "FIR", "", 1),
    ("KD", "GOB", "", 1),
    ("KD", "CAN", "", 1),
    ("KD", "CAT", "", 1),
    ("KD", "ARR", "", 1),
    ("KD", "SIE", "", 1),
    ("KD", "TAX", "", 1),
    ("KD", "DEF", "", 2),
    ("BONUS", "0", "or", 2),
    ("BONUS", "1", "or", 2),
    ("BONUS", "2", "or", 2),
    ("BONUS", "3", "or", 2),
    ("BONUS", "4", "or", 2),
    ("BONUS", "6", "or", 2),
    ("BONUS", "8", "or", 2),
    ("BONUS", "5", "or", 1),
    ("BONUS", "7", "or", 1),
    ("BONUS", "9", "or", 1),
    ("BONUS", "10", "or", 1),
    ("BONUS", "0", "gd gn bl bu pu si", 2),
    ("BONUS", "FM", "or", 1),
    ("BONUS", "DB", "or", 1),
    ("BONUS", "KN", "or", 1),
    ("BONUS", "CJ", "or", 1),
    ("BONUS", "TRE", "", 1),
    ("BONUS", "WAR", "", 1),
    ("KEY", "KEY", "", 1),
)

DECK_BOXES: dict[str, tuple[str, ...]] = {
    "classic": ("KC",),
    "dynasty": ("KC", "KD"),
    "bonus": ("KC", "KD", "BONUS"),
}

# Expansion Kingdom cards that can be switched off one by one (option ``cards``), and the
# Secret Key, which is off unless switched on. Suit cards come and go with their suit.
TOGGLE_KEYS: dict[str, int] = {
    "queen": QUEEN,
    "duchess": DUCHESS,
    "darkknight": DKN,
    "poison": POI,
    "fire": FIR,
    "goblet": GOB,
    "cannonball": CAN,
    "catapult": CAT,
    "arrow": ARR,
    "siege": SIE,
    "tax": TAX,
    "defender": DEF,
    "treasure": TRE,
    "warlord": WAR,
    "key": KEY,
}

# --- faces ------------------------------------------------------------------------------

_face_specs: list[tuple[int, int, int, int]] = []  # kind, suit, suit2, rank
_face_index: dict[tuple[int, int, int, int], int] = {}


def _spec_faces(card: str, suits: str) -> list[tuple[int, int, int, int]]:
    if card.isdigit():
        return [(NUM, SUIT_OF_CODE[s], NO_SUIT, int(card)) for s in suits.split()]
    kind = KIND_OF_CODE[card]
    if not suits:
        return [(kind, NO_SUIT, NO_SUIT, -1)]
    out = []
    for s in suits.split():
        if "/" in s:
            a, b = s.split("/")
            out.append((kind, SUIT_OF_CODE[a], SUIT_OF_CODE[b], -1))
        else:
            out.append((kind, SUIT_OF_CODE[s], NO_SUIT, -1))
    return out


for _box, _card, _suits, _n in DECK_TABLE:
    for _spec in _spec_faces(_card, _suits):
        if _spec not in _face_index:
            _face_index[_spec] = len(_face_specs)
            _face_specs.append(_spec)

NFACES = len(_face_specs)
KIND: tuple[int, ...] = tuple(s[0] for s in _face_specs)
SUIT: tuple[int, ...] = tuple(s[1] for s in _face_specs)
SUIT2: tuple[int, ...] = tuple(s[2] for s in _face_specs)
RANK: tuple[int, ...] = tuple(s[3] for s in _face_specs)
POINTS: tuple[int, ...] = tuple(s[3] if s[0] == NUM else KIND_POINTS[s[0]] for s in _face_specs)
KINGDOM: tuple[bool, ...] = tuple(s[1] == NO_SUIT for s in _face_specs)
# Same-kind key: numbers match by rank, suit scrolls by name; Kingdom cards never need it.
MATCH_KEY: tuple[int, ...] = tuple(
    s[3] if s[0] == NUM else (100 + s[0] if s[1] != NO_SUIT else -1) for s in _face_specs
)


def _face_code(kind: int, suit: int, suit2: int, rank: int) -> str:
    if kind == NUM:
        return f"{rank}{SUIT_CODES[suit]}"
    if suit == NO_SUIT:
        return KIND_CODE[kind]
    if suit2 != NO_SUIT:
        return f"{KIND_CODE[kind]}{SUIT_CODES[suit]}{SUIT_CODES[suit2]}"
    return f"{KIND_CODE[kind]}{SUIT_CODES[suit]}"


def _face_name(kind: int, suit: int, suit2: int, rank: int) -> str:
    if kind == NUM:
        return f"{rank} ({SUIT_NAMES[suit]})"
    if suit == NO_SUIT:
        return KIND_NAME[kind]
    if suit2 != NO_SUIT:
        return f"{KIND_NAME[kind]} ({SUIT_NAMES[suit]}/{SUIT_NAMES[suit2]})"
    return f"{KIND_NAME[kind]} ({SUIT_NAMES[suit]})"


CODE: tuple[str, ...] = tuple(_face_code(*s) for s in _face_specs)
NAME: tuple[str, ...] = tuple(_face_name(*s) for s in _face_specs)
FACE_OF_CODE: dict[str, int] = {c: i for i, c in enumerate(CODE)}


def face_of(kind: int, suit: int = NO_SUIT, rank: int = -1, suit2: int = NO_SUIT) -> int:
    """The face id of a card (KeyError if the table has no such card)."""
    return _face_index[(kind, suit, suit2, rank)]


def suits_of(face: int) -> tuple[int, ...]:
    s, s2 = SUIT[face], SUIT2[face]
    if s == NO_SUIT:
        return ()
    return (s,) if s2 == NO_SUIT else (s, s2)


def build_deck(deck: str, without: Iterable[int] = (), secret_key: bool = False) -> tuple[int, ...]:
    """The multiset of faces for a match: boxes of ``deck`` (classic/dynasty/bonus), minus the
    switched-off Kingdom kinds in ``without``, plus the Secret Key when asked for."""
    boxes = set(DECK_BOXES[deck])
    if secret_key:
        boxes.add("KEY")
    removed = set(without)
    out: list[int] = []
    for box, card, suits, n in DECK_TABLE:
        if box not in boxes:
            continue
        for spec in _spec_faces(card, suits):
            if spec[0] in removed:
                continue
            out.extend([_face_index[spec]] * n)
    return tuple(sorted(out))


def hand_label(hand: Iterable[int]) -> str:
    """ "7 (gold) x2, Dragon" style listing of a sorted hand."""
    parts: list[str] = []
    prev, count = -1, 0
    for f in hand:
        if f == prev:
            count += 1
            continue
        if prev >= 0:
            parts.append(NAME[prev] + (f" x{count}" if count > 1 else ""))
        prev, count = f, 1
    if prev >= 0:
        parts.append(NAME[prev] + (f" x{count}" if count > 1 else ""))
    return ", ".join(parts) if parts else "no cards"
