"""King's Court (seed 004): the engine. It declares the game (``info``), whose turn it is and
which moves are legal in each phase, and wires each move kind to its rule: bids and the round
in ``rounds``, tricks and the pool in ``tricks``, the winner's turn in ``melds``. The kit judges
every move against ``legal_moves`` before a rule sees it. Rules of RULES.md "court"; see
``rules.py`` for the text."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
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
    SuiteHints,
    TimedMove,
    View,
    deal_hidden,
    handles,
    move_kind,
    plural,
    ranked,
)
from bot.games.court import ai, guide, melds, rounds, tricks
from bot.games.court import view as view_mod
from bot.games.court.cards import DECK, code_cards, parse, sorted_cards
from bot.games.court.rules import RULES
from bot.games.court.state import (
    AFTER,
    BAG_KIND,
    BID,
    BID_KIND,
    COURT_KIND,
    DONE,
    DUEL,
    DUEL_KIND,
    FLOP,
    FOLLOW,
    FOLLOW_KIND,
    KINDS_BY_PHASE,
    KNOCK,
    LEAD,
    LEAD_KIND,
    PICK,
    PLAYERS,
    TAKE_KIND,
    CourtState,
)

CARD_LISTS = (LEAD_KIND, FOLLOW_KIND, TAKE_KIND, COURT_KIND)  # the kinds whose code lists cards
PICK_SECONDS = 60.0
AFTER_SECONDS = 45.0  # a trick winner who neither courts, sandbags nor knocks passes after this

MovesOf = Callable[[CourtState, int], list[Move]]  # the legal moves of a phase
WhyNot = Callable[[CourtState, int, str], "str | None"]  # why a code is none of them


class KingsCourt(GameBase[CourtState]):
    info = GameInfo(
        id="court",
        name="King's Court (trick-and-meld)",
        summary="Secret King suits, tricks of pairs and flushes, a shared pool, and runs courted face down.",
        rules=RULES,
        section_name="Round",
        lesson=(("target", "120"),),  # the quick match: a round or two, not half an hour
        min_players=PLAYERS,
        max_players=PLAYERS,
        options=(
            Option(
                "target",
                "Match length",
                (("500", "To 500 (printed rules)"), ("250", "To 250 (shorter)"), ("120", "To 120 (quick)")),
            ),
            Option(
                "board",
                "Going board",
                (("0", "Knock from 0 points"), ("20", "Knock from 20"), ("40", "Knock from 40")),
            ),
        ),
        commands=(
            Command(
                "play",
                "Lead or follow: the cards to play.",
                (LEAD_KIND, FOLLOW_KIND),
                "cards",
                "Cards, e.g. 7h 7s",
            ),
            Command("duel", "Lay a single card in a duel.", (DUEL_KIND,), "card", "The card to lay"),
            Command(
                "pick",
                "Take your cards back from the pool.",
                (TAKE_KIND,),
                "cards",
                "Cards from the pool, e.g. 9s 2c",
            ),
            Command(
                "court", "Court a run face down.", (COURT_KIND,), "cards", "The run's cards, e.g. Ah 2h 3h"
            ),
            Command("sandbag", "Sandbag a four of a kind of A, Q or 7.", (BAG_KIND,), "rank", "A, Q or 7"),
            Command("knock", "Knock to end the round.", (KNOCK,)),
            Command("flop", "Flop your King (third trick in a row).", (FLOP,)),
            Command("pass", "End your turn after a trick.", (DONE,)),
            Command("bid", "Bid before the deal.", (BID_KIND,), "bid", "The bid"),
        ),
        card_kinds=(LEAD_KIND, FOLLOW_KIND, DUEL_KIND, COURT_KIND),  # not TAKE_KIND: it takes from the pool
        parties=Parties({"target": "120"}),
        hints=SuiteHints(players=4, quick={"target": "120"}, vary=("board",)),
        # a hint's work in rollout moves (docs/MEASUREMENTS.md)
        search=Search(hint_moves=2_000),
    )

    state_types = (CourtState,)

    # --- set-up, turns and moves ---------------------------------------------------------------

    def setup(self, players: int, seed: int, options: Mapping[str, str]) -> CourtState:
        self.check_players(players, options)
        return rounds.new_match(seed, options)

    def to_act(self, state: CourtState) -> frozenset[int]:
        return frozenset() if state.over else frozenset({state.turn})

    def phase(self, state: CourtState) -> str:
        return state.phase

    def legal_moves(self, state: CourtState, seat: int) -> list[Move]:
        if state.over or seat != state.turn:
            return []
        return LEGAL_MOVES[state.phase](state, seat)

    def normalise(self, state: CourtState, seat: int, code: str) -> str:
        """Codes as players have typed them: cards with a stray ``.`` (``play:2c.``), a
        sandbag's rank in any case (``bag:a``)."""
        kind, sep, rest = code.partition(":")
        if kind in CARD_LISTS and sep and code_cards(code):
            return f"{kind}:{'.'.join(code_cards(code))}"
        if kind == BAG_KIND and sep:
            return f"{kind}:{rest.upper()}"
        return code

    def card_code(self, text: str) -> str | None:
        return parse(text)

    def typed_code(self, state: CourtState, seat: int, kinds: Sequence[str], text: str) -> str | None:
        """Beyond the kit's reading (a code, a legal pick's items, one card): several cards
        typed for a command that takes them (``Ah 2h 3h`` to court, ``2c`` to pick from the
        pool), a sandbag's rank, and a command that takes nothing (``/court knock``), read
        as the move they name even when it is not legal now, so that :meth:`why_illegal`
        says what is wrong ("You don't hold A♥ 2♥ 3♥.", "2♣ is not in the pool.")."""
        code = super().typed_code(state, seat, kinds, text)
        if code is not None or state.over:
            return code
        offered = KINDS_BY_PHASE[state.phase]
        kind = next((k for k in kinds if k in offered), kinds[0] if kinds else offered[0])
        words = text.replace(",", " ").split()
        if kind in (*CARD_LISTS, DUEL_KIND):
            cards = [parse(word) for word in words]
            return f"{kind}:{'.'.join(c for c in cards if c)}" if words and all(cards) else None
        if kind == BAG_KIND:
            return f"{kind}:{words[0]}" if len(words) == 1 else None
        if kind in (KNOCK, FLOP, DONE):
            return None if words else kind
        return None  # a bid: the command's list names them

    def why_illegal(self, state: CourtState, seat: int, code: str) -> str:
        """Today's sentence for each refusal: what is wrong with the move, else the move the
        phase expects. Said only to the seat the table waits for, from what it sees."""
        kind = move_kind(code)
        if kind not in KINDS_BY_PHASE[state.phase]:
            return WRONG_TIME.get(kind) or expected(state)
        return WHY_NOT[state.phase](state, seat, code) or expected(state)

    def timer(self, state: CourtState) -> TimedMove | None:
        if state.phase == AFTER and not state.forced and not state.over:
            return TimedMove(AFTER_SECONDS, state.turn, DONE, "the trick winner's time to court ran out")
        if state.phase != PICK:
            return None
        move = self.legal_moves(state, state.turn)[0]
        return TimedMove(PICK_SECONDS, state.turn, move.code, "the pool pick's time ran out")

    def situations(self, state: CourtState, seat: int) -> tuple[tuple[str, str], ...]:
        return guide.situations(state, seat, self.legal_moves(state, seat))

    def hint_reason(self, state: CourtState, seat: int, move: Move) -> str | None:
        return guide.hint_reason(state, seat, move)

    def choose_ai(self, state: CourtState, seat: int, moves: list[Move], rng: Rng) -> Move:
        return ai.choose(state, seat, moves, rng)

    # --- the rules of each move, by phase (the kit has judged the move legal) ------------------

    @handles(BID_KIND, phase=BID)
    def _bid(self, state: CourtState, seat: int, move: Move) -> tuple[CourtState, list[Event]]:
        return rounds.bid(state, seat, move)

    @handles(LEAD_KIND, phase=LEAD)
    def _lead(self, state: CourtState, seat: int, move: Move) -> tuple[CourtState, list[Event]]:
        return tricks.lead(state, seat, move)

    @handles(FOLLOW_KIND, phase=FOLLOW)
    def _follow(self, state: CourtState, seat: int, move: Move) -> tuple[CourtState, list[Event]]:
        return tricks.follow(state, seat, move)

    @handles(DUEL_KIND, phase=DUEL)
    def _duel(self, state: CourtState, seat: int, move: Move) -> tuple[CourtState, list[Event]]:
        return tricks.duel(state, seat, move)

    @handles(TAKE_KIND, phase=PICK)
    def _take(self, state: CourtState, seat: int, move: Move) -> tuple[CourtState, list[Event]]:
        return tricks.take(state, seat, move)

    @handles(COURT_KIND, phase=AFTER)
    def _court(self, state: CourtState, seat: int, move: Move) -> tuple[CourtState, list[Event]]:
        return melds.court(state, seat, move)

    @handles(BAG_KIND, phase=AFTER)
    def _bag(self, state: CourtState, seat: int, move: Move) -> tuple[CourtState, list[Event]]:
        return melds.bag(state, seat, move)

    @handles(KNOCK, phase=AFTER)
    def _knock(self, state: CourtState, seat: int, move: Move) -> tuple[CourtState, list[Event]]:
        return melds.knock(state, seat, move)

    @handles(FLOP, phase=AFTER)
    def _flop(self, state: CourtState, seat: int, move: Move) -> tuple[CourtState, list[Event]]:
        return melds.flop(state, seat, move)

    @handles(DONE, phase=AFTER)
    def _done(self, state: CourtState, seat: int, move: Move) -> tuple[CourtState, list[Event]]:
        return melds.done(state, seat, move)

    # --- the match's end and standing ------------------------------------------------------------

    def outcome(self, state: CourtState) -> Outcome | None:
        if not state.over:
            return None
        # The finished table shows only this summary: the last round's points and why it ended too.
        last = f" {view_mod.last_round_line(state)}." if state.last_round else ""
        return ranked(state.scores, rounds.summary(state) + last)

    def stage(self, state: CourtState) -> int:
        return state.round

    def standing(self, state: CourtState) -> Outcome | None:
        """The totals as they stand. The search AI asks only where a round has just been
        scored (its rollouts end with the round, :meth:`stage`); the round scored half-way
        (as if knocked) misled it: hard beat normal less with rollouts cut there (README)."""
        return ranked(state.scores)

    # --- what players see, and the invariants ------------------------------------------------------

    def view(self, state: CourtState, seat: int | None) -> View:
        return view_mod.build(state, seat)

    def card_count(self, state: CourtState) -> int:
        places = (*state.hands, *state.courted, *state.bags, *state.trick, *state.duel, state.pool)
        undealt = len(DECK) if state.phase == BID else 0  # bids come before the deal
        return len(state.kings) + undealt + sum(len(place) for place in places)

    def resample(self, state: CourtState, seat: int, rng: Rng) -> CourtState:
        """Deal again what ``seat`` cannot see: the others' hands, courted cards and sandbags,
        and every King it does not see (its own too, if it bid blind; see ``king_seen_by``)."""
        others = [s for s in range(PLAYERS) if s != seat]
        places = [*state.hands, *state.courted, *state.bags]
        hidden = [i + k * PLAYERS for k in range(3) for i in others]
        dealt, rng = deal_hidden(places, hidden, rng)
        down = [s for s in range(PLAYERS) if not state.king_seen_by(s, seat)]
        kings, _ = deal_hidden([(k,) for k in state.kings], down, rng)
        return replace(
            state,
            hands=tuple(sorted_cards(h) for h in dealt[:PLAYERS]),
            courted=dealt[PLAYERS : 2 * PLAYERS],
            bags=dealt[2 * PLAYERS :],
            kings=tuple(k[0] for k in kings),
        )


