"""Card plays and their effects: a card played in a normal turn, as an extra or an
escort (suit, direction, skips, draw cards, Dungeons), battle cards and the Secret Key."""

from __future__ import annotations

from bot.games.base import Event, join_names, p, plural
from bot.games.dynasty.actions import REVERSE, SKIP, CardPlay
from bot.games.dynasty.cards import (
    ARR,
    BATTLE_KINDS,
    CAN,
    CAT,
    CJ,
    DB,
    DEF,
    DRA,
    DRAW_KINDS,
    DUN,
    FM,
    FRONT_KINDS,
    KEY,
    KIND,
    KING,
    KINGDOM,
    KN,
    MATCH_KEY,
    NAME,
    NUM,
    QO,
    QUEEN,
    SIE,
    SUIT,
    SUIT_NAMES,
    TAX,
    WIZ,
    hand_label,
)
from bot.games.dynasty.catalogue import C_ESCORT, Tables
from bot.games.dynasty.scoring import go_out
from bot.games.dynasty.state import (
    BATTLE,
    ESCORT,
    EXTRA,
    KEY_PICK,
    PLAY,
    DynastyState,
    Work,
)
from bot.games.dynasty.table import (
    bury,
    draw_cards,
    holds_kind,
    known_event,
    put_in_front,
    random_below,
    remove_one,
    reshuffle,
    set_hand,
    shared_event,
    shuffle,
)
from bot.games.dynasty.turn import end_turn

DIRECTION_TEXT = ("keeps the direction", "reverses the direction", "skips the next player")


def play_text(w: Work | DynastyState, player: int, play: CardPlay) -> str:
    """The public sentence for ``player`` making ``play``."""
    face, as_face, suit, target, burn = play.face, play.as_face, play.suit, play.target, play.burn
    who = p(player) if w.warlord < 0 else f"{p(w.warlord)} (Warlord, for {p(player)})"
    s = f"{who} plays {NAME[face]}"
    if as_face != face:
        s += f" as {NAME[as_face]}"
    bits: list[str] = []
    if play.direction_choice >= 0:
        bits.append(DIRECTION_TEXT[play.direction_choice])
    if suit >= 0:
        bits.append(f"names {SUIT_NAMES[suit]}")
    k = KIND[as_face]
    if k == CAT:
        bits.append(f"at {p(target)}")
    elif k == SIE:
        bits.append(f"to look at {p(target)}'s hand")
    elif k == ARR and burn >= 0:
        bits.append(
            "to burn a card"
            + (
                f" by giving it to {p(target)}"
                if target >= 0
                else f": the {NAME[burn]} goes to the discard pile"
            )
        )
    if bits:
        s += ", " + ", ".join(bits)
    return s + "."


def play_card(w: Work, tables: Tables, play: CardPlay, context: int, events: list[Event]) -> None:
    """The turn player plays a card from hand in ``context`` (C_PLAY a normal turn's card,
    C_EXTRA an extra card, C_ESCORT a Fair Maiden's escort)."""
    face, as_face = play.face, play.as_face
    t = w.turn
    set_hand(w, t, remove_one(w.hands[t], face))
    w.cards_played += 1
    w.stalled_turns = 0
    is_escort = context == C_ESCORT or w.escorting_first_card
    w.escorting_first_card = False
    k = KIND[as_face]
    if w.warlord < 0:
        key = ("play", t, play)
        e = known_event(key)
        events.append(e if e is not None else shared_event(key, play_text(w, t, play)))
    else:
        events.append(Event(play_text(w, t, play)))
    if k != DUN:
        w.discard_pile = w.discard_pile + (face,)
        w.top_acts_as = as_face if as_face != face else -1
    if k in BATTLE_KINDS:
        w.match_key = -1
        start_battle(w, tables, t, play, events)
        return
    if k == KEY:
        w.match_key = -1
        start_secret_key(w, tables, events)
        return
    nxt = card_effect(w, tables, t, play, events, is_escort=is_escort)
    if not w.hands[t]:
        go_out(w, tables, t, events)
        return
    if nxt == EXTRA:
        # The turn waits for the extra card or its end even when no card could follow:
        # ending it at once would show the table that the hand holds none (RULES.md's
        # secrecy ruling: nothing the table shows may reveal what a player could have done).
        w.phase = EXTRA
        return
    if nxt == ESCORT:
        w.phase = ESCORT
        return
    end_turn(w, tables, events)


