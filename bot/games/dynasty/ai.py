"""A sensible heuristic player for ``dynasty``.

It always calls On Guard and catches opponents who forget, escapes the Dungeon, answers
draw cards (Drawbridge stack, Royal Decree, Protector, Magician) instead of drawing, sheds
its most expensive cards first, names the suit it holds most, aims draw cards at the next
player (especially one close to going out), keeps Decrees, Protectors and the Magician for
answers, answers every battle card with a Defender (the only way to shed one), keeps a card
that goes on any suit for last when two or three cards are left, and uses Risk cards and the
Warlord only when they pay, except that it ends a hand that drags (100 rounds) with its
Poison Garden (those gambles: :mod:`bot.games.dynasty.ai_risk`). It sees only what its seat
may see (its own hand and the public table).
"""

from __future__ import annotations

from bot.games.base import Move, Rng
from bot.games.dynasty.actions import (
    CALL,
    DEAL,
    DEFEND,
    DRAW_CARD,
    ESCAPE,
    PLAY_CARD,
    REVERSE,
    SAY_YES,
    SKIP,
    TAKE_IT,
    WAIT,
    Action,
    AskPartner,
    CardPlay,
    Catch,
    Draw,
    EndTurn,
    Forfeit,
    KeyTake,
    Pass,
    Risk,
    Wait,
    action_of,
)
from bot.games.dynasty.ai_risk import friend, risk_choice
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
    FM,
    KEY,
    KIND,
    KING,
    KINGDOM,
    KN,
    MAG,
    NUM,
    POINTS,
    POT,
    PRO,
    QO,
    QUEEN,
    RANK,
    SIE,
    SUIT,
    SUIT2,
    TAX,
    TRE,
    WIZ,
)
from bot.games.dynasty.catalogue import Tables, tables_for
from bot.games.dynasty.legal import awaited_mask
from bot.games.dynasty.scoring import hand_points
from bot.games.dynasty.state import (
    ANSWER,
    ASK,
    BATTLE,
    CUT,
    GUARD_UNCALLED,
    KEY_PICK,
    DynastyState,
)
from bot.games.dynasty.table import seat_after

WILD_KEEP = {KING: 8, QUEEN: 8, DUKE: 14, DUCHESS: 14, DRA: 0, WIZ: 0}
FINISHER_KEEP = 40  # with two or three cards left, keep a card that goes on any suit for last


# The value of a one-word move in a turn (one not listed: -500, not chosen by the risk logic).
WORD_SCORES: dict[type, float] = {
    Draw: -25.0,
    Pass: -20.0,
    EndTurn: 0.0,
    Forfeit: -60.0,
    AskPartner: -100.0,
    Wait: -1000.0,
}


def choose(s: DynastyState, seat: int, rng: Rng, moves: list[Move]) -> Move:
    """The AI's move for ``seat`` among ``moves`` (which must be its legal moves)."""
    tables = tables_for(s.config)
    by_code = {m.code: m for m in moves}
    # Out-of-turn chances first: they are cheap and time-critical.
    if CALL in by_code:
        return by_code[CALL]
    if GUARD_UNCALLED in s.on_guard:  # someone may be caught
        for m in moves:
            a = action_of(m.code)
            if isinstance(a, Catch) and not friend(tables, seat, a.caught):
                return m
    if ESCAPE in by_code:
        return by_code[ESCAPE]
    risk = risk_choice(s, tables, seat, moves)
    if risk is not None:
        return risk
    if not (awaited_mask(s, tables) >> seat) & 1:
        return by_code.get(WAIT, moves[0])
    ph = s.phase
    if ph == CUT:
        return by_code.get(DEAL, moves[0])
    if ph == ASK:
        return by_code.get(SAY_YES, moves[0])
    if ph == BATTLE:
        return _battle_answer(s, tables, seat, by_code)
    if ph == KEY_PICK:
        return _key_pick(s, moves)
    if ph == ANSWER:
        return _answer(s, tables, seat, moves, by_code)
    if s.warlord == seat:
        return _worst_for_owner(s, tables, moves)
    return _best_play(s, tables, seat, moves)


# --- plays -----------------------------------------------------------------------------------


