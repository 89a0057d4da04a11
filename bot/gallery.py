"""``python -m bot gallery --out DIR``: a PNG of every card of every game (one sheet per game,
and each card on its own under ``DIR/<game>/``), and a sample table and hand per game (from a
seeded match part-way through)."""

from __future__ import annotations

import argparse
import io
import random
import re
from pathlib import Path

from bot import images
from bot.games import GAMES
from bot.games.base import Game, Rng, player_counts
from bot.images.draw import Face, card_image, legend
from bot.images.symbols import MARK_MEANING


def _sample_state(game: Game, seed: int = 7) -> tuple[object, int]:
    """A state some moves into a match with the game's largest default table."""
    options = {o.key: o.default_value for o in game.options}
    players = player_counts(game, options)[-1]
    state = game.setup(players, seed, options)
    rnd = random.Random(seed)
    for _ in range(12):
        actors = sorted(game.to_act(state))
        if not actors or game.outcome(state) is not None:
            break
        seat = rnd.choice(actors)
        after, _events = game.apply(
            state, seat, game.ai_move(state, seat, Rng.from_seed(rnd.getrandbits(62)))
        )
        if game.outcome(after) is not None:
            break
        state = after
    return state, players


def _card_name(number: int, caption: str, face: Face) -> str:
    """A file name for one card: its place in the sheet, its group and its label."""
    words = " ".join(w for w in (caption, face.rank, face.caption) if w)
    slug = re.sub(r"[^a-z0-9]+", "-", words.casefold()).strip("-") or "card"
    return f"{number:03d}-{slug}.png"


def write_cards(out: Path, rows: images.Rows) -> list[Path]:
    """Each card of ``rows`` as a PNG of its own in ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    number = 0
    for caption, faces in rows:
        for face in faces:
            number += 1
            buffer = io.BytesIO()
            card_image(face).save(buffer, format="PNG", compress_level=3)
            path = out / _card_name(number, caption, face)
            path.write_bytes(buffer.getvalue())
            written.append(path)
    return written


SAMPLED = 6  # cards of each game on the sampler, a line each


def sampler() -> bytes | None:
    """A line of cards from each game, spread over its whole deck (the README's picture)."""
    rows: images.Rows = []
    for game_id, game in sorted(GAMES.items()):
        kinds: dict[str, list[Face]] = {}  # the deck's faces by what they show, in deck order
        for _caption, group in images.art_for(game_id).gallery():
            for face in group:
                kinds.setdefault(face.rank or face.caption, []).append(face)
        names = list(kinds)
        count = min(SAMPLED, len(names))
        spread = [names[round(i * (len(names) - 1) / max(1, count - 1))] for i in range(count)]
        # each kind in another of its colours or suits, so the line shows the deck's range
        rows.append((game.name, [kinds[name][n % len(kinds[name])] for n, name in enumerate(spread)]))
    return images.render(rows, title="A few cards of each game", per_row=SAMPLED)


def write_gallery(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    sample = sampler()
    if sample is not None:
        (out / "sampler.png").write_bytes(sample)
        written.append(out / "sampler.png")
    for game_id, game in sorted(GAMES.items()):
        art = images.art_for(game_id)
        every_card = art.gallery()
        cards = images.render(every_card, title=f"{game.name}: every card", per_row=8)
        written += write_cards(out / game_id, every_card)
        state, _players = _sample_state(game)
        seat = min(game.to_act(state) or {0})
        hand = images.hand_png(game_id, game.view(state, seat), game.legal_moves(state, seat))
        table = images.table_png(game_id, game.view(state, None))
        pictures = [("cards", cards), ("hand", hand), ("table", table)]
        if game_id == "dynasty":
            key = [(kind, meaning) for kind, meaning in MARK_MEANING.items()]
            pictures.append(("marks", legend(key, title=f"{game.name}: what the marks mean")))
        for name, png in pictures:
            if png is not None:
                path = out / f"{game_id}-{name}.png"
                path.write_bytes(png)
                written.append(path)
    return written


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot gallery", description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("gallery"), help="folder for the PNG files")
    args = parser.parse_args(argv)
    for path in write_gallery(args.out):
        print(path)
    return 0
