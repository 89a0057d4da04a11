"""The lobby options of ``dynasty`` (deck, match length, limit, card changes, partners,
dealing bonus), their validation into a :class:`Config`, and the slash commands."""

from __future__ import annotations

from collections.abc import Mapping

from bot.games.base import Command, InvalidOptions, Option
from bot.games.dynasty.cards import (
    ARR,
    CAN,
    CAT,
    DEF,
    DKN,
    FIR,
    GOB,
    POI,
    SIE,
    TAX,
    TOGGLE_KEYS,
    TRE,
    WAR,
)
from bot.games.dynasty.state import Config

DECKS = ("dynasty", "classic", "bonus")
LIMITS = ("auto", "300", "500", "750", "1000", "1500", "2000", "3000")
MIN_LIMIT, MAX_LIMIT = 50, 100_000

# Presets and single exclusions accepted by the ``cards`` option (comma-separated).
CARD_PRESETS: dict[str, tuple[int, ...]] = {
    "all": (),
    "no-risk": (DKN, POI, FIR, GOB),
    "no-battle": (CAN, CAT, ARR, SIE, TAX, DEF),
    "no-shields": (DKN, POI, FIR, GOB, CAN, CAT, ARR, SIE, TAX, DEF, TRE, WAR),
}
_CARD_LABELS = {
    "queen": "Queens",
    "duchess": "Duchesses",
    "darkknight": "Dark Knight",
    "poison": "Poison Garden",
    "fire": "Castle Fire",
    "goblet": "King's Goblet",
    "cannonball": "Cannonball",
    "catapult": "Catapult",
    "arrow": "Flaming Arrow",
    "siege": "Siege Tower",
    "tax": "Imperial Tax",
    "defender": "Defenders",
    "treasure": "Hidden Treasure",
    "warlord": "Warlord",
}

OPTIONS: tuple[Option, ...] = (
    Option(
        "deck",
        "Deck",
        (
            ("dynasty", "King's Dynasty: classic + expansion (163 cards)"),
            ("classic", "Classic deck only (108 cards)"),
            ("bonus", "King's Dynasty + Bonus cards (199 cards)"),
        ),
    ),
    Option(
        "hands",
        "Match length",
        (
            ("5", "5 hands, or the limit (about 40 minutes for two players, longer with more)"),
            ("1", "1 hand"),
            ("3", "3 hands, or the limit"),
            ("8", "8 hands, or the limit"),
            ("limit", "Until a total passes the limit (printed rule; long)"),
        ),
    ),
    Option(
        "limit",
        "Game ends above",
        (
            ("auto", "Auto: 500 classic, 750 with the expansion"),
            *((v, f"{v} points") for v in LIMITS[1:]),
        ),
    ),
    Option(
        "cards",
        "Card changes",
        (
            ("key", "Add the Secret Key"),
            ("no-risk", "Leave out the Risk cards"),
            ("no-battle", "Leave out Battle cards and Defenders"),
            ("no-shields", "Leave out every Shield card"),
            *((f"no-{k}", f"Leave out {v}") for k, v in _CARD_LABELS.items()),
        ),
        default="",
        multi=True,
        empty="none (every expansion card in play, no Secret Key)",
        moot=("deck", "classic"),
        moot_note="none (the classic deck has no expansion cards; the Secret Key may be added)",
    ),
    Option(
        "partners",
        "Partners",
        (
            ("off", "No partners"),
            ("on", "Partners (4, 6 or 8 players; partners sit opposite)"),
        ),
    ),
    Option(
        "dealing_bonus",
        "Dealing bonus",
        (
            ("off", "No dealing bonus"),
            ("on", "Dealing bonus: the dealer may cut for it"),
        ),
    ),
)


