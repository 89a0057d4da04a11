"""The move catalogue (every move a card or a window offers, labelled) and the
per-configuration lookup data (:class:`Tables`).

Everything here is derived from a :class:`Config` once and cached: the deck, the suits in
play, teams, and the :class:`Move` objects for every card
variant. Legal-move generation then only filters and concatenates prebuilt tuples. What a
move does is read from its code (:func:`bot.games.dynasty.actions.action_of`).
"""

from __future__ import annotations

from bot.games.base import Move, p
from bot.games.dynasty.actions import (
    KEEP,
    PLAY_CARD,
    REVERSE,
    SKIP,
    TABLE_CARD,
    Accept,
    AskPartner,
    CallOnGuard,
    CardPlay,
    Catch,
    Cut,
    Deal,
    Defend,
    Draw,
    EndTurn,
    Escape,
    Forfeit,
    KeyTake,
    LetItHappen,
    No,
    Pass,
    PlayWarlord,
    Risk,
    Wait,
    Word,
    Yes,
    card_play,
)
from bot.games.dynasty.cards import (
    CAN,
    CAT,
    CJ,
    DB,
    DEC,
    DKN,
    DRA,
    DUCHESS,
    DUKE,
    DUN,
    FIR,
    FM,
    GOB,
    KEY,
    KIND,
    KING,
    KINGDOM,
    KN,
    MAG,
    MATCH_KEY,
    NAME,
    NFACES,
    NUM,
    POI,
    POT,
    PRO,
    QO,
    QUEEN,
    SHIELD_KINDS,
    SIE,
    SUIT,
    SUIT2,
    SUIT_NAMES,
    TAX,
    TRE,
    WIZ,
    build_deck,
    suits_of,
)
from bot.games.dynasty.state import Config, config_tables, set_config_tables

# Contexts a card can be played in; they change labels and a few rules.
C_PLAY, C_EXTRA, C_ESCORT, C_ANSWER, C_FIRST = 0, 1, 2, 3, 4
_PREFIX = ("", "Extra: ", "Escort: ", "", "Table card ")


def _first_face(kind: int) -> int:
    for f in range(len(KIND)):
        if KIND[f] == kind:
            return f
    raise KeyError(kind)


DIR_LABEL = ("Keep the direction", "Reverse the direction", "Skip the next player")


def word(action: Word, label: str) -> Move:
    """The move of a one-word action."""
    return Move(action.code, (label,))


# Fixed moves.
DRAW = word(Draw(), "Draw a card")
PASS = word(Pass(), "Pass")
NO_EXTRA = word(EndTurn(), "No extra card: end the turn")
NO_ESCORT = word(EndTurn(), "No escort left: end the turn")
WAIT = word(Wait(), "Let it pass (no out-of-turn play now)")
CALL = word(CallOnGuard(), "Call On Guard!")
# Offered at two cards on the player's own turn: the call counts for the play that leaves one.
CALL_AHEAD = word(CallOnGuard(), "Call On Guard before playing down to one card")
ESCAPE = word(Escape(), "Escape the Dungeon (discard it)")
ASK_M = word(AskPartner(), "Ask your partner: may I go out?")
YES = word(Yes(), "Yes: go out")
NO = word(No(), "No")
FORFEIT = word(Forfeit(), "Do not go out: draw 2 and lose the turn")
DEFEND = word(Defend(), "Defender: cancel it for you")
TAKE = word(LetItHappen(), "Let it happen")
CUT_M = word(Cut(), "Cut for the dealing bonus")
DEAL_M = word(Deal(), "Deal normally")
POISON_M = Move(
    Risk(_first_face(POI)).code,
    ("Poison Garden: end the hand now (the others each take 75 off their totals)",),
)
FIRE_M = Move(
    Risk(_first_face(FIR)).code,
    ("Castle Fire: all hands redealt (the others each take 75 off their totals)",),
)
GOBLET_M = Move(
    Risk(_first_face(GOB)).code,
    ("King's Goblet: everyone draws five (the others each take 50 off their totals)",),
)

_catch: dict[int, Move] = {}
_dk: dict[int, Move] = {}
_war: dict[int, Move] = {}
_accept: dict[tuple[int, bool], Move] = {}


def catch_move(o: int) -> Move:
    m = _catch.get(o)
    if m is None:
        m = _catch[o] = Move(Catch(o).code, (f"Catch {p(o)}: no On Guard call",))
    return m


def dk_move(o: int) -> Move:
    m = _dk.get(o)
    if m is None:
        m = _dk[o] = Move(Risk(_first_face(DKN), o).code, (f"Dark Knight: bet that {p(o)} will not go out",))
    return m


