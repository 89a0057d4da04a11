"""The status line of a player's own hand speaks to them when the table waits for them
("Your turn to play or draw."), where the table and the other players' hands name them
("Waiting for Alix to play or draw."): every game, played from a few seeds, every seat's
hand read as the UI renders it (``render.hand_embed``). The line is the kit's one reading of
the game's status line (``said_to``), which depends on that public line and the seat alone.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from bot.games import GAMES
from bot.games.base import Game, player_counts, seat_token
from bot.service import Snapshot
from bot.ui import render
from tests.configurations import option_sets
from tests.snapshots import snapshot_of

NAMES = ("Alix", "Brune", "Corwin", "Dagny", "Elspeth", "Fenna", "Gudrun", "Hilde")
SPOKEN_TO = re.compile(r"\b([Yy]our turn|You|Waiting for you)\b")  # "You won the trick": court's own


def snapshot(game: Game, state: Any, players: int, options: dict[str, str]) -> Snapshot:
    return snapshot_of(game, state, NAMES[:players], options=options)


def positions(game: Game, seed: int) -> Iterator[Snapshot]:
    """Every position of a few random matches of ``game``: each option set at its smallest
    and largest table, up to 150 moves each."""
    rnd = random.Random(seed)
    for options in option_sets(game):
        counts = [n for n in player_counts(game, options) if n <= len(NAMES)]
        for players in sorted({min(counts), max(counts)}):
            state = game.setup(players, seed, options)
            for _ in range(150):
                if game.outcome(state) is not None:
                    break
                yield snapshot(game, state, players, options)
                actors = sorted(game.to_act(state))
                seat = rnd.choice(actors)
                state, _events = game.apply(state, seat, rnd.choice(game.legal_moves(state, seat)))


def status_line(embed: Any) -> str:
    """The hand's status line (in italics, above "Your move"), or the table's (in bold)."""
    for line in (embed.description or "").splitlines():
        if line.startswith("*") and not line.startswith("**Your") and not line.startswith("**On"):
            return re.sub(r"<t:\d+:R>|\(.*?left\)$", "", line).strip("* ")
    raise AssertionError(embed.description)


def named_as_awaited(line: str, name: str) -> bool:
    """Whether ``line`` names ``name`` otherwise than as the owner of something ("Alix's attack")."""
    return re.search(rf"\b{name}\b(?!'s)", line) is not None


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_awaited_players_own_hand_speaks_to_them(game_id: str) -> None:
    """Wherever the game's status line names a seat it waits for, the table names that
    player, every other seat's hand names them, and their own hand speaks to them."""
    game = GAMES[game_id]
    spoken = 0
    for seed in (1, 2):
        for snap in positions(game, seed):
            table = status_line(render.table_embed(snap))
            for seat in snap.awaited():
                name = snap.names[seat]
                if not re.search(re.escape(seat_token(seat)) + "(?!'s)", snap.view(None).waiting):
                    continue  # the line does not name this seat (a question round's open asking)
                assert named_as_awaited(table, name), f"the table: {table!r}"
                own = status_line(render.hand_embed(snap, seat, snap.view(seat), has_moves=True))
                assert not named_as_awaited(own, name), f"{name}'s own hand: {own!r} (table: {table!r})"
                assert SPOKEN_TO.search(own), f"{name}'s own hand: {own!r}"
                spoken += 1
                for other in range(len(snap.names)):
                    if other == seat:
                        continue
                    theirs = status_line(render.hand_embed(snap, other, snap.view(other), has_moves=True))
                    assert named_as_awaited(theirs, name), f"{snap.names[other]}'s hand: {theirs!r}"
    assert spoken > 10, f"{game_id}: too few positions name an awaited seat ({spoken})"


def test_an_out_of_turn_chance_is_offered_as_optional_not_as_a_turn() -> None:
    """King's Dynasty (QA audit): a player holding a Poison Garden face up read "**Your move:**
    choose below." and a "Let it pass" button on nearly every other player's turn, and clicked
    it again and again. A seat with moves that the game does not wait for reads the game's
    optional line instead and is offered no button to let the chance pass (the game goes on
    without it); the seat the game waits for is still asked for its move."""
    from bot.ui.handview import hand_message

    game = GAMES["dynasty"]
    rnd = random.Random(5)
    options = {"deck": "dynasty"}
    state = game.setup(4, 5, options)
    optional = asked = 0
    for _ in range(400):
        if game.outcome(state) is not None:
            break
        snap = snapshot(game, state, 4, options)
        for seat in range(4):
            if not snap.legal_moves(seat):
                continue
            look = hand_message(snap, seat, None)
            text = look.embed.description or ""
            labels = [
                label
                for row in look.view.to_components()
                for item in row["components"]
                for label in [item.get("label"), *(o["label"] for o in item.get("options", ()))]
                if label
            ]
            assert not any(label.startswith("Let it pass") for label in labels), labels
            if seat in snap.awaited():
                assert "**Your move:** choose below." in text, text
                asked += 1
            else:
                assert "**Your move:**" not in text, text
                assert "**Out of turn (optional):** you may " in text, text
                optional += 1
        seat = rnd.choice(sorted(game.to_act(state)))
        state, _events = game.apply(state, seat, rnd.choice(game.legal_moves(state, seat)))
    assert optional > 10 and asked > 10, (optional, asked)
