"""The ``dynasty`` game object: the protocol surface over the engine."""

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
    NotYourTurn,
    Option,
    Outcome,
    Parties,
    Rng,
    SeatResult,
    SuiteHints,
    View,
    handles,
    join_names,
    plural,
)
from bot.games.dynasty import ai
from bot.games.dynasty import deal as deal_rules
from bot.games.dynasty import moves as move_rules
from bot.games.dynasty import turn as turn_rules
from bot.games.dynasty import windows as window_rules
from bot.games.dynasty.cards import (
    ARR,
    CAN,
    CAT,
    DEF,
    DKN,
    FIR,
    GOB,
    POI,
    SIE,
    TAX,
    TOGGLE_KEYS,
    TRE,
    WAR,
)
from bot.games.dynasty.deal import new_match
from bot.games.dynasty.legal import awaited_mask, legal, to_act_mask, why_illegal, why_not_your_turn
from bot.games.dynasty.moves import perform
from bot.games.dynasty.rules import RULES
from bot.games.dynasty.scoring import placings, team_label
from bot.games.dynasty.state import (
    KEY_PICK,
    OVER,
    PHASE_NAMES,
    Config,
    DynastyState,
    freeze,
    thaw,
    upgrade_saved_state,
)
from bot.games.dynasty.tables import tables_for
from bot.games.dynasty.view import build_view

DECKS = ("dynasty", "classic", "bonus")
# SeatResult.score is the total (lowest wins, as the result checks allow).
REPORT_TOTAL_AS_SCORE = True
LIMITS = ("auto", "300", "500", "750", "1000", "1500", "2000", "3000")
MIN_LIMIT, MAX_LIMIT = 50, 100_000

# Presets and single exclusions accepted by the ``cards`` option (comma-separated).
CARD_PRESETS: dict[str, tuple[int, ...]] = {
    "all": (),
    "no-risk": (DKN, POI, FIR, GOB),
    "no-battle": (CAN, CAT, ARR, SIE, TAX, DEF),
    "no-shields": (DKN, POI, FIR, GOB, CAN, CAT, ARR, SIE, TAX, DEF, TRE, WAR),
}
_CARD_LABELS = {
    "queen": "Queens",
    "duchess": "Duchesses",
    "darkknight": "Dark Knight",
    "poison": "Poison Garden",
    "fire": "Castle Fire",
    "goblet": "King's Goblet",
    "cannonball": "Cannonball",
    "catapult": "Catapult",
    "arrow": "Flaming Arrow",
    "siege": "Siege Tower",
    "tax": "Imperial Tax",
    "defender": "Defenders",
    "treasure": "Hidden Treasure",
    "warlord": "Warlord",
}

OPTIONS: tuple[Option, ...] = (
    Option(
        "deck",
        "Deck",
        (
            ("dynasty", "King's Dynasty: classic + expansion (163 cards)"),
            ("classic", "King's Court classic (108 cards)"),
            ("bonus", "King's Dynasty + Bonus cards (199 cards)"),
        ),
    ),
    Option(
        "hands",
        "Match length",
        (
            ("5", "5 hands, or the limit (about half an hour)"),
            ("1", "1 hand"),
            ("3", "3 hands, or the limit"),
            ("8", "8 hands, or the limit"),
            ("limit", "Until a total passes the limit (printed rule; long)"),
        ),
    ),
    Option(
        "limit",
        "Game ends above",
        (
            ("auto", "Auto: 500 classic, 750 with the expansion"),
            *((v, f"{v} points") for v in LIMITS[1:]),
        ),
    ),
    Option(
        "cards",
        "Card changes",
        (
            ("key", "Add the Secret Key"),
            ("no-risk", "Leave out the Risk cards"),
            ("no-battle", "Leave out Battle cards and Defenders"),
            ("no-shields", "Leave out every Shield card"),
            *((f"no-{k}", f"Leave out {v}") for k, v in _CARD_LABELS.items()),
        ),
        default="",
        multi=True,
        empty="none (every expansion card in play, no Secret Key)",
    ),
    Option(
        "partners",
        "Partners",
        (
            ("off", "No partners"),
            ("on", "Partners (4, 6 or 8 players; partners sit opposite)"),
        ),
    ),
    Option(
        "dealing_bonus",
        "Dealing bonus",
        (
            ("off", "No dealing bonus"),
            ("on", "Dealing bonus: the dealer may cut for it"),
        ),
    ),
)


