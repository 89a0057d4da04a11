"""Drawing cards with Pillow: faces, and a key to the marks (``bot/images/layout.py`` lays
cards out in a picture). No artwork: shapes, colours, symbols and text drawn by this code.

Every picture sits on an opaque felt-green background so it reads the same in Discord's
light and dark themes, and cards are large enough for a phone (96 x 136 pixels, labels of
at least 15 pixels). The output is deterministic: the same cards give the same PNG bytes.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.images import glyphs, symbols

RGB = tuple[int, int, int]

CARD_W, CARD_H = 96, 136
GAP = 10
MARGIN = 14
FELT: RGB = (24, 82, 52)
FELT_TEXT: RGB = (235, 240, 232)
PAPER: RGB = (250, 248, 240)
INK: RGB = (30, 30, 34)
MARK: RGB = (255, 208, 64)  # the outline of a card you may play now
BACK: RGB = (58, 64, 120)

# The colours players know from the hand's emoji, so text and picture agree.
COLOURS: dict[str, RGB] = {
    "gold": (222, 170, 30),
    "yellow": (222, 190, 40),
    "green": (46, 150, 70),
    "blue": (40, 110, 205),
    "burgundy": (140, 30, 60),
    "red": (205, 45, 45),
    "purple": (125, 70, 170),
    "silver": (150, 156, 166),
    "orange": (232, 120, 30),
    "black": (40, 40, 44),
    "kingdom": (96, 60, 150),
    "neutral": (110, 110, 110),
}
EMOJI_COLOURS: dict[str, str] = {
    "🟨": "gold",
    "🟩": "green",
    "🟦": "blue",
    "🟥": "burgundy",
    "🟪": "purple",
    "⬜": "silver",
    "🟧": "orange",
    "⬛": "black",
    "👑": "kingdom",
}


@dataclass(frozen=True, slots=True)
class Face:
    """One card to draw, face up or down, marked (playable now) or new.

    A card of the 52-card deck gives its corner ``index`` ("10", "K") with its suit pip as
    ``symbol``, and ``pips`` for a number card (the centre shows that many pips; a court
    card shows its letter framed). Any other card shows its ``rank`` (a number or a name)
    large under a bar of its ``colour`` that carries the ``caption``; its ``symbol`` in the
    lower corners; ``marks`` (effect marks, see :mod:`bot.images.symbols`) in a row with
    ``badge`` (``+2``) on the first, after its ``glyph`` (:mod:`bot.images.glyphs`, which
    card of a group it is); ``points`` (what it costs at the end of a hand) in the lower
    left corner. A ``large`` face is a table tile: its one mark drawn large over a word.
    """

    rank: str
    caption: str = ""
    colour: str = "neutral"
    symbol: str = ""  # a shape of bot.images.symbols.symbol, or ""
    marked: bool = False
    new: bool = False
    down: bool = False
    index: str = ""
    pips: int = 0
    marks: tuple[str, ...] = ()
    badge: str = ""
    points: str = ""
    glyph: str = ""
    large: bool = False


@lru_cache(maxsize=8)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def fit_text(
    draw: ImageDraw.ImageDraw, text: str, width: int, sizes: Sequence[int]
) -> tuple[str, ImageFont.FreeTypeFont | ImageFont.ImageFont]:
    """The largest font size at which ``text`` fits ``width``; cut with … at the smallest."""
    for size in sizes:
        f = font(size)
        if draw.textlength(text, font=f) <= width:
            return text, f
    f = font(sizes[-1])
    while text and draw.textlength(text + "…", font=f) > width:
        text = text[:-1]
    return text + "…", f


@lru_cache(maxsize=2048)
def card_image(face: Face) -> Image.Image:
    """One card drawn once on the felt (cached): pictures paste these."""
    image = Image.new("RGB", (CARD_W, CARD_H), FELT)
    draw_card(image, 0, 0, face)
    return image


def draw_card(image: Image.Image, x: int, y: int, face: Face) -> None:
    draw = ImageDraw.Draw(image)
    box = [x, y, x + CARD_W - 1, y + CARD_H - 1]
    if face.down:
        draw.rounded_rectangle(box, radius=10, fill=BACK, outline=PAPER, width=3)
        for i in range(12, CARD_W - 12, 12):
            draw.line([(x + i, y + 12), (x + i, y + CARD_H - 12)], fill=(80, 88, 150), width=2)
        return
    colour = COLOURS.get(face.colour, COLOURS["neutral"])
    outline, width = (MARK, 5) if face.marked else (INK, 2)
    draw.rounded_rectangle(box, radius=10, fill=PAPER, outline=outline, width=width)
    if face.index:
        _indexed(image, draw, x, y, face, colour)
    else:
        _named(draw, x, y, face, colour)
    if face.new:
        draw.ellipse(
            [x + CARD_W - 22, y + 10, x + CARD_W - 10, y + 22], fill=(230, 40, 60), outline=PAPER, width=2
        )


# Where a number card's pips lie: (column 0..1, row 0..1) in the card's centre area.
PIP_LAYOUT: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.5, 0.0), (0.5, 1.0)),
    3: ((0.5, 0.0), (0.5, 0.5), (0.5, 1.0)),
    4: ((0, 0), (1, 0), (0, 1), (1, 1)),
    5: ((0, 0), (1, 0), (0.5, 0.5), (0, 1), (1, 1)),
    6: ((0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)),
    7: ((0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)),
    8: ((0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)),
    9: ((0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0.5, 0.5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)),
    10: (
        (0, 0),
        (1, 0),
        (0.5, 1 / 6),
        (0, 1 / 3),
        (1, 1 / 3),
        (0, 2 / 3),
        (1, 2 / 3),
        (0.5, 5 / 6),
        (0, 1),
        (1, 1),
    ),
}
CORNER_W, CORNER_H = 22, 42


def _corner(face: Face, colour: RGB) -> Image.Image:
    """The corner index: the rank over its suit pip, on the card's paper."""
    tile = Image.new("RGB", (CORNER_W, CORNER_H), PAPER)
    draw = ImageDraw.Draw(tile)
    text, f = fit_text(draw, face.index, CORNER_W, (21, 18, 15))
    draw.text((CORNER_W / 2, 11), text, font=f, fill=colour, anchor="mm")
    if face.symbol:
        symbols.symbol(draw, face.symbol, 3, 24, 16, colour)
    return tile