def _best_play(s: DynastyState, tables: Tables, seat: int, moves: list[Move]) -> Move:
    owner = s.turn
    hand = s.hands[owner]
    best = moves[0]
    best_score = -1e9
    for m in moves:
        sc = _score(s, tables, owner, hand, m)
        if sc > best_score:
            best, best_score = m, sc
    return best


def _suit_counts(hand: tuple[int, ...], skip: int) -> dict[int, int]:
    counts: dict[int, int] = {}
    skipped = False
    for f in hand:
        if f == skip and not skipped:
            skipped = True
            continue
        if not KINGDOM[f]:
            for su in (SUIT[f], SUIT2[f]):
                if su >= 0:
                    counts[su] = counts.get(su, 0) + 1 + POINTS[f] // 10
    return counts


def _score(s: DynastyState, tables: Tables, owner: int, hand: tuple[int, ...], m: Move) -> float:
    a = action_of(m.code)
    n = tables.n
    if not isinstance(a, CardPlay):
        return WORD_SCORES.get(type(a), -500.0)  # -500: optional moves not chosen by the risk logic
    from_hand = a.op == PLAY_CARD  # not the dealer's choices for the table card
    face, as_face, direction_choice, suit, target, burn = (
        a.face,
        a.as_face,
        a.direction_choice,
        a.suit,
        a.target,
        a.burn,
    )
    k = KIND[as_face]
    rest_n = len(hand) - (1 if from_hand else 0)
    if from_hand and rest_n == 0 and k not in (CAN, CAT, KEY):
        return 10_000.0  # going out
    sc = float(RANK[face] if KIND[face] == NUM else POINTS[face]) if from_hand else 0.0
    # Resulting suit: favour suits we hold (so the next turn has a play).
    counts = _suit_counts(hand, face if from_hand else -1)
    new_suit = suit if suit >= 0 else (SUIT[as_face] if not KINGDOM[as_face] else s.suit)
    sc += 3 * counts.get(new_suit, 0)
    if (
        from_hand
        and 0 < rest_n <= 2
        and _finisher(face)
        and not all(_finisher(f) for f in _without(hand, face))
    ):
        sc -= FINISHER_KEEP  # near the end, shed the card that may not match and keep the one that will
    if KIND[face] == MAG and from_hand:
        sc -= 45 if rest_n > 2 else 0  # keep the Magician as an answer
    if k in WILD_KEEP and from_hand:
        sc -= WILD_KEEP[k] if rest_n > 2 else 0
    # Who is hit next, and how hard?
    d = s.direction
    if direction_choice == REVERSE and n > 2:
        d = -d
    step = 1 + (1 if direction_choice == SKIP else 0)
    if k in (CJ,) or (k == KN and n == 2):
        step += 1
    nxt = (owner + step * d) % n
    if nxt == owner:
        nxt = (owner + d) % n
    danger = 20 if len(s.hands[nxt]) <= 2 else 0
    if friend(tables, owner, nxt):
        danger = -25
    draws = {DB: 2, DRA: 3, WIZ: 5}.get(k, 0)
    if draws:
        sc += 4 * draws + danger
        if s.pending_draws and k != DB:
            sc += 4
    if k == DUN:
        sc += 14 + danger
    if n == 2 and (k == CJ or k == KN or direction_choice == SKIP):
        sc += 12  # play again
    if k in (KING, QUEEN):
        sc += 6  # an extra card follows
    if k == FM:
        sc += 5
    if k == QO and n > 2 and direction_choice == SKIP and len(s.hands[(owner + s.direction) % n]) <= 2:
        sc += 10
    if k in (CAN, CAT, ARR, SIE, TAX, KEY):
        sc += _battle_value(s, tables, owner, hand, k, target, burn)
    return sc


def _finisher(face: int) -> bool:
    """A card that can be played on any suit on a normal turn, so it can always go out: a
    wild, a Dungeon, a battle card other than the Cannonball and Catapult, a last-only card."""
    k = KIND[face]
    return k in WILD_KEEP or k in (DUN, ARR, SIE, TAX, POT, TRE)


def _without(hand: tuple[int, ...], face: int) -> tuple[int, ...]:
    i = hand.index(face)
    return hand[:i] + hand[i + 1 :]


