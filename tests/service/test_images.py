"""Card pictures: every card of every game draws, the same content gives the same bytes, and
a table picture is a function of what everyone may see."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot import images
from bot.gallery import write_gallery
from bot.games import EXAMPLES, GAMES
from bot.games.base import Rng, player_counts

ALL_GAMES = {**GAMES, **EXAMPLES}


def _size(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_card_of_the_game_draws(game_id: str) -> None:
    rows = images.art_for(game_id).gallery()
    faces = [f for _c, fs in rows for f in fs]
    assert faces, f"{game_id} has no gallery"
    png = images.render(rows)
    assert png is not None and png.startswith(b"\x89PNG")
    width, height = _size(png)
    assert width >= 360 and height > 136
    for face in faces:  # one at a time too: every face draws on its own
        assert images.render([("", [face])]) is not None


@pytest.mark.parametrize("game_id", sorted(ALL_GAMES))
def test_hands_and_tables_draw_through_a_match_and_repeat_exactly(game_id: str) -> None:
    game = ALL_GAMES[game_id]
    options = {o.key: o.default_value for o in game.options}
    players = player_counts(game, options)[-1]
    state = game.setup(players, 11, options)
    rnd = random.Random(11)
    drawn = 0
    for _ in range(60):
        if game.outcome(state) is not None:
            break
        for seat in range(players):
            view = game.view(state, seat)
            png = images.hand_png(game_id, view, game.legal_moves(state, seat))
            if view.hand:
                assert png is not None, f"{game_id}: a hand with cards has no picture"
                images._png.cache_clear()
                assert images.hand_png(game_id, view, game.legal_moves(state, seat)) == png, (
                    "same content, same bytes"
                )
                drawn += 1
        table = game.view(state, None)
        png = images.table_png(game_id, table)
        if png is not None:
            # The table picture depends on the table view only: a re-deal of anything a seat
            # cannot see changes nothing in it.
            for seat in range(players):
                alt = game.resample(state, seat, Rng.from_seed(seat + 5))
                assert images.table_png(game_id, game.view(alt, None)) == png
        seat = rnd.choice(sorted(game.to_act(state)))
        state, _events = game.apply(
            state, seat, game.ai_move(state, seat, Rng.from_seed(rnd.getrandbits(62)))
        )
    assert drawn


def test_new_cards_are_flagged_once() -> None:
    from bot.games.base import CardGroup, View

    view = View(0, "", hand=(CardGroup("🟦 blue", ("3", "3", "7")),))
    rows = images.mark_new(images.GenericArt().hand(view, []), view, [("🟦 blue", "3")])
    assert [f.new for f in rows[0][1]] == [True, False, False]


def test_a_new_card_is_flagged_in_its_own_group() -> None:
    """A Fair Maiden drawn in burgundy is flagged there, not on the blue one held before."""
    from bot.games.base import CardGroup, View

    view = View(
        0, "", hand=(CardGroup("🟦 blue", ("Fair Maiden",)), CardGroup("🟥 burgundy", ("Fair Maiden",)))
    )
    rows = images.mark_new(images.GenericArt().hand(view, []), view, [("🟥 burgundy", "Fair Maiden")])
    assert [[f.new for f in faces] for _caption, faces in rows] == [[False], [True]]


def test_the_gallery_writes_every_game(tmp_path) -> None:  # type: ignore[no-untyped-def]
    written = write_gallery(tmp_path)
    names = {p.name for p in written}
    for game_id in GAMES:
        assert f"{game_id}-cards.png" in names and f"{game_id}-hand.png" in names
        cards = sum(len(faces) for _caption, faces in images.art_for(game_id).gallery())
        own = [p for p in written if p.parent == tmp_path / game_id]
        assert len(own) == cards, f"{game_id}: one file per card"
        assert len({p.name for p in own}) == cards
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in written)
    assert tmp_path / "sampler.png" in written  # the README's picture: a line of cards per game


def test_the_sampler_shows_a_line_of_different_cards_of_every_game(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from bot import gallery

    drawn: list = []
    monkeypatch.setattr(gallery.images, "render", lambda rows, **kw: drawn.extend(rows) or b"png")
    assert gallery.sampler() == b"png"
    assert [caption for caption, _faces in drawn] == [g.name for _id, g in sorted(GAMES.items())]
    for caption, faces in drawn:
        assert 5 <= len(faces) <= gallery.SAMPLED, caption
        assert len({f.rank or f.caption for f in faces}) == len(faces), f"{caption}: each card another kind"


def test_cards_read_at_a_glance() -> None:
    """Issue 49: the 52-card games carry corner indices and pips; every King's Dynasty card
    but a number shows what it does (known effect marks) and its points; the gallery's key
    names every mark."""
    from bot.games.court.cards import KINGS, RANKS, SUITS
    from bot.games.dynasty.cards import CODE, KIND, NFACES, NUM
    from bot.images import court as court_art
    from bot.images import dynasty as dynasty_art
    from bot.images.symbols import MARK_MEANING

    for rank in RANKS:
        for suit in SUITS:
            face = court_art.face(f"{rank}{suit}")
            assert face.index and face.symbol
            assert face.pips == (
                0 if rank in "JQ" else 1 if rank == "A" else 10 if rank == "T" else int(rank)
            )
    assert all(court_art.face(king).index == "K" for king in KINGS)
    for index in range(NFACES):
        face = dynasty_art.face(CODE[index])
        if KIND[index] == NUM:
            continue
        assert face.marks and set(face.marks) <= set(MARK_MEANING), face
        assert face.points, face
    drawbridge = next(
        dynasty_art.face(CODE[i]) for i in range(NFACES) if dynasty_art.face(CODE[i]).badge == "+2"
    )
    assert drawbridge.marks[0] == "draw"


def test_the_dynasty_table_shows_top_card_suit_and_direction_apart() -> None:
    from bot.games.base import View
    from bot.images import dynasty as dynasty_art

    view = View(None, "", data={"top": "5gd", "suit": "gd", "direction": -1, "phase": "play"})
    rows = dynasty_art.ART.table(view)
    assert [caption for caption, _faces in rows] == ["Top card", "Suit", "Play passes"]
    assert rows[1][1][0].colour == "gold" and rows[1][1][0].large
    way = rows[2][1][0]
    assert (way.marks, way.rank, way.caption) == (("anticlockwise",), "anti- clockwise", "reversed")
    view = View(None, "", data={"top": "5gd", "suit": "gd", "direction": 1, "phase": "play"})
    way = dynasty_art.ART.table(view)[2][1][0]
    assert (way.marks, way.rank, way.caption) == (("clockwise",), "clockwise", "usual way")
    assert images.table_png("dynasty", view) != images.table_png(
        "dynasty", View(None, "", data={**view.data, "direction": -1})
    )


def test_a_card_played_as_another_shows_both_faces_and_says_so() -> None:
    """A Magician played as a Wizard: the Magician is the top card, the Wizard its own tile
    "played as" beside it."""
    from bot.games.base import View
    from bot.images import dynasty as dynasty_art

    view = View(None, "", data={"top": "MAG", "top_as": "WIZ", "suit": "bl", "direction": 1, "phase": "play"})
    rows = dynasty_art.ART.table(view)
    assert [(caption, [f.rank for f in faces]) for caption, faces in rows[:2]] == [
        ("Top card", ["Magician"]),
        ("played as", ["Wizard"]),
    ]


def test_dynasty_cards_sharing_marks_have_glyphs_of_their_own() -> None:
    """Issue 49: the battle cards, the risk cards, the royals and the two last cards share
    effect marks; each carries a glyph of its own (drawn differently), and keeps its marks."""
    from PIL import ImageDraw

    from bot.games.dynasty.cards import CODE, KIND, NFACES, NUM
    from bot.images import dynasty as dynasty_art
    from bot.images.glyphs import GLYPHS, glyph

    by_marks: dict[tuple[str, ...], dict[int, str]] = {}
    for index in range(NFACES):
        face = dynasty_art.face(CODE[index])
        if KIND[index] != NUM:
            by_marks.setdefault(face.marks, {})[KIND[index]] = face.glyph
    shared = {marks: kinds for marks, kinds in by_marks.items() if len(kinds) > 1}
    assert {("battle",), ("risk",), ("wild",), ("wild", "extra"), ("last",)} <= set(shared)
    for marks, kinds in shared.items():
        assert all(kinds.values()) and len(set(kinds.values())) == len(kinds), (marks, kinds)
    drawn = set()
    for kind in GLYPHS:
        tile = Image.new("RGB", (32, 32), (250, 248, 240))
        glyph(ImageDraw.Draw(tile), kind, 0, 0, 32, (96, 60, 150))
        assert tile.getcolors() and len(tile.getcolors()) > 1, kind
        drawn.add(tile.tobytes())
    assert len(drawn) == len(GLYPHS)


def test_the_court_table_picture_shows_the_last_trick_on_an_otherwise_empty_table() -> None:
    """King's Court: once the pool is picked the table is bare, so its picture shows the last
    trick (the text line says who played what); with a trick or pool out it adds nothing."""
    from bot.games.court import GAME
    from bot.images import court as court_art
    from tests.engines.test_court_messages import act, table

    state, _ = act(table(["7d 8h 9h Th", "2c 5c", "2s 5s", "3c 6c"]), "lead:7d", "play:2c", "play:2s")
    assert [c for c, _f in court_art.ART.table(GAME.view(state, None))] == ["The trick"]
    state, _ = act(state, "play:3c")
    assert [c for c, _f in court_art.ART.table(GAME.view(state, None))] == ["The pool"]
    state, _ = act(state, "take:7d", "take:2c", "take:2s", "done")
    rows = court_art.ART.table(GAME.view(state, None))
    assert [(c, [f.index + f.symbol for f in fs]) for c, fs in rows] == [
        ("Last trick", ["7diamond", "2club", "2spade", "3club"])
    ]
    assert images.table_png("court", GAME.view(state, None)) is not None
    state, _ = act(state, "lead:8h")
    assert [c for c, _f in court_art.ART.table(GAME.view(state, None))] == ["The trick"]


def test_a_wide_hand_wraps_so_it_reads_in_discords_preview() -> None:
    """Issue 49: ten cards in three suits come in lines of at most six cards, and a caption
    longer than its one card widens its block instead of shrinking below 14 pixels."""
    from bot.images import court as court_art
    from bot.images.draw import CARD_W, GAP, MARGIN
    from bot.images.layout import ROW_MAX, _blocks, _layout

    rows = [
        ("clubs (your King)", [court_art.face("Tc")]),
        ("diamonds", [court_art.face(c) for c in ("Ad", "2d", "6d", "9d")]),
        ("hearts", [court_art.face(c) for c in ("3h", "4h", "Th", "Jh", "Qh")]),
    ]
    width, height = _size(images.render(rows) or b"")
    assert width <= 2 * MARGIN + ROW_MAX * (CARD_W + GAP) + 2 * GAP and height > 2 * 136
    lines = _layout(rows, "", None)
    assert all(sum(len(faces) for _c, faces, _w in line) <= ROW_MAX for line in lines)
    assert sum(len(faces) for line in lines for _c, faces, _w in line) == 10, "every card, once"
    [(_caption, faces, block)] = [p for line in _blocks(rows, 6) for p in line if p[0].startswith("clubs")]
    assert len(faces) == 1 and block > CARD_W, "the caption's block is wider than its card"
    # The gallery's sheets keep eight cards a line.
    assert max(len(f) for line in _blocks(rows, 8) for _c, f, _w in line) <= 8


def test_spades_have_a_stem_and_clubs_three_lobes_at_corner_size() -> None:
    """Issue 49: at the corner's 16 pixels a spade ends in a stem under a narrow neck and a
    club shows three lobes, so the two black suits differ at a glance."""
    from PIL import ImageDraw

    from bot.images import symbols

    def ink(kind: str) -> list[list[bool]]:
        tile = Image.new("RGB", (16, 16), (0, 0, 0))
        symbols.symbol(ImageDraw.Draw(tile), kind, 0, 0, 16, (255, 255, 255))
        grey = tile.convert("L")
        return [[grey.getpixel((x, y)) > 128 for x in range(16)] for y in range(16)]  # type: ignore[operator]

    for kind in ("spade", "club"):
        rows = ink(kind)
        widths = [sum(r) for r in rows]
        assert rows[15][8] and widths[15] < 16 / 2, f"{kind}: a stem at the bottom"
        neck = min(widths[10:15])
        assert neck < widths[15] and neck < max(widths[:10]) / 2, f"{kind}: a narrow neck over the stem"
    spade, club = ink("spade"), ink("club")
    assert sum(spade[1]) < sum(club[1]), "a spade's point, a club's round top lobe"
    # the club's top lobe is apart from its side lobes: a notch at the shoulders
    assert not club[5][2] and spade[7][2]
    assert sum(a != b for ra, rb in zip(spade, club) for a, b in zip(ra, rb)) >= 20
