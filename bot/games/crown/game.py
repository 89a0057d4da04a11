"""The King and Crown engine: what the game is, whose move it is, and which family's rules
apply each move (:mod:`~bot.games.crown.find`, :mod:`~bot.games.crown.picks`,
:mod:`~bot.games.crown.atcourt`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.base import (
    Command,
    Event,
    GameBase,
    GameInfo,
    InvalidOptions,
    Move,
    Option,
    Outcome,
    Rng,
    Search,
    SuiteHints,
    TimedMove,
    View,
    handles,
    waiting_for,
)
from bot.games.crown import ai, atcourt, find, guide, picks, scoring, view
from bot.games.crown.cards import NAME
from bot.games.crown.rules import RULES
from bot.games.crown.state import (
    PLAYERS,
    STATE_TYPES,
    VARIANT_CHOICES,
    VARIANTS,
    CourtState,
    CrownState,
    FindState,
    PickState,
    logged,
    upgrade_saved,
)

Played = tuple[CrownState, list[Event]]


def _court(state: CrownState) -> CourtState:
    assert isinstance(state, CourtState)
    return state


class Crown(GameBase[CrownState]):
    state_types = STATE_TYPES
    info = GameInfo(
        id="crown",
        name="King and Crown",
        summary="Five quick games with a five-card deck: find, defend, support, tourney, King at Court.",
        rules=RULES,
        min_players=2,
        max_players=8,
        options=(Option("variant", "Variant", VARIANT_CHOICES),),
        section_name="Round",
        commands=(
            Command(
                "pick",
                "Pick your secret card (defend, support, tourney).",
                ("pick",),
                "card",
                "The card to pick",
            ),
            Command(
                "reveal",
                "Find the King: reveal a face-down place.",
                ("reveal",),
                "place",
                "The place to reveal (1-5)",
            ),
            Command("end", "The King at Court: the King ends the questioning.", ("end",)),
            Command("ready", "The King at Court: you are done questioning.", ("ready",)),
            Command("witch", "The King at Court: the Witch reveals every card and re-deals.", ("witch",)),
            Command(
                "peek",
                "The King at Court: the former Knight looks at one card.",
                ("peek",),
                "player",
                "Whose card",
            ),
            Command(
                "accuse",
                "The King at Court: accuse a player of being the Dragon.",
                ("accuse",),
                "player",
                "Who",
            ),
            Command(
                "beggar",
                "The King at Court: as the Beggar, join the Wicked or stay.",
                ("join", "stay"),
                "choice",
                "Join the Wicked, or stay hidden",
            ),
        ),
        card_kinds=("pick",),
        hints=SuiteHints(players=2, vary=("variant",)),
        # a hint's work in rollout moves (docs/MEASUREMENTS.md)
        search=Search(hint_moves=8_000),
    )

    # --- set-up -------------------------------------------------------------------------

    def check_players(self, players: int, options: Mapping[str, str]) -> None:
        variant = options.get("variant", "defend")
        if variant not in VARIANTS:
            raise InvalidOptions(f"Unknown variant {variant!r}; choose one of {', '.join(VARIANTS)}.")
        lo, hi = PLAYERS[variant]
        if not lo <= players <= hi:
            need = f"exactly {lo}" if lo == hi else f"{lo} to {hi}"
            raise InvalidOptions(f"The {variant} variant needs {need} players, not {players}.")

    def setup(self, players: int, seed: int, options: Mapping[str, str]) -> CrownState:
        variant = options.get("variant", "defend")
        self.check_players(players, options)
        rng = Rng.from_seed(seed)
        if variant == "find":
            return find.setup(players, rng)
        if variant == "atcourt":
            return atcourt.setup(players, rng)
        return picks.setup(variant, players, rng)

    # --- whose move -----------------------------------------------------------------------

    def phase(self, state: CrownState) -> str:
        return state.phase

    def is_over(self, state: CrownState) -> bool:
        return state.phase == "over"

    def to_act(self, state: CrownState) -> frozenset[int]:
        if isinstance(state, PickState):
            return picks.to_act(state)
        if isinstance(state, FindState):
            return find.to_act(state)
        return atcourt.to_act(state)

    def awaited(self, state: CrownState) -> frozenset[int]:
        """The seats the game waits for (The King at Court: see :func:`atcourt.awaited`)."""
        if isinstance(state, CourtState):
            return atcourt.awaited(state)
        return self.to_act(state)

    def legal_moves(self, state: CrownState, seat: int) -> list[Move]:
        if state.phase == "over" or seat not in self.to_act(state):
            return []
        if isinstance(state, PickState):
            return picks.legal_moves(state, seat)
        if isinstance(state, FindState):
            return find.legal_moves(state)
        return atcourt.legal_moves(state, seat)

    def choose_default(self, state: CrownState, seat: int, moves: list[Move]) -> Move:
        if isinstance(state, CourtState):
            preferred = "stay" if state.phase == "beggar" else "end" if seat == state.king else "ready"
            for move in moves:
                if move.code == preferred:
                    return move
        return moves[0]

    def section(self, state: CrownState) -> int:
        """Defend, support and tourney: the round of picks, for a replay's select (the other
        variants are one short search or one round of questions)."""
        return state.round if isinstance(state, PickState) else 0

    def timer(self, state: CrownState) -> TimedMove | None:
        return atcourt.timer(state) if isinstance(state, CourtState) else None

    # --- refusals -------------------------------------------------------------------------

    def not_your_turn(self, state: CrownState, seat: int) -> str:
        picked = isinstance(state, PickState) and 0 <= seat < state.players and state.chosen[seat] is not None
        if picked and state.phase == "pick":
            return waiting_for(self.to_act(state), "You have already picked")
        return waiting_for(self.to_act(state))

    def why_illegal(self, state: CrownState, seat: int, code: str) -> str:
        kind, _, arg = code.partition(":")
        if kind == "pick" and state.phase == "pick":
            if arg in NAME:
                return (
                    f"You have already used your {NAME[arg]}."
                    if state.variant == "tourney"
                    else "You cannot pick that card."
                )
            return "That is not a card of this game."
        if kind == "reveal" and state.phase == "find":
            return "That place is already revealed or does not exist; choose another face-down place."
        if kind == "accuse":
            return "Accuse one of the other players."
        if kind == "peek":
            return "You may look once at the card of another player but the King (whose card everyone knows)."
        return "That move is not possible right now."

    # --- the moves, by phase ----------------------------------------------------------------

    @handles("pick", phase="pick")
    def _pick(self, state: CrownState, seat: int, move: Move) -> Played:
        assert isinstance(state, PickState)
        events: list[Event] = []
        return logged(picks.pick(state, seat, move.args[0], events), events), events

    @handles("reveal", phase="find")
    def _reveal(self, state: CrownState, seat: int, move: Move) -> Played:
        assert isinstance(state, FindState)
        events: list[Event] = []
        return logged(find.reveal(state, int(move.args[0]) - 1, events), events), events

    @handles("end", phase="question")
    def _end(self, state: CrownState, seat: int, move: Move) -> Played:
        events: list[Event] = []
        return logged(atcourt.end(_court(state), events), events), events

    @handles("ready", phase="question")
    def _ready(self, state: CrownState, seat: int, move: Move) -> Played:
        events: list[Event] = []
        return logged(atcourt.ready(_court(state), seat, events), events), events

    @handles("witch", phase="question")
    def _witch(self, state: CrownState, seat: int, move: Move) -> Played:
        events: list[Event] = []
        return logged(atcourt.witch(_court(state), seat, events), events), events

    @handles("peek", phase="question")
    def _peek(self, state: CrownState, seat: int, move: Move) -> Played:
        events: list[Event] = []
        return logged(atcourt.peek(_court(state), seat, int(move.args[0]), events), events), events

    @handles("accuse", phase="accuse")
    def _accuse(self, state: CrownState, seat: int, move: Move) -> Played:
        events: list[Event] = []
        return logged(atcourt.accuse(_court(state), int(move.args[0]), events), events), events

    @handles("join", "stay", phase="beggar")
    def _beggar(self, state: CrownState, seat: int, move: Move) -> Played:
        events: list[Event] = []
        return logged(atcourt.beggar(_court(state), seat, move.kind == "join", events), events), events

    # --- what players see, the end, the AI ------------------------------------------------

    def view(self, state: CrownState, seat: int | None) -> View:
        return view.view(state, seat)

    def outcome(self, state: CrownState) -> Outcome | None:
        return scoring.outcome(state)

    def situations(self, state: CrownState, seat: int) -> tuple[tuple[str, str], ...]:
        return guide.situations(state, seat, self.legal_moves(state, seat))

    def hint_reason(self, state: CrownState, seat: int, move: Move) -> str | None:
        return guide.hint_reason(state, seat, move)

    def choose_ai(self, state: CrownState, seat: int, moves: list[Move], rng: Rng) -> Move:
        return ai.choose(state, seat, moves, rng)

    def ai_waits(self, state: CrownState, seat: int) -> bool:
        return ai.waits(state, seat)

    # --- persistence and invariants -----------------------------------------------------

    def upgrade(self, data: Mapping[str, Any]) -> Mapping[str, Any]:
        return upgrade_saved(data)

    def card_count(self, state: CrownState) -> int:
        if isinstance(state, PickState):
            return picks.card_count(state)
        if isinstance(state, FindState):
            return len(state.spread)
        return atcourt.card_count(state)

    def resample(self, state: CrownState, seat: int, rng: Rng) -> CrownState:
        if isinstance(state, PickState):
            return picks.resample(state, seat, rng)
        if isinstance(state, FindState):
            return find.resample(state, rng)
        return atcourt.resample(state, seat, rng)


GAME = Crown()
