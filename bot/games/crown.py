"""King and Crown (seed 003): five small games played with a five-card deck.

Variants (lobby option ``variant``):

- ``find``: Find the King, 2 players.
- ``defend``: Defend the King, 2+ players (best of 3 with two, last standing with more).
- ``support``: Support the King, 2 players, best of 3.
- ``tourney``: Tourney for the King, 2 players, five rounds.
- ``atcourt``: The King at Court, 3-5 players, hidden roles and one accusation.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from bot.games.base import (
    CardGroup,
    Command,
    Event,
    GameBase,
    GameInfo,
    IllegalMove,
    InvalidOptions,
    MatchOver,
    Move,
    NotYourTurn,
    Option,
    Outcome,
    Rng,
    ScoreLine,
    SeatResult,
    SuiteHints,
    TimedMove,
    View,
    join_names,
    plural,
    seat_token,
    waiting_for,
)

# --- cards ------------------------------------------------------------------------------

KING, DRAGON, KNIGHT, WITCH, BEGGAR = "K", "D", "N", "W", "B"
DECK: tuple[str, ...] = (KING, DRAGON, KNIGHT, WITCH, BEGGAR)
NAME = {KING: "King", DRAGON: "Dragon", KNIGHT: "Knight", WITCH: "Witch", BEGGAR: "Beggar"}
VALUE = {KING: 5, DRAGON: 4, KNIGHT: 3, WITCH: 2, BEGGAR: 1}
THWARTS: dict[str, frozenset[str]] = {
    KING: frozenset({BEGGAR, KNIGHT}),
    DRAGON: frozenset({KING, WITCH}),
    KNIGHT: frozenset({DRAGON, BEGGAR}),
    WITCH: frozenset({KNIGHT, KING}),
    BEGGAR: frozenset({WITCH, DRAGON}),
}
WISE, WICKED = "wise", "wicked"
TEAM = {KING: WISE, KNIGHT: WISE, BEGGAR: WISE, DRAGON: WICKED, WITCH: WICKED}

VARIANTS = ("find", "defend", "support", "tourney", "atcourt")
PLAYERS = {"find": (2, 2), "defend": (2, 8), "support": (2, 2), "tourney": (2, 2), "atcourt": (3, 5)}
QUESTIONING_SECONDS = 300.0
BEGGAR_SECONDS = 30.0
HISTORY = 6


def known(card: str | None) -> str:
    """A secret pick that has been made (the caller knows it is there)."""
    assert card is not None
    return card


def card_label(card: str) -> str:
    return f"{NAME[card]} ({VALUE[card]})"


def p(seat: int) -> str:
    return seat_token(seat)


# --- state ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CrownState:
    variant: str
    players: int
    rng: Rng
    phase: str  # pick | find | question | accuse | beggar | over
    round: int = 1
    lord: int = -1  # find/support: the lord's seat; the other seat is the vassal
    wins: tuple[int, ...] = ()
    # Secret-pick variants: each seat's cards still available, its secret pick.
    hands: tuple[tuple[str, ...], ...] = ()
    chosen: tuple[str | None, ...] = ()
    used: tuple[tuple[str, ...], ...] = ()  # tourney: cards set aside
    out_round: tuple[int, ...] = ()  # defend 3+: round a seat went out (0 = standing)
    # The last reveal (public): each seat's pick then (None: out), and its round (0: none yet).
    last_picks: tuple[str | None, ...] = ()
    last_round: int = 0
    # find: the face-down spread and the indices revealed so far.
    spread: tuple[str, ...] = ()
    revealed: tuple[int, ...] = ()
    # atcourt: one card per seat, cards set aside, the King's seat.
    cards: tuple[str, ...] = ()
    aside: tuple[str, ...] = ()
    king: int = -1
    witch_used: bool = False
    peeker: int = -1  # the seat that held the Knight when the Witch struck (-1: none)
    shown: tuple[str, ...] = ()  # the cards as the Witch revealed them (public; () before she strikes)
    peeked: int = -1  # whom the peeker looked at (-1: not yet)
    accused: int = -1
    beggar_joined: int = -1
    ready: tuple[int, ...] = ()  # questioning: the seats that said they are done (sorted)
    # Results and the recent public log.
    placing: tuple[int, ...] = ()  # 1 = best, set when over
    teams: tuple[str, ...] = ()
    log: tuple[str, ...] = ()


# --- the game ---------------------------------------------------------------------------


RULES = """\
**King and Crown**: every player has (or shares) a five-card deck: King 5, Dragon 4, Knight 3, Witch 2, Beggar 1.
Thwarts: King > Beggar, Knight; Dragon > King, Witch; Knight > Dragon, Beggar; Witch > Knight, King; Beggar > Witch, Dragon. Wise team: King, Knight, Beggar. Wicked team: Dragon, Witch.

