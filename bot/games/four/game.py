"""Kingdom Four (seed 002): play a card to the field, then flip one; matching cards of the
same colour and item are captured; captured cards are scored in sets at the end of each hand."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.games.base import (
    CardGroup,
    Command,
    Event,
    GameBase,
    GameInfo,
    IllegalMove,
    MatchOver,
    Move,
    NotYourTurn,
    Option,
    Outcome,
    Parties,
    Rng,
    ScoreLine,
    Search,
    SeatResult,
    SuiteHints,
    View,
    deal_hidden,
    ranked,
    seat_token,
    waiting_for,
)
from bot.games.four import ai
from bot.games.four.cards import (
    COLOUR_EMOJI,
    COLOURS,
    ITEM_EMOJI,
    ITEMS,
    by_colour,
    captures,
    deck,
    group,
    is_wild,
    name,
    short,
    sort,
    spelled,
)
from bot.games.four.rules import RULES
from bot.games.four.scoring import score

PLAY, TAKE = "play", "take"
HAND_SIZE = {3: 9, 4: 7}
FIELD_SIZE = {3: 10, 4: 8}


def p(seat: int) -> str:
    return seat_token(seat)


@dataclass(frozen=True, slots=True)
class FourState:
    rng: Rng
    wild: bool
    deals: int  # how many times each player deals
    hand_no: int  # the hand being played, from 1
    dealer: int
    turn: int
    phase: str  # play | take | over
    hands: tuple[tuple[str, ...], ...]
    field: tuple[str, ...]  # in the order the cards arrived
    pile: tuple[str, ...]  # the draw pile, top first
    captured: tuple[tuple[str, ...], ...]  # this hand's captures, per seat
    totals: tuple[int, ...]
    pending: str = ""  # the flipped card whose match the player is choosing
    last_hand: tuple[int, ...] = ()  # each seat's points in the hand before
    last_taken: tuple[
        tuple[str, ...], ...
    ] = ()  # each seat's captures in the hand before (its sets, privately)
    redeals: int = 0  # redeals of the current hand (a whole group in the field)

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def hands_total(self) -> int:
        return self.players * self.deals


class Four(GameBase[FourState]):
    info = GameInfo(
        id="four",
        name="Kingdom Four",
        summary="Match cards of one colour and item from the field, then score your sets for the King, the Queen and the Joker.",
        rules=RULES,
        min_players=3,
        max_players=4,
        options=(
            Option(
                "deals",
                "Length",
                (
                    ("1", "Each player deals once (short)"),
                    ("2", "Each player deals twice"),
                    ("3", "Each player deals three times (printed rules)"),
                ),
                default="1",
            ),
            Option(
                "wild",
                "Wild cards",
                (("off", "No wild cards"), ("on", "Kingdom cards and Jokers (one more card each)")),
            ),
        ),
        commands=(
            Command(
                "play",
                "Play a card from your hand to the field.",
                (PLAY,),
                "card",
                "The card to play (and what it takes)",
            ),
            Command("take", "Choose the card your flipped card takes.", (TAKE,), "card", "The card to take"),
        ),
        card_kinds=(PLAY,),
        parties=Parties({"deals": "1"}),
        hints=SuiteHints(players=3, quick={"deals": "1"}, vary=("wild",)),
        # The hard AI weighs the score margin into its rollouts: captures show in it at once, while
        # places after a short rollout hardly move (its own effect is within the noise so far); rollouts
        # are valued by the standing after 20 moves (measured no weaker, cheaper).
        search=Search(margin=1.0, horizon=20),
    )

    # --- set-up ---------------------------------------------------------------------------

    def setup(self, players: int, seed: int, options: Mapping[str, str]) -> FourState:
        self.check_players(players, options)
        rng = Rng.from_seed(seed)
        dealer, rng = rng.below(players)
        empty = tuple(() for _ in range(players))
        state = FourState(
            rng=rng,
            wild=options.get("wild", "off") == "on",
            deals=int(options.get("deals", "1")),
            hand_no=1,
            dealer=dealer,
            turn=dealer,
            phase=PLAY,
            hands=empty,
            field=(),
            pile=(),
            captured=empty,
            totals=(0,) * players,
        )
        state, _ = self._deal(state)
        return state

    def _deal(self, state: FourState) -> tuple[FourState, list[Event]]:
        """Deal the hand, again and again while a whole group lies in the field."""
        n = state.players
        size = HAND_SIZE[n] + state.wild
        events: list[Event] = []
        redeals = 0
        rng = state.rng
        while True:
            cards, rng = rng.shuffled(deck(state.wild))
            hands = tuple(sort(cards[i * size : (i + 1) * size]) for i in range(n))
            field = cards[n * size : n * size + FIELD_SIZE[n]]
            full = [
                g
                for g in {group(c) for c in field if not is_wild(c)}
                if sum(1 for c in field if not is_wild(c) and group(c) == g) == 4
            ]
            if not full:
                break
            redeals += 1
            g = full[0]
            events.append(
                Event(
                    f"All four {COLOUR_EMOJI[g[0]]}{ITEM_EMOJI[g[1]]} cards lie in the field: the hand is dealt again."
                )
            )
        state = replace(
            state,
            rng=rng,
            hands=hands,
            field=field,
            pile=cards[n * size + FIELD_SIZE[n] :],
            captured=tuple(() for _ in range(n)),
            turn=(state.dealer + 1) % n,
            phase=PLAY,
            pending="",
            redeals=redeals,
        )
        events.append(
            Event(
                f"Hand {state.hand_no} of {state.hands_total}: {p(state.dealer)} deals; {p(state.turn)} plays first."
            )
        )
        return state, events

    # --- whose move, which moves ------------------------------------------------------------

    def to_act(self, state: FourState) -> frozenset[int]:
        return frozenset() if state.phase == "over" else frozenset({state.turn})

    def legal_moves(self, state: FourState, seat: int) -> list[Move]:
        if state.phase == "over" or seat != state.turn:
            return []
        if state.phase == TAKE:
            return [
                Move(f"{TAKE}:{t[0]}", (f"Take {spelled(t[0])}",))
                for t in captures(state.field, state.pending)
            ]
        moves = []
        for card in state.hands[seat]:
            options = captures(state.field, card)
            play = f"Play {spelled(card)}"
            if len(options) > 1:
                moves += [Move(f"{PLAY}:{card}:{t[0]}", (play, f"take {spelled(t[0])}")) for t in options]
            elif options and len(options[0]) == 3:
                moves.append(Move(f"{PLAY}:{card}", (f"{play}, takes the group of three",)))
            elif options:
                moves.append(Move(f"{PLAY}:{card}", (f"{play}, takes {short(options[0][0])}",)))
            else:
                moves.append(Move(f"{PLAY}:{card}", (play,)))
        return moves

    # --- playing --------------------------------------------------------------------------------

    def apply(self, state: FourState, seat: int, move: Move | str) -> tuple[FourState, list[Event]]:
        code = move if isinstance(move, str) else move.code
        if state.phase == "over":
            raise MatchOver("This match is over.")
        if seat != state.turn:
            raise NotYourTurn(waiting_for(self.to_act(state)))
        parts = code.split(":")
        if state.phase == TAKE:
            if parts[0] != TAKE or len(parts) != 2:
                raise IllegalMove(f"Choose the card your flipped {name(state.pending)} takes first.")
            return self._take(state, seat, parts[1])
        if parts[0] != PLAY or len(parts) not in (2, 3):
            raise IllegalMove("Play a card from your hand.")
        card = parts[1]
        if card not in state.hands[seat]:
            raise IllegalMove("That card is not in your hand.")
        options = captures(state.field, card)
        target = parts[2] if len(parts) == 3 else None
        if len(options) > 1:
            if target is None:
                raise IllegalMove(f"Your {name(card)} matches several cards: say which one it takes.")
            if (target,) not in options:
                raise IllegalMove(f"Your {name(card)} cannot take that card.")
        elif target is not None:
            raise IllegalMove(f"Your {name(card)} has no choice to make.")
        hands = list(state.hands)
        hands[seat] = tuple(c for c in hands[seat] if c != card)
        taken = (target,) if target else options[0] if options else ()
        field, captured, event = _land(state.field, state.captured, seat, card, taken, "plays")
        return self._flip(replace(state, hands=tuple(hands), field=field, captured=captured), seat, [event])

    def _flip(self, state: FourState, seat: int, events: list[Event]) -> tuple[FourState, list[Event]]:
        if not state.pile:
            return self._end_turn(state, events)
        card, pile = state.pile[0], state.pile[1:]
        options = captures(state.field, card)
        if len(options) > 1:
            choices = " or ".join(short(t[0]) for t in options)
            events.append(Event(f"{p(seat)} flips {short(card)}: it may take {choices}."))
            return replace(state, pile=pile, phase=TAKE, pending=card), events
        field, captured, event = _land(
            state.field, state.captured, seat, card, options[0] if options else (), "flips"
        )
        return self._end_turn(replace(state, pile=pile, field=field, captured=captured), [*events, event])

    def _take(self, state: FourState, seat: int, target: str) -> tuple[FourState, list[Event]]:
        if (target,) not in captures(state.field, state.pending):
            raise IllegalMove(f"Your flipped {name(state.pending)} cannot take that card.")
        field, captured, event = _land(state.field, state.captured, seat, state.pending, (target,), "flipped")
        return self._end_turn(replace(state, phase=PLAY, pending="", field=field, captured=captured), [event])

    def _end_turn(self, state: FourState, events: list[Event]) -> tuple[FourState, list[Event]]:
        if any(state.hands):
            return replace(state, turn=(state.turn + 1) % state.players), events
        return self._end_hand(state, events)

    def _end_hand(self, state: FourState, events: list[Event]) -> tuple[FourState, list[Event]]:
        points = tuple(score(c).total for c in state.captured)
        totals = tuple(t + x for t, x in zip(state.totals, points, strict=True))
        # One short public line; each player's sets show in their own hand until the next hand ends.
        events.append(Event(f"Hand {state.hand_no} scored: {seat_points(points)}."))
        state = replace(state, totals=totals, last_hand=points, last_taken=state.captured)
        if state.hand_no >= state.hands_total:
            state = replace(state, phase="over")
            events.append(Event(self._summary(state)))
            return state, events
        state = replace(state, hand_no=state.hand_no + 1, dealer=(state.dealer + 1) % state.players)
        state, more = self._deal(state)
        return state, events + more

    def ai_move(self, state: FourState, seat: int, rng: Rng) -> Move:
        moves = self.legal_moves(state, seat)
        if not moves:
            raise NotYourTurn("Nothing to do.")
        return ai.choose(state, seat, moves)

    # --- what players see ---------------------------------------------------------------------

    def view(self, state: FourState, seat: int | None) -> View:
        board = [
            f"Hand {min(state.hand_no, state.hands_total)} of {state.hands_total} · dealer {p(state.dealer)} · draw pile {len(state.pile)}"
        ]
        if state.redeals:
            times = "once" if state.redeals == 1 else f"{state.redeals} times"
            board.append(f"This hand was dealt again {times}: a whole group lay in the field.")
        board += field_lines(state.field)
        if state.pending:
            board.append(f"Flipped: {short(state.pending)} (its match is being chosen)")
        if state.last_hand:
            board.append(last_hand_line(state))
        scores = []
        for s in range(state.players):
            took = state.captured[s]
            figures = [f"{len(state.hands[s])} in hand"]
            if took:
                figures.append(f"took {by_colour_counts(took)}")
            figures.append(f"{score(took).total} this hand · total {state.totals[s]}")
            scores.append(ScoreLine(s, tuple(figures), ("dealer",) if s == state.dealer else ()))
        data: dict[str, Any] = {
            "hand_no": state.hand_no,
            "hands_total": state.hands_total,
            "dealer": state.dealer,
            "turn": state.turn,
            "phase": state.phase,
            "field": list(state.field),
            "pending": state.pending,
            "pile": len(state.pile),
            "captured": [list(c) for c in state.captured],
            "totals": list(state.totals),
            "hand_sizes": [len(h) for h in state.hands],
        }
        hand: tuple[CardGroup, ...] = ()
        private: tuple[str, ...] = ()
        if seat is not None:
            hand = tuple(
                CardGroup(label, tuple(short(c) for c in cards))
                for label, cards in by_colour(state.hands[seat])
            )
            private = own_lines(state, seat)
            data["hand"] = list(state.hands[seat])
        return View(
            seat,
            self._waiting(state),
            board=tuple(board),
            scores=tuple(scores),
            hand=hand,
            private=private,
            data=data,
        )

    def _waiting(self, state: FourState) -> str:
        if state.phase == "over":
            return self._summary(state)
        if state.phase == TAKE:
            return f"{p(state.turn)} chooses the card the flipped {short(state.pending)} takes."
        return f"{p(state.turn)} plays a card to the field, then flips one."

    def _summary(self, state: FourState) -> str:
        best = max(state.totals)
        winners = [s for s, t in enumerate(state.totals) if t == best]
        hands = f"after {state.hands_total} hands"
        if len(winners) == 1:
            return f"{p(winners[0])} has the highest total {hands}: {best} points."
        return f"{' and '.join(p(s) for s in winners)} share the highest total {hands}: {best} points."

    def outcome(self, state: FourState) -> Outcome | None:
        if state.phase != "over":
            return None
        ranks = sorted(state.totals, reverse=True)
        results = tuple(
            SeatResult(seat=s, place=1 + ranks.index(t), score=t) for s, t in enumerate(state.totals)
        )
        # The finished table shows only this summary: the last hand's points too, as the board did.
        last = f" {last_hand_line(state)}." if state.last_hand else ""
        return Outcome(results, self._summary(state) + last)

    def standing(self, state: FourState) -> Outcome | None:
        """The running totals plus this hand's captures scored as if the hand ended now."""
        if state.phase == "over":
            return self.outcome(state)
        return ranked([t + score(c).total for t, c in zip(state.totals, state.captured, strict=True)])

    # --- persistence and invariants -------------------------------------------------------------

    def dump(self, state: FourState) -> dict[str, Any]:
        return {
            "rng": state.rng.state,
            "wild": state.wild,
            "deals": state.deals,
            "hand_no": state.hand_no,
            "dealer": state.dealer,
            "turn": state.turn,
            "phase": state.phase,
            "hands": [list(h) for h in state.hands],
            "field": list(state.field),
            "pile": list(state.pile),
            "captured": [list(c) for c in state.captured],
            "totals": list(state.totals),
            "pending": state.pending,
            "last_hand": list(state.last_hand),
            "redeals": state.redeals,
            "last_taken": [list(c) for c in state.last_taken],
        }

    def load(self, data: Mapping[str, Any]) -> FourState:
        return FourState(
            rng=Rng(data["rng"]),
            wild=data["wild"],
            deals=data["deals"],
            hand_no=data["hand_no"],
            dealer=data["dealer"],
            turn=data["turn"],
            phase=data["phase"],
            hands=tuple(tuple(h) for h in data["hands"]),
            field=tuple(data["field"]),
            pile=tuple(data["pile"]),
            captured=tuple(tuple(c) for c in data["captured"]),
            totals=tuple(data["totals"]),
            pending=data["pending"],
            last_hand=tuple(data["last_hand"]),
            redeals=data["redeals"],
            last_taken=tuple(tuple(c) for c in data.get("last_taken", ())),
        )

    def card_count(self, state: FourState) -> int:
        return (
            sum(len(h) for h in state.hands)
            + len(state.field)
            + len(state.pile)
            + sum(len(c) for c in state.captured)
            + bool(state.pending)
        )

    def resample(self, state: FourState, seat: int, rng: Rng) -> FourState:
        """Deal again what ``seat`` cannot see: the other hands and the draw pile."""
        others = [s for s in range(state.players) if s != seat]
        places = [*state.hands, state.pile]
        dealt, _ = deal_hidden(places, [*others, state.players], rng)
        hands = tuple(h if s == seat else sort(h) for s, h in enumerate(dealt[: state.players]))
        return replace(state, hands=hands, pile=dealt[-1])


