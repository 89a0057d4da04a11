"""The engines' generator (``bot.games.base.Rng``): seeds that are close give unrelated streams.

Benchmarks, ``simulate`` and tests seed their matches with consecutive numbers. When a seed
was multiplied into the state by the generator's own step, seed ``n + 1`` was the stream of
seed ``n`` one draw later, so neighbouring matches replayed each other's deals and choices
(the hard AI's strength was measured on such matches until 2026-11-27)."""

from __future__ import annotations

from bot.games.base import Rng


def draws(rng: Rng, count: int) -> list[int]:
    out = []
    for _ in range(count):
        value, rng = rng.next64()
        out.append(value)
    return out


def test_the_same_seed_gives_the_same_stream() -> None:
    assert draws(Rng.from_seed(7), 50) == draws(Rng.from_seed(7), 50)


def test_consecutive_seeds_share_no_draw() -> None:
    seen: set[int] = set()
    for seed in range(7_000_000, 7_000_200):
        stream = draws(Rng.from_seed(seed), 200)
        assert seen.isdisjoint(stream), f"seed {seed} replays a draw of an earlier seed"
        seen.update(stream)


def test_consecutive_seeds_make_unrelated_small_choices() -> None:
    """The first pick among five by seeds n and n + 1 agrees about one time in five, as for
    independent picks (a stream one draw behind its neighbour agreed with its second pick)."""
    firsts = [Rng.from_seed(seed).below(5)[0] for seed in range(1_000)]
    seconds = [Rng.from_seed(seed).below(5)[1].below(5)[0] for seed in range(1_000)]
    same_as_next = sum(a == b for a, b in zip(seconds, firsts[1:]))
    assert 120 <= same_as_next <= 280  # 1 in 5 of 999, with room for chance


def test_seeds_are_taken_modulo_two_to_the_64() -> None:
    assert Rng.from_seed(-1) == Rng.from_seed((1 << 64) - 1)
