"""The rules of ``dynasty``: setup, whose move, legal moves and applying a move.

All functions are pure in effect: ``apply_move`` copies the frozen state into a
:class:`~bot.games.dynasty.state.Work` object, edits the copy and freezes it again.
Randomness comes only from the splitmix64 state stored in ``state.rng``.

Vocabulary: the *turn* seat is the player whose turn it is (or who must answer a draw
card); *blocking* seats are those the game waits for; *optional* moves (On Guard call and
catch, Risk cards, Dark Knight, Warlord, Dungeon escape) may be made out of turn and never
hold the game up. A blocking move closes the short windows ("until the next player acts").
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable
from functools import lru_cache

from bot.games.base import Event, IllegalMove, MatchOver, Move, NotYourTurn
from bot.games.dynasty.cards import (
    ANSWER_ONLY,
    ARR,
    BATTLE_KINDS,
    CAN,
    CAT,
    CJ,
    DB,
    DEC,
    DEF,
    DKN,
    DRA,
    DRAW_KINDS,
    DUN,
    EXTRA_KINDS,
    FACE_OF_CODE,
    FIR,
    FM,
    FRONT_KINDS,
    GOB,
    KEY,
    KIND,
    KIND_NAME,
    KING,
    KINGDOM,
    KN,
    LAST_ONLY,
    MAG,
    MATCH_KEY,
    NAME,
    NUM,
    POI,
    POINTS,
    POT,
    PRO,
    QO,
    QUEEN,
    RANK,
    SHIELD_KINDS,
    SIE,
    SUIT,
    SUIT2,
    SUIT_NAMES,
    TAX,
    TRE,
    TURN_ONLY,
    WAR,
    WIZ,
    hand_label,
)
from bot.games.dynasty.state import (
    ANSWER,
    ASK,
    BATTLE,
    CUT,
    DRAWN,
    ESCORT,
    EXTRA,
    FIRST,
    KEY_PICK,
    OVER,
    PLAY,
    Config,
    DynastyState,
    Work,
    freeze,
    set_memo,
    thaw,
)
from bot.games.dynasty.tables import (
    ACTIONS,
    ASK_M,
    C_ANSWER,
    C_ESCORT,
    C_EXTRA,
    C_FIRST,
    C_PLAY,
    CALL,
    CALL_AHEAD,
    CUT_M,
    DEAL_M,
    DEFEND,
    DRAW,
    ESCAPE,
    FIRE_M,
    FM_KEY,
    FORFEIT,
    GOBLET_M,
    MAG_FACE,
    NO,
    NO_ESCORT,
    NO_EXTRA,
    PASS,
    POISON_M,
    REVERSE,
    SKIP,
    TAKE,
    WAIT,
    YES,
    Tables,
    accept_move,
    catch_move,
    dk_move,
    key_move,
    p,
    tables_for,
    war_move,
)

HAND_SIZE = 7
# Safety valves, so that every match ends whatever the players do (random play would
# otherwise go on for ever: voluntary draws keep hands full and Risk-card costs keep
# totals down). With the expansion even sensible play meets them: a Defender can leave
# only in answer to a battle card, so a hand can stall (about 1 hand in 20 of AI-only
# 4-player matches reaches the round cap), and AI-only matches (about 117 turns a hand)
# usually reach the turn cap before a total passes the limit.
HAND_ROUND_CAP = 150  # a hand lasting this many rounds (turns per player) ends as blocked
MATCH_TURN_CAP = 2400  # after this many turns in a match, the hand is scored and the match ends
MATCH_HAND_CAP = 200  # a match this long ends on the totals
LOG_SIZE = 8
DK_VALUE = 100
WARLORD_COST = 50
OPTIONAL_OPS = frozenset({"og", "c", "r", "war", "esc", "wait"})
DIR_TEXT = ("keeps the direction", "reverses the direction", "skips the next player")

# --- randomness -------------------------------------------------------------------------

_M64 = (1 << 64) - 1


def _split(x: int) -> tuple[int, int]:
    """One splitmix64 step: (output, new state), same as bot.games.base.Rng.next64."""
    s = (x + 0x9E3779B97F4A7C15) & _M64
    z = s
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31), s


def shuffle(w: Work, seq: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """A deterministic shuffle driven by the state's RNG (a private generator seeded from
    one splitmix64 output; never the global ``random``)."""
    z, w.rng = _split(w.rng)
    rr = random.Random(z).random
    return tuple(sorted(seq, key=lambda _: rr()))


def below(w: Work, n: int) -> int:
    z, w.rng = _split(w.rng)
    return z % n


# --- small helpers ------------------------------------------------------------------------


def _put(tup: tuple, i: int, v: object) -> tuple:
    lst = list(tup)
    lst[i] = v
    return tuple(lst)


def remove_one(hand: tuple[int, ...], f: int) -> tuple[int, ...]:
    i = hand.index(f)
    return hand[:i] + hand[i + 1:]


def set_hand(w: Work, seat: int, hand: tuple[int, ...]) -> None:
    hs = list(w.hands)
    hs[seat] = hand
    w.hands = tuple(hs)
    if w.guard[seat] and len(hand) != 1:
        w.guard = _put(w.guard, seat, 0)


def bury(w: Work, cards: tuple[int, ...] | list[int]) -> None:
    """Put cards into the discard pile under the top card (the top stays in play)."""
    if not cards:
        return
    d = w.discard
    w.discard = (d[:-1] + tuple(cards) + d[-1:]) if d else tuple(cards)


def adv(w: Work | DynastyState, seat: int, k: int) -> int:
    return (seat + k * w.direction) % w.cfg.players


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def reshuffle(w: Work, ev: list[Event]) -> bool:
    if len(w.discard) <= 1:
        return False
    top = w.discard[-1]
    w.draw = shuffle(w, w.discard[:-1]) + w.draw
    w.discard = (top,)
    ev.append(Event("The discard pile (except its top card) is shuffled into a new draw pile."))
    return True


def can_draw(s: Work | DynastyState) -> bool:
    return bool(s.draw) or len(s.discard) > 1


def place_front(w: Work, seat: int, faces: list[int], ev: list[Event]) -> None:
    w.front = _put(w.front, seat, w.front[seat] + tuple(faces))
    for f in faces:
        ev.append(Event(f"{p(seat)} receives the {NAME[f]}: it goes face up in front of them and they draw a replacement."))


def draw_cards(w: Work, seat: int, k: int, ev: list[Event], why: str | None = "") -> list[int]:
    """Draw ``k`` cards into ``seat``'s hand (Risk cards and the Warlord go in front and are
    replaced). ``why`` completes the public sentence; None suppresses it."""
    got: list[int] = []
    if k > 0:
        pile = w.draw
        fronted: list[int] = []
        while k > 0:
            if not pile:
                w.draw = pile
                if not reshuffle(w, ev):
                    break
                pile = w.draw
            f = pile[-1]
            pile = pile[:-1]
            if KIND[f] in FRONT_KINDS:
                fronted.append(f)
                continue
            got.append(f)
            k -= 1
        w.draw = pile
        if fronted:
            place_front(w, seat, fronted, ev)
        if got:
            hand = w.hands[seat]
            if len(got) == 1:
                f = got[0]
                i = bisect_right(hand, f)
                hand = hand[:i] + (f,) + hand[i:]
                ev.append(_cached_event(("drew", seat, f), f"You drew {NAME[f]}.", seat))
            else:
                hand = tuple(sorted(hand + tuple(got)))
                ev.append(Event(f"You drew {', '.join([NAME[f] for f in got])}.", seat))
            set_hand(w, seat, hand)
            if w.proxy >= 0 and w.turn == seat and w.proxy != seat:
                ev.append(Event(f"{p(seat)} drew {', '.join([NAME[f] for f in got])}.", w.proxy))
    if why is not None:
        ev.append(_cached_event(("draws", seat, len(got), why), f"{p(seat)} draws {plural(len(got), 'card')}{why}."))
    return got


def hand_points(hand: tuple[int, ...], dungeon: tuple[int, ...] = ()) -> int:
    """Points of a hand at the end of a hand. Magic Potion: only number cards count (the
    negative Defender and Hidden Treasure still deduct)."""
    potion = False
    for f in hand:
        if KIND[f] == POT:
            potion = True
            break
    pts = 0
    for f in hand + dungeon:
        k = KIND[f]
        if k == NUM:
            pts += RANK[f]
        elif k == DEF or k == TRE or not potion:
            pts += POINTS[f]
    return pts


def team_cost(w: Work, T: Tables, seat: int, value: int) -> None:
    """Every other team deducts ``value`` from its total (the cost of a Risk card)."""
    mine = T.team[seat]
    w.totals = tuple(v - value if t != mine else v for t, v in enumerate(w.totals))


# --- who is awaited -------------------------------------------------------------------------


def blocking(s: Work | DynastyState, T: Tables) -> int:
    """Bitmask of the seats the game waits for."""
    ph = s.phase
    if ph == OVER:
        return 0
    if ph == BATTLE:
        return s.bat_wait
    if ph == ASK:
        return 1 << T.partner[s.turn]
    if s.proxy >= 0 and ph != ANSWER:
        return 1 << s.proxy
    return 1 << s.turn


def optional_mask(s: Work | DynastyState, T: Tables) -> int:
    """Bitmask of seats with an out-of-turn move available (before waivers)."""
    ph = s.phase
    if ph == OVER or ph == CUT:
        return 0
    m = s.escape
    if 1 in s.guard:
        m = T.all_mask
    front = s.front
    if front != T.no_front:
        for seat in range(T.n):
            fr = front[seat]
            if not fr:
                continue
            for f in fr:
                k = KIND[f]
                if k == POI or k == FIR or k == GOB or (k == DKN and s.dkwin & ~(1 << seat)) or (
                    k == WAR and ph == PLAY and s.proxy < 0 and s.ask == 0 and s.turn != seat
                ):
                    m |= 1 << seat
    return m


def to_act_mask(s: Work | DynastyState, T: Tables) -> int:
    """Blocking seats plus seats with an out-of-turn move they have not let pass."""
    ph = s.phase
    if ph == OVER:
        return 0
    if ph == BATTLE:
        b = s.bat_wait
    elif ph == ASK:
        b = 1 << T.partner[s.turn]
    elif s.proxy >= 0 and ph != ANSWER:
        b = 1 << s.proxy
    else:
        b = 1 << s.turn
    if ph == CUT or (not s.escape and s.front == T.no_front and 1 not in s.guard):
        return b  # nobody has anything out of turn (a call ahead is the turn player's own)
    return b | (optional_mask(s, T) & ~s.waived)


# --- legal moves ------------------------------------------------------------------------------


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


def _mag_moves(T: Tables, ctx: int, hand: tuple[int, ...], mkey: int, suit: int, complete: bool) -> list[Move]:
    out: list[Move] = []
    nh = len(hand)
    for m, af, _named in T.magician(ctx):
        if KINGDOM[af]:
            if KIND[af] in LAST_ONLY and nh != 1:
                continue
        else:
            if SUIT[af] != suit and SUIT2[af] != suit and MATCH_KEY[af] != mkey:
                continue
            if KIND[af] == FM and not complete and not has_escort(hand, MAG_FACE, SUIT[af]):
                continue
        out.append(m)
    return out


def gen_plays(s: Work | DynastyState, T: Tables, hand: tuple[int, ...], ctx: int, owner: int) -> list[Move]:
    """Card plays from ``hand`` on the current top card in context ``ctx``."""
    out: list[Move] = []
    ok = T._playable.get(s.mkey * 8 + s.suit) or T.playable(s.mkey, s.suit)
    complete = ctx == C_ESCORT or s.first_fm  # a Fair Maiden played now is itself an escort
    flat = T.flat[ctx]
    prev = -1
    for f in hand:
        if f == prev:
            continue
        prev = f
        if f in ok:
            if KIND[f] == FM:
                if complete:
                    out.extend(T.variants(C_ESCORT, f, owner))
                    continue
                if not has_escort(hand, f, SUIT[f]):
                    continue
            v = flat[f]
            out.extend(v if v is not None else T.variants(ctx, f, owner))
        elif KINGDOM[f]:
            k = KIND[f]
            if k in ANSWER_ONLY:
                continue
            if k in LAST_ONLY:
                if len(hand) != 1:
                    continue
            elif k in TURN_ONLY:
                if ctx != C_PLAY:
                    continue
                if k == ARR:
                    out.extend(_arrow_moves(T, ctx, f, hand, owner))
                    continue
            elif k == MAG:
                out.extend(_mag_moves(T, ctx, hand, s.mkey, s.suit, complete))
                continue
            out.extend(T.variants(ctx, f, owner))
    return out


def _arrow_moves(T: Tables, ctx: int, f: int, hand: tuple[int, ...], owner: int) -> list[Move]:
    rest = remove_one(hand, f)
    # The seed says the player "can" burn a card: burning nothing is a choice too.
    out: list[Move] = [T.arrow_alone(ctx, f)]
    if not rest:
        return out
    prev = -1
    for b in rest:
        if b == prev:
            continue
        prev = b
        out.append(T.arrow(ctx, f, b, -1))
        for t in range(T.n):
            if t != owner:
                out.append(T.arrow(ctx, f, b, t))
    return out


def answer_moves(s: Work | DynastyState, T: Tables, hand: tuple[int, ...], owner: int) -> list[Move]:
    out: list[Move] = []
    prev = -1
    for f in hand:
        if f == prev:
            continue
        prev = f
        k = KIND[f]
        if (k == DB and s.dstack) or k == DEC or k == PRO:
            out.extend(T.variants(C_ANSWER, f, owner))
        elif k == MAG:
            for m, af, _ in T.magician(C_ANSWER):
                if KIND[af] == DB and not s.dstack:
                    continue
                out.append(m)
    return out


def has_answer(s: Work | DynastyState, hand: tuple[int, ...]) -> bool:
    for f in hand:
        k = KIND[f]
        if k == DEC or k == PRO or k == MAG or (k == DB and s.dstack):
            return True
    return False


@lru_cache(maxsize=65536)
def can_empty(hand: tuple[int, ...], mkey: int, suit: int, ctx: int, suits: tuple[int, ...]) -> bool:
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
            if k in TURN_ONLY and ctx != C_PLAY:
                continue
            rest = remove_one(hand, f)
            if not rest:
                if k in (CAN, CAT, KEY):
                    continue
                return True
            if k in EXTRA_KINDS or k == MAG:
                for s2 in suits:
                    if can_empty(rest, -1, s2, C_EXTRA, suits):
                        return True
            elif k == ARR and nh == 2:
                return True
            continue
        if SUIT[f] != suit and SUIT2[f] != suit and MATCH_KEY[f] != mkey:
            continue
        rest = remove_one(hand, f)
        if k == FM and ctx != C_ESCORT:
            if rest and can_empty(rest, FM_KEY, SUIT[f], C_ESCORT, suits):
                return True
            continue
        if not rest:
            return True
    return False


def _must_out(s: Work | DynastyState, T: Tables, moves: list[Move], hand: tuple[int, ...], complete: bool) -> list[Move]:
    """After a partner's Yes: only moves that can still end in going out this turn."""
    out: list[Move] = []
    for m in moves:
        a = ACTIONS[m.code]
        face, af, suit, target, burn = a[1], a[2], a[4], a[5], a[6]
        rest = remove_one(hand, face)
        k = KIND[af]
        if not rest:
            ok = k not in (CAN, CAT, KEY)
        elif k in EXTRA_KINDS:
            ok = can_empty(rest, -1, suit, C_EXTRA, T.suits)
        elif k == FM and not complete:
            ok = can_empty(rest, FM_KEY, SUIT[af], C_ESCORT, T.suits)
        elif k == ARR:
            ok = burn >= 0 and len(rest) == 1 and target < 0
        else:
            ok = False
        if ok:
            out.append(m)
    return out