def _indexed(image: Image.Image, draw: ImageDraw.ImageDraw, x: int, y: int, face: Face, colour: RGB) -> None:
    """A card of the 52-card deck: corner indices, pips or a framed court letter."""
    corner = _corner(face, colour)
    image.paste(corner, (x + 4, y + 6))
    image.paste(corner.rotate(180), (x + CARD_W - 4 - CORNER_W, y + CARD_H - 6 - CORNER_H))
    if face.pips in PIP_LAYOUT and face.symbol:
        if face.pips == 1:
            symbols.symbol(draw, face.symbol, x + CARD_W / 2 - 18, y + CARD_H / 2 - 18, 36, colour)
        for column, row in PIP_LAYOUT[face.pips] if face.pips > 1 else ():
            centre_x = x + 36 + column * 24
            centre_y = y + (24 if face.caption else 22) + row * (82 if face.caption else 92)
            symbols.symbol(draw, face.symbol, centre_x - 7, centre_y - 7, 14, colour)
    else:
        frame = [x + 28, y + 12, x + CARD_W - 29, y + CARD_H - 13]
        draw.rounded_rectangle(frame, radius=6, outline=colour, width=2)
        letter, f = fit_text(draw, face.rank, CARD_W - 64, (40, 32, 24, 18, 14))
        draw.text((x + CARD_W / 2, y + 58), letter, font=f, fill=colour, anchor="mm")
        if face.symbol:
            symbols.symbol(draw, face.symbol, x + CARD_W / 2 - 10, y + 80, 20, colour)
    if face.caption:
        caption, f = fit_text(draw, face.caption, CARD_W - 60, (12, 11, 10))
        draw.text((x + CARD_W / 2, y + CARD_H - 9), caption, font=f, fill=INK, anchor="mm")


def _bar(draw: ImageDraw.ImageDraw, x: int, y: int, caption: str, colour: RGB) -> None:
    """The bar of the card's colour with its caption. A card of two suits ("green /
    burgundy") gets a bar of two halves, each suit's name in its colour."""
    bar = [x + 7, y + 7, x + CARD_W - 8, y + 30]
    names = caption.split(" / ")
    lines: list[tuple[str, RGB, int, tuple[int, ...]]] = [(caption, colour, y + 19, (15, 13, 12))]
    if len(names) == 2 and all(name in COLOURS for name in names):
        # a taller bar (the card's border to just above the marks): two names on two lines
        lines = [
            (names[0], COLOURS.get(names[0], colour), y + 11, (12, 11)),
            (names[1], COLOURS.get(names[1], colour), y + 24, (12, 11)),
        ]
        draw.rounded_rectangle([x + 7, y + 4, x + CARD_W - 8, y + 32], radius=6, fill=lines[1][1])
        draw.rounded_rectangle(
            [x + 7, y + 4, x + CARD_W - 8, y + 18],
            radius=6,
            fill=lines[0][1],
            corners=(True, True, False, False),
        )
    else:
        draw.rounded_rectangle(bar, radius=6, fill=colour)
    for text, _fill, middle, sizes in lines if caption else ():
        shown, f = fit_text(draw, text, CARD_W - 20, sizes)
        draw.text(
            (x + CARD_W / 2, middle), shown, font=f, fill=PAPER, anchor="mm", stroke_width=1, stroke_fill=INK
        )