def parse_options(players: int, options: Mapping[str, str]) -> Config:
    """Validate lobby options into a :class:`Config` (InvalidOptions with a sentence)."""
    if not 2 <= players <= 8:
        raise InvalidOptions(f"King's Dynasty needs 2 to 8 players, not {players}.")
    known = {o.key for o in OPTIONS}
    for key in options:
        if key not in known:
            raise InvalidOptions(f"Unknown option {key!r}; the options are {', '.join(sorted(known))}.")
    deck = str(options.get("deck", "dynasty")).strip().lower()
    if deck not in DECKS:
        raise InvalidOptions(f"Unknown deck {deck!r}: choose classic, dynasty or bonus.")
    raw_limit = str(options.get("limit", "auto")).strip().lower()
    if raw_limit in ("auto", ""):
        limit = 500 if deck == "classic" else 750
    else:
        try:
            limit = int(raw_limit)
        except ValueError:
            raise InvalidOptions(f"The score limit must be a number or auto, not {raw_limit!r}.") from None
        if not MIN_LIMIT <= limit <= MAX_LIMIT:
            raise InvalidOptions(f"The score limit must be between {MIN_LIMIT} and {MAX_LIMIT}.")
    without: set[int] = set()
    secret_key = False
    for token in str(options.get("cards", "")).replace(" ", "").lower().split(","):
        if not token:
            continue
        if token in CARD_PRESETS:
            without.update(CARD_PRESETS[token])
        elif token in ("key", "+key", "secretkey"):
            secret_key = True
        elif token.startswith("no-") and token[3:] in TOGGLE_KEYS and token[3:] != "key":
            without.add(TOGGLE_KEYS[token[3:]])
        else:
            raise InvalidOptions(
                f"Unknown cards setting {token!r}: use all, key, no-risk, no-battle, no-shields or no-<card> "
                f"({', '.join(k for k in TOGGLE_KEYS if k != 'key')})."
            )
    raw_hands = str(options.get("hands", "5")).strip().lower()
    if raw_hands in ("limit", "0", ""):
        hands = 0
    elif raw_hands.isdigit() and 1 <= int(raw_hands) <= 50:
        hands = int(raw_hands)
    else:
        raise InvalidOptions(f"The match length is a number of hands (1 to 50) or limit, not {raw_hands!r}.")
    partners = _switch(options, "partners")
    if partners and (players % 2 or players < 4):
        raise InvalidOptions("Partners need an even number of players: 4, 6 or 8.")
    return Config(
        players=players,
        deck=deck,
        limit=limit,
        partners=partners,
        dealing_bonus=_switch(options, "dealing_bonus"),
        without=tuple(sorted(without)),
        secret_key=secret_key,
        hands=hands,
    )


def _switch(options: Mapping[str, str], key: str) -> bool:
    v = str(options.get(key, "off")).strip().lower()
    if v in ("on", "yes", "true", "1"):
        return True
    if v in ("off", "no", "false", "0", ""):
        return False
    raise InvalidOptions(f"The {key.replace('_', ' ')} option is on or off, not {v!r}.")


COMMANDS: tuple[Command, ...] = (
    Command(
        "play",
        "Play a card (with its suit, direction or extra card choices).",
        ("p", "t"),
        "card",
        "The card and its choices (the list shows what you may play now)",
    ),
    Command("draw", "Draw a card instead of playing.", ("d",)),
    Command("pass", "Pass after drawing, or end the turn without an extra card.", ("pass", "x")),
    Command("onguard", "Call On Guard: with one card left, or before playing down to one.", ("og",)),
    Command(
        "catch", "Catch a player who did not call On Guard (they draw 2).", ("c",), "player", "Who to catch"
    ),
    Command("accept", "Take a draw card or battle card aimed at you without answering.", ("acc", "take")),
    Command("defend", "Answer a battle card with a Defender.", ("def",)),
    Command(
        "risk",
        "Play a Risk card from in front of you (any time in the hand).",
        ("r",),
        "card",
        "The Risk card",
    ),
    Command("escape", "Escape the Dungeon by discarding it (right after your second draw).", ("esc",)),
    Command("warlord", "Play the Warlord: make this player's turn for them.", ("war",)),
    Command("ask", "Partners: ask your partner whether you may go out.", ("ask",)),
    Command(
        "reply",
        "Partners: answer your partner, or decline to go out after a Yes.",
        ("yes", "no", "f"),
        "answer",
        "Your answer",
    ),
    Command(
        "key",
        "Secret Key: take any card of your choice from the draw pile.",
        ("k",),
        "card",
        "The card to take",
    ),
    Command(
        "deal",
        "Dealer: cut for the dealing bonus, or deal normally.",
        ("cut", "deal"),
        "choice",
        "Cut for the bonus, or deal",
    ),
    Command("wait", "Let an open window pass without an out-of-turn play.", ("wait",)),
)