def blocking_moves(s: Work | DynastyState, seat: int, T: Tables) -> list[Move]:
    ph = s.phase
    t = s.turn
    if ph == PLAY:
        hand = s.hands[t]
        moves = gen_plays(s, T, hand, C_PLAY, t)
        if s.ask == 2:
            return _must_out(s, T, moves, hand, s.first_fm) + [FORFEIT]
        moves.append(DRAW if can_draw(s) else PASS)
        if (
            T.cfg.partners and s.ask == 0 and s.proxy < 0 and len(hand) <= 4
            and can_empty(hand, s.mkey, s.suit, C_ESCORT if s.first_fm else C_PLAY, T.suits)
        ):
            moves.append(ASK_M)
        return moves
    if ph == DRAWN:
        moves = gen_plays(s, T, s.hands[t], C_PLAY, t)
        moves.append(PASS)
        return moves
    if ph == EXTRA:
        hand = s.hands[t]
        moves = gen_plays(s, T, hand, C_EXTRA, t)
        if s.ask == 2:
            return _must_out(s, T, moves, hand, False) or [NO_EXTRA]
        moves.append(NO_EXTRA)
        return moves
    if ph == ESCORT:
        hand = s.hands[t]
        moves = gen_plays(s, T, hand, C_ESCORT, t)
        if s.ask == 2:
            moves = _must_out(s, T, moves, hand, True) or moves
        # A King's Goblet can take away a last-card escort (Potion, Treasure): then the
        # Maiden stays alone and the turn ends.
        return moves or [NO_ESCORT]
    if ph == ANSWER:
        moves = answer_moves(s, T, s.hands[t], t)
        moves.append(accept_move(s.dn, bool(s.dd)))
        return moves
    if ph == BATTLE:
        return [DEFEND, TAKE] if _holds_kind(s.hands[seat], DEF) else [TAKE]
    if ph == KEY_PICK:
        return [key_move(f) for f in sorted(set(s.draw))]
    if ph == ASK:
        return [YES, NO]
    if ph == FIRST:
        f = s.discard[-1]
        if KIND[f] == MAG:
            return [m for m, _af, _n in T.magician(C_FIRST)]
        return list(T.variants(C_FIRST, f, t))
    if ph == CUT:
        return [CUT_M, DEAL_M]
    return []