**find** (2): the lord's deck is shuffled into five face-down places; the vassal reveals one. King: the vassal wins. Knight: reveal one more. Anything else: the lord wins.
**defend** (2+): everyone picks a card in secret; all are revealed together. Two players: the card that thwarts the other wins the round, same cards are picked again; best of 3. Three or more: everyone whose card is thwarted by another revealed card is out; if nobody or everybody would be out, pick again; last standing wins.
**support** (2): lord and vassal pick in secret; an even sum wins the round for the lord, odd for the vassal. Best of 3.
**tourney** (2): five rounds, each card used once; the higher card wins. On a tie the player whose unused cards add up higher wins the round; still tied, the round is drawn. Most rounds wins; equal rounds is a draw.
**atcourt**, The King at Court (3-5, one deck): King, Dragon, Knight (+Witch with 4, +Beggar with 5) are dealt in secret. The King is revealed. Questioning happens in the channel (lying allowed) for at most 5 minutes; the King may end it early. Once during questioning the Witch may reveal every card; then all non-King cards are reshuffled and re-dealt in secret, and the player who held the Knight may look at one other player's card. Everyone but the King says when they are ready (done questioning). The King accuses one player. A Beggar who was not accused then has 30 seconds to reveal and join the Wicked. If the accused holds the Dragon the Wise win, else the Wicked win. Teams are decided by the cards held at the end.

