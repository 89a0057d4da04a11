"""The public lines a hand repeats beside a decision (``View.table_context``): lines the
table shows at that moment, so the hand reveals nothing; and for the games whose decisions
hang on them, the top card, the trick and the pool, the field."""

from __future__ import annotations

import random

from bot.games import EXAMPLES, GAMES
from bot.games.base import Rng, View


def test_the_default_is_the_boards_line_after_its_title() -> None:
    assert View(None, "", board=("Title", "Top card: 5", "Draw pile 3")).table_context == ("Top card: 5",)
    assert View(None, "", board=("Title",)).table_context == ()
    assert View(None, "", board=("Title", "x"), context=("y",)).table_context == ("y",)


def test_every_games_context_is_on_the_public_board() -> None:
    seen: dict[str, set[str]] = {}
    for game_id, game in {**GAMES, **EXAMPLES}.items():
        players = 4 if game_id == "court" else (game.hints.players or game.min_players)
        options = {o.key: o.default_value for o in game.options}
        for seed in range(3):
            rnd = random.Random(seed)
            state = game.setup(players, seed, options)
            for _ in range(120):
                if game.outcome(state) is not None:
                    break
                public = game.view(state, None)
                assert set(public.table_context) <= set(public.board), (game_id, public.table_context)
                for seat in range(players):
                    own = game.view(state, seat)
                    assert own.table_context == public.table_context, (game_id, seat)
                seen.setdefault(game_id, set()).update(public.table_context)
                seat = rnd.choice(sorted(game.to_act(state)))
                state, _ = game.apply(
                    state, seat, game.ai_move(state, seat, Rng.from_seed(rnd.getrandbits(62)))
                )
    assert any(line.startswith("Top card: ") for line in seen["dynasty"])
    assert any(line.startswith("Trick: ") for line in seen["court"])
    assert any(line.startswith("Pool: ") for line in seen["court"])
    assert any(line.startswith(("🟨", "🟥", "🟩", "🟦", "Field: ")) for line in seen["four"])