def _battle_value(
    s: DynastyState, tables: Tables, owner: int, hand: tuple[int, ...], k: int, target: int, burn: int
) -> float:
    n = tables.n
    mine = len(hand) - 1
    others = [len(s.hands[x]) for x in range(n) if x != owner]
    if k == CAN:
        avg = sum(others) / len(others)
        return (mine - avg) * 6 - 10
    if k == CAT:
        if friend(tables, owner, target):
            return -100
        return (mine - len(s.hands[target])) * 10 + (hand_points(hand) - POINTS[hand[0]] * 0) / 20 - 20
    if k == ARR:
        if burn < 0:
            return 0
        val = RANK[burn] if KIND[burn] == NUM else POINTS[burn]
        if KIND[burn] in (DEC, PRO, MAG, DEF, TRE):
            val -= 60
        if target >= 0:
            if friend(tables, owner, target):
                return -100
            return val + (8 if len(s.hands[target]) <= 2 else 0) - 2
        return val
    if k == KEY:
        return -12
    return 0  # Siege Tower, Imperial Tax: just shed them


def _worst_for_owner(s: DynastyState, tables: Tables, moves: list[Move]) -> Move:
    """Playing another player's turn with the Warlord: keep their expensive cards, draw."""
    owner = s.turn
    hand = s.hands[owner]
    for m in moves:
        if m.code == DRAW_CARD:
            return m
    worst = moves[0]
    worst_score = 1e9
    for m in moves:
        a = action_of(m.code)
        if not isinstance(a, (CardPlay, Pass, EndTurn)):
            continue
        sc = _score(s, tables, owner, hand, m)
        if isinstance(a, EndTurn):
            sc = 5
        if sc < worst_score:
            worst, worst_score = m, sc
    return worst


# --- answers -----------------------------------------------------------------------------------


def _answer(s: DynastyState, tables: Tables, seat: int, moves: list[Move], by_code: dict[str, Move]) -> Move:
    src_friend = s.draw_source >= 0 and friend(tables, seat, s.draw_source)
    nxt_friend = friend(tables, seat, seat_after(s, seat, 1))
    ranked: list[tuple[float, Move]] = []
    for m in moves:
        a = action_of(m.code)
        if not isinstance(a, CardPlay) or a.op != PLAY_CARD:
            ranked.append((0.0, m))
            continue
        k = KIND[a.as_face]
        magician = KIND[a.face] == MAG
        if k == DB:
            sc = 30 - (15 if nxt_friend else 0)
        elif k == DEC:
            sc = 40 - (60 if src_friend else 0)
        else:  # Protector
            sc = 25
        if magician:
            sc -= 8
        ranked.append((sc, m))
    ranked.sort(key=lambda x: -x[0])
    return ranked[0][1]


def _battle_answer(s: DynastyState, tables: Tables, seat: int, by_code: dict[str, Move]) -> Move:
    # A Defender leaves a hand only in answer to a battle card (RULES.md), so a player who
    # keeps one for its -35 cannot go out until the next battle card: it was in most hands
    # that stalled in two-player matches. Shed it at every chance.
    return by_code.get(DEFEND, by_code[TAKE_IT])


def _key_value_face(a: Action) -> int:
    """The card a move beside the Secret Key's picks is valued as. A catch or a Risk card
    open at the same time is valued as the AI has always valued it (its seat, or its card's
    kind, read as a card), so that its choices stay as they were."""
    if isinstance(a, KeyTake):
        return a.face
    if isinstance(a, Catch):
        return a.caught
    if isinstance(a, Risk):
        return KIND[a.face]
    raise ValueError(f"no card to value in {a.code!r}")


def _key_pick(s: DynastyState, moves: list[Move]) -> Move:
    def value(m: Move) -> float:
        f = _key_value_face(action_of(m.code))
        k = KIND[f]
        if k == TRE:
            return 1000
        if k == DEF:
            return 500
        if k == POT:
            return 300
        if k in (DEC, PRO, MAG):
            return 200 - POINTS[f]
        pts = RANK[f] if k == NUM else POINTS[f]
        match = 10 if (not KINGDOM[f] and (SUIT[f] == s.suit)) else 0
        return 100 - pts + match

    return max(moves, key=value)


__all__ = ["choose"]
