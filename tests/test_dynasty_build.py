"""The dynasty engine runs the same compiled (mypyc, see setup.py) or as plain source."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import bot.games.dynasty as dynasty_pkg
from bot.games.dynasty import GAME

ROOT = Path(__file__).resolve().parents[1]

# Plays random matches with a fixed seed and prints a digest of every state on the way.
_SCRIPT = """
import hashlib, json, random, sys
sys.path.insert(0, {root!r})
import bot.games.dynasty as pkg
from bot.games.dynasty import GAME
digest = hashlib.sha256()
for seed, deck, players, extra in {cases!r}:
    rnd = random.Random(seed)
    state = GAME.setup(players, seed, dict(deck=deck, **extra))
    for _ in range(400):
        if GAME.outcome(state) is not None:
            break
        seat = rnd.choice(sorted(GAME.to_act(state)))
        moves = GAME.legal_moves(state, seat)
        state, events = GAME.apply(state, seat, rnd.choice(moves))
        digest.update(json.dumps(GAME.dump(state), sort_keys=True).encode())
        digest.update("|".join(f"{{e.seat}}:{{e.text}}" for e in events).encode())
print(pkg.BUILD)
print(digest.hexdigest())
"""

CASES = [
    (1, "classic", 2, {}),
    (2, "dynasty", 4, {"partners": "on"}),
    (3, "bonus", 5, {}),
    (4, "bonus", 8, {"partners": "on", "dealing_bonus": "on"}),
]


def _run(pure: bool) -> tuple[str, str]:
    env = dict(os.environ)
    env.pop("KINGS_PURE_PYTHON", None)
    if pure:
        env["KINGS_PURE_PYTHON"] = "1"
    out = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", _SCRIPT.format(root=str(ROOT), cases=CASES)],
        env=env, capture_output=True, text=True, check=True, timeout=300,
    ).stdout.split("\n")
    return out[0], out[1]


def test_compiled_and_source_engines_play_identically() -> None:
    build, compiled_digest = _run(pure=False)
    pure_build, pure_digest = _run(pure=True)
    assert pure_build.startswith("pure Python")
    assert compiled_digest == pure_digest, f"{build} and {pure_build} disagree"


def test_build_is_reported_and_matches_the_loaded_modules() -> None:
    from bot.games.dynasty import engine

    compiled = not engine.__file__.endswith(".py")
    assert dynasty_pkg.BUILD.startswith("compiled") == compiled
    assert GAME.name  # the package imported completely either way


def test_edited_sources_make_the_compiled_build_stale(tmp_path: Path, monkeypatch) -> None:
    for m in dynasty_pkg.NATIVE_MODULES:
        (tmp_path / f"{m}.py").write_text(f"# {m}\n")
    digests = {m: hashlib.sha256(f"# {m}\n".encode()).hexdigest() for m in dynasty_pkg.NATIVE_MODULES}
    monkeypatch.setattr(dynasty_pkg, "_HERE", tmp_path)
    assert dynasty_pkg._stale(), "no digest file: stale"
    (tmp_path / "_native.json").write_text(json.dumps(digests))
    assert not dynasty_pkg._stale()
    (tmp_path / "engine.py").write_text("# engine, edited\n")
    assert dynasty_pkg._stale()
