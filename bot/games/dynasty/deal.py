"""The deck and the deal: a new match, shuffling and dealing a hand, the dealing
bonus cut, the first (table) card and the dealer's choices for it, Castle Fire's redeal."""

from __future__ import annotations

from bot.games.base import Event, p
from bot.games.dynasty.actions import TABLE_CARD, Action, CardPlay
from bot.games.dynasty.cards import (
    CJ,
    DB,
    DEC,
    DUN,
    FM,
    FRONT_KINDS,
    KIND,
    KINGDOM,
    KN,
    MATCH_KEY,
    NAME,
    NUM,
    POT,
    PRO,
    SHIELD_KINDS,
    SUIT,
    SUIT_NAMES,
)
from bot.games.dynasty.catalogue import Tables, tables_for
from bot.games.dynasty.effects import DIRECTION_TEXT, card_effect
from bot.games.dynasty.state import (
    ASK_NONE,
    CUT,
    ESCORT,
    EXTRA,
    FIRST,
    GUARD_NONE,
    NEXT_HAND,
    PLAY,
    Config,
    DynastyState,
    Work,
    freeze,
)
from bot.games.dynasty.table import (
    HAND_SIZE,
    LOG_SIZE,
    MASK64,
    clear_pending_draw,
    random_below,
    replaced,
    seat_after,
    shuffle,
)
from bot.games.dynasty.turn import begin_turn, end_turn


def new_match(config: Config, seed: int) -> tuple[DynastyState, list[Event]]:
    """The first state of a match (the first hand dealt, or the dealer's cut awaited)."""
    tables = tables_for(config)
    w = Work()
    # Match-level fields here; start_hand sets every per-hand field.
    w.config = config
    w.rng = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & MASK64
    w.phase = PLAY
    w.hand_number = 1
    w.dealer = 0
    w.totals = (0,) * tables.nteams
    w.suit_before_draw = -1
    w.match_turns = 0
    w.log = ()
    w.last_hand = ()
    w.places = ()
    events: list[Event] = []
    start_hand(w, tables, events)
    deal_next_hands(w, tables, events)
    w.log = tuple(e.text for e in events if e.seat is None)[-LOG_SIZE:]
    return freeze(w), events


def deal_next_hands(w: Work, tables: Tables, events: list[Event]) -> None:
    """Deal the next hand after a hand was scored (and again, should that hand end at once).
    Scoring only marks the hand as over (phase ``NEXT_HAND``); every rule that ends a hand
    does so as its last step, so dealing here gives the same sequence of events."""
    while w.phase == NEXT_HAND:
        start_hand(w, tables, events)


def reset_hand_fields(w: Work, n: int) -> None:
    """Empty hands, Dungeons and pile, and no pending draw, battle or window (a new hand,
    or Castle Fire's redeal: cards in front and Dark Knight bets are kept)."""
    w.hands = ((),) * n
    w.dungeon = ((),) * n
    w.lost_turns = (0,) * n
    w.may_escape = 0
    w.penalised = 0
    w.on_guard = (GUARD_NONE,) * n
    w.dark_knight_open = 0
    w.discard_pile = ()
    w.match_key = -1
    w.suit = -1
    w.top_acts_as = -1
    w.direction = 1
    w.warlord = -1
    w.escorting_first_card = False
    w.skips = 0
    w.cards_played = 0
    clear_pending_draw(w)
    w.partner_asked = ASK_NONE
    w.called_ahead = False
    w.battle = ()
    w.battle_waiting = 0
    w.battle_defended = 0
    w.waived = 0
    w.stalled_turns = 0


def start_hand(w: Work, tables: Tables, events: list[Event]) -> None:
    """Shuffle the whole deck and deal a new hand (or wait for the dealer's cut)."""
    n = tables.n
    reset_hand_fields(w, n)
    w.in_front = ((),) * n
    w.set_aside = ((),) * n
    w.dark_knight_bets = ()
    w.added_points = (0,) * n
    w.hand_turns = 0
    w.draw_pile = shuffle(w, tables.deck)
    w.turn = w.dealer
    if tables.config.dealing_bonus:
        w.phase = CUT
        events.append(
            Event(f"Hand {w.hand_number}: {p(w.dealer)} deals and may first cut for the dealing bonus.")
        )
        return
    deal(w, tables, events)


def deal(w: Work, tables: Tables, events: list[Event]) -> None:
    """Deal seven cards each from the dealer's left and turn up the first card."""
    n = tables.n
    pile = list(w.draw_pile)
    hands: list[list[int]] = [[] for _ in range(n)]
    fronts = [list(f) for f in w.in_front]
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
    w.in_front = tuple(tuple(f) for f in fronts)
    events.append(Event(f"Hand {w.hand_number}: {p(w.dealer)} deals {HAND_SIZE} cards to each player."))
    for seat, f in received:
        events.append(
            Event(
                f"{p(seat)} is dealt the {NAME[f]}: it goes face up in front of them and they draw a replacement."
            )
        )
    first = -1
    for _ in range(len(pile) + 1):
        if not pile:
            break
        f = pile.pop()
        if KIND[f] in SHIELD_KINDS:
            pile.insert(random_below(w, len(pile) + 1), f)
            events.append(
                Event(
                    f"The {NAME[f]} turned up as first card: it is shuffled back and another card is turned."
                )
            )
            continue
        first = f
        break
    w.draw_pile = tuple(pile)
    if first < 0:  # only shield cards left: nothing to start on (cannot happen with real decks)
        w.suit = tables.suits[0]
        begin_turn(w, tables, seat_after(w, w.dealer, 1), events)
        return
    w.discard_pile = (first,)
    first_card(w, tables, first, events)