def _land(
    field: tuple[str, ...],
    captured: tuple[tuple[str, ...], ...],
    seat: int,
    card: str,
    taken: tuple[str, ...],
    verb: str,
) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...], Event]:
    """``card`` arrives in the field and takes ``taken`` (nothing: it stays there): the
    field and the captures after it, and what happened."""
    if not taken:
        return (
            field + (card,),
            captured,
            Event(f"{p(seat)} {verb} {short(card)}: no match, it stays in the field."),
        )
    mine = sort(captured[seat] + (card, *taken))
    field = tuple(c for c in field if c not in taken)
    what = " ".join(short(c) for c in taken)
    return (
        field,
        captured[:seat] + (mine,) + captured[seat + 1 :],
        Event(f"{p(seat)} {verb} {short(card)} and takes {what}."),
    )


def field_lines(field: Sequence[str]) -> list[str]:
    """The field by colour, and within a colour by item, each card written as in the hand:
    ``🟥 red: 🟥1🗝️ 🟥3🗝️ · 🟥2🪓``."""
    if not field:
        return ["Field: empty"]
    lines = []
    for label, cards in by_colour(field):
        if label.startswith("✨"):
            lines.append(f"{label}: {' '.join(short(c) for c in cards)}")
            continue
        parts = []
        for it in ITEMS:
            mine = [short(c) for c in cards if c[2] == it]
            if mine:
                three = " (group of three)" if len(mine) == 3 else ""
                parts.append(" ".join(mine) + three)
        lines.append(f"{label}: {' · '.join(parts)}")
    return lines