def war_move(t: int) -> Move:
    m = _war.get(t)
    if m is None:
        m = _war[t] = word(PlayWarlord(), f"Warlord: play {p(t)}'s turn for them (+50 to you)")
        # Same code for every target (the target is always the player whose turn it is).
    return m


def accept_move(n: int, dungeon: bool) -> Move:
    m = _accept.get((n, dungeon))
    if m is None:
        if dungeon:
            label = f"Draw {n} and go to the Dungeon" if n else "Go to the Dungeon"
        else:
            label = f"Draw {n} and lose the turn"
        m = _accept[(n, dungeon)] = word(Accept(), label)
    return m


_key_moves: dict[int, Move] = {}


def key_move(face: int) -> Move:
    m = _key_moves.get(face)
    if m is None:
        group = "Kingdom cards" if KINGDOM[face] else f"{SUIT_NAMES[SUIT[face]].capitalize()} cards"
        m = _key_moves[face] = Move(KeyTake(face).code, ("Secret Key: take a card", group, NAME[face]))
    return m


class Tables:
    """Derived data for one configuration (cached by :func:`tables_for`)."""

    def __init__(self, cfg: Config) -> None:
        n = cfg.players
        self.config = cfg
        self.n = n
        self.all_mask = (1 << n) - 1
        self.no_front: tuple[tuple[int, ...], ...] = ((),) * n
        self.deck = build_deck(cfg.deck, cfg.without, cfg.secret_key)
        present = sorted(set(self.deck))
        self.present = tuple(present)
        self.kinds = frozenset(KIND[f] for f in present)
        self.suits = tuple(sorted({s for f in present for s in suits_of(f)}))
        if cfg.partners:
            half = n // 2
            self.team = tuple(s % half for s in range(n))
            self.nteams = half
            self.partner = tuple((s + half) % n for s in range(n))
        else:
            self.team = tuple(range(n))
            self.nteams = n
            self.partner = tuple(-1 for _ in range(n))
        self.members = tuple(tuple(s for s in range(n) if self.team[s] == t) for t in range(self.nteams))
        # Faces a Magician may become: every scroll card of this deck (not numbers or shields).
        self.mag_faces = tuple(
            f for f in present if KIND[f] != NUM and KIND[f] not in SHIELD_KINDS and KIND[f] != MAG
        )
        self.db_faces = tuple(f for f in present if KIND[f] == DB)
        self._var: dict[tuple[int, int, int], tuple[Move, ...]] = {}
        # flat per-context caches for cards whose variants do not depend on the seat
        self.flat: tuple[list[tuple[Move, ...] | None], ...] = tuple([None] * NFACES for _ in range(5))
        self._playable: dict[int, frozenset[int]] = {}
        self._mag: dict[int, tuple[tuple[Move, int, int], ...]] = {}
        self._arrow: dict[tuple[int, int, int], Move] = {}

    # --- card variants -------------------------------------------------------------------

    def variants(self, context: int, face: int, seat: int) -> tuple[Move, ...]:
        """Every way of playing ``face`` in ``context`` (suit named, direction...).
        Seat matters only for cards that target another player."""
        k = KIND[face]
        if k not in (CAT, SIE):
            flat = self.flat[context]
            v = flat[face]
            if v is None:
                v = flat[face] = tuple(self._build(context, face, face, seat, ()))
            return v
        key = (context, face, seat)
        v = self._var.get(key)
        if v is None:
            v = self._var[key] = tuple(self._build(context, face, face, seat, ()))
        return v

    def playable(self, mkey: int, suit: int) -> frozenset[int]:
        """Suit-card faces of this deck playable on (same-kind key, active suit)."""
        key = mkey * 8 + suit
        v = self._playable.get(key)
        if v is None:
            v = self._playable[key] = frozenset(
                f
                for f in self.present
                if not KINGDOM[f] and (SUIT[f] == suit or SUIT2[f] == suit or MATCH_KEY[f] == mkey)
            )
        return v

    def magician(self, context: int) -> tuple[tuple[Move, int, int], ...]:
        """(move, as_face, named suit) for every Magician transformation in ``context``."""
        v = self._mag.get(context)
        if v is None:
            mag = _first_face(MAG)
            out: list[tuple[Move, int, int]] = []
            for af in self.mag_faces:
                ak = KIND[af]
                if context == C_ANSWER:
                    if ak not in (DEC, PRO, DB):
                        continue
                elif ak in (DEC, PRO) or (context == C_FIRST and ak == POT):
                    continue
                label = ("as " + NAME[af],)
                for m in self._build(context, mag, af, -1, label):
                    out.append((m, af, card_play(m.code).suit))
            v = self._mag[context] = tuple(out)
        return v

    def arrow_alone(self, context: int, face: int) -> Move:
        """The Flaming Arrow played without burning a card (burning is a choice)."""
        key = (-1, -1, context)
        m = self._arrow.get(key)
        if m is None:
            play = CardPlay(PLAY_CARD, face, face, -1, -1, -1, -1)
            m = self._arrow[key] = Move(play.code, (_PREFIX[context] + "Flaming Arrow: burn nothing",))
        return m

    def arrow(self, context: int, face: int, burn: int, target: int) -> Move:
        key = (burn, target, context)
        m = self._arrow.get(key)
        if m is None:
            what = "Discard it" if target < 0 else f"Give it to {p(target)}"
            play = CardPlay(PLAY_CARD, face, face, -1, -1, target, burn)
            m = self._arrow[key] = Move(
                play.code, (_PREFIX[context] + "Flaming Arrow: burn a card", "Burn " + NAME[burn], what)
            )
        return m

    def _build(self, context: int, face: int, as_face: int, seat: int, mid: tuple[str, ...]) -> list[Move]:
        n = self.n
        op = TABLE_CARD if context == C_FIRST else PLAY_CARD
        k = KIND[as_face]
        head = _PREFIX[context] + NAME[face]
        out: list[Move] = []

        def add(
            direction_choice: int, suit: int, target: int, tail: tuple[str, ...], first: str | None = None
        ) -> None:
            play = CardPlay(op, face, as_face, direction_choice, suit, target, -1)
            path = ((first if first is not None else head),) + mid + tail
            out.append(Move(play.code, path))

        named = tuple((s, "Name " + SUIT_NAMES[s]) for s in self.suits)
        dirs: tuple[int, ...] = (KEEP, SKIP) if n == 2 else (KEEP, REVERSE, SKIP)
        if mid:  # Magician: the first step is "Magician", the transformation follows
            hint = " (plays as a card you name)"
        else:
            hint = _hint(context, k, n)
            if context == C_FIRST and hint:  # "Table card Dragon (next player draws 3): Name blue"
                hint = f" ({hint.removeprefix(': ')})"
        h = head + hint
        if context == C_FIRST and face == as_face and k in (DEC, PRO, POT, DUN):
            for s, lab in named:
                add(-1, s, -1, (lab,), h)
        elif k == NUM or k in (KN, CJ, DB, FM):
            add(-1, -1, -1, (), h)
        elif k == QO:
            for direction_choice in dirs:
                for s in (SUIT[as_face], SUIT2[as_face]):
                    add(direction_choice, s, -1, (DIR_LABEL[direction_choice], "Suit: " + SUIT_NAMES[s]), h)
        elif k == WIZ:
            for direction_choice in (KEEP,) if n == 2 else dirs:
                for s, lab in named:
                    add(direction_choice, s, -1, (DIR_LABEL[direction_choice], lab), h)
        elif k in (DRA, KING, QUEEN, DUKE, DUCHESS):
            for s, lab in named:
                add(-1, s, -1, (lab,), h)
        elif k == DUN and mid and context == C_FIRST:
            for s, lab in named:
                add(-1, s, -1, (lab,))
        elif k in (DUN, POT, TRE, DEC, PRO, CAN, TAX, KEY):
            add(-1, -1, -1, (), h)
        elif k in (CAT, SIE):
            for t in range(n):
                if t != seat:
                    what = f"Swap hands with {p(t)}" if k == CAT else f"Look at {p(t)}'s hand"
                    add(-1, -1, t, (what,), h)
        return out