LEGAL_MOVES: dict[str, MovesOf] = {
    BID: rounds.bid_moves,
    LEAD: tricks.lead_moves,
    FOLLOW: tricks.follow_moves,
    DUEL: tricks.duel_moves,
    PICK: tricks.take_moves,
    AFTER: melds.after_moves,
}
WHY_NOT: dict[str, WhyNot] = {
    BID: rounds.why_not_bid,
    LEAD: tricks.why_not_lead,
    FOLLOW: tricks.why_not_follow,
    DUEL: tricks.why_not_duel,
    PICK: tricks.why_not_take,
    AFTER: melds.why_not_after,
}


# A move of the trick winner's turn (or of a trick) asked for at another time: why not now.
WINNERS_TURN = "right after the trick"
WRONG_TIME = {
    COURT_KIND: f"Only the trick's winner may court, {WINNERS_TURN}.",
    BAG_KIND: f"Only the trick's winner may sandbag, {WINNERS_TURN}.",
    KNOCK: f"Only the trick's winner may knock, {WINNERS_TURN}.",
    FLOP: "You flop your King only when you win a third trick in a row, right after it.",
    DONE: f"Pass ends the trick winner's turn, {WINNERS_TURN}.",
    TAKE_KIND: "Cards are taken back from the pool only once a trick is won.",
    DUEL_KIND: "There is no duel now: only a tie for the best hand of a trick is duelled.",
}


def expected(state: CourtState) -> str:
    """The refusal of a move of another kind than the phase offers: what to do now."""
    if state.phase == BID:
        return "Bid now, or choose No bid."
    if state.phase == LEAD:
        return "Lead cards now (a single, pair, three or four of a kind, or a straight flush)."
    if state.phase == FOLLOW:
        return f"Play {plural(len(state.trick[state.leader]), 'card')} now, as many as the lead."
    if state.phase == DUEL:
        return "Lay one card for the duel now."
    if state.phase == PICK:
        return "Take your cards from the pool now."
    return "Knock or flop your King now." if state.forced else "Court, sandbag, knock, flop or pass now."


GAME = KingsCourt()
