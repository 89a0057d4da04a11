"""A sensible heuristic player for ``dynasty``.

It always calls On Guard and catches opponents who forget, escapes the Dungeon, answers
draw cards (Drawbridge stack, Royal Decree, Protector, Magician) instead of drawing, sheds
its most expensive cards first, names the suit it holds most, aims draw cards at the next
player (especially one close to going out), keeps Decrees, Protectors and the Magician for
answers, answers every battle card with a Defender (the only way to shed one), keeps a card
that goes on any suit for last when two or three cards are left, and uses Risk cards and the
Warlord only when they pay, except that it ends a hand that drags (100 rounds) with its
Poison Garden. It sees only what its seat may see (its own hand and the public table).
"""

from __future__ import annotations

from bot.games.base import Move, Rng
from bot.games.dynasty.cards import (
    ARR,
    CAN,
    CAT,
    CJ,
    DB,
    DEC,
    DEF,
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
    NUM,
    POI,
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
from bot.games.dynasty.catalogue import ACTIONS, REVERSE, SKIP, Tables, tables_for
from bot.games.dynasty.legal import awaited_mask
from bot.games.dynasty.scoring import hand_points
from bot.games.dynasty.state import (
    ANSWER,
    ASK,
    BATTLE,
    CUT,
    KEY_PICK,
    DynastyState,
)
from bot.games.dynasty.table import seat_after

AVG_CARD = 13  # rough points of an unseen card
WILD_KEEP = {KING: 8, QUEEN: 8, DUKE: 14, DUCHESS: 14, DRA: 0, WIZ: 0}
# A hand this many rounds long drags (about 7% of two-player expansion hands, 1 in 100 of
# them reaches the 150-round valve otherwise): the AI ends it with a Poison Garden it holds.
DRAG_ROUNDS = 100
FINISHER_KEEP = 40  # with two or three cards left, keep a card that goes on any suit for last


def choose(s: DynastyState, seat: int, rng: Rng, moves: list[Move]) -> Move:
    """The AI's move for ``seat`` among ``moves`` (which must be its legal moves)."""
    tables = tables_for(s.config)
    by_code = {m.code: m for m in moves}
    # Out-of-turn chances first: they are cheap and time-critical.
    if "og" in by_code:
        return by_code["og"]
    for m in moves:
        if m.code.startswith("c:") and not _friend(tables, seat, int(m.code[2:])):
            return m
    if "esc" in by_code:
        return by_code["esc"]
    risk = _risk_choice(s, tables, seat, moves)
    if risk is not None:
        return risk
    if not (awaited_mask(s, tables) >> seat) & 1:
        return by_code.get("wait", moves[0])
    ph = s.phase
    if ph == CUT:
        return by_code.get("deal", moves[0])
    if ph == ASK:
        return by_code.get("yes", moves[0])
    if ph == BATTLE:
        return _battle_answer(s, tables, seat, by_code)
    if ph == KEY_PICK:
        return _key_pick(s, moves)
    if ph == ANSWER:
        return _answer(s, tables, seat, moves, by_code)
    if s.warlord == seat:
        return _worst_for_owner(s, tables, moves)
    return _best_play(s, tables, seat, moves)


def _friend(tables: Tables, a: int, b: int) -> bool:
    return a == b or tables.team[a] == tables.team[b]


def _expected_points(s: DynastyState, x: int) -> int:
    return len(s.hands[x]) * AVG_CARD


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
    code = m.code
    a = ACTIONS[code]
    op = a[0]
    n = tables.n
    if op == "d":
        return -25.0
    if op == "pass":
        return -20.0
    if op == "x":
        return 0.0
    if op == "f":
        return -60.0
    if op == "ask":
        return -100.0
    if op == "wait":
        return -1000.0
    if op not in ("p", "t"):
        return -500.0  # optional moves not chosen by the risk logic
    _, face, as_face, direction_choice, suit, target, burn = a
    k = KIND[as_face]
    rest_n = len(hand) - (1 if op == "p" else 0)
    if op == "p" and rest_n == 0 and k not in (CAN, CAT, KEY):
        return 10_000.0  # going out
    sc = float(RANK[face] if KIND[face] == NUM else POINTS[face]) if op == "p" else 0.0
    # Resulting suit: favour suits we hold (so the next turn has a play).
    counts = _suit_counts(hand, face if op == "p" else -1)
    new_suit = suit if suit >= 0 else (SUIT[as_face] if not KINGDOM[as_face] else s.suit)
    sc += 3 * counts.get(new_suit, 0)
    if (
        op == "p"
        and 0 < rest_n <= 2
        and _finisher(face)
        and not all(_finisher(f) for f in _without(hand, face))
    ):
        sc -= FINISHER_KEEP  # near the end, shed the card that may not match and keep the one that will
    if KIND[face] == MAG and op == "p":
        sc -= 45 if rest_n > 2 else 0  # keep the Magician as an answer
    if k in WILD_KEEP and op == "p":
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
    if _friend(tables, owner, nxt):
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
        if _friend(tables, owner, target):
            return -100
        return (mine - len(s.hands[target])) * 10 + (hand_points(hand) - POINTS[hand[0]] * 0) / 20 - 20
    if k == ARR:
        if burn < 0:
            return 0
        val = RANK[burn] if KIND[burn] == NUM else POINTS[burn]
        if KIND[burn] in (DEC, PRO, MAG, DEF, TRE):
            val -= 60
        if target >= 0:
            if _friend(tables, owner, target):
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
        if m.code == "d":
            return m
    worst = moves[0]
    worst_score = 1e9
    for m in moves:
        a = ACTIONS[m.code]
        if a[0] not in ("p", "t", "pass", "x"):
            continue
        sc = _score(s, tables, owner, hand, m)
        if a[0] == "x":
            sc = 5
        if sc < worst_score:
            worst, worst_score = m, sc
    return worst


# --- answers -----------------------------------------------------------------------------------


def _answer(s: DynastyState, tables: Tables, seat: int, moves: list[Move], by_code: dict[str, Move]) -> Move:
    src_friend = s.draw_source >= 0 and _friend(tables, seat, s.draw_source)
    nxt_friend = _friend(tables, seat, seat_after(s, seat, 1))
    ranked: list[tuple[float, Move]] = []
    for m in moves:
        a = ACTIONS[m.code]
        if a[0] != "p":
            ranked.append((0.0, m))
            continue
        k = KIND[a[2]]
        magician = KIND[a[1]] == MAG
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
    return by_code.get("def", by_code["take"])


def _key_pick(s: DynastyState, moves: list[Move]) -> Move:
    def value(m: Move) -> float:
        f = ACTIONS[m.code][1]
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


# --- Risk cards and the Warlord ------------------------------------------------------------------


def _dragging(s: DynastyState, tables: Tables) -> bool:
    """Whether this hand has lasted so long that it is unlikely to end by a player going out."""
    return s.hand_turns >= DRAG_ROUNDS * tables.n


def _risk_choice(s: DynastyState, tables: Tables, seat: int, moves: list[Move]) -> Move | None:
    n = tables.n
    mine = hand_points(s.hands[seat], s.dungeon[seat])
    opps = [x for x in range(n) if not _friend(tables, seat, x)]
    if not opps:
        return None
    for m in moves:
        a = ACTIONS[m.code]
        if a[0] == "r":
            kind = a[1]
            if kind == POI:
                if _dragging(s, tables):
                    return m  # the hand will not end by itself: end it on the cards in hand
                # Ending the hand gives the others 75 each: worth it only when they hold far
                # more than we do and we are not about to go out ourselves.
                gain = sum(_expected_points(s, x) - 75 for x in opps) / len(opps) - mine
                if gain > 40 and len(s.hands[seat]) >= 5 and min(len(s.hands[x]) for x in opps) > 2:
                    return m
            elif kind == FIR:
                avg = sum(_expected_points(s, x) for x in opps) / len(opps)
                if mine - avg > 120:
                    return m
            elif kind == GOB:
                if any(len(s.hands[x]) == 1 for x in opps) and mine > 60:
                    return m
            elif kind == DKN:
                target = a[2]
                if not _friend(tables, seat, target) and len(s.hands[seat]) <= 2:
                    return m
        elif a[0] == "war":
            t = s.turn
            if not _friend(tables, seat, t) and len(s.hands[t]) <= 2 and mine >= 30:
                return m
    return None


__all__ = ["choose"]
