"""A guided match's explanations and a hint's reasons (the kit's ``situations`` and
``hint_reason``), from what the seat sees: its own hand, the public table, its legal moves."""

from __future__ import annotations

from bot.games.base import Move
from bot.games.dynasty import reasons
from bot.games.dynasty.actions import (
    ACCEPT,
    CALL,
    CATCH,
    DEFEND,
    DRAW_CARD,
    ESCAPE,
    PLAY_CARD,
    REVERSE,
    RISK,
    SKIP,
    TABLE_CARD,
    WAIT,
    card_play,
)
from bot.games.dynasty.cards import CJ, KIND, KN
from bot.games.dynasty.state import DRAWN, ESCORT, EXTRA, DynastyState

EXPLAINED_BY_KIND = (
    (
        TABLE_CARD,
        "table_card",
        (
            "You dealt, and the card turned up to start the pile acts as if you had played it: make "
            "its choices now (the suit to name, and for a Queen's Option or a Wizard what else it "
            "does). Then the match starts with the player the card leaves to move."
        ),
    ),
    (
        DRAW_CARD,
        "turn",
        (
            "Your turn: play a card of the top card's suit or of the same kind (the same number, the "
            "same scroll), or any Kingdom card (no suit). Or draw a card, then play a playable card or "
            "pass. Going out ends the hand; the cards others keep count against them, and the lowest "
            "total wins, so shed your costly cards first."
        ),
    ),
    (
        ACCEPT,
        "draw_card",
        (
            "A draw card is aimed at you. Accepting it means drawing those cards and losing your turn; "
            "a Drawbridge may be stacked on a Drawbridge (the draws add up and pass on), and a "
            "Protector, Royal Decree or Magician answers any draw card."
        ),
    ),
    (
        CALL,
        "on_guard",
        (
            "You are about to hold one card: call On Guard before the next player acts, or any player "
            "may catch you, and then you draw 2 and lose your next turn."
        ),
    ),
    (
        CATCH,
        "catch",
        (
            "A player is down to one card without calling On Guard: catch them and they draw 2 and lose "
            "their next turn."
        ),
    ),
    (
        WAIT,
        "window",
        (
            "You may move out of turn now (a catch, On Guard, a Risk card, a Dungeon escape): it is "
            "optional, and the match goes on without you if you do nothing."
        ),
    ),
    (ESCAPE, "dungeon", "You are in the Dungeon: discard it now to escape, or you lose one more turn."),
    (
        DEFEND,
        "battle",
        "A battle card was played: a Defender cancels its effect for you alone; or let it happen.",
    ),
    (
        RISK,
        "risk",
        (
            "You hold a Risk card in front of you: play it any time in the hand. Playing it takes its "
            "value off every other player's total, which helps them (the lowest total wins), so play "
            "it when what it does is worth more to you."
        ),
    ),
)


def situations(state: DynastyState, seat: int, moves: list[Move]) -> tuple[tuple[str, str], ...]:
    kinds = {move.kind for move in moves}
    found = [(key, text) for kind, key, text in EXPLAINED_BY_KIND if kind in kinds]
    if state.turn == seat and state.phase == DRAWN:
        found.append(("drawn", "You drew a card: play it or any other playable card, or pass."))
    if state.turn == seat and state.phase == EXTRA:
        found.append(
            ("extra", "Your King, Queen or Wizard lets you add one more playable card, or end the turn.")
        )
    if state.turn == seat and state.phase == ESCORT:
        found.append(
            ("escort", "A Fair Maiden goes down only with an escort: play a second card playable on it.")
        )
    found.extend(_direction(state, moves))
    if any(len(move.path) > 1 and move.kind == PLAY_CARD for move in moves):
        found.append(
            (
                "choices",
                "Some cards ask a second step: a wild card names the suit the next player must follow.",
            )
        )
    return tuple(found)


def _direction(state: DynastyState, moves: list[Move]) -> list[tuple[str, str]]:
    """A card the seat may play now that skips the next player or reverses the direction."""
    two = len(state.hands) == 2
    plays = [card_play(move.code) for move in moves if move.kind == PLAY_CARD]
    skips = any(
        KIND[c.face] == CJ or (two and KIND[c.face] == KN) or c.direction_choice == SKIP for c in plays
    )
    reverses = any((not two and KIND[c.face] == KN) or c.direction_choice == REVERSE for c in plays)
    found = []
    if skips:
        text = (
            "A Court Jester makes the next player lose their turn, and so may a Queen's Option or a Wizard."
        )
        if two:
            text += " With two players a Knight skips too, and a skip means you play again at once."
        found.append(("skip", text))
    if reverses:
        found.append(
            (
                "reverse",
                (
                    "A Knight reverses the direction of play, and so may a Queen's Option or a Wizard: the "
                    "player who just played moves next."
                ),
            )
        )
    return found


def hint_reason(state: DynastyState, seat: int, move: Move) -> str | None:
    return reasons.hint_reason(state, seat, move)
