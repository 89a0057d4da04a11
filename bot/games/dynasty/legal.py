"""Who the game waits for and the legal moves of a seat.

Vocabulary: *awaited* seats are those the game waits for (the turn player, a partner
asked, targets of a battle card); *optional* moves (On Guard call and catch, Risk cards,
Dark Knight, Warlord, Dungeon escape) may be made out of turn and never hold the game up.
"""

from __future__ import annotations

from bot.games.base import Move
from bot.games.dynasty.actions import card_play
from bot.games.dynasty.cards import (
    ANSWER_ONLY,
    ARR,
    CAN,
    CAT,
    DB,
    DEC,
    DEF,
    DKN,
    EXTRA_KINDS,
    FIR,
    FM,
    GOB,
    KEY,
    KIND,
    KINGDOM,
    LAST_ONLY,
    MAG,
    POI,
    PRO,
    SUIT,
    TURN_ONLY,
    WAR,
)
from bot.games.dynasty.catalogue import (
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
    NO,
    NO_ESCORT,
    NO_EXTRA,
    PASS,
    POISON_M,
    TAKE,
    WAIT,
    YES,
    Tables,
    accept_move,
    catch_move,
    dk_move,
    key_move,
    war_move,
)
from bot.games.dynasty.playable import can_play_out, has_escort, magician_plays
from bot.games.dynasty.state import (
    ANSWER,
    ASK,
    ASK_NONE,
    ASK_YES,
    BATTLE,
    CUT,
    DRAWN,
    ESCORT,
    EXTRA,
    FIRST,
    GUARD_UNCALLED,
    KEY_PICK,
    OVER,
    PLAY,
    DynastyState,
    Work,
    legal_memo,
    set_memo,
)
from bot.games.dynasty.table import can_draw, holds_kind, remove_one


def awaited_mask(s: Work | DynastyState, tables: Tables) -> int:
    """Bitmask of the seats the game waits for."""
    ph = s.phase
    if ph == OVER:
        return 0
    if ph == BATTLE:
        return s.battle_waiting
    if ph == ASK:
        return 1 << tables.partner[s.turn]
    if s.warlord >= 0 and ph != ANSWER:
        return 1 << s.warlord
    return 1 << s.turn


def out_of_turn_mask(s: Work | DynastyState, tables: Tables) -> int:
    """Bitmask of seats with an out-of-turn move available (before waivers)."""
    ph = s.phase
    if ph == OVER or ph == CUT:
        return 0
    m = s.may_escape
    if GUARD_UNCALLED in s.on_guard:
        m = tables.all_mask
    front = s.in_front
    if front != tables.no_front:
        for seat in range(tables.n):
            fr = front[seat]
            if not fr:
                continue
            for f in fr:
                k = KIND[f]
                if (
                    k == POI
                    or k == FIR
                    or k == GOB
                    or (k == DKN and s.dark_knight_open & ~(1 << seat))
                    or (
                        k == WAR
                        and ph == PLAY
                        and s.warlord < 0
                        and s.partner_asked == ASK_NONE
                        and s.turn != seat
                    )
                ):
                    m |= 1 << seat
    return m


def to_act_mask(s: Work | DynastyState, tables: Tables) -> int:
    """Blocking seats plus seats with an out-of-turn move they have not let pass."""
    ph = s.phase
    if ph == OVER:
        return 0
    if ph == BATTLE:
        b = s.battle_waiting
    elif ph == ASK:
        b = 1 << tables.partner[s.turn]
    elif s.warlord >= 0 and ph != ANSWER:
        b = 1 << s.warlord
    else:
        b = 1 << s.turn
    if ph == CUT or (not s.may_escape and s.in_front == tables.no_front and GUARD_UNCALLED not in s.on_guard):
        return b  # nobody has anything out of turn (a call ahead is the turn player's own)
    return b | (out_of_turn_mask(s, tables) & ~s.waived)