def compact(cards: Sequence[str]) -> str:
    """Cards in one run, as the hand writes them: ``🟥1🗝️ 🟥3🗝️ 🟦2🪙 👑🟥``."""
    return " ".join(short(c) for c in sort(cards))


def colour_groups(cards: Sequence[str]) -> str:
    """Cards grouped by colour on one line, the colour said once a group:
    ``🟥 3🗝️ 4🗝️ · 🟦 1🪙 · ✨ 👑🟥 🃏🪓`` (wild cards written whole)."""
    parts = []
    for label, cards_of in by_colour(cards):
        mark = label.split(" ")[0]
        shown = [short(c) if is_wild(c) else f"{c[0]}{ITEM_EMOJI[c[2]]}" for c in cards_of]
        parts.append(f"{mark} {' '.join(shown)}")
    return " · ".join(parts)


def seat_points(points: Sequence[int]) -> str:
    """``"{p0} 38 · {p1} 14 · {p2} 40"``."""
    return " · ".join(f"{p(s)} {x}" for s, x in enumerate(points))


def last_hand_line(state: FourState) -> str:
    """``"Last hand: {p0} 38 · {p1} 14 · {p2} 40"``."""
    return f"Last hand: {seat_points(state.last_hand)}"


def by_colour_counts(cards: Sequence[str]) -> str:
    """How many cards of each colour, for the table: ``🟥×2 🟦×1 ✨×1``."""
    counts = [(label.split(" ")[0], len(group_cards)) for label, group_cards in by_colour(cards)]
    return " ".join(f"{mark}×{n}" for mark, n in counts)