def _hint(context: int, k: int, n: int) -> str:
    if context == C_ANSWER:
        return {DB: ": pass it on (+2)", DEC: ": send it back", PRO: ": cancel it"}.get(k, "")
    return {
        KN: ": skip the next player" if n == 2 else ": reverse",
        CJ: ": skip the next player",
        DB: ": next player draws 2",
        FM: ": an escort follows" if context in (C_PLAY, C_EXTRA) else "",
        WIZ: ": next player draws 5",
        DRA: ": next player draws 3",
        KING: ": may add a card",
        QUEEN: ": may add a card",
        DUN: ": next player loses two turns",
        POT: ": go out",
        TRE: ": go out",
        CAN: ": all hands are redealt",
        CAT: ": swap hands",
        SIE: ": look at a hand",
        TAX: ": tax every other player",
        KEY: ": take a card from the draw pile",
    }.get(k, "")


_TABLES: dict[Config, Tables] = {}


def tables_for(cfg: Config) -> Tables:
    """The cached tables of ``cfg`` (kept on the Config object itself after the first look
    up; a Config's value never changes, and equality ignores this attribute)."""
    t: Tables | None = config_tables(cfg)
    if t is None:
        t = _TABLES.get(cfg)
        if t is None:
            t = _TABLES[cfg] = Tables(cfg)
        set_config_tables(cfg, t)  # a cache, not part of the value (set once)
    return t


MAG_FACE = _first_face(MAG)
FM_KEY = 100 + FM
