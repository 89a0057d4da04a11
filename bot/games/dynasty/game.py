"""The ``dynasty`` game object: the protocol surface over the engine."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bot.games.base import (
    Event,
    GameBase,
    GameInfo,
    Move,
    Outcome,
    Parties,
    Rng,
    Search,
    SeatResult,
    SuiteHints,
    View,
    handles,
    join_names,
    plural,
)
from bot.games.dynasty import ai, guide
from bot.games.dynasty import deal as deal_rules
from bot.games.dynasty import moves as move_rules
from bot.games.dynasty import turn as turn_rules
from bot.games.dynasty import windows as window_rules
from bot.games.dynasty.actions import (
    ACCEPT,
    ASK_PARTNER,
    CALL,
    CATCH,
    CUT,
    DEAL,
    DEFEND,
    DRAW_CARD,
    END_TURN,
    ESCAPE,
    FORFEIT,
    KEY_TAKE,
    PASS_TURN,
    PLAY_CARD,
    RISK,
    SAY_NO,
    SAY_YES,
    TABLE_CARD,
    TAKE_IT,
    WAIT,
    WARLORD,
)
from bot.games.dynasty.catalogue import tables_for
from bot.games.dynasty.deal import new_match
from bot.games.dynasty.legal import awaited_mask, legal, to_act_mask
from bot.games.dynasty.moves import perform
from bot.games.dynasty.options import COMMANDS, OPTIONS, parse_options
from bot.games.dynasty.refusals import card_of_name, why_illegal, why_not_your_turn
from bot.games.dynasty.rules import RULES
from bot.games.dynasty.scoring import hand_details, placings, team_label
from bot.games.dynasty.state import (
    KEY_PICK,
    OVER,
    PHASE_NAMES,
    DynastyState,
    legal_memo,
    set_to_act_memo,
    to_act_memo,
    upgrade_saved_state,
)
from bot.games.dynasty.view import build_view

# SeatResult.score is the total (lowest wins, as the result checks allow).
REPORT_TOTAL_AS_SCORE = True

Played = tuple[DynastyState, list[Event]]

_MASK_SETS: tuple[frozenset[int], ...] = tuple(
    frozenset(x for x in range(8) if (m >> x) & 1) for m in range(256)
)


class Dynasty(GameBase[DynastyState]):
    """King's Court / King's Dynasty / Bonus: an UNO-like shedding game for 2-8 players."""

    info = GameInfo(
        id="dynasty",
        name="King's Dynasty",
        summary="Shed your cards by suit or kind, make the next player draw with Dragons, Wizards and Drawbridges; lowest total wins.",
        rules=RULES,  # markdown, under 5,500 characters (rules.RULES_SECTIONS: the same in < 1,000-char parts)
        min_players=2,
        max_players=8,
        options=OPTIONS,
        lesson=(("hands", "1"),),  # one hand teaches the cards; five take about twenty minutes
        commands=COMMANDS,
        # a card played, the table card's choices, a Risk card, the Secret Key's
        card_kinds=(PLAY_CARD, TABLE_CARD, RISK, KEY_TAKE),
        low_score_wins=True,  # totals are penalty points
        parties=Parties(
            {"hands": "1"}
        ),  # the ruling: a party's match is one hand unless the host says otherwise
        hints=SuiteHints(players=4, quick={"hands": "1", "deck": "classic"}, vary=("partners",)),
        search=Search(hint_moves=6_000),  # a hint's work in rollout moves (docs/MEASUREMENTS.md)
        dismiss_kinds=(WAIT,),  # out-of-turn chances never hold the game up: no button to let one pass
    )
    state_types = (DynastyState,)

    # --- set-up -------------------------------------------------------------------------

    def check_players(self, players: int, options: Mapping[str, str]) -> None:
        parse_options(players, options)

    def setup(self, players: int, seed: int, options: Mapping[str, str]) -> DynastyState:
        cfg = parse_options(players, options)
        state, _ = new_match(cfg, seed)
        return state

    # --- whose move ---------------------------------------------------------------------

    def to_act(self, state: DynastyState) -> frozenset[int]:
        seats = to_act_memo(state)
        if seats is None:
            seats = _MASK_SETS[to_act_mask(state, tables_for(state.config))]
            set_to_act_memo(state, seats)
        return seats

    def awaited(self, state: DynastyState) -> frozenset[int]:
        """Seats the game is waiting for (the turn timer applies to these only); the other
        seats in ``to_act`` merely have optional out-of-turn moves."""
        return _MASK_SETS[awaited_mask(state, tables_for(state.config))]

    def legal_moves(self, state: DynastyState, seat: int) -> list[Move]:
        c = legal_memo(state)
        if c is not None:
            r = c.get(seat)
            if r is not None:
                return list(r)
        return list(legal(state, seat, tables_for(state.config)))

    # --- judging a move (the kit applies it: GameBase.apply) -------------------------------

    def phase(self, state: DynastyState) -> str:
        return PHASE_NAMES[state.phase]

    def is_over(self, state: DynastyState) -> bool:
        return state.phase == OVER

    def not_your_turn(self, state: DynastyState, seat: int) -> str:
        return why_not_your_turn(state, seat, tables_for(state.config))

    def why_illegal(self, state: DynastyState, seat: int, code: str) -> str:
        return why_illegal(state, seat, code, tables_for(state.config))

    def card_code(self, text: str) -> str | None:
        return card_of_name(text)

    # --- the moves, by kind and phase (each rule in bot.games.dynasty.moves) ---------------

    @handles(PLAY_CARD, phase="play")
    @handles(PLAY_CARD, phase="drawn")
    def _play_a_card(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, move_rules.play_in_turn)

    @handles(PLAY_CARD, phase="extra")
    def _play_an_extra_card(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, move_rules.play_extra)

    @handles(PLAY_CARD, phase="escort")
    def _play_the_escort(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, move_rules.play_escort)

    @handles(PLAY_CARD, phase="answer")
    def _answer_a_draw_card(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, move_rules.answer_draw_card)

    @handles(ACCEPT, phase="answer")
    def _accept_the_draw(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, turn_rules.accept_draw)

    @handles(TABLE_CARD, phase="first")
    def _choose_for_the_table_card(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, move_rules.choose_for_table_card)

    @handles(DRAW_CARD, phase="play")
    def _draw_a_card(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, turn_rules.draw_instead_of_playing)

    @handles(PASS_TURN, phase="play")
    @handles(PASS_TURN, phase="drawn")
    def _pass_the_turn(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, turn_rules.pass_turn)

    @handles(END_TURN, phase="extra")
    @handles(END_TURN, phase="escort")
    def _end_the_turn(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, turn_rules.end_without_extra)

    @handles(DEFEND, phase="battle")
    def _defend_the_battle(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, move_rules.defend_battle)

    @handles(TAKE_IT, phase="battle")
    def _let_the_battle_happen(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, move_rules.let_battle_happen)

    @handles(KEY_TAKE, phase="key")
    def _take_with_the_key(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, move_rules.secret_key_pick)

    @handles(ASK_PARTNER, phase="play")
    def _ask_the_partner(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, turn_rules.ask_partner)

    @handles(SAY_YES, phase="ask")
    def _partner_says_yes(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, turn_rules.partner_says_yes)

    @handles(SAY_NO, phase="ask")
    def _partner_says_no(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, turn_rules.partner_says_no)

    @handles(FORFEIT, phase="play")
    def _decline_to_go_out(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, turn_rules.decline_to_go_out)

    @handles(CUT, phase="cut")
    def _cut_for_the_bonus(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, deal_rules.cut_for_bonus)

    @handles(DEAL, phase="cut")
    def _deal_normally(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, deal_rules.deal_normally)

    # Out-of-turn moves: open in any phase.

    @handles(CALL)
    def _call_on_guard(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, window_rules.call_on_guard)

    @handles(CATCH)
    def _catch_a_player(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, window_rules.catch_on_guard)

    @handles(RISK)
    def _play_a_risk_card(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, move_rules.risk_card)

    @handles(WARLORD)
    def _play_the_warlord(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, move_rules.warlord_move)

    @handles(ESCAPE)
    def _escape_the_dungeon(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, move_rules.escape_move)

    @handles(WAIT)
    def _let_the_chance_pass(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, window_rules.let_it_pass)

    # --- what players see -----------------------------------------------------------------

    def view(self, state: DynastyState, seat: int | None) -> View:
        return build_view(state, seat)

    def outcome(self, state: DynastyState) -> Outcome | None:
        """Placings by total, lowest first; partners share placing and total and carry their
        team letter. ``score`` is the (team) total."""
        if state.phase != OVER:
            return None
        tables = tables_for(state.config)
        results = tuple(
            SeatResult(
                seat=s,
                place=state.places[s],
                score=state.totals[tables.team[s]] if REPORT_TOTAL_AS_SCORE else None,
                team="ABCD"[tables.team[s]] if state.config.partners else None,
            )
            for s in range(tables.n)
        )
        order = sorted(range(tables.nteams), key=lambda t: (state.totals[t], t))
        totals = ", ".join(f"{team_label(tables, t)} {state.totals[t]}" for t in order)
        winners = [t for t in order if state.places[tables.members[t][0]] == 1]
        names = join_names([team_label(tables, t) for t in winners])
        return Outcome(
            results,
            f"{names} {'win' if len(winners) > 1 or state.config.partners else 'wins'} after {plural(state.hand_number, 'hand')} (lowest total wins). Totals: {totals}.",
            hand_details(state.last_hand),
        )

    def stage(self, state: DynastyState) -> int:
        return state.hand_number

    def standing(self, state: DynastyState) -> Outcome | None:
        """The totals so far, placed as at the match's end. The hand in play is not
        counted: the search AI reads this only where a hand has just been scored (a change
        of :meth:`stage`), and cuts no rollout mid-hand (a hand scored half-way measured
        weaker, see the README)."""
        if state.phase == OVER:
            return self.outcome(state)
        tables = tables_for(state.config)
        places = placings(tables, state.totals)
        results = tuple(
            SeatResult(seat=s, place=places[s], score=state.totals[tables.team[s]]) for s in range(tables.n)
        )
        return Outcome(results, "")

    def choose_default(self, state: DynastyState, seat: int, moves: list[Move]) -> Move:
        codes = {m.code: m for m in moves}
        if (awaited_mask(state, tables_for(state.config)) >> seat) & 1:
            for code in (DEAL, DRAW_CARD, PASS_TURN, END_TURN, ACCEPT, TAKE_IT, SAY_NO, FORFEIT):
                if code in codes:
                    return codes[code]
            # Choices that cannot be declined (table card, escort, Secret Key): the AI decides.
            return ai.choose(state, seat, Rng(state.rng ^ 0x5DEECE66D), moves)
        # Out of turn: the game calls On Guard and escapes the Dungeon for an absent player
        # (formalities); everything else is let pass.
        for code in (CALL, ESCAPE, WAIT):
            if code in codes:
                return codes[code]
        return moves[-1]

    def situations(self, state: DynastyState, seat: int) -> tuple[tuple[str, str], ...]:
        return guide.situations(state, seat, self.legal_moves(state, seat))

    def hint_reason(self, state: DynastyState, seat: int, move: Move) -> str | None:
        return guide.hint_reason(state, seat, move)

    def choose_ai(self, state: DynastyState, seat: int, moves: list[Move], rng: Rng) -> Move:
        return ai.choose(state, seat, rng, moves)

    # --- persistence and invariants -------------------------------------------------------

    def upgrade(self, data: Mapping[str, Any]) -> Mapping[str, Any]:
        return upgrade_saved_state(data)

    def card_count(self, state: DynastyState) -> int:
        total = len(state.draw_pile) + len(state.discard_pile) + len(state.pending_dungeons)
        for group in (state.hands, state.in_front, state.set_aside, state.dungeon):
            for cards in group:
                total += len(cards)
        return total

    def resample(self, state: DynastyState, seat: int, rng: Rng) -> DynastyState:
        if state.phase == OVER:
            return state
        tables = tables_for(state.config)
        n = tables.n
        visible = {seat}
        if state.warlord == seat:
            visible.add(state.turn)
        hidden = [x for x in range(n) if x not in visible]
        pile_hidden = not (state.phase == KEY_PICK and (awaited_mask(state, tables) >> seat) & 1)
        pool: list[int] = []
        for x in hidden:
            pool.extend(state.hands[x])
        if pile_hidden:
            pool.extend(state.draw_pile)
        mixed, _ = rng.shuffled(sorted(pool))  # sorted: the deal must not tell where cards lay
        hands = list(state.hands)
        i = 0
        for x in hidden:
            k = len(state.hands[x])
            hands[x] = tuple(sorted(mixed[i : i + k]))
            i += k
        draw_pile = tuple(mixed[i:]) if pile_hidden else state.draw_pile
        return replace(state, hands=tuple(hands), draw_pile=draw_pile)


GAME = Dynasty()

__all__ = ["GAME", "OPTIONS", "Dynasty", "parse_options"]
