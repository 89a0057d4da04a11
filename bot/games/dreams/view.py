"""What each seat of a Kingdom of Dreams match sees: the piles, the attack under way, the
counts each seat holds, its own cards (and the trump order while its peek holds), and the
status line naming what the seat to move may do."""

from __future__ import annotations

from typing import Any

from bot.games.base import CardGroup, ScoreLine, View, p, plural
from bot.games.dreams.cards import ATTACK, COIN, JACK, KING, QUEEN, SALE, kind, name, number
from bot.games.dreams.combat import trump_text
from bot.games.dreams.moves import best_hand, buy_moves, legal_moves, next_seat, targets
from bot.games.dreams.scoring import summary
from bot.games.dreams.state import ATTACK_MOVE, BUY, COIN_MOVE, PEEK, SELL, SHUFFLE, DreamsState

# How the status line names each kind of move, in the order it lists them.
ACTION_WORDS = (
    (COIN_MOVE, "take a coin"),
    (BUY, "buy"),
    (SELL, "sell"),
    (ATTACK_MOVE, "attack"),
    (SHUFFLE, "shuffle the trump pile"),
    (PEEK, "peek at it"),
)

GROUPS = (
    (COIN, "🪙 Coins"),
    (ATTACK, "⚔️ Attack cards"),
    (JACK, "🤺 Jacks"),
    (QUEEN, "👸 Queens"),
    (KING, "👑 King"),
)


def view(state: DreamsState, seat: int | None) -> View:
    # Rounds, as the lobby's turn cap counts them ("15 turns each"): each player has one
    # turn a round. Over: the round the match ended in.
    cap = f" of {state.turn_cap}" if state.turn_cap else ""
    played = -(-state.turns // state.players) if state.over else state.turns // state.players + 1
    board = [
        (
            f"Round {max(played, 1)}{cap} · piles: coins {len(state.coin_pile)}, "
            f"trump {len(state.trump_pile)}, attack {len(state.attack_pile)}"
        ),
        "Jacks "
        + (" ".join(name(c) for c in state.jack_pile) or "none")
        + " · Queens "
        + (" ".join(name(c) for c in state.queen_pile) or "none")
        + " · King "
        + (" ".join(name(c) for c in state.king_pile) or "bought"),
    ]
    if state.attacking:
        board.append(f"⚔️ {p(state.turn)} attacks {p(state.defender)} with {name(state.attack_card)}")
    if state.last_attack:
        board.append(f"Last attack: {state.last_attack}")
    scores = []
    for s in range(state.players):
        counts = state.counts(s)
        figures = (
            plural(counts[COIN], "coin"),
            plural(counts[ATTACK], "attack card"),
            plural(counts[JACK], "Jack"),
            plural(counts[QUEEN], "Queen"),
        )
        marks: list[str] = []
        if counts[KING]:
            marks.append("👑 King")
        if state.peeked[s]:
            marks.append("👁 knows the trump order")
        if state.final_values:
            marks.append(f"value {state.final_values[s]}")
        scores.append(ScoreLine(s, figures, tuple(marks)))
    data: dict[str, Any] = {
        "turn": state.turn,
        "turns": state.turns,
        "counts": [state.counts(s) for s in range(state.players)],
        "piles": {
            "coins": len(state.coin_pile),
            "trump": len(state.trump_pile),
            "attack": len(state.attack_pile),
            "jacks": list(state.jack_pile),
            "queens": list(state.queen_pile),
            "king": list(state.king_pile),
        },
        "attack": [state.turn, state.defender, state.attack_card] if state.attacking else None,
        "last_attack": state.last_attack,
        "peeked": list(state.peeked),
    }
    hand: tuple[CardGroup, ...] = ()
    private: list[str] = []
    if seat is not None:
        mine = state.hands[seat]
        groups = ((label, tuple(name(c) for c in mine if kind(c) == group)) for group, label in GROUPS)
        hand = tuple(CardGroup(label, cards) for label, cards in groups if cards)
        worth = sum(number(c) for c in mine if kind(c) == COIN)
        private.append(f"Your coins are worth {worth}; everything you hold is worth {state.value_of(seat)}.")
        data["hand"] = list(mine)
        if state.peeked[seat]:
            private.append(f"You peeked, top first: {trump_text(state.trump_pile)} (until the next shuffle).")
            data["trump_order"] = list(state.trump_pile)
    return View(
        seat,
        waiting(state, seat),
        board=tuple(board),
        scores=tuple(scores),
        hand=hand,
        private=tuple(private),
        data=data,
    )


def waiting(state: DreamsState, seat: int | None = None) -> str:
    if state.over:
        return summary(state)
    if state.attacking:
        what = "a Jack" if kind(state.attack_card) == JACK else "an attack card"
        return (
            f"Waiting for {p(state.defender)} to counter {p(state.turn)}'s attack ({name(state.attack_card)}) "
            f"with {what}."
        )
    if seat == state.turn:  # the player's own hand: their own legal moves
        kinds = {m.kind for m in legal_moves(state, seat)}
    else:
        kinds = public_kinds(state, state.turn)
    words = [word for kind_, word in ACTION_WORDS if kind_ in kinds]
    said = ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]
    return f"Waiting for {p(state.turn)} to {said}."


def public_kinds(state: DreamsState, seat: int) -> set[str]:
    """The kinds of move ``seat`` may have, told from what the table shows (the counts
    of what each seat holds, the piles): which coins and attack cards it holds is
    hidden, so a buy is named when the best hand with these counts could pay."""
    counts = state.counts(seat)
    kinds = {SHUFFLE}
    if state.coin_pile:
        kinds.add(COIN_MOVE)
    best = best_hand(counts[COIN], counts[ATTACK], counts[JACK], counts[QUEEN])
    if any(buy_moves(best, target) for target in targets(state)):
        kinds.add(BUY)
    if any(counts[k] and SALE[k] not in state.refused for k in (ATTACK, JACK)):
        kinds.add(SELL)
    nxt = next_seat(state, seat)
    jack_rivals = any(state.count(s, JACK) for s in range(state.players) if s != seat)
    if (counts[ATTACK] and state.count(nxt, ATTACK)) or (counts[JACK] and jack_rivals):
        kinds.add(ATTACK_MOVE)
    if counts[QUEEN] and not state.peeked[seat]:
        kinds.add(PEEK)
    return kinds