def sets_text(cards: Sequence[str]) -> str:
    """The points of captured cards and the sets that make them: ``22 — Kingdom Three 🟩2s (10); …``."""
    got = score(cards)
    return f"{got.total} — {'; '.join(got.sets)}" if got.sets else f"{got.total} (no scoring sets)"


def own_lines(state: FourState, seat: int) -> tuple[str, ...]:
    """What the hand view adds for its player: the cards they took this hand with their
    points so far, what each other player took (public, but the table only counts it, to
    stay phone-sized; here a player can see which sets the others are building), and
    their last hand's sets (until the next hand ends)."""
    lines = []
    took = state.captured[seat]
    if took and state.phase != "over":
        lines.append(f"You took ({len(took)}): {compact(took)} · worth {sets_text(took)}")
    if state.phase != "over":
        for other in range(state.players):
            if other != seat and state.captured[other]:
                took = state.captured[other]
                lines.append(f"{p(other)} took {len(took)}: {colour_groups(took)}")
    if state.last_taken:
        lines.append(f"Your last hand: {sets_text(state.last_taken[seat])}")
    return tuple(lines)


GAME = Four()

__all__ = [
    "COLOURS",
    "GAME",
    "Four",
    "FourState",
    "by_colour_counts",
    "captures",
    "compact",
    "field_lines",
    "own_lines",
]
