"""Playing whole matches or hands without a table: used by the benchmark, the README figure
and the tests. No timing here (engines never read the clock); callers time these."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar

from bot.games.base import Move, Rng
from bot.games.dynasty.game import GAME
from bot.games.dynasty.state import DynastyState

T = TypeVar("T")


def _pick(rng: Rng, items: Sequence[T]) -> tuple[T, Rng]:
    i, rng = rng.below(len(items))
    return items[i], rng


def random_move(state: DynastyState, seat: int, rng: Rng) -> tuple[Move, Rng]:
    """A uniformly random legal move of ``seat``."""
    return _pick(rng, GAME.legal_moves(state, seat))


def play_match(
    players: int, seed: int, options: Mapping[str, str], ai_seats: frozenset[int] = frozenset()
) -> DynastyState:
    """One whole match: seats in ``ai_seats`` play ``ai_move``, the others random legal
    moves; whenever several seats may act, one of them is drawn at random."""
    state = GAME.setup(players, seed, options)
    rng = Rng.from_seed(seed ^ 0xD1CE)
    while GAME.outcome(state) is None:
        actors = sorted(GAME.to_act(state))
        seat, rng = _pick(rng, actors)
        if seat in ai_seats:
            ai_rng, rng = rng.next64()
            move = GAME.ai_move(state, seat, Rng(ai_rng))
        else:
            move, rng = random_move(state, seat, rng)
        state, _ = GAME.apply(state, seat, move)
    return state


def ai_vs_random(matches: int, seed: int = 0, deck: str = "dynasty") -> tuple[int, int]:
    """(AI wins, matches) over 2-player matches, the AI alternating between seats. A win is
    a first place the random player does not share."""
    wins = 0
    for i in range(matches):
        ai_seat = i % 2
        final = play_match(2, seed + i, {"deck": deck}, frozenset({ai_seat}))
        outcome = GAME.outcome(final)
        assert outcome is not None
        places = {r.seat: r.place for r in outcome.results}
        if places[ai_seat] == 1 and places[1 - ai_seat] != 1:
            wins += 1
    return wins, matches


def main() -> None:
    """``python -m bot.games.dynasty.evaluate [matches]``: the AI's win rate for the README."""
    import sys

    matches = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    wins, total = ai_vs_random(matches)
    print(f"AI vs random legal play, 2 players, dynasty deck: {wins}/{total} won ({100 * wins / total:.1f}%)")


if __name__ == "__main__":
    main()

__all__ = ["ai_vs_random", "main", "play_match", "random_move"]