def _holds_kind(hand: tuple[int, ...], kind: int) -> bool:
    for f in hand:
        if KIND[f] == kind:
            return True
    return False


def optional_moves(s: Work | DynastyState, seat: int, T: Tables) -> list[Move]:
    ph = s.phase
    if ph == OVER or ph == CUT:
        return []
    out: list[Move] = []
    guard = s.guard
    if (
        seat == s.turn and s.proxy < 0 and not s.precall and len(s.hands[seat]) == 2
        and ph in (PLAY, DRAWN, EXTRA, ESCORT, ANSWER)
    ):
        out.append(CALL_AHEAD)
    if 1 in guard:
        if guard[seat] == 1:
            out.append(CALL)
        for o in range(T.n):
            if o != seat and guard[o] == 1:
                out.append(catch_move(o))
    if (s.escape >> seat) & 1:
        out.append(ESCAPE)
    for f in s.front[seat]:
        k = KIND[f]
        if k == POI:
            out.append(POISON_M)
        elif k == FIR:
            out.append(FIRE_M)
        elif k == GOB:
            out.append(GOBLET_M)
        elif k == DKN:
            for o in range(T.n):
                if o != seat and (s.dkwin >> o) & 1:
                    out.append(dk_move(o))
        elif k == WAR and ph == PLAY and s.proxy < 0 and s.ask == 0 and s.turn != seat:
            out.append(war_move(s.turn))
    return out


def gen_moves(s: DynastyState, seat: int, T: Tables) -> list[Move]:
    if s.phase == OVER or not 0 <= seat < T.n:
        return []
    is_bl = (blocking(s, T) >> seat) & 1
    moves = blocking_moves(s, seat, T) if is_bl else []
    if (
        s.front[seat] == () and not s.escape and 1 not in s.guard
        and not (seat == s.turn and len(s.hands[seat]) == 2)
    ):
        return moves  # nothing out of turn for this seat
    opt = optional_moves(s, seat, T)
    if opt:
        if is_bl:
            moves = moves + opt
        elif not (s.waived >> seat) & 1:
            moves = opt + [WAIT]
    return moves


def legal(s: DynastyState, seat: int, T: Tables) -> list[Move]:
    """Legal moves, memoised on the (immutable) state object."""
    c = s._c
    if c is None:
        c = {}
        set_memo(s, c)
    r = c.get(seat)
    if r is None:
        r = c[seat] = gen_moves(s, seat, T)
    return r


# --- starting hands -------------------------------------------------------------------------


def new_match(cfg: Config, seed: int) -> tuple[DynastyState, list[Event]]:
    T = tables_for(cfg)
    w = Work()
    # Match-level fields here; start_hand sets every per-hand field.
    w.cfg = cfg
    w.rng = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _M64
    w.phase = PLAY
    w.hand_no = 1
    w.dealer = 0
    w.totals = (0,) * T.nteams
    w.prev_suit = -1
    w.mturns = 0
    w.log = ()
    w.last = ()
    w.places = ()
    ev: list[Event] = []
    start_hand(w, T, ev)
    w.log = tuple(e.text for e in ev if e.seat is None)[-LOG_SIZE:]
    return freeze(w), ev


def _reset_hand_fields(w: Work, n: int) -> None:
    w.hands = ((),) * n
    w.dungeon = ((),) * n
    w.lost = (0,) * n
    w.escape = 0
    w.penalty = 0
    w.guard = (0,) * n
    w.dkwin = 0
    w.discard = ()
    w.mkey = -1
    w.suit = -1
    w.top_as = -1
    w.direction = 1
    w.proxy = -1
    w.first_fm = False
    w.skips = 0
    w.played_n = 0
    _clear_pending(w)
    w.ask = 0
    w.precall = False
    w.bat = ()
    w.bat_wait = 0
    w.bat_def = 0
    w.waived = 0
    w.stall = 0


def _clear_pending(w: Work) -> None:
    w.dn = 0
    w.dd = ()
    w.dstack = False
    w.dsrc = -1
    w.dtarget = -1


def start_hand(w: Work, T: Tables, ev: list[Event]) -> None:
    n = T.n
    _reset_hand_fields(w, n)
    w.front = ((),) * n
    w.played = ((),) * n
    w.bets = ()
    w.adj = (0,) * n
    w.hturns = 0
    w.draw = shuffle(w, T.deck)
    w.turn = w.dealer
    if T.cfg.dealing_bonus:
        w.phase = CUT
        ev.append(Event(f"Hand {w.hand_no}: {p(w.dealer)} deals and may first cut for the dealing bonus."))
        return
    deal(w, T, ev)


def deal(w: Work, T: Tables, ev: list[Event]) -> None:
    """Deal seven cards each from the dealer's left and turn up the first card."""
    n = T.n
    pile = list(w.draw)
    hands: list[list[int]] = [[] for _ in range(n)]
    fronts = [list(f) for f in w.front]
    received: list[tuple[int, int]] = []
    for _ in range(HAND_SIZE):
        for i in range(1, n + 1):
            seat = (w.dealer + i) % n
            while pile:
                f = pile.pop()
                if KIND[f] in FRONT_KINDS:
                    fronts[seat].append(f)
                    received.append((seat, f))
                    continue
                hands[seat].append(f)
                break
    w.hands = tuple(tuple(sorted(h)) for h in hands)
    w.front = tuple(tuple(f) for f in fronts)
    ev.append(Event(f"Hand {w.hand_no}: {p(w.dealer)} deals {HAND_SIZE} cards to each player."))
    for seat, f in received:
        ev.append(Event(f"{p(seat)} is dealt the {NAME[f]}: it goes face up in front of them and they draw a replacement."))
    first = -1
    for _ in range(len(pile) + 1):
        if not pile:
            break
        f = pile.pop()
        if KIND[f] in SHIELD_KINDS:
            pile.insert(below(w, len(pile) + 1), f)
            ev.append(Event(f"The {NAME[f]} turned up as first card: it is shuffled back and another card is turned."))
            continue
        first = f
        break
    w.draw = tuple(pile)
    if first < 0:  # only shield cards left: nothing to start on (cannot happen with real decks)
        w.suit = T.suits[0]
        begin_turn(w, T, adv(w, w.dealer, 1), ev)
        return
    w.discard = (first,)
    first_card(w, T, first, ev)