def parse_options(players: int, options: Mapping[str, str]) -> Config:
    """Validate lobby options into a :class:`Config` (InvalidOptions with a sentence)."""
    if not 2 <= players <= 8:
        raise InvalidOptions(f"King's Dynasty needs 2 to 8 players, not {players}.")
    known = {o.key for o in OPTIONS}
    for key in options:
        if key not in known:
            raise InvalidOptions(f"Unknown option {key!r}; the options are {', '.join(sorted(known))}.")
    deck = str(options.get("deck", "dynasty")).strip().lower()
    if deck not in DECKS:
        raise InvalidOptions(f"Unknown deck {deck!r}: choose classic, dynasty or bonus.")
    raw_limit = str(options.get("limit", "auto")).strip().lower()
    if raw_limit in ("auto", ""):
        limit = 500 if deck == "classic" else 750
    else:
        try:
            limit = int(raw_limit)
        except ValueError:
            raise InvalidOptions(f"The score limit must be a number or auto, not {raw_limit!r}.") from None
        if not MIN_LIMIT <= limit <= MAX_LIMIT:
            raise InvalidOptions(f"The score limit must be between {MIN_LIMIT} and {MAX_LIMIT}.")
    without: set[int] = set()
    secret_key = False
    for token in str(options.get("cards", "")).replace(" ", "").lower().split(","):
        if not token:
            continue
        if token in CARD_PRESETS:
            without.update(CARD_PRESETS[token])
        elif token in ("key", "+key", "secretkey"):
            secret_key = True
        elif token.startswith("no-") and token[3:] in TOGGLE_KEYS and token[3:] != "key":
            without.add(TOGGLE_KEYS[token[3:]])
        else:
            raise InvalidOptions(
                f"Unknown cards setting {token!r}: use all, key, no-risk, no-battle, no-shields or no-<card> "
                f"({', '.join(k for k in TOGGLE_KEYS if k != 'key')})."
            )
    raw_hands = str(options.get("hands", "5")).strip().lower()
    if raw_hands in ("limit", "0", ""):
        hands = 0
    elif raw_hands.isdigit() and 1 <= int(raw_hands) <= 50:
        hands = int(raw_hands)
    else:
        raise InvalidOptions(f"The match length is a number of hands (1 to 50) or limit, not {raw_hands!r}.")
    partners = _switch(options, "partners")
    if partners and (players % 2 or players < 4):
        raise InvalidOptions("Partners need an even number of players: 4, 6 or 8.")
    return Config(
        players=players,
        deck=deck,
        limit=limit,
        partners=partners,
        dealing_bonus=_switch(options, "dealing_bonus"),
        without=tuple(sorted(without)),
        secret_key=secret_key,
        hands=hands,
    )


def _switch(options: Mapping[str, str], key: str) -> bool:
    v = str(options.get(key, "off")).strip().lower()
    if v in ("on", "yes", "true", "1"):
        return True
    if v in ("off", "no", "false", "0", ""):
        return False
    raise InvalidOptions(f"The {key.replace('_', ' ')} option is on or off, not {v!r}.")


Played = tuple[DynastyState, list[Event]]

_MASK_SETS: tuple[frozenset[int], ...] = tuple(
    frozenset(x for x in range(8) if (m >> x) & 1) for m in range(256)
)


COMMANDS: tuple[Command, ...] = (
    Command(
        "play",
        "Play a card (with its suit, direction or extra card choices).",
        ("p", "t"),
        "card",
        "The card and its choices (the list shows what you may play now)",
    ),
    Command("draw", "Draw a card instead of playing.", ("d",)),
    Command("pass", "Pass after drawing, or end the turn without an extra card.", ("pass", "x")),
    Command("onguard", "Call On Guard with one card left.", ("og",)),
    Command(
        "catch", "Catch a player who did not call On Guard (they draw 2).", ("c",), "player", "Who to catch"
    ),
    Command("accept", "Take a draw card or battle card aimed at you without answering.", ("acc", "take")),
    Command("defend", "Answer a battle card with a Defender.", ("def",)),
    Command(
        "risk",
        "Play a Risk card from in front of you (any time in the hand).",
        ("r",),
        "card",
        "The Risk card",
    ),
    Command("escape", "Escape the Dungeon by discarding it (right after your second draw).", ("esc",)),
    Command("warlord", "Play the Warlord: make this player's turn for them.", ("war",)),
    Command("ask", "Partners: ask your partner whether you may go out.", ("ask",)),
    Command(
        "reply",
        "Partners: answer your partner, or decline to go out after a Yes.",
        ("yes", "no", "f"),
        "answer",
        "Your answer",
    ),
    Command(
        "key",
        "Secret Key: take any card of your choice from the draw pile.",
        ("k",),
        "card",
        "The card to take",
    ),
    Command(
        "deal",
        "Dealer: cut for the dealing bonus, or deal normally.",
        ("cut", "deal"),
        "choice",
        "Cut for the bonus, or deal",
    ),
    Command("wait", "Let an open window pass without an out-of-turn play.", ("wait",)),
)


