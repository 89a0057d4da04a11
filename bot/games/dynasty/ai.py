"""Placeholder AI (replaced below)."""
from __future__ import annotations
from bot.games.base import Move, Rng

def choose(state, seat, rng: Rng, moves: list[Move]) -> Move:
    m, _ = rng.choice(moves)
    return m
