"""Drawing cards with Pillow: faces, rows of cards (a hand), a table. No artwork: shapes,
colours, symbols and text drawn by this code.

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

RGB = tuple[int, int, int]

CARD_W, CARD_H = 96, 136
GAP = 10
MARGIN = 14
ROW_MAX = 8  # cards per row before wrapping
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
    """One card to draw: its big label (``rank``), a small caption, its colour, a symbol
    drawn in its corners, and whether it is marked (playable now) or new, or face down."""

    rank: str
    caption: str = ""
    colour: str = "neutral"
    symbol: str = ""  # "", "shield", "sword", "star", "crown", "circle", "key", "axe", "heart", "diamond", "club", "spade"
    marked: bool = False
    new: bool = False
    down: bool = False


@lru_cache(maxsize=8)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _fit(
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


def _symbol(draw: ImageDraw.ImageDraw, kind: str, x: int, y: int, size: int, colour: RGB) -> None:
    s = size
    if kind == "shield":
        draw.polygon(
            [(x, y), (x + s, y), (x + s, y + s * 0.6), (x + s / 2, y + s), (x, y + s * 0.6)], fill=colour
        )
    elif kind == "sword":
        draw.line([(x + 2, y + s - 2), (x + s - 2, y + 2)], fill=colour, width=3)
        draw.line([(x + 2, y + s * 0.55), (x + s * 0.45, y + s - 2)], fill=colour, width=3)
    elif kind == "star":
        points = []
        for i in range(10):
            import math

            r = s / 2 if i % 2 == 0 else s / 5
            a = math.pi / 2 + i * math.pi / 5
            points.append((x + s / 2 + r * math.cos(a), y + s / 2 - r * math.sin(a)))
        draw.polygon(points, fill=colour)
    elif kind == "crown":
        draw.polygon(
            [
                (x, y + s),
                (x, y + s * 0.3),
                (x + s * 0.25, y + s * 0.6),
                (x + s / 2, y),
                (x + s * 0.75, y + s * 0.6),
                (x + s, y + s * 0.3),
                (x + s, y + s),
            ],
            fill=colour,
        )
    elif kind == "circle":
        draw.ellipse([x, y, x + s, y + s], fill=colour)
    elif kind == "key":
        draw.ellipse([x, y, x + s * 0.5, y + s * 0.5], outline=colour, width=3)
        draw.line([(x + s * 0.4, y + s * 0.4), (x + s - 2, y + s - 2)], fill=colour, width=3)
        draw.line([(x + s * 0.7, y + s * 0.7), (x + s * 0.9, y + s * 0.5)], fill=colour, width=3)
    elif kind == "axe":
        draw.line([(x + 2, y + s - 2), (x + s * 0.7, y + s * 0.3)], fill=colour, width=3)
        draw.pieslice([x + s * 0.35, y, x + s, y + s * 0.65], 200, 20, fill=colour)
    elif kind == "diamond":
        draw.polygon(
            [(x + s / 2, y), (x + s * 0.9, y + s / 2), (x + s / 2, y + s), (x + s * 0.1, y + s / 2)],
            fill=colour,
        )
    elif kind in ("heart", "spade"):
        # Two lobes and a point (a heart); upside down, with a stem, a spade.
        lobes, point = (y + s * 0.05, y + s) if kind == "heart" else (y + s * 0.4, y)
        r = s * 0.28
        for cx in (x + s * 0.28, x + s * 0.72):
            draw.ellipse([cx - r, lobes, cx + r, lobes + 2 * r], fill=colour)
        edge = lobes + r * 1.2
        draw.polygon([(x + s * 0.02, edge), (x + s * 0.98, edge), (x + s / 2, point)], fill=colour)
        if kind == "spade":
            draw.polygon([(x + s / 2, y + s * 0.7), (x + s * 0.3, y + s), (x + s * 0.7, y + s)], fill=colour)
    elif kind == "club":
        r = s * 0.22
        for cx, cy in ((x + s / 2, y + r), (x + r, y + s * 0.5), (x + s - r, y + s * 0.5)):
            draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=colour)
        draw.polygon([(x + s / 2, y + s * 0.45), (x + s * 0.3, y + s), (x + s * 0.7, y + s)], fill=colour)


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
    draw.rounded_rectangle([x + 7, y + 7, x + CARD_W - 8, y + 30], radius=6, fill=colour)
    if face.symbol:
        _symbol(draw, face.symbol, x + 9, y + CARD_H - 25, 16, colour)
        _symbol(draw, face.symbol, x + CARD_W - 25, y + CARD_H - 25, 16, colour)
    width = CARD_W - 14
    words = face.rank.split()
    if len(words) > 1 and draw.textlength(face.rank, font=font(20)) > width:
        # Two lines for long names ("Fair / Maiden", "Royal / Decree").
        cut = max(
            range(1, len(words)), key=lambda i: -abs(len(" ".join(words[:i])) - len(" ".join(words[i:])))
        )
        first, f = _fit(draw, " ".join(words[:cut]), width, (20, 18, 16, 14))
        second, g = _fit(draw, " ".join(words[cut:]), width, (20, 18, 16, 14))
        size = min(f.size, g.size) if hasattr(f, "size") and hasattr(g, "size") else 16
        draw.text((x + CARD_W / 2, y + 56), first, font=font(int(size)), fill=INK, anchor="mm")
        draw.text((x + CARD_W / 2, y + 78), second, font=font(int(size)), fill=INK, anchor="mm")
    else:
        rank, f = _fit(draw, face.rank, width, (40, 32, 26, 20, 16, 14))
        draw.text((x + CARD_W / 2, y + 68), rank, font=f, fill=INK, anchor="mm")
    if face.caption:
        caption, f = _fit(draw, face.caption, CARD_W - 16, (16, 14, 12))
        draw.text((x + CARD_W / 2, y + 98), caption, font=f, fill=INK, anchor="mm")
    if face.new:
        draw.ellipse(
            [x + CARD_W - 22, y + 10, x + CARD_W - 10, y + 22], fill=(230, 40, 60), outline=PAPER, width=2
        )


def _blocks(rows: Sequence[tuple[str, Sequence[Face]]]) -> list[list[tuple[str, list[Face]]]]:
    """Groups packed into lines of at most ROW_MAX cards; a long group is split."""
    pieces: list[tuple[str, list[Face]]] = []
    for caption, faces in rows:
        faces = list(faces)
        for start in range(0, max(len(faces), 1), ROW_MAX):
            pieces.append((caption if start == 0 else "", faces[start : start + ROW_MAX]))
    lines: list[list[tuple[str, list[Face]]]] = [[]]
    used = 0
    for caption, faces in pieces:
        if lines[-1] and used + len(faces) > ROW_MAX:
            lines.append([])
            used = 0
        lines[-1].append((caption, faces))
        used += max(len(faces), 1)
    return [line for line in lines if line]


def picture(rows: Sequence[tuple[str, Sequence[Face]]], *, title: str = "") -> bytes:
    """Groups of cards, each with its caption above it, packed left to right; one PNG."""
    lines = _blocks(rows)
    group_gap = GAP * 2

    def line_width(line: list[tuple[str, list[Face]]]) -> int:
        return sum(max(len(f), 1) * (CARD_W + GAP) - GAP for _c, f in line) + group_gap * (len(line) - 1)

    width = max([MARGIN * 2 + line_width(line) for line in lines] + [360])
    line_height = 24 + CARD_H + GAP
    height = MARGIN + (30 if title else 0) + len(lines) * line_height + MARGIN - GAP
    image = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(image)
    y = MARGIN
    if title:
        text, f = _fit(draw, title, width - 2 * MARGIN, (22, 18, 15))
        draw.text((MARGIN, y), text, font=f, fill=FELT_TEXT)
        y += 30
    for line in lines:
        x = MARGIN
        for caption, faces in line:
            block = max(len(faces), 1) * (CARD_W + GAP) - GAP
            if caption:
                text, f = _fit(draw, caption, block, (18, 16, 14, 12))
                draw.text((x, y), text, font=f, fill=FELT_TEXT)
            for i, face in enumerate(faces):
                image.paste(card_image(face), (x + i * (CARD_W + GAP), y + 24))
            x += block + group_gap
        y += line_height
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=3)
    return out.getvalue()


def colour_of_label(label: str) -> str:
    """The colour named by a hand group's label ("🟦 blue", "Wise team")."""
    for emoji, name in EMOJI_COLOURS.items():
        if label.startswith(emoji):
            return name
    low = label.lower()
    return next((name for name in COLOURS if name in low), "neutral")