def start_draw_card(w: Work, player: int) -> None:
    if not w.pending_draws and not w.pending_dungeons:
        w.suit_before_draw = w.suit
    w.draw_source = player


def card_effect(
    w: Work, tables: Tables, player: int, play: CardPlay, events: list[Event], *, is_escort: bool
) -> int:
    """Apply the effect of a card ``player`` played (or the dealer turned up). ``is_escort``:
    the card is itself a Fair Maiden's escort (so a Fair Maiden needs none). Returns the
    phase that follows (EXTRA, ESCORT) or PLAY meaning "the turn may end"."""
    as_face, suit = play.as_face, play.suit
    k = KIND[as_face]
    if k == NUM:
        w.match_key = MATCH_KEY[as_face]
        w.suit = SUIT[as_face]
        return PLAY
    if k in DRAW_KINDS:
        start_draw_card(w, player)  # remember the suit in play before this draw card (Protector)
    if not KINGDOM[as_face]:
        w.match_key = MATCH_KEY[as_face]
        w.suit = SUIT[as_face] if suit < 0 else suit
        if k == KN:
            if tables.n == 2:
                w.skips += 1
            else:
                w.direction = -w.direction
        elif k == CJ:
            w.skips += 1
        elif k == DB:
            w.pending_draws += 2
            w.drawbridge_may_stack = True
        elif k == QO:
            apply_direction_choice(w, tables, play.direction_choice)
        elif k == FM and not is_escort:
            return ESCORT
        return PLAY
    if k != DUN:  # a Dungeon is set aside: the card under it stays the one to match, kind and suit
        w.match_key = -1
    if suit >= 0:
        w.suit = suit
    if k == WIZ:
        apply_direction_choice(w, tables, play.direction_choice)
        w.pending_draws += 5
        w.drawbridge_may_stack = False
        return EXTRA
    if k == DRA:
        w.pending_draws += 3
        w.drawbridge_may_stack = False
    elif k == KING or k == QUEEN:
        return EXTRA
    elif k == DUN:
        w.pending_dungeons = w.pending_dungeons + (play.face,)
        w.drawbridge_may_stack = False
    return PLAY


def apply_direction_choice(w: Work, tables: Tables, choice: int) -> None:
    """Queen's Option and Wizard: reverse (with two players: skip), skip, or keep."""
    if choice == REVERSE:
        if tables.n == 2:
            w.skips += 1
        else:
            w.direction = -w.direction
    elif choice == SKIP:
        w.skips += 1


def start_battle(w: Work, tables: Tables, player: int, play: CardPlay, events: list[Event]) -> None:
    """``player`` played a battle card: wait for the Defender answers of those it hits, if any."""
    kind, target, burn = KIND[play.as_face], play.target, play.burn
    n = tables.n
    if kind in (CAN, TAX):
        affected = [s for s in range(n) if s != player]
    elif kind in (CAT, SIE) or (kind == ARR and target >= 0):
        affected = [target]
    else:
        affected = []
    wait = 0
    for s in affected:
        if holds_kind(w.hands[s], DEF):
            wait |= 1 << s
    w.battle = (kind, player, target, burn)
    w.battle_defended = 0
    if wait:
        w.phase = BATTLE
        w.battle_waiting = wait
        names = join_names([p(s) for s in range(n) if (wait >> s) & 1])
        events.append(Event(f"{names} may answer with a Defender."))
    else:
        w.battle_waiting = 0
        resolve_battle(w, tables, events)


def resolve_battle(w: Work, tables: Tables, events: list[Event]) -> None:
    """The battle card takes effect on everyone who did not answer with a Defender; then its
    player (first) or anyone left without cards goes out, or the turn ends."""
    kind, player, target, burn = w.battle
    defended = w.battle_defended
    w.battle = ()
    w.battle_waiting = 0
    w.battle_defended = 0
    w.phase = PLAY
    if kind == CAN:
        _cannonball(w, tables, defended, events)
    elif kind == CAT:
        if not (defended >> target) & 1:
            _catapult(w, player, target, events)
    elif kind == ARR:
        if burn >= 0 and burn in w.hands[player]:
            _flaming_arrow(w, player, target, burn, defended, events)
    elif kind == SIE:
        if not (defended >> target) & 1:
            _siege_tower(w, player, target, events)
    elif kind == TAX:
        _imperial_tax(w, tables, player, defended, events)
    # Going out: the battle card's player first, then anyone left without cards.
    n = tables.n
    for i in range(n):
        s = (player + i) % n
        if not w.hands[s]:
            w.turn = player
            go_out(w, tables, s, events)
            return
    end_turn(w, tables, events)