class Dynasty(GameBase[DynastyState]):
    """King's Court / King's Dynasty / Bonus: an UNO-like shedding game for 2-8 players."""

    info = GameInfo(
        id="dynasty",
        name="King's Dynasty",
        summary="King's Court / King's Dynasty: shed your cards with Dragons, Wizards and Drawbridges; lowest total wins.",
        rules=RULES,  # markdown, under 5,500 characters (rules.RULES_SECTIONS: the same in < 1,000-char parts)
        min_players=2,
        max_players=8,
        options=OPTIONS,
        commands=COMMANDS,
        card_kinds=(
            "p",
            "t",
            "r",
            "k",
        ),  # a card played, the table card's choices, a Risk card, the Secret Key's
        low_score_wins=True,  # totals are penalty points
        parties=Parties(
            {"hands": "1"}
        ),  # the ruling: a party's match is one hand unless the host says otherwise
        hints=SuiteHints(players=4, quick={"hands": "1", "deck": "classic"}, vary=("partners",)),
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
        return _MASK_SETS[to_act_mask(state, tables_for(state.config))]

    def awaited(self, state: DynastyState) -> frozenset[int]:
        """Seats the game is waiting for (the turn timer applies to these only); the other
        seats in ``to_act`` merely have optional out-of-turn moves."""
        return _MASK_SETS[awaited_mask(state, tables_for(state.config))]

    def legal_moves(self, state: DynastyState, seat: int) -> list[Move]:
        c = state._legal_memo
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

    # --- the moves, by kind and phase (each rule in bot.games.dynasty.moves) ---------------

    @handles("p", phase="play")
    @handles("p", phase="drawn")
    def play_a_card(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, move_rules.play_in_turn)

    @handles("p", phase="extra")
    def play_an_extra_card(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, move_rules.play_extra)

    @handles("p", phase="escort")
    def play_the_escort(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, move_rules.play_escort)

    @handles("p", phase="answer")
    def answer_a_draw_card(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, move_rules.answer_draw_card)

    @handles("acc", phase="answer")
    def accept_the_draw(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, turn_rules.accept_draw)

    @handles("t", phase="first")
    def choose_for_the_table_card(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, move_rules.choose_for_table_card)

    @handles("d", phase="play")
    def draw_a_card(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, turn_rules.draw_instead_of_playing)

    @handles("pass", phase="play")
    @handles("pass", phase="drawn")
    def pass_the_turn(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, turn_rules.pass_turn)

    @handles("x", phase="extra")
    @handles("x", phase="escort")
    def end_the_turn(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, turn_rules.end_without_extra)

    @handles("def", phase="battle")
    def defend_the_battle(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, move_rules.defend_battle)

    @handles("take", phase="battle")
    def let_the_battle_happen(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, move_rules.let_battle_happen)

    @handles("k", phase="key")
    def take_with_the_key(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, move_rules.secret_key_pick)

    @handles("ask", phase="play")
    def ask_the_partner(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, turn_rules.ask_partner)

    @handles("yes", phase="ask")
    def partner_says_yes(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, turn_rules.partner_says_yes)

    @handles("no", phase="ask")
    def partner_says_no(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, turn_rules.partner_says_no)

    @handles("f", phase="play")
    def decline_to_go_out(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, turn_rules.decline_to_go_out)

    @handles("cut", phase="cut")
    def cut_for_the_bonus(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, deal_rules.cut_for_bonus)

    @handles("deal", phase="cut")
    def deal_normally(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, deal_rules.deal_normally)

    # Out-of-turn moves: open in any phase.

    @handles("og")
    def call_on_guard(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, window_rules.call_on_guard)

    @handles("c")
    def catch_a_player(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, window_rules.catch_on_guard)

    @handles("r")
    def play_a_risk_card(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, move_rules.risk_card)

    @handles("war")
    def play_the_warlord(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, move_rules.warlord_move)

    @handles("esc")
    def escape_the_dungeon(self, state: DynastyState, seat: int, move: Move) -> Played:
        return perform(state, seat, move, move_rules.escape_move)

    @handles("wait")
    def let_the_chance_pass(self, state: DynastyState, seat: int, move: Move) -> Played:
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

    def default_move(self, state: DynastyState, seat: int) -> Move:
        moves = legal(state, seat, tables_for(state.config))
        if not moves:
            raise NotYourTurn("You have nothing to do right now.")
        codes = {m.code: m for m in moves}
        if (awaited_mask(state, tables_for(state.config)) >> seat) & 1:
            for code in ("deal", "d", "pass", "x", "acc", "take", "no", "f"):
                if code in codes:
                    return codes[code]
            # Choices that cannot be declined (table card, escort, Secret Key): the AI decides.
            return ai.choose(state, seat, Rng(state.rng ^ 0x5DEECE66D), moves)
        # Out of turn: the game calls On Guard and escapes the Dungeon for an absent player
        # (formalities); everything else is let pass.
        for code in ("og", "esc", "wait"):
            if code in codes:
                return codes[code]
        return moves[-1]

    def ai_move(self, state: DynastyState, seat: int, rng: Rng) -> Move:
        moves = legal(state, seat, tables_for(state.config))
        if not moves:
            raise NotYourTurn("Nothing to do.")
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
        w = thaw(state)
        hands = list(state.hands)
        i = 0
        for x in hidden:
            k = len(state.hands[x])
            hands[x] = tuple(sorted(mixed[i : i + k]))
            i += k
        w.hands = tuple(hands)
        if pile_hidden:
            w.draw_pile = tuple(mixed[i:])
        return freeze(w)


GAME = Dynasty()

__all__ = ["GAME", "OPTIONS", "Dynasty", "parse_options"]
