"""The King at Court (3-5 players): hidden roles, questioning, the Witch's strike and the
former Knight's look, one accusation, the Beggar's window, and the verdict."""

from __future__ import annotations

from dataclasses import replace

from bot.games.base import Event, Move, Rng, TimedMove, p
from bot.games.crown.cards import BEGGAR, DECK, DRAGON, KING, KNIGHT, NAME, TEAM, WICKED, WISE, WITCH
from bot.games.crown.state import CourtState

QUESTIONING_SECONDS = 300.0
BEGGAR_SECONDS = 30.0


def setup(players: int, rng: Rng) -> CourtState:
    cards, rng = rng.shuffled(DECK[:players])
    king = cards.index(KING)
    return CourtState(
        players,
        rng,
        cards=cards,
        aside=DECK[players:],
        king=king,
        log=(f"{p(king)} reveals the King. Questioning begins (5 minutes at most).",),
    )


def asking(state: CourtState) -> frozenset[int]:
    """In questioning, the players other than the King who have not said they are ready."""
    return frozenset(s for s in range(state.players) if s != state.king and s not in state.ready)


def witch_seat(state: CourtState) -> int | None:
    """The Witch's seat while her strike is still to come."""
    if state.witch_used or WITCH not in state.cards:
        return None
    return state.cards.index(WITCH)


def beggar_seat(state: CourtState) -> int:
    return state.cards.index(BEGGAR)


def may_look(state: CourtState) -> bool:
    """Whether the former Knight's look is still to come."""
    return state.peeker is not None and state.peeked is None and state.peeker not in state.ready


def to_act(state: CourtState) -> frozenset[int]:
    if state.phase == "question":
        return frozenset({state.king, *asking(state)})
    if state.phase == "accuse":
        return frozenset({state.king})
    if state.phase == "beggar":
        return frozenset({beggar_seat(state)})
    return frozenset()


def awaited(state: CourtState) -> frozenset[int]:
    """The seats the game is waiting for; pings and the service's turn timer apply to these.

    In questioning: those who have not yet said they are ready (every one of them has the
    same decision, whatever their card, so this names no role), and once all are ready, the
    King, whose move is then to end it. The King is not awaited before: a turn timer would
    end questioning for him early and count it as a missed turn. Nobody is awaited in the
    Beggar's window (30 seconds, :func:`timer`): a reminder would name the Beggar to the
    whole table.
    """
    if state.phase == "beggar":
        return frozenset()
    if state.phase == "question":
        return asking(state) or frozenset({state.king})
    return to_act(state)


def legal_moves(state: CourtState, seat: int) -> list[Move]:
    if state.phase == "question":
        if seat == state.king:
            return [Move("end", ("End questioning",))]
        moves = [Move("ready", ("Ready: done questioning",))]
        if seat == witch_seat(state):
            moves.append(Move("witch", ("Witch: reveal all cards and re-deal",)))
        if seat == state.peeker and state.peeked is None:
            moves.extend(
                Move(f"peek:{t}", ("Knight: look at a card", f"Look at {p(t)}"))
                for t in range(state.players)
                if t not in (seat, state.king)  # the King's card is known to all
            )
        return moves
    if state.phase == "accuse":
        return [
            Move(f"accuse:{t}", (f"Accuse {p(t)} of being the Dragon",))
            for t in range(state.players)
            if t != state.king
        ]
    if state.phase == "beggar":
        return [
            Move("join", ("Reveal the Beggar and join the Wicked",)),
            Move("stay", ("Stay hidden (Wise)",)),
        ]
    return []


def timer(state: CourtState) -> TimedMove | None:
    if state.phase == "question":
        return TimedMove(QUESTIONING_SECONDS, state.king, "end", "questioning ends")
    if state.phase == "beggar":
        return TimedMove(BEGGAR_SECONDS, beggar_seat(state), "stay", "the Beggar's window closes")
    return None


def shown_text(cards: tuple[str, ...]) -> str:
    """``"{p0} Dragon, {p1} King, ..."``: every seat's card as the table saw it revealed."""
    return ", ".join(f"{p(s)} {NAME[c]}" for s, c in enumerate(cards))


# --- the moves ------------------------------------------------------------------------


def end(state: CourtState, events: list[Event]) -> CourtState:
    events.append(Event(f"{p(state.king)} ends the questioning and must accuse someone."))
    return replace(state, phase="accuse")


def ready(state: CourtState, seat: int, events: list[Event]) -> CourtState:
    events.append(Event(f"{p(seat)} is done questioning."))
    return replace(state, ready=tuple(sorted((*state.ready, seat))))


def witch(state: CourtState, seat: int, events: list[Event]) -> CourtState:
    events.append(
        Event(
            f"{p(seat)} is the Witch and reveals every card: {shown_text(state.cards)}; "
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


def peek(state: CourtState, seat: int, target: int, events: list[Event]) -> CourtState:
    events.append(Event(f"{p(seat)} uses the Knight's look at one card."))
    events.append(Event(f"{p(target)} holds the {NAME[state.cards[target]]}.", seat))
    return replace(state, peeked=target)


def accuse(state: CourtState, target: int, events: list[Event]) -> CourtState:
    events.append(Event(f"{p(state.king)} accuses {p(target)} of being the Dragon."))
    state = replace(state, accused=target)
    if BEGGAR in state.cards and beggar_seat(state) != target:
        events.append(Event("Before the reveal, the Beggar has 30 seconds to join the Wicked."))
        return replace(state, phase="beggar")
    return verdict(state, events)


def beggar(state: CourtState, seat: int, joins: bool, events: list[Event]) -> CourtState:
    if joins:
        state = replace(state, beggar_joined=seat)
        events.append(Event(f"{p(seat)} reveals the Beggar and joins the Wicked!"))
    return verdict(state, events)


def verdict(state: CourtState, events: list[Event]) -> CourtState:
    assert state.accused is not None
    accused_card = state.cards[state.accused]
    events.append(Event(f"{p(state.accused)} reveals the {NAME[accused_card]}."))
    teams = tuple(WICKED if s == state.beggar_joined else TEAM[c] for s, c in enumerate(state.cards))
    winner = WISE if accused_card == DRAGON else WICKED
    # The last public event is the match's summary on the finished table: it says who
    # was accused and what they held, as everyone at a real table saw.
    accused = p(state.accused)
    joined = (
        f" {p(state.beggar_joined)} joined the Wicked as the Beggar."
        if state.beggar_joined is not None
        else ""
    )
    events.append(
        Event(
            f"{p(state.king)} (King) accused {accused} of being the Dragon: {accused} is the {NAME[accused_card]}."
            f"{joined} The {winner.capitalize()} win. Cards: {shown_text(state.cards)}."
        )
    )
    placing = tuple(1 if t == winner else 2 for t in teams)
    return replace(state, phase="over", teams=teams, placing=placing)


# --- hidden information ---------------------------------------------------------------


def card_count(state: CourtState) -> int:
    return len(state.cards) + len(state.aside)


def resample(state: CourtState, seat: int, rng: Rng) -> CourtState:
    """The cards ``seat`` does not know dealt again among their holders."""
    if state.phase == "over":
        return state
    seen = {seat, state.king}
    if seat == state.peeker and state.peeked is not None:
        seen.add(state.peeked)
    hidden = [s for s in range(state.players) if s not in seen]
    cards, _ = rng.shuffled(sorted((state.cards[s] for s in hidden), key=repr))
    dealt = list(state.cards)
    for s, c in zip(hidden, cards):
        dealt[s] = c
    return replace(state, cards=tuple(dealt))
