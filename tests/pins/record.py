"""Record the behaviour pins: for every game and option set, one AI match with a fixed seed.

    python -m tests.pins.record            # writes tests/pins/<game>.json

Each record holds the moves played (seat, code), a digest of everything every seat and the
table saw after each move (waiting line, board, scores, hand, private lines, events), the
outcome, and a few saved states (``dump``) with the move index they were taken at. The test
``tests/engines/test_pins.py`` replays the moves and compares the digests, and loads each saved state
and plays the rest of the match from it: the same seed and moves give the same match, and
matches saved by earlier code load and play on. Re-record only for an issue-linked rule fix,
and say so in the commit. The states saved by the code before the one-shape redesign are kept
apart, as they were written, in ``before/`` (``tests/engines/test_saves_from_before.py``):
this script never writes there.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bot.games import EXAMPLES, GAMES
from bot.games.base import Event, Game, InvalidOptions, Rng, View
from tests.configurations import option_sets

HERE = Path(__file__).parent
BEFORE = HERE / "before"  # saved states from before the redesign: kept as they were written
MAX_MOVES = 1500
SNAPSHOTS = 4


def view_lines(view: View) -> list[str]:
    return [
        view.waiting,
        *view.board,
        *(row.text for row in view.scores),
        *(g.text for g in view.hand),
        *view.private,
    ]


def step_digest(game: Game[Any], state: Any, events: list[Event], players: int) -> str:
    """A digest of what everyone saw after one move."""
    parts: list[str] = [f"{e.seat}:{e.text}" for e in events]
    for seat in (None, *range(players)):
        parts.extend(view_lines(game.view(state, seat)))
        parts.append("|")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def play(game: Game[Any], players: int, seed: int, options: Mapping[str, str]) -> dict[str, Any]:
    state = game.setup(players, seed, options)
    rng = Rng.from_seed(seed ^ 0x5DEECE66D)
    moves: list[list[Any]] = []
    digests: list[str] = [step_digest(game, state, [], players)]
    states: list[Any] = [state]
    while game.outcome(state) is None and len(moves) < MAX_MOVES:
        actors = sorted(game.to_act(state))
        seat, rng = rng.choice(actors)
        move_seed, rng = rng.next64()
        move = game.ai_move(state, seat, Rng.from_seed(move_seed))
        state, events = game.apply(state, seat, move.code)
        moves.append([seat, move.code])
        digests.append(step_digest(game, state, events, players))
        states.append(state)
    picks = sorted({round(i * len(moves) / SNAPSHOTS) for i in range(SNAPSHOTS)})
    outcome = game.outcome(state)
    return {
        "players": players,
        "seed": seed,
        "options": dict(options),
        "moves": moves,
        "digests": digests,
        "outcome": None
        if outcome is None
        else {
            "summary": outcome.summary,
            "results": [[r.seat, r.place, r.score, r.team] for r in outcome.results],
        },
        "saved": [
            {"at": i, "state": game.dump(states[i]), "views": step_digest(game, states[i], [], players)}
            for i in picks
        ],
    }


def records(game: Game[Any]) -> list[dict[str, Any]]:
    out = []
    for index, options in enumerate(option_sets(game)):
        sizes = sorted({game.min_players, game.max_players})
        for players in sizes:
            try:
                game.check_players(players, options)
            except InvalidOptions:
                continue
            out.append(play(game, players, 1000 + index, options))
    return out


def pin_path(game_id: str) -> Path:
    """Where ``game_id``'s pins are written; never among the saves from before."""
    path = HERE / f"{game_id}.json"
    if path.resolve().is_relative_to(BEFORE.resolve()):
        raise ValueError(f"{path} holds states saved by the code before the redesign: kept as they are")
    return path


def main(argv: list[str]) -> None:
    wanted = set(argv)
    for game in (*GAMES.values(), *EXAMPLES.values()):
        if wanted and game.id not in wanted:
            continue
        path = pin_path(game.id)
        path.write_text(json.dumps({"game": game.id, "matches": records(game)}, separators=(",", ":")) + "\n")
        print(path, path.stat().st_size)


if __name__ == "__main__":
    main(sys.argv[1:])