def first_card(w: Work, T: Tables, f: int, ev: list[Event]) -> None:
    dealer = w.dealer
    k = KIND[f]
    w.turn = dealer
    ev.append(Event(f"First card: {NAME[f]}."))
    if not KINGDOM[f]:
        w.suit = SUIT[f]
        w.mkey = MATCH_KEY[f]
    if k == NUM:
        begin_turn(w, T, adv(w, dealer, 1), ev)
    elif k == FM:
        ev.append(Event(f"{p(dealer)} must escort the Fair Maiden with a card, or draw."))
        begin_turn(w, T, dealer, ev, first_fm=True)
    elif k in (KN, CJ, DB):
        effect(w, T, dealer, f, f, -1, -1, False, ev)
        end_turn(w, T, ev)
    else:  # Queen's Option, wild cards, Dungeon, Decree, Protector, Potion, Magician
        w.phase = FIRST
        ev.append(Event(f"{p(dealer)} makes the choices for the {NAME[f]}."))


# --- turns ---------------------------------------------------------------------------------


def any_playable(s: Work | DynastyState, T: Tables, hand: tuple[int, ...]) -> bool:
    """Whether ``hand`` holds a card that may be played now (a normal turn)."""
    return can_play(T, hand, s.mkey, s.suit, s.first_fm)


def can_play(T: Tables, hand: tuple[int, ...], mkey: int, suit: int, first_fm: bool) -> bool:
    ok = T._playable.get(mkey * 8 + suit) or T.playable(mkey, suit)
    for f in hand:
        if f in ok:
            if KIND[f] != FM or first_fm or has_escort(hand, f, SUIT[f]):
                return True
        elif KINGDOM[f]:
            k = KIND[f]
            if k in ANSWER_ONLY or (k in LAST_ONLY and len(hand) != 1):
                continue
            if k == MAG and not _mag_moves(T, C_PLAY, hand, mkey, suit, first_fm):
                continue
            return True
    return False


def begin_turn(w: Work, T: Tables, seat: int, ev: list[Event], first_fm: bool = False) -> None:
    """Give ``seat`` the turn. Lost turns (Dungeon, On Guard penalty) are served on the way,
    and a player who cannot play draws at once, as the rules require (and passes if the
    drawn card cannot be played either)."""
    n = T.n
    while True:
        w.turn = seat
        w.phase = PLAY
        w.skips = 0
        w.played_n = 0
        w.ask = 0
        w.precall = False
        w.proxy = -1
        w.first_fm = first_fm
        w.hturns += 1
        w.mturns += 1
        if w.hturns > HAND_ROUND_CAP * n or w.mturns > MATCH_TURN_CAP:
            ev.append(Event("This hand has gone on far too long: it ends as blocked."))
            end_hand(w, T, -1, ev)
            return
        bit = 1 << seat
        dun = w.dungeon[seat]
        if w.penalty & bit or dun:
            close_windows(w)  # the next player acts (draws): the windows of the last play lapse
            k = 0
            why: list[str] = []
            if w.penalty & bit:
                w.penalty &= ~bit
                k += 2
                why.append("the On Guard penalty")
            if dun:
                k += 1
                why.append(dungeon_turn(w, seat, ev))
            draw_cards(w, seat, k, ev, f" for {' and '.join(why)} and loses the turn")
        elif any_playable(w, T, w.hands[seat]):
            return
        elif can_draw(w):
            close_windows(w)  # drawing is acting: escape, Dark Knight and catch chances lapse
            w.stall = 0
            draw_cards(w, seat, 1, ev, None)
            if any_playable(w, T, w.hands[seat]):
                w.phase = DRAWN
                ev.append(_cached_event(("cd", seat), f"{p(seat)} cannot play and draws a card."))
                return
            ev.append(_cached_event(("cdp", seat), f"{p(seat)} cannot play, draws a card and passes."))
        else:
            close_windows(w)
            w.stall += 1
            ev.append(_cached_event(("cnp", seat), f"{p(seat)} can neither play nor draw, and passes."))
            if w.stall >= n:
                ev.append(Event("Nobody can play or draw: the hand is blocked."))
                end_hand(w, T, -1, ev)
                return
        first_fm = False
        seat = adv(w, seat, 1)


_EVENTS: dict[tuple, Event] = {}


def _cached_event(key: tuple, text: str, seat: int | None = None) -> Event:
    """Events are immutable values, so identical ones are shared."""
    e = _EVENTS.get(key)
    if e is None:
        if len(_EVENTS) > 50_000:
            _EVENTS.clear()
        e = _EVENTS[key] = Event(text, seat)
    return e


def dungeon_turn(w: Work, seat: int, ev: list[Event]) -> str:
    """Serve one lost turn in the Dungeon (the caller draws the card). Returns a reason."""
    lost = w.lost[seat]
    bit = 1 << seat
    if lost > 0:
        lost -= 1
        w.lost = _put(w.lost, seat, lost)
        if lost == 0:
            w.escape |= bit
            return "the Dungeon (they may now escape)"
        return "the Dungeon"
    # Escape missed: one more lost turn, then the Dungeon is discarded.
    bury(w, w.dungeon[seat])
    w.dungeon = _put(w.dungeon, seat, ())
    w.escape &= ~bit
    return "a missed Dungeon escape (then they are released)"


def guard_after_play(w: Work, seat: int) -> None:
    """A play left ``seat`` with one card: On Guard is due (already called if announced)."""
    if len(w.hands[seat]) == 1:
        if w.precall and seat == w.turn:
            w.guard = _put(w.guard, seat, 2)
            w.dkwin |= 1 << seat
        else:
            w.guard = _put(w.guard, seat, 1)
    w.precall = False


def target_of(w: Work, t: int) -> int:
    """The player hit by this turn's draw cards: the next one after skips, never ``t``."""
    s = adv(w, t, 1 + w.skips)
    if s == t:
        s = adv(w, t, 1)
    return s


def end_turn(w: Work, T: Tables, ev: list[Event]) -> None:
    t = w.turn
    if w.played_n:
        guard_after_play(w, t)
        w.stall = 0
    w.first_fm = False
    w.proxy = -1
    if w.dn or w.dd:
        target = w.dtarget if w.dtarget >= 0 else target_of(w, t)
        w.dtarget = -1
        w.skips = 0
        w.played_n = 0
        enter_answer(w, T, target, ev)
    else:
        begin_turn(w, T, adv(w, t, 1 + w.skips), ev)


def enter_answer(w: Work, T: Tables, target: int, ev: list[Event]) -> None:
    w.turn = target
    w.phase = ANSWER
    w.proxy = -1
    w.ask = 0
    w.precall = False
    w.played_n = 0
    w.skips = 0
    if w.dungeon[target] or not has_answer(w, w.hands[target]):
        take_draws(w, T, target, ev)


def take_draws(w: Work, T: Tables, target: int, ev: list[Event]) -> None:
    """``target`` accepts the pending draw requirement and loses the turn."""
    k = w.dn
    dd = w.dd
    bit = 1 << target
    why: list[str] = []
    if w.penalty & bit:
        w.penalty &= ~bit
        k += 2
        why.append("the On Guard penalty")
    in_dungeon = bool(w.dungeon[target])
    if dd:
        w.dungeon = _put(w.dungeon, target, w.dungeon[target] + dd)
        w.lost = _put(w.lost, target, 1)  # two lost turns; this one is the first
        w.escape &= ~bit
        k += 1
        ev.append(Event(f"{p(target)} goes to the Dungeon: two lost turns, one card each."))
    elif in_dungeon:
        k += 1
        why.append(dungeon_turn(w, target, ev))
    _clear_pending(w)
    reason = f" ({' and '.join(why)})" if why else ""
    draw_cards(w, target, k, ev, f"{reason} and loses the turn")
    begin_turn(w, T, adv(w, target, 1), ev)