def card_plays(
    s: Work | DynastyState, tables: Tables, hand: tuple[int, ...], context: int, owner: int
) -> list[Move]:
    """Card plays from ``hand`` on the current top card in context ``context``."""
    out: list[Move] = []
    ok = tables.playable(s.match_key, s.suit)
    is_escort = context == C_ESCORT or s.escorting_first_card  # a Fair Maiden played now is itself an escort
    flat = tables.flat[context]
    prev = -1
    for f in hand:
        if f == prev:
            continue
        prev = f
        if f in ok:
            if KIND[f] == FM:
                if is_escort:
                    out.extend(tables.variants(C_ESCORT, f, owner))
                    continue
                if not has_escort(hand, f, SUIT[f]):
                    continue
            v = flat[f]
            out.extend(v if v is not None else tables.variants(context, f, owner))
        elif KINGDOM[f]:
            k = KIND[f]
            if k in ANSWER_ONLY:
                continue
            if k in LAST_ONLY:
                if len(hand) != 1:
                    continue
            elif k in TURN_ONLY:
                if context != C_PLAY:
                    continue
                if k == ARR:
                    out.extend(arrow_plays(tables, context, f, hand, owner))
                    continue
            elif k == MAG:
                out.extend(magician_plays(tables, context, hand, s.match_key, s.suit, is_escort))
                continue
            out.extend(tables.variants(context, f, owner))
    return out


def arrow_plays(tables: Tables, context: int, arrow: int, hand: tuple[int, ...], owner: int) -> list[Move]:
    """The Flaming Arrow ``arrow``: burn nothing, or burn a card by discarding it or giving it
    to another player."""
    f = arrow
    rest = remove_one(hand, f)
    # The seed says the player "can" burn a card: burning nothing is a choice too.
    out: list[Move] = [tables.arrow_alone(context, f)]
    if not rest:
        return out
    prev = -1
    for b in rest:
        if b == prev:
            continue
        prev = b
        out.append(tables.arrow(context, f, b, -1))
        for t in range(tables.n):
            if t != owner:
                out.append(tables.arrow(context, f, b, t))
    return out


def draw_answers(s: Work | DynastyState, tables: Tables, hand: tuple[int, ...], owner: int) -> list[Move]:
    """Answers to the draw card aimed at ``owner``: Drawbridge (when it may stack), Royal
    Decree, Protector, or the Magician as one of them."""
    out: list[Move] = []
    prev = -1
    for f in hand:
        if f == prev:
            continue
        prev = f
        k = KIND[f]
        if (k == DB and s.drawbridge_may_stack) or k == DEC or k == PRO:
            out.extend(tables.variants(C_ANSWER, f, owner))
        elif k == MAG:
            for m, as_face, _ in tables.magician(C_ANSWER):
                if KIND[as_face] == DB and not s.drawbridge_may_stack:
                    continue
                out.append(m)
    return out


def plays_that_go_out(
    tables: Tables, moves: list[Move], hand: tuple[int, ...], is_escort: bool
) -> list[Move]:
    """After a partner's Yes: only moves that can still end in going out this turn."""
    out: list[Move] = []
    for m in moves:
        play = card_play(m.code)
        rest = remove_one(hand, play.face)
        as_face = play.as_face
        k = KIND[as_face]
        if not rest:
            ok = k not in (CAN, CAT, KEY)
        elif k in EXTRA_KINDS:
            ok = can_play_out(rest, -1, play.suit, C_EXTRA, tables.suits)
        elif k == FM and not is_escort:
            ok = can_play_out(rest, FM_KEY, SUIT[as_face], C_ESCORT, tables.suits)
        elif k == ARR:
            ok = play.burn >= 0 and len(rest) == 1 and play.target < 0
        else:
            ok = False
        if ok:
            out.append(m)
    return out