def _cannonball(w: Work, tables: Tables, defended: int, events: list[Event]) -> None:
    """The hands of all who did not defend are collected, shuffled and dealt out again one by
    one from the dealer's left."""
    n = tables.n
    parts = [s for s in range(n) if not (defended >> s) & 1]
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
    events.append(
        Event(
            f"Cannonball: {p(w.dealer)} collects {plural(len(pool), 'card')} and deals them out again one at a time."
        )
    )


def _catapult(w: Work, player: int, target: int, events: list[Event]) -> None:
    mine, theirs = w.hands[player], w.hands[target]
    set_hand(w, player, theirs)
    set_hand(w, target, mine)
    events.append(Event(f"Catapult: {p(player)} and {p(target)} swap hands."))


def _flaming_arrow(w: Work, player: int, target: int, burn: int, defended: int, events: list[Event]) -> None:
    """The burned card goes under the top card, or to ``target`` unless they defended."""
    if target < 0:
        set_hand(w, player, remove_one(w.hands[player], burn))
        bury(w, (burn,))
    elif not (defended >> target) & 1:
        set_hand(w, player, remove_one(w.hands[player], burn))
        set_hand(w, target, tuple(sorted(w.hands[target] + (burn,))))
        events.append(Event(f"Flaming Arrow: {p(player)} gives you the {NAME[burn]}.", target))
        events.append(Event(f"Flaming Arrow: {p(target)} receives a card from {p(player)}."))


def _siege_tower(w: Work, player: int, target: int, events: list[Event]) -> None:
    """``player`` (and a Warlord playing their turn) sees ``target``'s hand."""
    text = f"Siege Tower: {p(target)}'s hand is {hand_label(w.hands[target])}."
    events.append(Event(text, player))
    if w.warlord >= 0 and w.warlord != player:
        events.append(Event(text, w.warlord))
    events.append(Event(f"{p(player)} has looked at {p(target)}'s hand."))


def _imperial_tax(w: Work, tables: Tables, player: int, defended: int, events: list[Event]) -> None:
    """A random card of every other hand (not defended, not empty) goes under the top card;
    each taxed player draws one."""
    n = tables.n
    taxed: list[int] = []
    hit: list[int] = []
    for i in range(1, n):
        s = (player + i) % n
        hand = w.hands[s]
        if (defended >> s) & 1 or not hand:
            continue
        f = hand[random_below(w, len(hand))]
        set_hand(w, s, remove_one(hand, f))
        taxed.append(f)
        hit.append(s)
        events.append(Event(f"Imperial Tax: {p(s)} loses the {NAME[f]}."))
    bury(w, taxed)
    for s in hit:
        draw_cards(w, s, 1, events, None)
    if hit:
        events.append(Event("Each taxed player draws one card to replace it."))


def start_secret_key(w: Work, tables: Tables, events: list[Event]) -> None:
    if not w.draw_pile:
        reshuffle(w, events)
    if w.draw_pile:
        w.phase = KEY_PICK
        return
    events.append(Event("The draw pile is empty: the Secret Key finds nothing."))
    if not w.hands[w.turn]:
        go_out(w, tables, w.turn, events)
    else:
        end_turn(w, tables, events)


def take_with_secret_key(w: Work, tables: Tables, face: int, events: list[Event]) -> None:
    t = w.turn
    pile = w.draw_pile
    i = pile.index(face)
    w.draw_pile = pile[:i] + pile[i + 1 :]
    events.append(
        Event(f"{p(t)} takes a card of their choice from the draw pile; the draw pile is reshuffled.")
    )
    if KIND[face] in FRONT_KINDS:
        put_in_front(w, t, [face], events)
        w.draw_pile = shuffle(w, w.draw_pile)
        draw_cards(w, t, 1, events, None)
    else:
        set_hand(w, t, tuple(sorted(w.hands[t] + (face,))))
        events.append(Event(f"You take the {NAME[face]}.", t))
        if w.warlord >= 0:
            events.append(Event(f"{p(t)} takes the {NAME[face]}.", w.warlord))
        w.draw_pile = shuffle(w, w.draw_pile)
    w.phase = PLAY
    end_turn(w, tables, events)