def play_text(w: Work | DynastyState, t: int, a: tuple) -> str:
    _, face, af, dirc, suit, target, burn = a
    who = p(t) if w.proxy < 0 else f"{p(w.proxy)} (Warlord, for {p(t)})"
    s = f"{who} plays {NAME[face]}"
    if af != face:
        s += f" as {NAME[af]}"
    bits: list[str] = []
    if dirc >= 0:
        bits.append(DIR_TEXT[dirc])
    if suit >= 0:
        bits.append(f"names {SUIT_NAMES[suit]}")
    k = KIND[af]
    if k == CAT:
        bits.append(f"at {p(target)}")
    elif k == SIE:
        bits.append(f"to look at {p(target)}'s hand")
    elif k == ARR and burn >= 0:
        bits.append("to burn a card" + (f" by giving it to {p(target)}" if target >= 0 else f": the {NAME[burn]} goes to the discard pile"))
    if bits:
        s += ", " + ", ".join(bits)
    return s + "."


def play_card(w: Work, T: Tables, a: tuple, ctx: int, ev: list[Event]) -> None:
    """The turn player plays a card from hand (normal, extra or escort)."""
    _, face, af, dirc, suit, target, burn = a
    t = w.turn
    set_hand(w, t, remove_one(w.hands[t], face))
    w.played_n += 1
    w.stall = 0
    complete = ctx == C_ESCORT or w.first_fm
    w.first_fm = False
    k = KIND[af]
    if w.proxy < 0:
        key = ("play", t) + a
        e = _EVENTS.get(key)
        ev.append(e if e is not None else _cached_event(key, play_text(w, t, a)))
    else:
        ev.append(Event(play_text(w, t, a)))
    if k != DUN:
        w.discard = w.discard + (face,)
        w.top_as = af if af != face else -1
    if k in BATTLE_KINDS:
        w.mkey = -1
        start_battle(w, T, k, t, target, burn, ev)
        return
    if k == KEY:
        w.mkey = -1
        start_key(w, T, ev)
        return
    nxt = effect(w, T, t, face, af, dirc, suit, complete, ev)
    if not w.hands[t]:
        go_out(w, T, t, ev)
        return
    if nxt == EXTRA:
        if gen_plays(w, T, w.hands[t], C_EXTRA, t):
            w.phase = EXTRA
            return
    elif nxt == ESCORT:
        w.phase = ESCORT
        return
    end_turn(w, T, ev)


def _start_draw(w: Work, t: int) -> None:
    if not w.dn and not w.dd:
        w.prev_suit = w.suit
    w.dsrc = t


def effect(w: Work, T: Tables, t: int, face: int, af: int, dirc: int, suit: int, complete: bool, ev: list[Event]) -> int:
    """Apply a played (or turned-up) card's effect. Returns the phase that follows
    (EXTRA, ESCORT) or PLAY meaning "the turn may end"."""
    k = KIND[af]
    if k == NUM:
        w.mkey = MATCH_KEY[af]
        w.suit = SUIT[af]
        return PLAY
    if k in DRAW_KINDS:
        _start_draw(w, t)  # remember the suit in play before this draw card (Protector)
    if not KINGDOM[af]:
        w.mkey = MATCH_KEY[af]
        w.suit = SUIT[af] if suit < 0 else suit
        if k == KN:
            if T.n == 2:
                w.skips += 1
            else:
                w.direction = -w.direction
        elif k == CJ:
            w.skips += 1
        elif k == DB:
            w.dn += 2
            w.dstack = True
        elif k == QO:
            _direction(w, T, dirc)
        elif k == FM and not complete:
            return ESCORT
        return PLAY
    if k != DUN:  # a Dungeon is set aside: the card under it stays the one to match, kind and suit
        w.mkey = -1
    if suit >= 0:
        w.suit = suit
    if k == WIZ:
        _direction(w, T, dirc)
        w.dn += 5
        w.dstack = False
        return EXTRA
    if k == DRA:
        w.dn += 3
        w.dstack = False
    elif k == KING or k == QUEEN:
        return EXTRA
    elif k == DUN:
        w.dd = w.dd + (face,)
        w.dstack = False
    return PLAY


def _direction(w: Work, T: Tables, dirc: int) -> None:
    if dirc == REVERSE:
        if T.n == 2:
            w.skips += 1
        else:
            w.direction = -w.direction
    elif dirc == SKIP:
        w.skips += 1


def table_choice(w: Work, T: Tables, a: tuple, ev: list[Event]) -> None:
    """The dealer's choices for a first card that needs them (FIRST phase)."""
    _, face, af, dirc, suit, _target, _burn = a
    dealer = w.turn
    k = KIND[af]
    text = f"{p(dealer)} turns the table card {NAME[face]}"
    if af != face:
        text += f" into {NAME[af]}"
    if dirc >= 0:
        text += f", {DIR_TEXT[dirc]}"
    if suit >= 0:
        text += f", names {SUIT_NAMES[suit]}"
    ev.append(Event(text + "."))
    if af != face:
        w.top_as = af
    if k == DUN:
        w.discard = w.discard[:-1]
        w.suit = suit
        w.mkey = -1
        w.top_as = -1
        w.prev_suit = suit
        w.dd = (face,)
        w.dsrc = dealer
        end_turn(w, T, ev)
        return
    if k in (DEC, PRO, POT):
        w.suit = suit
        w.mkey = -1
        end_turn(w, T, ev)
        return
    nxt = effect(w, T, dealer, face, af, dirc, suit, False, ev)
    if nxt == ESCORT:  # Magician turned into a Fair Maiden: the dealer escorts it
        begin_turn(w, T, dealer, ev, first_fm=True)
        return
    if nxt == EXTRA and gen_plays(w, T, w.hands[dealer], C_EXTRA, dealer):
        w.phase = EXTRA
        return
    end_turn(w, T, ev)


# --- draw answers ------------------------------------------------------------------------------


def answer_card(w: Work, T: Tables, a: tuple, ev: list[Event]) -> None:
    _, face, af, _dirc, _suit, _target, _burn = a
    t = w.turn
    set_hand(w, t, remove_one(w.hands[t], face))
    w.stall = 0
    k = KIND[af]
    w.discard = w.discard + (face,)
    w.top_as = af if af != face else -1
    label = NAME[face] + (f" as {NAME[af]}" if af != face else "")
    if k == DB:
        w.mkey = MATCH_KEY[af]
        w.suit = SUIT[af]
        w.dn += 2
        w.dstack = True
        w.dsrc = t
        nxt = adv(w, t, 1)
        ev.append(Event(f"{p(t)} stacks {label}: {p(nxt)} now faces {w.dn} cards."))
    elif k == DEC:
        w.mkey = -1
        w.direction = -w.direction
        nxt = w.dsrc
        w.dsrc = t
        w.dstack = False
        ev.append(Event(f"{p(t)} answers with {label}: the draw goes back to {p(nxt)} and the direction reverses."))
    else:  # Protector
        w.mkey = -1
        if w.prev_suit >= 0:
            w.suit = w.prev_suit
        # else: a first card drew; no suit was active before it, so the suit it named stays
        bury(w, w.dd)
        _clear_pending(w)
        nxt = adv(w, t, 1)
        ev.append(Event(f"{p(t)} answers with {label}: the draw is cancelled, {SUIT_NAMES[w.suit]} stays the suit."))
    if not w.hands[t]:
        if k != PRO:
            w.dtarget = nxt
        go_out(w, T, t, ev)
        return
    guard_after_play(w, t)
    if k == PRO:
        begin_turn(w, T, nxt, ev)
    else:
        enter_answer(w, T, nxt, ev)


# --- battle cards and the Secret Key ------------------------------------------------------------