def awaited_moves(s: Work | DynastyState, seat: int, tables: Tables) -> list[Move]:
    """The moves of ``seat``, which the game waits for, in the current phase."""
    ph = s.phase
    t = s.turn
    if ph == PLAY:
        hand = s.hands[t]
        moves = card_plays(s, tables, hand, C_PLAY, t)
        if s.partner_asked == ASK_YES:
            return plays_that_go_out(tables, moves, hand, s.escorting_first_card) + [FORFEIT]
        moves.append(DRAW if can_draw(s) else PASS)
        if (
            tables.config.partners
            and s.partner_asked == ASK_NONE
            and s.warlord < 0
            and len(hand) <= 4
            and can_play_out(
                hand, s.match_key, s.suit, C_ESCORT if s.escorting_first_card else C_PLAY, tables.suits
            )
        ):
            moves.append(ASK_M)
        return moves
    if ph == DRAWN:
        moves = card_plays(s, tables, s.hands[t], C_PLAY, t)
        moves.append(PASS)
        return moves
    if ph == EXTRA:
        hand = s.hands[t]
        moves = card_plays(s, tables, hand, C_EXTRA, t)
        if s.partner_asked == ASK_YES:
            return plays_that_go_out(tables, moves, hand, False) or [NO_EXTRA]
        moves.append(NO_EXTRA)
        return moves
    if ph == ESCORT:
        hand = s.hands[t]
        moves = card_plays(s, tables, hand, C_ESCORT, t)
        if s.partner_asked == ASK_YES:
            moves = plays_that_go_out(tables, moves, hand, True) or moves
        # A King's Goblet can take away a last-card escort (Potion, Treasure): then the
        # Maiden stays alone and the turn ends.
        return moves or [NO_ESCORT]
    if ph == ANSWER:
        moves = draw_answers(s, tables, s.hands[t], t)
        moves.append(accept_move(s.pending_draws, bool(s.pending_dungeons)))
        return moves
    if ph == BATTLE:
        return [DEFEND, TAKE] if holds_kind(s.hands[seat], DEF) else [TAKE]
    if ph == KEY_PICK:
        return [key_move(f) for f in sorted(set(s.draw_pile))]
    if ph == ASK:
        return [YES, NO]
    if ph == FIRST:
        f = s.discard_pile[-1]
        if KIND[f] == MAG:
            return [m for m, _af, _n in tables.magician(C_FIRST)]
        return list(tables.variants(C_FIRST, f, t))
    if ph == CUT:
        return [CUT_M, DEAL_M]
    return []


def out_of_turn_moves(s: Work | DynastyState, seat: int, tables: Tables) -> list[Move]:
    """The moves ``seat`` may make whoever the game waits for: On Guard call (or call ahead)
    and catches, the Dungeon escape, Risk cards, the Dark Knight bet, the Warlord."""
    ph = s.phase
    if ph == OVER or ph == CUT:
        return []
    out: list[Move] = []
    guard = s.on_guard
    if (
        seat == s.turn
        and s.warlord < 0
        and not s.called_ahead
        and len(s.hands[seat]) == 2
        and ph in (PLAY, DRAWN, EXTRA, ESCORT, ANSWER)
    ):
        out.append(CALL_AHEAD)
    if GUARD_UNCALLED in guard:
        if guard[seat] == GUARD_UNCALLED:
            out.append(CALL)
        for o in range(tables.n):
            if o != seat and guard[o] == GUARD_UNCALLED:
                out.append(catch_move(o))
    if (s.may_escape >> seat) & 1:
        out.append(ESCAPE)
    for f in s.in_front[seat]:
        k = KIND[f]
        if k == POI:
            out.append(POISON_M)
        elif k == FIR:
            out.append(FIRE_M)
        elif k == GOB:
            out.append(GOBLET_M)
        elif k == DKN:
            for o in range(tables.n):
                if o != seat and (s.dark_knight_open >> o) & 1:
                    out.append(dk_move(o))
        elif k == WAR and ph == PLAY and s.warlord < 0 and s.partner_asked == ASK_NONE and s.turn != seat:
            out.append(war_move(s.turn))
    return out


def moves_of_seat(s: DynastyState, seat: int, tables: Tables) -> list[Move]:
    if s.phase == OVER or not 0 <= seat < tables.n:
        return []
    is_bl = (awaited_mask(s, tables) >> seat) & 1
    moves = awaited_moves(s, seat, tables) if is_bl else []
    if (
        s.in_front[seat] == ()
        and not s.may_escape
        and GUARD_UNCALLED not in s.on_guard
        and not (seat == s.turn and len(s.hands[seat]) == 2)
    ):
        return moves  # nothing out of turn for this seat
    opt = out_of_turn_moves(s, seat, tables)
    if opt:
        if is_bl:
            moves = moves + opt
        elif not (s.waived >> seat) & 1:
            moves = opt + [WAIT]
    return moves


def legal(s: DynastyState, seat: int, tables: Tables) -> list[Move]:
    """Legal moves, memoised on the (immutable) state object."""
    c = legal_memo(s)
    if c is None:
        c = {}
        set_memo(s, c)
    r = c.get(seat)
    if r is None:
        r = c[seat] = moves_of_seat(s, seat, tables)
    return r