**Rulings of this bot**
- Secret picks are final once made and stay hidden until everyone has picked; then all are revealed at once.
- In find, defend and support the lord is drawn at random. In find, a Knight obliges one more reveal; find is a single round.
- In defend and support each round is picked from the full deck. In defend with 3+ players, players who go out in the same round share their placing.
- In tourney, "unused cards" are those still in hand after the round's cards are set aside.
- In atcourt the Witch's look-back goes to whoever held the Knight before the re-deal, even if no longer the Knight; the look must happen before that player says they are ready and before the King ends questioning, and it cannot be at the King, whose card everyone knows. What the Witch revealed stays on the table. With 3 players there is no Witch, so no special. If the King does not end questioning, it ends after 5 minutes; if the Beggar does not decide within 30 seconds, they stay Wise.
- In atcourt every player but the King looks at their card and says **ready** when done questioning; saying ready gives up a special not yet used (the Witch's strike, the look). The Witch's strike re-deals, so everyone says ready again. The King may end questioning at any time; an AI King waits until everyone else is ready, and an AI Witch strikes, if at all, only once the others are ready. The table's turn timer runs for saying ready and, once everyone is ready, for the King's end of questioning (whoever runs out is made ready, or the questioning ends); it does not run in the Beggar's window.
"""


class Crown(GameBase[CrownState]):
    info = GameInfo(
        id="crown",
        name="King and Crown",
        summary="Five quick games with a five-card deck: find, defend, support, tourney, King at Court.",
        rules=RULES,
        min_players=2,
        max_players=8,
        options=(
            Option(
                "variant",
                "Variant",
                (
                    ("defend", "Defend the King (2+)"),
                    ("find", "Find the King (2)"),
                    ("support", "Support the King (2)"),
                    ("tourney", "Tourney for the King (2)"),
                    ("atcourt", "The King at Court (3-5)"),
                ),
            ),
        ),
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
        zeros = (0,) * players
        if variant == "find":
            lord, rng = rng.below(2)
            spread, rng = rng.shuffled(DECK)
            return CrownState(
                variant,
                players,
                rng,
                "find",
                lord=lord,
                spread=spread,
                log=(
                    f"{p(lord)} is the lord and spreads the deck face down; {p(1 - lord)} looks for the King.",
                ),
            )
        if variant == "atcourt":
            dealt = DECK[:players]
            aside = DECK[players:]
            cards, rng = rng.shuffled(dealt)
            king = cards.index(KING)
            return CrownState(
                variant,
                players,
                rng,
                "question",
                cards=cards,
                aside=aside,
                king=king,
                log=(f"{p(king)} reveals the King. Questioning begins (5 minutes at most).",),
            )
        lord = -1
        log: tuple[str, ...] = ("Everyone picks a card in secret.",)
        if variant == "support":
            lord, rng = rng.below(2)
            log = (f"{p(lord)} is the lord (wins on an even sum), {p(1 - lord)} the vassal (odd).",) + log
        return CrownState(
            variant,
            players,
            rng,
            "pick",
            lord=lord,
            wins=zeros,
            hands=(DECK,) * players,
            chosen=(None,) * players,
            used=((),) * players,
            out_round=zeros,
            log=log,
        )

    # --- whose move -----------------------------------------------------------------------

    def to_act(self, state: CrownState) -> frozenset[int]:
        ph = state.phase
        if ph == "pick":
            return frozenset(
                s for s in range(state.players) if state.chosen[s] is None and self._standing(state, s)
            )
        if ph == "find":
            return frozenset({1 - state.lord})
        if ph == "question":
            return frozenset({state.king, *self._asking(state)})
        if ph == "accuse":
            return frozenset({state.king})
        if ph == "beggar":
            return frozenset({state.cards.index(BEGGAR)})
        return frozenset()

    def awaited(self, state: CrownState) -> frozenset[int]:
        """The seats the game is waiting for; pings and the service's turn timer apply to these.

        In questioning: those who have not yet said they are ready (every one of them has
        the same decision, whatever their card, so this names no role), and once all are
        ready, the King, whose move is then to end it. The King is not awaited before: a
        turn timer would end questioning for him early and count it as a missed turn.
        Nobody is awaited in the Beggar's window (30 seconds, :meth:`timer`): a reminder
        would name the Beggar to the whole table.
        """
        if state.phase == "beggar":
            return frozenset()
        if state.phase == "question":
            return self._asking(state) or frozenset({state.king})
        return self.to_act(state)

    @staticmethod
    def _asking(state: CrownState) -> frozenset[int]:
        """In questioning, the players other than the King who have not said they are ready."""
        return frozenset(s for s in range(state.players) if s != state.king and s not in state.ready)

    @staticmethod
    def _counts_rounds(state: CrownState) -> bool:
        """Whether the variant is won on rounds won (its score); defend at three or more is
        won by outlasting the others, and find and The King at Court have no rounds."""
        return state.variant in ("support", "tourney") or (state.variant == "defend" and state.players == 2)

    @staticmethod
    def _standing(state: CrownState, seat: int) -> bool:
        return not state.out_round or state.out_round[seat] == 0

    @staticmethod
    def _witch_seat(state: CrownState) -> int | None:
        if state.witch_used or WITCH not in state.cards:
            return None
        return state.cards.index(WITCH)

    def legal_moves(self, state: CrownState, seat: int) -> list[Move]:
        if state.phase == "over" or seat not in self.to_act(state):
            return []
        ph = state.phase
        if ph == "pick":
            return [Move(f"pick:{c}", ("Pick " + card_label(c),)) for c in state.hands[seat]]
        if ph == "find":
            return [
                Move(f"reveal:{i + 1}", (f"Reveal place {i + 1}",))
                for i in range(len(state.spread))
                if i not in state.revealed
            ]
        if ph == "question":
            if seat == state.king:
                return [Move("end", ("End questioning",))]
            moves = [Move("ready", ("Ready: done questioning",))]
            if seat == self._witch_seat(state):
                moves.append(Move("witch", ("Witch: reveal all cards and re-deal",)))
            if seat == state.peeker and state.peeked < 0:
                moves.extend(
                    Move(f"peek:{t}", ("Knight: look at a card", f"Look at {p(t)}"))
                    for t in range(state.players)
                    if t not in (seat, state.king)  # the King's card is known to all
                )
            return moves
        if ph == "accuse":
            return [
                Move(f"accuse:{t}", (f"Accuse {p(t)} of being the Dragon",))
                for t in range(state.players)
                if t != state.king
            ]
        if ph == "beggar":
            return [
                Move("join", ("Reveal the Beggar and join the Wicked",)),
                Move("stay", ("Stay hidden (Wise)",)),
            ]
        return []

    def default_move(self, state: CrownState, seat: int) -> Move:
        moves = self.legal_moves(state, seat)
        if not moves:
            raise NotYourTurn("You have nothing to do right now.")
        preferred = {"beggar": "stay"}.get(state.phase, "end" if seat == state.king else "ready")
        for m in moves:
            if m.code == preferred:
                return m
        return moves[0]

    def timer(self, state: CrownState) -> TimedMove | None:
        if state.phase == "question":
            return TimedMove(QUESTIONING_SECONDS, state.king, "end", "questioning ends")
        if state.phase == "beggar":
            return TimedMove(BEGGAR_SECONDS, state.cards.index(BEGGAR), "stay", "the Beggar's window closes")
        return None

    # --- applying moves -----------------------------------------------------------------

    def apply(self, state: CrownState, seat: int, move: Move | str) -> tuple[CrownState, list[Event]]:
        code = move if isinstance(move, str) else move.code
        if state.phase == "over":
            raise MatchOver("This match is over.")
        if seat not in self.to_act(state):
            if 0 <= seat < state.players and state.phase == "pick" and state.chosen[seat] is not None:
                raise NotYourTurn(waiting_for(self.to_act(state), "You have already picked"))
            raise NotYourTurn(waiting_for(self.to_act(state)))
        if code not in {m.code for m in self.legal_moves(state, seat)}:
            raise IllegalMove(self._why_illegal(state, seat, code))
        kind, _, arg = code.partition(":")
        events: list[Event] = []
        if kind == "pick":
            state = self._pick(state, seat, arg, events)
        elif kind == "reveal":
            state = self._reveal(state, int(arg) - 1, events)
        elif kind == "end":
            state = replace(state, phase="accuse")
            events.append(Event(f"{p(state.king)} ends the questioning and must accuse someone."))
        elif kind == "ready":
            state = replace(state, ready=tuple(sorted((*state.ready, seat))))
            events.append(Event(f"{p(seat)} is done questioning."))
        elif kind == "witch":
            state = self._witch(state, seat, events)
        elif kind == "peek":
            target = int(arg)
            state = replace(state, peeked=target)
            events.append(Event(f"{p(seat)} uses the Knight's look at one card."))
            events.append(Event(f"{p(target)} holds the {NAME[state.cards[target]]}.", seat))
        elif kind == "accuse":
            state = self._accuse(state, int(arg), events)
        elif kind in ("join", "stay"):
            if kind == "join":
                state = replace(state, beggar_joined=seat)
                events.append(Event(f"{p(seat)} reveals the Beggar and joins the Wicked!"))
            state = self._court_verdict(state, events)
        return self._logged(state, events), events

    def _why_illegal(self, state: CrownState, seat: int, code: str) -> str:
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

    @staticmethod
    def _logged(state: CrownState, events: list[Event]) -> CrownState:
        public = tuple(e.text for e in events if e.seat is None)
        if not public:
            return state
        return replace(state, log=(state.log + public)[-HISTORY:])

    # secret picks

    def _pick(self, state: CrownState, seat: int, card: str, events: list[Event]) -> CrownState:
        chosen = list(state.chosen)
        chosen[seat] = card
        state = replace(state, chosen=tuple(chosen))
        events.append(Event(f"{p(seat)} has picked."))  # the view tells the picker their pick
        if self.to_act(state):
            return state
        return self._resolve_round(state, events)

    def _resolve_round(self, state: CrownState, events: list[Event]) -> CrownState:
        picks = state.chosen
        standing = [s for s in range(state.players) if self._standing(state, s)]
        shown = ", ".join(f"{p(s)} {card_label(known(picks[s]))}" for s in standing)
        events.append(Event(f"Round {state.round} reveal: {shown}."))
        revealed = tuple(picks[s] if s in standing else None for s in range(state.players))
        cleared = replace(state, chosen=(None,) * state.players, last_picks=revealed, last_round=state.round)
        wins = list(state.wins)
        variant = state.variant
        if variant == "defend":
            return self._resolve_defend(cleared, standing, picks, wins, events)
        if variant == "support":
            total = sum(VALUE[known(picks[s])] for s in range(2))
            winner = state.lord if total % 2 == 0 else 1 - state.lord
            wins[winner] += 1
            parity = "even" if total % 2 == 0 else "odd"
            events.append(Event(f"The sum is {total}, {parity}: {p(winner)} wins round {state.round}."))
            return self._best_of_three(replace(cleared, wins=tuple(wins), round=state.round + 1), events)
        # tourney
        a, b = picks[0], picks[1]
        assert a is not None and b is not None
        used = (state.used[0] + (a,), state.used[1] + (b,))
        hands = (
            tuple(c for c in state.hands[0] if c != a),
            tuple(c for c in state.hands[1] if c != b),
        )
        taker: int | None
        if VALUE[a] != VALUE[b]:
            taker = 0 if VALUE[a] > VALUE[b] else 1
            why = "the higher card"
        else:
            rest = [sum(VALUE[c] for c in h) for h in hands]
            taker = None if rest[0] == rest[1] else (0 if rest[0] > rest[1] else 1)
            mine, theirs = (rest[0], rest[1]) if taker != 1 else (rest[1], rest[0])
            why = f"a tie, decided by unused cards ({mine} against {theirs})"
        if taker is None:
            events.append(Event(f"Round {state.round} is drawn: same card and unused cards add up the same."))
        else:
            wins[taker] += 1
            events.append(Event(f"{p(taker)} wins round {state.round} with {why}."))
        state = replace(cleared, hands=hands, used=used, wins=tuple(wins), round=state.round + 1)
        if state.hands[0]:
            return state
        if wins[0] == wins[1]:
            events.append(Event(f"The tourney ends {wins[0]} to {wins[1]}: a draw."))
            return replace(state, phase="over", placing=(1, 1))
        champ = 0 if wins[0] > wins[1] else 1
        events.append(Event(f"{p(champ)} wins the tourney {max(wins)} to {min(wins)}."))
        return replace(state, phase="over", placing=tuple(1 if s == champ else 2 for s in range(2)))

    def _best_of_three(self, state: CrownState, events: list[Event]) -> CrownState:
        for s in range(2):
            if state.wins[s] >= 2:
                events.append(Event(f"{p(s)} wins the match {state.wins[s]} to {state.wins[1 - s]}."))
                return replace(state, phase="over", placing=tuple(1 if t == s else 2 for t in range(2)))
        return state

    def _resolve_defend(
        self,
        state: CrownState,
        standing: list[int],
        picks: tuple[str | None, ...],
        wins: list[int],
        events: list[Event],
    ) -> CrownState:
        shown = {picks[s] for s in standing}
        losers = [s for s in standing if any(picks[s] in THWARTS[c] for c in shown if c != picks[s])]  # type: ignore[index]
        if state.players == 2:
            if not losers:
                events.append(Event("No card thwarts the other: pick again."))
                return state
            winner = 1 - losers[0]
            wins[winner] += 1
            events.append(
                Event(
                    f"{NAME[picks[winner]]} thwarts {NAME[picks[losers[0]]]}: {p(winner)} wins round {state.round}."  # type: ignore[index]
                )
            )
            return self._best_of_three(replace(state, wins=tuple(wins), round=state.round + 1), events)
        if not losers or len(losers) == len(standing):
            why = "nobody" if not losers else "everybody"
            events.append(Event(f"That would put {why} out: pick again."))
            return state
        out = list(state.out_round)
        for s in losers:
            out[s] = state.round
        names = join_names([p(s) for s in losers])
        events.append(Event(f"Thwarted and out: {names}."))
        state = replace(state, out_round=tuple(out), round=state.round + 1)
        left = [s for s in range(state.players) if out[s] == 0]
        if len(left) > 1:
            return state
        champ = left[0]
        events.append(Event(f"{p(champ)} is the last one standing and wins."))
        # A seat's place is one more than the number of seats that lasted longer, so
        # players who went out in the same round share their placing.
        placing = tuple(
            1 if s == champ else 1 + sum(1 for t in range(state.players) if t == champ or out[t] > out[s])
            for s in range(state.players)
        )
        return replace(state, phase="over", placing=tuple(placing))

    # find the King

    def _reveal(self, state: CrownState, index: int, events: list[Event]) -> CrownState:
        card = state.spread[index]
        vassal, lord = 1 - state.lord, state.lord
        state = replace(state, revealed=state.revealed + (index,))
        # The first line echoes the move; the card is told on the next, so that the vassal's
        # own answer (which leaves out the echo) says what was found.
        events.append(Event(f"{p(vassal)} reveals place {index + 1}."))
        if card == KING:
            events.append(Event(f"The King! {p(vassal)} found it and wins!"))
            winner = vassal
        elif card == KNIGHT:
            events.append(Event(f"The Knight: {p(vassal)} reveals one more card."))
            return state
        else:
            events.append(Event(f"The {NAME[card]}, not the King: {p(lord)} wins."))
            winner = lord
        return replace(state, phase="over", placing=tuple(1 if s == winner else 2 for s in range(2)))

    # the King at Court

    def _witch(self, state: CrownState, seat: int, events: list[Event]) -> CrownState:
        events.append(
            Event(
                f"{p(seat)} is the Witch and reveals every card: {self._shown(state.cards)}; "
                "all cards but the King's are shuffled and dealt again in secret."
            )
        )
        knight = state.cards.index(KNIGHT)
        others = [s for s in range(state.players) if s != state.king]
        pool, rng = state.rng.shuffled([state.cards[s] for s in others])
        cards = list(state.cards)
        for s, c in zip(others, pool):
            cards[s] = c
        for s in others:
            events.append(Event(f"You now hold the {NAME[cards[s]]}.", s))
        events.append(Event(f"{p(knight)}, who held the Knight, may look at one other player's card."))
        # Everyone has a new card to look at: they all say again when they are ready.
        return replace(
            state, rng=rng, cards=tuple(cards), witch_used=True, peeker=knight, ready=(), shown=state.cards
        )

    @staticmethod
    def _shown(cards: tuple[str, ...]) -> str:
        return ", ".join(f"{p(s)} {NAME[c]}" for s, c in enumerate(cards))

    def _accuse(self, state: CrownState, target: int, events: list[Event]) -> CrownState:
        events.append(Event(f"{p(state.king)} accuses {p(target)} of being the Dragon."))
        state = replace(state, accused=target)
        if BEGGAR in state.cards and state.cards.index(BEGGAR) != target:
            events.append(Event("Before the reveal, the Beggar has 30 seconds to join the Wicked."))
            return replace(state, phase="beggar")
        return self._court_verdict(state, events)

    def _court_verdict(self, state: CrownState, events: list[Event]) -> CrownState:
        accused_card = state.cards[state.accused]
        events.append(Event(f"{p(state.accused)} reveals the {NAME[accused_card]}."))
        teams = tuple(WICKED if s == state.beggar_joined else TEAM[c] for s, c in enumerate(state.cards))
        winner = WISE if accused_card == DRAGON else WICKED
        shown = self._shown(state.cards)
        # The last public event is the match's summary on the finished table: it says who
        # was accused and what they held, as everyone at a real table saw.
        accused = p(state.accused)
        joined = (
            f" {p(state.beggar_joined)} joined the Wicked as the Beggar." if state.beggar_joined >= 0 else ""
        )
        events.append(
            Event(
                f"{p(state.king)} (King) accused {accused} of being the Dragon: {accused} is the {NAME[accused_card]}."
                f"{joined} The {winner.capitalize()} win. Cards: {shown}."
            )
        )
        placing = tuple(1 if t == winner else 2 for t in teams)
        return replace(state, phase="over", teams=teams, placing=placing)

    # --- what players see ---------------------------------------------------------------

    def outcome(self, state: CrownState) -> Outcome | None:
        if state.phase != "over":
            return None
        results = tuple(
            SeatResult(
                seat=s,
                place=state.placing[s],
                score=state.wins[s] if self._counts_rounds(state) else None,
                team=state.teams[s] if state.teams else None,
            )
            for s in range(state.players)
        )
        summary = state.log[-1] if state.log else "The match is over."
        if state.last_picks:  # the final reveal, which the finished table shows no board for
            summary = f"{self._last_reveal(state)}. {summary}"
        return Outcome(results, summary)

    @staticmethod
    def _last_reveal(state: CrownState) -> str:
        shown = ", ".join(f"{p(s)} {card_label(c)}" for s, c in enumerate(state.last_picks) if c is not None)
        return f"Last reveal (round {state.last_round}): {shown}"

    def view(self, state: CrownState, seat: int | None) -> View:
        board: list[str] = []
        private: list[str] = []
        hand: tuple[CardGroup, ...] = ()
        data: dict[str, Any] = {"variant": state.variant, "phase": state.phase, "round": state.round}
        v = state.variant
        rows: list[list[str]] = [[] for _ in range(state.players)]
        marks: list[list[str]] = [[] for _ in range(state.players)]
        title = dict(self.options[0].choices)[v]
        board.append(
            f"**{title}**" + (f" · round {state.round}" if v in ("defend", "support", "tourney") else "")
        )
        if v in ("find", "support"):
            marks[state.lord].append("lord" + (" (even)" if v == "support" else ""))
            marks[1 - state.lord].append("vassal" + (" (odd)" if v == "support" else ""))
            data["lord"] = state.lord
        if v == "find":
            places = [
                f"{i + 1}: {NAME[c]}" if i in state.revealed else f"{i + 1}: 🂠"
                for i, c in enumerate(state.spread)
            ]
            board.append("Places: " + " | ".join(places))
            data["revealed"] = {i + 1: state.spread[i] for i in state.revealed}
        elif v in ("defend", "support", "tourney"):
            if self._counts_rounds(state):
                for s_, w in enumerate(state.wins):
                    rows[s_].append(f"{plural(w, 'round')} won")
                data["wins"] = list(state.wins)
            if v == "defend" and state.players > 2:
                for s_ in range(state.players):
                    out = state.out_round[s_]
                    rows[s_].append("standing" if out == 0 else f"out in round {out}")
                data["out_round"] = list(state.out_round)
            if v == "tourney":
                for s_ in range(2):
                    left = " ".join(NAME[c] for c in state.hands[s_])
                    rows[s_].append(f"cards: {left or 'none'}")
                data["hands"] = [list(h) for h in state.hands]
            if state.last_picks and state.players > 2:
                # At two, the reveal stays among the table's last events until the next one;
                # at more, the others' "has picked" lines push it out at once.
                board.append(self._last_reveal(state))
            data["last_picks"] = list(state.last_picks)
            if state.phase == "pick":
                for s_ in range(state.players):
                    if state.chosen[s_] is not None:
                        marks[s_].append("picked ✓")
                data["picked"] = [c is not None for c in state.chosen]
            mine = state.chosen[seat] if seat is not None and state.phase == "pick" else None
            if mine is not None:
                private.append(f"Your secret pick: **{card_label(mine)}**")
                data["my_pick"] = mine
            if seat is not None and self._standing(state, seat):
                hand = (CardGroup("", tuple(card_label(c) for c in state.hands[seat])),)
            elif seat is not None:
                private.append(f"You are out since round {state.out_round[seat]}; the others play on.")
        elif v == "atcourt":
            marks[state.king].append("👑 King")
            data["king"] = state.king
            if state.shown:
                # Public at a real table: what the Witch revealed stays on the board, so that
                # nobody has to find it in the log. The re-dealt cards are not shown.
                witch = p(state.shown.index(WITCH))
                board.append(
                    f"The Witch has struck: {witch} revealed {self._shown(state.shown)}; "
                    "the cards were then dealt again."
                )
                data["shown"] = list(state.shown)
            elif state.witch_used:  # a match stored before the reveal was kept
                board.append("The Witch has struck: the cards were dealt again.")
            if state.accused >= 0:
                marks[state.accused].append("accused")
            if state.phase == "question":
                for s_ in state.ready:
                    marks[s_].append("ready ✓")
                data["ready"] = list(state.ready)
            if state.phase == "over":
                for s_, c in enumerate(state.cards):
                    rows[s_].append(NAME[c])
                data["cards"] = list(state.cards)
            if seat is not None:
                mine = state.cards[seat]
                hand = (CardGroup(f"{TEAM[mine].capitalize()} team", (card_label(mine),)),)
                data["my_card"] = mine
                if seat == state.peeker and state.peeked >= 0:
                    private.append(
                        f"You looked: {p(state.peeked)} holds the {NAME[state.cards[state.peeked]]}."
                    )
                    data["peek"] = [state.peeked, state.cards[state.peeked]]
        scores = tuple(ScoreLine(s_, tuple(rows[s_]), tuple(marks[s_])) for s_ in range(state.players))
        return View(
            seat,
            self._waiting(state),
            board=tuple(board),
            scores=scores,
            hand=hand,
            private=tuple(private),
            data=data,
        )

    def _waiting(self, state: CrownState) -> str:
        ph = state.phase
        if ph == "over":
            return "The match is over."
        if ph == "pick":
            waiting = sorted(self.to_act(state))
            return f"Waiting for {join_names([p(s) for s in waiting])} to pick a card in secret."
        if ph == "find":
            return f"Waiting for {p(1 - state.lord)} to reveal a place."
        if ph == "question":
            if not self._asking(state):  # nobody may strike or look any more
                return (
                    f"Everyone is ready: waiting for {p(state.king)} to end questioning (5 minutes at most)."
                )
            # Who is still asking shows on the scoreboard (▶); named here beside "Witch",
            # a name would look like a hint about who holds her.
            extra = ""
            if state.peeker >= 0 and state.peeked < 0 and state.peeker not in state.ready:
                extra = f" {p(state.peeker)} may look at one card."
            elif WITCH in state.cards and not state.witch_used:
                extra = " The Witch may strike once, before saying she is ready."
            return (
                "Questioning: ask and answer in the channel, then say you are ready. "
                f"{p(state.king)} may end it (5 minutes at most).{extra}"
            )
        if ph == "accuse":
            return f"Waiting for {p(state.king)} to accuse someone of being the Dragon."
        return "The Beggar, if not accused, has 30 seconds to decide."

    # --- AI -------------------------------------------------------------------------------

    def ai_move(self, state: CrownState, seat: int, rng: Rng) -> Move:
        moves = self.legal_moves(state, seat)
        if not moves:
            raise NotYourTurn("Nothing to do.")
        if state.phase == "question":
            # The AI does not question. As King it ends questioning (the service asks only
            # once the others are ready, see ai_waits); as the former Knight it looks at a
            # card first; as the Witch it strikes half the time; then it says it is ready.
            if seat == state.king:
                return moves[0]
            peeks = [m for m in moves if m.code.startswith("peek:")]
            if peeks:
                move, _ = rng.choice(peeks)
                return move
            move, _ = rng.choice(moves)
            return move
        move, _ = rng.choice(moves)
        return move

    def ai_waits(self, state: CrownState, seat: int) -> bool:
        """In questioning an AI King does not end it, and an AI Witch does not strike (nor
        give up her strike), while another player has not said they are ready: the people
        at the table first look at their cards and question. The 5-minute rule timer and
        the turn timer still end it when someone never says ready."""
        if state.phase != "question":
            return False
        asking = self._asking(state)
        if seat == state.king:
            return bool(asking)
        return seat == self._witch_seat(state) and bool(asking - {seat})

    # --- persistence and invariants -----------------------------------------------------

    def dump(self, state: CrownState) -> dict[str, Any]:
        return {
            "variant": state.variant,
            "players": state.players,
            "rng": state.rng.state,
            "phase": state.phase,
            "round": state.round,
            "lord": state.lord,
            "wins": list(state.wins),
            "hands": [list(h) for h in state.hands],
            "chosen": list(state.chosen),
            "used": [list(u) for u in state.used],
            "out_round": list(state.out_round),
            "last_picks": list(state.last_picks),
            "last_round": state.last_round,
            "spread": list(state.spread),
            "revealed": list(state.revealed),
            "cards": list(state.cards),
            "aside": list(state.aside),
            "king": state.king,
            "witch_used": state.witch_used,
            "peeker": state.peeker,
            "shown": list(state.shown),
            "peeked": state.peeked,
            "accused": state.accused,
            "beggar_joined": state.beggar_joined,
            "ready": list(state.ready),
            "placing": list(state.placing),
            "teams": list(state.teams),
            "log": list(state.log),
        }

    def load(self, data: Mapping[str, Any]) -> CrownState:
        return CrownState(
            variant=data["variant"],
            players=data["players"],
            rng=Rng(data["rng"]),
            phase=data["phase"],
            round=data["round"],
            lord=data["lord"],
            wins=tuple(data["wins"]),
            hands=tuple(tuple(h) for h in data["hands"]),
            chosen=tuple(data["chosen"]),
            used=tuple(tuple(u) for u in data["used"]),
            out_round=tuple(data["out_round"]),
            spread=tuple(data["spread"]),
            # matches stored before the last reveal was kept: none shown until the next
            last_picks=tuple(data.get("last_picks", ())),
            last_round=data.get("last_round", 0),
            revealed=tuple(data["revealed"]),
            cards=tuple(data["cards"]),
            aside=tuple(data["aside"]),
            king=data["king"],
            witch_used=data["witch_used"],
            peeker=data["peeker"],
            shown=tuple(data.get("shown", ())),  # matches stored before the reveal was kept: none
            peeked=data["peeked"],
            accused=data["accused"],
            beggar_joined=data["beggar_joined"],
            ready=tuple(data.get("ready", ())),  # matches stored before readiness: nobody ready yet
            placing=tuple(data["placing"]),
            teams=tuple(data["teams"]),
            log=tuple(data["log"]),
        )

    def card_count(self, state: CrownState) -> int:
        if state.variant == "find":
            return len(state.spread)
        if state.variant == "atcourt":
            return len(state.cards) + len(state.aside)
        return sum(len(h) for h in state.hands) + sum(len(u) for u in state.used)

    def resample(self, state: CrownState, seat: int, rng: Rng) -> CrownState:
        if state.variant == "find":
            hidden = [i for i in range(len(state.spread)) if i not in state.revealed]
            cards, _ = rng.shuffled(sorted((state.spread[i] for i in hidden), key=repr))
            spread = list(state.spread)
            for i, c in zip(hidden, cards):
                spread[i] = c
            return replace(state, spread=tuple(spread))
        if state.variant == "atcourt":
            if state.phase == "over":
                return state
            known = {seat, state.king}
            if seat == state.peeker and state.peeked >= 0:
                known.add(state.peeked)
            hidden = [s for s in range(state.players) if s not in known]
            cards_shuffled, _ = rng.shuffled(sorted((state.cards[s] for s in hidden), key=repr))
            dealt = list(state.cards)
            for s, c in zip(hidden, cards_shuffled):
                dealt[s] = c
            return replace(state, cards=tuple(dealt))
        # Secret picks of others are hidden until the reveal: any card they still hold.
        chosen = list(state.chosen)
        for s in range(state.players):
            if s != seat and chosen[s] is not None:
                chosen[s], rng = rng.choice(state.hands[s])
        return replace(state, chosen=tuple(chosen))


GAME = Crown()