def start_battle(w: Work, T: Tables, kind: int, t: int, target: int, burn: int, ev: list[Event]) -> None:
    n = T.n
    if kind in (CAN, TAX):
        affected = [s for s in range(n) if s != t]
    elif kind in (CAT, SIE) or (kind == ARR and target >= 0):
        affected = [target]
    else:
        affected = []
    wait = 0
    for s in affected:
        if _holds_kind(w.hands[s], DEF):
            wait |= 1 << s
    w.bat = (kind, t, target, burn)
    w.bat_def = 0
    if wait:
        w.phase = BATTLE
        w.bat_wait = wait
        names = ", ".join(p(s) for s in range(n) if (wait >> s) & 1)
        ev.append(Event(f"{names} may answer with a Defender."))
    else:
        w.bat_wait = 0
        resolve_battle(w, T, ev)


def battle_answer(w: Work, T: Tables, seat: int, defend: bool, ev: list[Event]) -> None:
    bit = 1 << seat
    if defend:
        hand = w.hands[seat]
        for f in hand:
            if KIND[f] == DEF:
                set_hand(w, seat, remove_one(hand, f))
                w.discard = w.discard + (f,)
                w.top_as = -1
                break
        w.bat_def |= bit
        ev.append(Event(f"{p(seat)} answers with a Defender: the {NAME_OF_KIND(w.bat[0])} does not touch them."))
        if len(w.hands[seat]) == 1:  # the Defender was their next-to-last card: On Guard is due
            w.guard = _put(w.guard, seat, 1)
    else:
        ev.append(Event(f"{p(seat)} lets the {NAME_OF_KIND(w.bat[0])} happen."))
    w.bat_wait &= ~bit
    if not w.bat_wait:
        resolve_battle(w, T, ev)


def NAME_OF_KIND(kind: int) -> str:
    return KIND_NAME[kind]


def resolve_battle(w: Work, T: Tables, ev: list[Event]) -> None:
    kind, t, target, burn = w.bat
    d = w.bat_def
    n = T.n
    w.bat = ()
    w.bat_wait = 0
    w.bat_def = 0
    w.phase = PLAY
    if kind == CAN:
        parts = [s for s in range(n) if not (d >> s) & 1]
        pool: list[int] = []
        for s in parts:
            pool.extend(w.hands[s])
        mixed = shuffle(w, pool)
        order = [(w.dealer + i) % n for i in range(1, n + 1)]
        order = [s for s in order if s in parts]
        new: dict[int, list[int]] = {s: [] for s in parts}
        for i, f in enumerate(mixed):
            new[order[i % len(order)]].append(f)
        for s in parts:
            set_hand(w, s, tuple(sorted(new[s])))
        ev.append(Event(f"Cannonball: {p(w.dealer)} collects {plural(len(pool), 'card')} and deals them out again one at a time."))
    elif kind == CAT:
        if not (d >> target) & 1:
            a, b = w.hands[t], w.hands[target]
            set_hand(w, t, b)
            set_hand(w, target, a)
            ev.append(Event(f"Catapult: {p(t)} and {p(target)} swap hands."))
    elif kind == ARR:
        if burn >= 0 and burn in w.hands[t]:
            if target < 0:
                set_hand(w, t, remove_one(w.hands[t], burn))
                bury(w, (burn,))
            elif not (d >> target) & 1:
                set_hand(w, t, remove_one(w.hands[t], burn))
                set_hand(w, target, tuple(sorted(w.hands[target] + (burn,))))
                ev.append(Event(f"Flaming Arrow: {p(t)} gives you the {NAME[burn]}.", target))
                ev.append(Event(f"Flaming Arrow: {p(target)} receives a card from {p(t)}."))
    elif kind == SIE:
        if not (d >> target) & 1:
            text = f"Siege Tower: {p(target)}'s hand is {hand_label(w.hands[target])}."
            ev.append(Event(text, t))
            if w.proxy >= 0 and w.proxy != t:
                ev.append(Event(text, w.proxy))
            ev.append(Event(f"{p(t)} has looked at {p(target)}'s hand."))
    elif kind == TAX:
        taxed: list[int] = []
        hit: list[int] = []
        for i in range(1, n):
            s = (t + i) % n
            hand = w.hands[s]
            if (d >> s) & 1 or not hand:
                continue
            f = hand[below(w, len(hand))]
            set_hand(w, s, remove_one(hand, f))
            taxed.append(f)
            hit.append(s)
            ev.append(Event(f"Imperial Tax: {p(s)} loses the {NAME[f]}."))
        bury(w, taxed)
        for s in hit:
            draw_cards(w, s, 1, ev, None)
        if hit:
            ev.append(Event("Each taxed player draws one card to replace it."))
    # Going out: the battle card's player first, then anyone left without cards.
    for i in range(n):
        s = (t + i) % n
        if not w.hands[s]:
            w.turn = t
            go_out(w, T, s, ev)
            return
    end_turn(w, T, ev)


def start_key(w: Work, T: Tables, ev: list[Event]) -> None:
    if not w.draw:
        reshuffle(w, ev)
    if w.draw:
        w.phase = KEY_PICK
        return
    ev.append(Event("The draw pile is empty: the Secret Key finds nothing."))
    if not w.hands[w.turn]:
        go_out(w, T, w.turn, ev)
    else:
        end_turn(w, T, ev)


def key_pick(w: Work, T: Tables, face: int, ev: list[Event]) -> None:
    t = w.turn
    pile = w.draw
    i = pile.index(face)
    w.draw = pile[:i] + pile[i + 1:]
    ev.append(Event(f"{p(t)} takes a card of their choice from the draw pile; the draw pile is reshuffled."))
    if KIND[face] in FRONT_KINDS:
        place_front(w, t, [face], ev)
        w.draw = shuffle(w, w.draw)
        draw_cards(w, t, 1, ev, None)
    else:
        set_hand(w, t, tuple(sorted(w.hands[t] + (face,))))
        ev.append(Event(f"You take the {NAME[face]}.", t))
        if w.proxy >= 0:
            ev.append(Event(f"{p(t)} takes the {NAME[face]}.", w.proxy))
        w.draw = shuffle(w, w.draw)
    w.phase = PLAY
    end_turn(w, T, ev)


# --- going out and scoring ---------------------------------------------------------------------


def go_out(w: Work, T: Tables, seat: int, ev: list[Event]) -> None:
    ev.append(Event(f"{p(seat)} goes out!"))
    if w.dn or w.dd:
        target = w.dtarget if w.dtarget >= 0 else target_of(w, seat)
        k = w.dn
        if w.dd:
            k += 1 if w.dungeon[target] else 2
            w.dungeon = _put(w.dungeon, target, w.dungeon[target] + w.dd)
        _clear_pending(w)
        draw_cards(w, target, k, ev, " for the last card's draw requirement; they count")
    end_hand(w, T, seat, ev)


