"""Card picture benchmark: a 7-card King's Dynasty hand drawn fresh and from the cache.

Each hand is a different 7-card hand from a seeded shuffle (so the fresh figure never hits the
cache); the cached figure asks again for hands already drawn. Prints the figures and their
ratio to the targets (fresh under 20 ms, cached under 1 ms). Not a timed test.

    .venv/bin/python benchmarks/bench_images.py [--hands 200]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import images
from bot.games.base import Rng
from bot.games.dynasty import GAME
from bot.games.dynasty.cards import CODE, build_deck
from bot.games.dynasty.view import hand_groups

FRESH_TARGET_MS = 20.0
CACHED_TARGET_MS = 1.0


def hands(count: int) -> list[tuple[int, ...]]:
    deck = build_deck("bonus")
    rng = Rng.from_seed(20261124)
    out = []
    for _ in range(count):
        shuffled, rng = rng.shuffled(deck)
        out.append(tuple(sorted(shuffled[:7])))
    return out


def view_of(hand: tuple[int, ...]):  # type: ignore[no-untyped-def]
    from bot.games.base import View

    return View(0, "", hand=hand_groups(hand), data={"hand": [CODE[f] for f in hand]})


def percentile(values: list[float], q: float) -> float:
    return sorted(values)[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=200)
    args = parser.parse_args()
    views = [view_of(h) for h in hands(args.hands)]
    images.hand_png("dynasty", views[0], [])  # fonts loaded once, as in a running bot
    fresh: list[float] = []
    for view in views:
        images._png.cache_clear()
        start = time.perf_counter()
        images.hand_png("dynasty", view, [])
        fresh.append((time.perf_counter() - start) * 1000)
    for view in views:
        images.hand_png("dynasty", view, [])
    cached: list[float] = []
    for view in views:
        start = time.perf_counter()
        images.hand_png("dynasty", view, [])
        cached.append((time.perf_counter() - start) * 1000)
    f50, f99 = statistics.median(fresh), percentile(fresh, 0.99)
    c50, c99 = statistics.median(cached), percentile(cached, 0.99)
    print(f"engine {GAME.id}: {args.hands} different 7-card hands")
    print(
        f"fresh:  p50 {f50:.2f} ms  p99 {f99:.2f} ms  target {FRESH_TARGET_MS:.0f} ms  ratio p99/target {f99 / FRESH_TARGET_MS:.2f}"
    )
    print(
        f"cached: p50 {c50:.3f} ms  p99 {c99:.3f} ms  target {CACHED_TARGET_MS:.0f} ms  ratio p99/target {c99 / CACHED_TARGET_MS:.2f}"
    )


if __name__ == "__main__":
    main()