def _named(draw: ImageDraw.ImageDraw, x: int, y: int, face: Face, colour: RGB) -> None:
    """Any other card: a bar of its colour with the caption, its rank or name large, its
    effect marks and its points."""
    _bar(draw, x, y, face.caption, colour)
    shapes = ((face.glyph,) if face.glyph else ()) + face.marks
    width = CARD_W - 14 if not shapes else CARD_W - 8
    if shapes:
        # Marks 32, 28 or 24 pixels by how many share the row; a glyph (the card's picture)
        # 32 pixels, the marks centred on it.
        size = (32, 28, 24)[min(len(shapes), 3) - 1]
        if face.large:
            size = 64 if not face.rank else 52
        big = 32 if face.glyph else size
        gap = 2 if face.glyph and len(shapes) > 2 else 4
        sides = [big if face.glyph and i == 0 else size for i in range(len(shapes))]
        left = x + (CARD_W - sum(sides) - gap * (len(shapes) - 1)) / 2
        badge = font(18 if size >= 28 else 15)
        for i, (kind, side) in enumerate(zip(shapes, sides)):
            top = y + 35 + (big - side) / 2
            if face.glyph and i == 0:
                glyphs.glyph(draw, kind, left, top, side, colour)
            else:
                text = face.badge if i == len(shapes) - len(face.marks) else ""
                symbols.mark(draw, kind, left, top, side, colour, text, badge)
            left += side + gap
        name_top = y + 35 + big + 4
    else:
        name_top = y + 40
    words = face.rank.split()
    if len(words) > 1 and draw.textlength(face.rank, font=font(20)) > width:
        # Two lines for long names ("Fair / Maiden", "Royal / Decree").
        cut = max(
            range(1, len(words)), key=lambda i: -abs(len(" ".join(words[:i])) - len(" ".join(words[i:])))
        )
        first, f = fit_text(draw, " ".join(words[:cut]), width, (17, 16, 14))
        second, g = fit_text(draw, " ".join(words[cut:]), width, (17, 16, 14))
        size = int(min(getattr(f, "size", 14), getattr(g, "size", 14)))
        middle = name_top + 26 if not shapes else name_top + 9
        draw.text((x + CARD_W / 2, middle), first, font=font(size), fill=INK, anchor="mm")
        draw.text((x + CARD_W / 2, middle + size + 3), second, font=font(size), fill=INK, anchor="mm")
    else:
        # Under marks, names share one size (17, or 16 for the longest, as in two lines).
        sizes = (40, 32, 26, 20, 16, 14) if not shapes else (17, 16, 15, 14)
        rank, f = fit_text(draw, face.rank, width, sizes)
        middle = y + 72 if not shapes else name_top + 16
        draw.text((x + CARD_W / 2, middle), rank, font=f, fill=INK, anchor="mm")
    if face.symbol and not face.marks:
        symbols.symbol(draw, face.symbol, x + 9, y + CARD_H - 25, 16, colour)
        symbols.symbol(draw, face.symbol, x + CARD_W - 25, y + CARD_H - 25, 16, colour)
    if face.points:
        text, f = fit_text(draw, face.points, 40, (14, 12))
        right = x + 10 + draw.textlength(text, font=f) + 8
        draw.rounded_rectangle([x + 6, y + CARD_H - 24, right, y + CARD_H - 7], radius=5, fill=INK)
        draw.text((x + 10, y + CARD_H - 15.5), text, font=f, fill=PAPER, anchor="lm")


def colour_of_label(label: str) -> str:
    """The colour named by a hand group's label ("🟦 blue", "Wise team")."""
    for emoji, name in EMOJI_COLOURS.items():
        if label.startswith(emoji):
            return name
    low = label.lower()
    return next((name for name in COLOURS if name in low), "neutral")


def legend(entries: Sequence[tuple[str, str]], *, title: str = "") -> bytes:
    """A key to the effect marks: each mark's badge beside what it means; one PNG."""
    row, size = 40, 30
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    longest = max((measure.textlength(meaning, font=font(18)) for _kind, meaning in entries), default=0)
    width = max(560, MARGIN * 3 + size + int(longest) + 1)  # every line at one size
    height = MARGIN * 2 + (30 if title else 0) + row * len(entries)
    image = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(image)
    y = MARGIN
    if title:
        draw.text((MARGIN, y), title, font=font(20), fill=FELT_TEXT)
        y += 30
    badge = font(16)
    for kind, meaning in entries:
        symbols.mark(
            draw,
            kind,
            MARGIN,
            y + (row - size) / 2,
            size,
            COLOURS["kingdom"],
            "+2" if kind == "draw" else "",
            badge,
        )
        text, f = fit_text(draw, meaning, width - 3 * MARGIN - size, (18, 16, 14))
        draw.text((MARGIN * 2 + size, y + row / 2), text, font=f, fill=FELT_TEXT, anchor="lm")
        y += row
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=3)
    return out.getvalue()
