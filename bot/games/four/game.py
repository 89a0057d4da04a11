"""Kingdom Four (seed 002): play a card to the field, then flip one; matching cards of the
same colour and item are captured; captured cards are scored in sets at the end of each hand.

The engine object registered as ``four``: what the game declares, whose move, the phases
and their move handlers (the moves themselves are in ``moves``, what each seat sees in
``view``), the end, and the privacy re-deal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from bot.games.base import (
    Command,
    Event,
    GameBase,
    GameInfo,
    Move,
    Option,
    Outcome,
    Parties,
    Rng,
    Search,
    SeatResult,
    SuiteHints,
    View,
    deal_hidden,
    handles,
    ranked,
)
from bot.games.four import ai, guide, moves, view
from bot.games.four.cards import sort
from bot.games.four.rules import RULES
from bot.games.four.scoring import score
from bot.games.four.state import OVER, PLAY, TAKE, FourState

Played = tuple[FourState, list[Event]]


class Four(GameBase[FourState]):
    state_types = (FourState,)
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
        # are valued by the standing after 20 moves (measured no weaker, cheaper). A hint's work in
        # rollout moves: docs/MEASUREMENTS.md.
        search=Search(margin=1.0, horizon=20, hint_moves=1_300),
    )
    _last_moves: tuple[FourState, int, tuple[Move, ...]] | None = None

    # --- set-up, whose move, which moves ---------------------------------------------------

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
        state, _ = moves.deal(state)
        return state

    def to_act(self, state: FourState) -> frozenset[int]:
        return frozenset() if state.phase == OVER else frozenset({state.turn})

    def phase(self, state: FourState) -> str:
        return state.phase

    def is_over(self, state: FourState) -> bool:
        return state.phase == OVER

    def legal_moves(self, state: FourState, seat: int) -> list[Move]:
        # The AI lists a state's moves and ``apply`` finds its move among them again: the
        # last answer is kept for that state (the same object, which it keeps alive).
        last = self._last_moves
        if last is not None and last[0] is state and last[1] == seat:
            return list(last[2])
        found = moves.legal_moves(state, seat)
        self._last_moves = (state, seat, tuple(found))
        return found

    def why_illegal(self, state: FourState, seat: int, code: str) -> str:
        return moves.why_illegal(state, seat, code)

    # --- the moves of each phase ------------------------------------------------------------

    @handles(PLAY, phase=PLAY)
    def _play(self, state: FourState, seat: int, move: Move) -> Played:
        card, *target = move.args
        return moves.play_card(state, seat, card, target[0] if target else None)

    @handles(TAKE, phase=TAKE)
    def _take(self, state: FourState, seat: int, move: Move) -> Played:
        (target,) = move.args
        return moves.take(state, seat, target)

    def situations(self, state: FourState, seat: int) -> tuple[tuple[str, str], ...]:
        return guide.situations(state, seat)

    def hint_reason(self, state: FourState, seat: int, move: Move) -> str | None:
        return guide.hint_reason(state, seat, move)

    def choose_ai(self, state: FourState, seat: int, legal: list[Move], rng: Rng) -> Move:
        return ai.choose(state, seat, legal)

    # --- what players see, and the end --------------------------------------------------------

    def view(self, state: FourState, seat: int | None) -> View:
        return view.view(state, seat)

    def outcome(self, state: FourState) -> Outcome | None:
        if state.phase != OVER:
            return None
        ranks = sorted(state.totals, reverse=True)
        results = tuple(
            SeatResult(seat=s, place=1 + ranks.index(t), score=t) for s, t in enumerate(state.totals)
        )
        # The finished table shows only this summary: the last hand's points too, as the board did.
        last = f" {view.last_hand_line(state)}." if state.last_hand else ""
        return Outcome(results, view.summary(state) + last)

    def section(self, state: FourState) -> int:
        """The hand being played: a replay's select jumps from deal to deal (the search AI
        plays across hands, so the stage stays 0)."""
        return state.hand_no

    def standing(self, state: FourState) -> Outcome | None:
        """The running totals plus this hand's captures scored as if the hand ended now."""
        if state.phase == OVER:
            return self.outcome(state)
        return ranked([t + score(c).total for t, c in zip(state.totals, state.captured, strict=True)])

    # --- invariants -----------------------------------------------------------------------------

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


GAME = Four()

__all__ = ["GAME", "Four", "FourState"]