def first_card(w: Work, tables: Tables, face: int, events: list[Event]) -> None:
    """The card turned up after the deal: a number starts play, a Fair Maiden is escorted
    by the dealer, Knight/Jester/Drawbridge act as if the dealer played them, and the
    other Kingdom and scroll cards wait for the dealer's choices (FIRST)."""
    dealer = w.dealer
    k = KIND[face]
    w.turn = dealer
    events.append(Event(f"First card: {NAME[face]}."))
    if not KINGDOM[face]:
        w.suit = SUIT[face]
        w.match_key = MATCH_KEY[face]
    if k == NUM:
        begin_turn(w, tables, seat_after(w, dealer, 1), events)
    elif k == FM:
        events.append(Event(f"{p(dealer)} must escort the Fair Maiden with a card, or draw."))
        begin_turn(w, tables, dealer, events, escorting_first_card=True)
    elif k in (KN, CJ, DB):
        card_effect(
            w, tables, dealer, CardPlay(TABLE_CARD, face, face, -1, -1, -1, -1), events, is_escort=False
        )
        end_turn(w, tables, events)
    else:  # Queen's Option, wild cards, Dungeon, Decree, Protector, Potion, Magician
        w.phase = FIRST
        events.append(Event(f"{p(dealer)} makes the choices for the {NAME[face]}."))


def table_choice(w: Work, tables: Tables, play: CardPlay, events: list[Event]) -> None:
    """The dealer's choices for a first card that needs them (FIRST phase)."""
    face, as_face, direction_choice, suit = play.face, play.as_face, play.direction_choice, play.suit
    dealer = w.turn
    k = KIND[as_face]
    text = f"{p(dealer)} turns the table card {NAME[face]}"
    if as_face != face:
        text += f" into {NAME[as_face]}"
    if direction_choice >= 0:
        text += f", {DIRECTION_TEXT[direction_choice]}"
    if suit >= 0:
        text += f", names {SUIT_NAMES[suit]}"
    events.append(Event(text + "."))
    if as_face != face:
        w.top_acts_as = as_face
    if k == DUN:
        w.discard_pile = w.discard_pile[:-1]
        w.suit = suit
        w.match_key = -1
        w.top_acts_as = -1
        w.suit_before_draw = suit
        w.pending_dungeons = (face,)
        w.draw_source = dealer
        end_turn(w, tables, events)
        return
    if k in (DEC, PRO, POT):
        w.suit = suit
        w.match_key = -1
        end_turn(w, tables, events)
        return
    nxt = card_effect(w, tables, dealer, play, events, is_escort=False)
    if nxt == ESCORT:  # Magician turned into a Fair Maiden: the dealer escorts it
        begin_turn(w, tables, dealer, events, escorting_first_card=True)
        return
    if nxt == EXTRA:  # waits for the extra card or its end, as in a turn (effects.play_card)
        w.phase = EXTRA
        return
    end_turn(w, tables, events)


def cut_for_bonus(w: Work, tables: Tables, seat: int, action: Action, events: list[Event]) -> None:
    """Dealing bonus: the dealer cuts for the exact deal (7 x players + 1) and then deals."""
    n = tables.n
    need = HAND_SIZE * n + 1
    off = random_below(w, 11) - 5
    bonus = 50 if n >= 4 else 25
    dealer_team = tables.team[w.dealer]
    if off == 0:
        w.totals = tuple(v + bonus if t != dealer_team else v for t, v in enumerate(w.totals))
        events.append(Event(f"{p(w.dealer)} cuts exactly {need} cards: every other player adds {bonus}!"))
    else:
        w.totals = replaced(w.totals, dealer_team, w.totals[dealer_team] + bonus)
        events.append(Event(f"{p(w.dealer)} cuts {need + off} cards, not {need}: the dealer adds {bonus}."))
    deal(w, tables, events)


def deal_normally(w: Work, tables: Tables, seat: int, action: Action, events: list[Event]) -> None:
    deal(w, tables, events)


def redeal(w: Work, tables: Tables, events: list[Event]) -> None:
    """Castle Fire: hands, piles and Dungeons are shuffled together and dealt again."""
    pool: list[int] = []
    for h in w.hands:
        pool.extend(h)
    for dgn in w.dungeon:
        pool.extend(dgn)
    pool.extend(w.draw_pile)
    pool.extend(w.discard_pile)
    pool.extend(w.pending_dungeons)
    reset_hand_fields(w, tables.n)
    w.draw_pile = shuffle(w, pool)
    deal(w, tables, events)
