"""Deterministic randomness: a splitmix64 generator whose whole state is one integer kept
inside a game state, so a match replays exactly from its seed and its moves."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

S = TypeVar("S")

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15  # splitmix64's step


def _mix(z: int) -> int:
    """splitmix64's output function: a bijection of 64-bit integers that scatters nearby inputs."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


@dataclass(frozen=True, slots=True)
class Rng:
    """splitmix64: the state is one 64-bit integer; every draw returns a new Rng.

    A draw steps the state by a fixed odd constant, so the states one draw apart differ by
    that constant: a seed is therefore mixed into its state (:meth:`from_seed`), never
    multiplied by it. Seeds ``n`` and ``n + 1`` then start far apart on the generator's
    cycle instead of one draw apart (which made neighbouring seeds replay each other's deals
    and choices one draw later)."""

    state: int

    @staticmethod
    def from_seed(seed: int) -> Rng:
        return Rng(_mix(seed & _MASK))

    def next64(self) -> tuple[int, Rng]:
        s = (self.state + _GAMMA) & _MASK
        z = s  # _mix(s), written out: this is every draw of every rollout
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31), Rng(s)

    def below(self, n: int) -> tuple[int, Rng]:
        """A uniform integer in ``[0, n)``."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = _MASK - (_MASK + 1) % n
        rng = self
        while True:
            v, rng = rng.next64()
            if v <= limit:
                return v % n, rng

    def shuffled(self, items: Sequence[S]) -> tuple[tuple[S, ...], Rng]:
        """A Fisher-Yates shuffle of ``items`` as a new tuple."""
        out = list(items)
        rng = self
        for i in range(len(out) - 1, 0, -1):
            j, rng = rng.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out), rng

    def choice(self, items: Sequence[S]) -> tuple[S, Rng]:
        i, rng = self.below(len(items))
        return items[i], rng