def end_hand(w: Work, T: Tables, out: int, ev: list[Event]) -> None:
    """Score the hand (``out`` went out; -1: nobody did) and start the next or end the match."""
    n = T.n
    rounds = [0] * n
    for s in range(n):
        pts = 0 if s == out else hand_points(w.hands[s], w.dungeon[s])
        rounds[s] = pts + w.adj[s]
    notes: list[str] = []
    for h, o in w.bets:
        if o == out:
            rounds[o] -= DK_VALUE
            notes.append(f"Dark Knight: {p(o)} went out after all and deducts {DK_VALUE}.")
        else:
            rounds[h] -= DK_VALUE
            notes.append(f"Dark Knight: {p(o)} did not go out; {p(h)} wins the bet and deducts {DK_VALUE}.")
    totals = list(w.totals)
    team_round = [sum(rounds[m] for m in T.members[t]) for t in range(T.nteams)]
    for t in range(T.nteams):
        totals[t] += team_round[t]
    limit = T.cfg.limit
    halved = [t for t in range(T.nteams) if totals[t] == limit]
    for t in halved:
        totals[t] //= 2
        notes.append(f"{_team_name(T, t)} scores exactly {limit} and halves it to {totals[t]}.")
    w.totals = tuple(totals)
    head = f"Hand {w.hand_no} over: " + (f"{p(out)} went out." if out >= 0 else "nobody went out.")
    scores = ", ".join(f"{p(s)} {rounds[s]:+d}" for s in range(n))
    tot = ", ".join(f"{_team_name(T, t)} {totals[t]}" for t in range(T.nteams))
    lines = [head, f"Hand points: {scores}.", f"Totals: {tot}.", *notes]
    w.last = tuple(lines)
    for line in lines:
        ev.append(Event(line))
    over = False
    lo = min(totals)
    lows = [t for t in range(T.nteams) if totals[t] == lo]
    if halved and len(lows) == 1 and lows[0] in halved:
        over = True
        ev.append(Event(f"{_team_name(T, lows[0])} halved to the single lowest total and wins at once!"))
    elif max(totals) > limit:
        over = True
        ev.append(Event(f"A total passed {limit}: the match is over, lowest total wins."))
    elif T.cfg.hands and w.hand_no >= T.cfg.hands:
        over = True
        ev.append(Event(f"That was the last of {T.cfg.hands} hand{'s' if T.cfg.hands > 1 else ''}: lowest total wins."))
    elif w.hand_no >= MATCH_HAND_CAP or w.mturns > MATCH_TURN_CAP:
        over = True
        ev.append(Event("The match has gone on far too long: it ends on the totals."))
    if over:
        w.phase = OVER
        if T.cfg.partners:  # team ranks are dense (1, 2, 2, 3): each team is one placing
            team_place = [1 + len({u for u in totals if u < totals[t]}) for t in range(T.nteams)]
        else:  # seats: competition ranking (1, 2, 2, 4)
            team_place = [1 + sum(1 for u in totals if u < totals[t]) for t in range(T.nteams)]
        w.places = tuple(team_place[T.team[s]] for s in range(n))
        winners = ", ".join(_team_name(T, t) for t in range(T.nteams) if team_place[t] == 1)
        ev.append(Event(f"Winner: {winners}."))
        _reset_hand_fields_keep_cards(w)
        return
    w.dealer = (w.dealer + 1) % n
    w.hand_no += 1
    start_hand(w, T, ev)


def _reset_hand_fields_keep_cards(w: Work) -> None:
    w.proxy = -1
    w.bat = ()
    w.bat_wait = 0
    w.escape = 0
    w.dkwin = 0
    w.waived = 0
    w.guard = (0,) * len(w.guard)


def _team_name(T: Tables, t: int) -> str:
    if T.cfg.partners:
        return "Team " + "ABCD"[t] + " (" + " & ".join(p(s) for s in T.members[t]) + ")"
    return p(t)


def team_label(T: Tables, t: int) -> str:
    return _team_name(T, t)


# --- out-of-turn moves --------------------------------------------------------------------------


def play_risk(w: Work, T: Tables, seat: int, kind: int, arg: int, ev: list[Event]) -> None:
    fr = w.front[seat]
    face = next(f for f in fr if KIND[f] == kind)
    w.front = _put(w.front, seat, remove_one(fr, face))
    w.played = _put(w.played, seat, w.played[seat] + (face,))
    if kind == DKN:
        w.bets = w.bets + ((seat, arg),)
        w.dkwin &= ~(1 << arg)
        ev.append(Event(f"{p(seat)} plays the Dark Knight: a bet of {DK_VALUE} that {p(arg)} will not go out this hand."))
        return
    value = POINTS[face]
    team_cost(w, T, seat, value)
    others = "every other team" if T.cfg.partners else "every other player"
    if kind == POI:
        ev.append(Event(f"{p(seat)} plays the Poison Garden: the hand ends now; {others} deducts {value}."))
        end_hand(w, T, -1, ev)
    elif kind == FIR:
        ev.append(Event(f"{p(seat)} plays the Castle Fire: all hands are discarded and {p(w.dealer)} deals again; {others} deducts {value}."))
        redeal(w, T, ev)
    else:  # King's Goblet
        ev.append(Event(f"{p(seat)} plays the King's Goblet: everyone draws five; {others} deducts {value}."))
        for i in range(T.n):
            s = (seat + i) % T.n
            draw_cards(w, s, 5, ev, "")


def redeal(w: Work, T: Tables, ev: list[Event]) -> None:
    pool: list[int] = []
    for h in w.hands:
        pool.extend(h)
    for dgn in w.dungeon:
        pool.extend(dgn)
    pool.extend(w.draw)
    pool.extend(w.discard)
    pool.extend(w.dd)
    _reset_hand_fields(w, T.n)
    w.draw = shuffle(w, pool)
    deal(w, T, ev)


def play_warlord(w: Work, T: Tables, seat: int, ev: list[Event]) -> None:
    fr = w.front[seat]
    face = next(f for f in fr if KIND[f] == WAR)
    w.front = _put(w.front, seat, remove_one(fr, face))
    w.played = _put(w.played, seat, w.played[seat] + (face,))
    w.adj = _put(w.adj, seat, w.adj[seat] + WARLORD_COST)
    w.proxy = seat
    t = w.turn
    ev.append(Event(f"{p(seat)} plays the Warlord and makes {p(t)}'s turn for them (+{WARLORD_COST} to {p(seat)} this hand)."))
    ev.append(Event(f"{p(t)}'s hand: {hand_label(w.hands[t])}.", seat))


def escape_dungeon(w: Work, seat: int, ev: list[Event]) -> None:
    bury(w, w.dungeon[seat])
    w.dungeon = _put(w.dungeon, seat, ())
    w.lost = _put(w.lost, seat, 0)
    w.escape &= ~(1 << seat)
    ev.append(Event(f"{p(seat)} escapes the Dungeon: it goes to the discard pile (the card under it stays in play)."))


def close_windows(w: Work) -> None:
    """The next player acts: uncalled On Guards can no longer be caught, Dark Knight and
    Dungeon-escape chances lapse, and every waiver is forgotten."""
    if 1 in w.guard:
        w.guard = tuple(0 if g == 1 else g for g in w.guard)
    w.dkwin = 0
    w.escape = 0
    w.waived = 0


# --- apply ------------------------------------------------------------------------------------


def find_move(moves: list[Move], move: Move | str) -> Move | None:
    if isinstance(move, str):
        for m in moves:
            if m.code == move:
                return m
        return None
    for m in moves:
        if m is move:
            return m
    for m in moves:  # an equal Move, or the same code with a label from another moment
        if m.code == move.code:
            return m
    return None


def apply_move(state: DynastyState, seat: int, move: Move | str) -> tuple[DynastyState, list[Event]]:
    if state.phase == OVER:
        raise MatchOver("This match is over.")
    T = tables_for(state.cfg)
    c = state._c
    moves = c.get(seat) if c is not None else None
    if moves is None:
        moves = legal(state, seat, T)
    m = find_move(moves, move)
    if m is None:
        code = move if isinstance(move, str) else move.code
        if not moves:
            raise NotYourTurn(why_not_your_turn(state, seat, T))
        raise IllegalMove(why_illegal(state, seat, code, T))
    a = ACTIONS[m.code]
    op = a[0]
    w = thaw(state)
    ev: list[Event] = []
    if op not in OPTIONAL_OPS and (w.dkwin or w.escape or w.waived or 1 in w.guard):
        close_windows(w)
    HANDLERS[op](w, T, seat, a, ev)
    pub = [e.text for e in ev if e.seat is None]
    if pub:
        w.log = (w.log + tuple(pub))[-LOG_SIZE:]
    return freeze(w), ev


def _h_play(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    ph = w.phase
    if ph == ANSWER:
        answer_card(w, T, a, ev)
    elif ph == EXTRA:
        play_card(w, T, a, C_EXTRA, ev)
    elif ph == ESCORT:
        play_card(w, T, a, C_ESCORT, ev)
    else:
        play_card(w, T, a, C_PLAY, ev)


def _h_table(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    table_choice(w, T, a, ev)


def _h_draw(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    t = w.turn
    draw_cards(w, t, 1, ev)
    w.stall = 0
    w.phase = DRAWN
    if not gen_plays(w, T, w.hands[t], C_PLAY, t):
        ev.append(Event(f"{p(t)} cannot play and passes."))
        end_turn(w, T, ev)


def _h_pass(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    t = w.turn
    ev.append(Event(f"{p(t)} passes."))
    if w.phase == PLAY:  # nothing could be drawn
        w.stall += 1
        if w.stall >= T.n:
            ev.append(Event("Nobody can play or draw: the hand is blocked."))
            end_hand(w, T, -1, ev)
            return
    end_turn(w, T, ev)


def _h_noextra(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    end_turn(w, T, ev)


def _h_accept(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    take_draws(w, T, w.turn, ev)


def _h_defend(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    battle_answer(w, T, seat, True, ev)


def _h_take(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    battle_answer(w, T, seat, False, ev)


def _h_key(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    key_pick(w, T, a[1], ev)


def _h_ask(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    w.ask = 1
    w.phase = ASK
    ev.append(Event(f"{p(w.turn)} asks {p(T.partner[w.turn])}: may I go out?"))


def _h_yes(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    w.ask = 2
    w.phase = PLAY
    ev.append(Event(f"{p(seat)} answers Yes: {p(w.turn)} must go out now or draw 2 and lose the turn."))


def _h_no(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    w.ask = 3
    w.phase = PLAY
    ev.append(Event(f"{p(seat)} answers No."))


def _h_forfeit(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    t = w.turn
    draw_cards(w, t, 2, ev, " after a Yes without going out, and loses the turn")
    end_turn(w, T, ev)


def _h_cut(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    n = T.n
    need = HAND_SIZE * n + 1
    off = below(w, 11) - 5
    bonus = 50 if n >= 4 else 25
    dealer_team = T.team[w.dealer]
    if off == 0:
        w.totals = tuple(v + bonus if t != dealer_team else v for t, v in enumerate(w.totals))
        ev.append(Event(f"{p(w.dealer)} cuts exactly {need} cards: every other player adds {bonus}!"))
    else:
        w.totals = _put(w.totals, dealer_team, w.totals[dealer_team] + bonus)
        ev.append(Event(f"{p(w.dealer)} cuts {need + off} cards, not {need}: the dealer adds {bonus}."))
    deal(w, T, ev)


def _h_deal(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    deal(w, T, ev)


def _h_call(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    if w.guard[seat] == 1:
        w.guard = _put(w.guard, seat, 2)
        w.dkwin |= 1 << seat
    else:  # announced during the turn, for the card that will leave one in hand
        w.precall = True
    ev.append(Event(f"{p(seat)} calls On Guard!"))


def _h_catch(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    o = a[1]
    w.guard = _put(w.guard, o, 0)
    w.penalty |= 1 << o
    ev.append(Event(f"{p(seat)} calls On Guard before {p(o)} did: {p(o)} will draw 2 and lose their next turn."))


def _h_risk(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    play_risk(w, T, seat, a[1], a[2], ev)


def _h_warlord(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    play_warlord(w, T, seat, ev)


def _h_escape(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    escape_dungeon(w, seat, ev)


def _h_wait(w: Work, T: Tables, seat: int, a: tuple, ev: list[Event]) -> None:
    w.waived |= 1 << seat


HANDLERS: dict[str, Callable[[Work, Tables, int, tuple, list[Event]], None]] = {
    "p": _h_play, "t": _h_table, "d": _h_draw, "pass": _h_pass, "x": _h_noextra,
    "acc": _h_accept, "def": _h_defend, "take": _h_take, "k": _h_key, "ask": _h_ask,
    "yes": _h_yes, "no": _h_no, "f": _h_forfeit, "cut": _h_cut, "deal": _h_deal,
    "og": _h_call, "c": _h_catch, "r": _h_risk, "war": _h_warlord, "esc": _h_escape,
    "wait": _h_wait,
}


# --- refusals ------------------------------------------------------------------------------


def why_not_your_turn(s: DynastyState, seat: int, T: Tables) -> str:
    if not 0 <= seat < T.n:
        return "You are not seated at this table."
    if (s.waived >> seat) & 1:
        return "You let this chance pass; wait for the next player to act."
    bl = blocking(s, T)
    who = [p(x) for x in range(T.n) if (bl >> x) & 1]
    return f"It is not your turn: waiting for {', '.join(who)}." if who else "It is not your turn."


def why_illegal(s: DynastyState, seat: int, code: str, T: Tables) -> str:
    parts = code.split(":")
    if parts[0] in ("p", "t") and len(parts) > 1:
        f = FACE_OF_CODE.get(parts[1])
        if f is None:
            return "That is not a card of this game."
        owner = s.turn
        if f not in s.hands[owner]:
            return f"You do not hold {NAME[f]}."
        k = KIND[f]
        if s.phase == ANSWER:
            return f"{NAME[f]} cannot answer this draw: answer with a Royal Decree, a Protector, a Magician{', a Drawbridge' if s.dstack else ''}, or draw."
        if k in ANSWER_ONLY:
            return f"{KIND_NAME[k]} can only be played in answer to {'a battle card' if k == DEF else 'a draw card aimed at you'}."
        if k in LAST_ONLY:
            return f"{KIND_NAME[k]} may only be played as your last card."
        if k in TURN_ONLY and s.phase in (EXTRA, ESCORT):
            return f"{KIND_NAME[k]} is played only as the one card of a normal turn, not as an extra or escort."
        if not KINGDOM[f] and SUIT[f] != s.suit and SUIT2[f] != s.suit and MATCH_KEY[f] != s.mkey:
            return f"{NAME[f]} does not match: play a {SUIT_NAMES[s.suit]} card, the same kind as the top card, or a Kingdom card."
        if k == FM:
            return "A Fair Maiden needs an escort: another card playable on it (same suit, a Fair Maiden or a Kingdom card)."
        if s.ask == 2:
            return "After your partner's Yes you must go out now, or draw 2 and lose the turn."
        return f"That way of playing {NAME[f]} is not possible right now."
    if parts[0] == "d":
        return "You cannot draw now." if s.phase != PLAY else "The draw pile and discard pile are empty: play a card or pass."
    if parts[0] == "og":
        return "You can call On Guard only when you have just got down to one card."
    if parts[0] == "c":
        return "Nobody can be caught right now: only a player down to one card who has not called On Guard, before the next player acts."
    if parts[0] == "r":
        return "You have no such Risk card in front of you, or it cannot be played now."
    if parts[0] == "war":
        return "The Warlord is played at the start of another player's turn."
    if parts[0] == "esc":
        return "You can escape the Dungeon only after your second lost turn, before the next player acts."
    return "That move is not possible right now."


def waiting_text(s: DynastyState, T: Tables) -> str:
    ph = s.phase
    if ph == OVER:
        return "The match is over."
    t = s.turn
    bl = blocking(s, T)
    if ph == CUT:
        return f"Waiting for {p(t)} to cut for the dealing bonus or deal."
    if ph == FIRST:
        return f"Waiting for {p(t)} to make the choices for the table card."
    if ph == ANSWER:
        what = f"draw {s.dn}" if s.dn else ""
        if s.dd:
            what = (what + " and go to the Dungeon") if what else "go to the Dungeon"
        return f"Waiting for {p(t)} to {what} or answer."
    if ph == BATTLE:
        names = ", ".join(p(x) for x in range(T.n) if (bl >> x) & 1)
        return f"Waiting for {names} to answer the {NAME_OF_KIND(s.bat[0])} (Defender or let it happen)."
    if ph == ASK:
        return f"Waiting for {p(T.partner[t])} to answer {p(t)}: Yes or No."
    who = p(t) if s.proxy < 0 else f"{p(s.proxy)} (Warlord, playing {p(t)}'s turn)"
    if ph == EXTRA:
        return f"Waiting for {who}: an extra card, or end the turn."
    if ph == ESCORT:
        return f"Waiting for {who} to play the Fair Maiden's escort."
    if ph == KEY_PICK:
        return f"Waiting for {who} to take a card with the Secret Key."
    if ph == DRAWN:
        return f"Waiting for {who}: play a card or pass."
    return f"Waiting for {who} to play or draw."
