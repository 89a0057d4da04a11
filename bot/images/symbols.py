"""Shapes drawn on cards, all by this code: suit pips and item symbols (``symbol``) and the
effect marks of King's Dynasty (``mark``), which say at a glance what a card does.

Every shape is drawn into a square box ``(x, y, size)`` in one colour; marks may add a short
text (``+2``) drawn on top in white.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]
WHITE: RGB = (255, 255, 255)


def symbol(draw: ImageDraw.ImageDraw, kind: str, x: float, y: float, size: float, colour: RGB) -> None:
    """A suit pip or an item: shield, sword, star, crown, circle, key, axe, diamond, heart,
    spade, club."""
    s = size
    if kind == "shield":
        draw.polygon(
            [(x, y), (x + s, y), (x + s, y + s * 0.6), (x + s / 2, y + s), (x, y + s * 0.6)], fill=colour
        )
    elif kind == "sword":
        width = max(2, round(s / 6))
        draw.line([(x + 2, y + s - 2), (x + s - 2, y + 2)], fill=colour, width=width)
        draw.line([(x + 2, y + s * 0.55), (x + s * 0.45, y + s - 2)], fill=colour, width=width)
    elif kind == "star":
        points = []
        for i in range(10):
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
        width = max(2, round(s / 6))
        draw.ellipse([x, y, x + s * 0.5, y + s * 0.5], outline=colour, width=width)
        draw.line([(x + s * 0.4, y + s * 0.4), (x + s - 2, y + s - 2)], fill=colour, width=width)
        draw.line([(x + s * 0.7, y + s * 0.7), (x + s * 0.9, y + s * 0.5)], fill=colour, width=width)
    elif kind == "axe":
        draw.line([(x + 2, y + s - 2), (x + s * 0.7, y + s * 0.3)], fill=colour, width=max(2, round(s / 6)))
        draw.pieslice([x + s * 0.35, y, x + s, y + s * 0.65], 200, 20, fill=colour)
    elif kind in SUITS:
        _suit(draw, kind, x, y, s, colour)


# The four suit pips are drawn four times larger and scaled down (smooth edges), so that at
# 14 pixels a spade keeps its point and stem and a club its three lobes.
SUITS = ("heart", "diamond", "spade", "club")
SCALE = 4


def _suit(draw: ImageDraw.ImageDraw, kind: str, x: float, y: float, size: float, colour: RGB) -> None:
    left, top = math.floor(x), math.floor(y)
    mask = _suit_mask(kind, round(size * SCALE), round((x - left) * SCALE), round((y - top) * SCALE))
    draw.bitmap((left, top), mask, fill=colour)


@lru_cache(maxsize=128)
def _suit_mask(kind: str, s: int, dx: int, dy: int) -> Image.Image:
    """The pip ``kind`` in a square of ``s`` (at SCALE), offset by ``dx, dy``, as a mask at
    the final size."""
    side = s + max(dx, dy) + SCALE
    side += -side % SCALE
    big = Image.new("L", (side, side), 0)
    pen = ImageDraw.Draw(big)

    def at(px: float, py: float) -> tuple[float, float]:
        return dx + px * s, dy + py * s

    def disc(cx: float, cy: float, r: float) -> None:
        (ax, ay), (bx, by) = at(cx - r, cy - r), at(cx + r, cy + r)
        pen.ellipse([ax, ay, bx, by], fill=255)

    if kind == "diamond":
        pen.polygon([at(0.5, 0), at(0.88, 0.5), at(0.5, 1), at(0.12, 0.5)], fill=255)
    elif kind == "heart":
        for cx in (0.27, 0.73):
            disc(cx, 0.3, 0.25)
        pen.polygon([at(0.025, 0.36), at(0.975, 0.36), at(0.5, 0.98)], fill=255)
    elif kind == "spade":
        # a point at the top, two lobes below it, and a flared stem under a narrow neck
        for cx in (0.27, 0.73):
            disc(cx, 0.54, 0.23)
        pen.polygon([at(0.5, 0.0), at(0.04, 0.5), at(0.96, 0.5)], fill=255)
        pen.polygon([at(0.5, 0.55), at(0.28, 1.0), at(0.72, 1.0)], fill=255)
    elif kind == "club":
        # three round lobes around a small centre, and the same stem as the spade
        r = 0.21
        disc(0.5, 0.23, r)
        disc(0.22, 0.6, r)
        disc(0.78, 0.6, r)
        disc(0.5, 0.52, 0.1)
        pen.polygon([at(0.44, 0.55), at(0.56, 0.55), at(0.7, 1.0), at(0.3, 1.0)], fill=255)
    return big.resize((side // SCALE, side // SCALE), Image.Resampling.BOX)


# The effect marks of King's Dynasty's cards and what each says (the gallery's legend). Two
# more marks draw the table's tiles: ``clockwise``/``anticlockwise`` (the direction of play)
# and ``disc``.
MARK_MEANING = {
    "draw": "the next player draws (+N) and loses the turn",
    "wild": "wild: played on any suit, its player names the suit",
    "skip": "skips the next player",
    "reverse": "reverses the direction of play",
    "choice": "its player chooses: keep, skip or reverse",
    "answer": "played only in answer to a draw card",
    "shield": "cancels the card it answers (a Defender: a battle card, for its player)",
    "risk": "a risk card: played from in front of its holder",
    "battle": "a battle card: played on any suit on a normal turn",
    "dungeon": "the next player loses two turns",
    "extra": "its player may add one more playable card",
    "escort": "played together with a second card",
    "last": "played only as the last card",
    "key": "take any card from the draw pile",
    "magic": "played as any scroll card",
    "turn": "makes a chosen player's turn for them",
}


def mark(
    draw: ImageDraw.ImageDraw,
    kind: str,
    x: float,
    y: float,
    size: float,
    colour: RGB,
    text: str = "",
    font: ImageFont.FreeTypeFont | ImageFont.ImageFont | None = None,
) -> None:
    """One effect mark in a round badge of ``colour``: a white shape, and ``text`` (``+2``)."""
    s = size
    draw.ellipse([x, y, x + s, y + s], fill=colour)
    inner = s * 0.22
    ix, iy, isz = x + inner, y + inner, s - 2 * inner
    line = max(2, round(s / 12))
    if kind == "draw" and text:
        pass  # the count (+2) is the mark
    elif kind == "draw":
        # two cards fanned
        draw.rounded_rectangle(
            [ix + isz * 0.05, iy + isz * 0.1, ix + isz * 0.6, iy + isz * 0.95], 3, outline=WHITE, width=line
        )
        draw.rounded_rectangle(
            [ix + isz * 0.4, iy, ix + isz * 0.95, iy + isz * 0.85], 3, fill=colour, outline=WHITE, width=line
        )
    elif kind == "wild":
        quarter = ((222, 170, 30), (46, 150, 70), (40, 110, 205), (140, 30, 60))
        for i, fill in enumerate(quarter):
            draw.pieslice([ix, iy, ix + isz, iy + isz], i * 90, i * 90 + 90, fill=fill, outline=WHITE)
    elif kind == "skip":
        draw.ellipse([ix, iy, ix + isz, iy + isz], outline=WHITE, width=line + 1)
        draw.line(
            [(ix + isz * 0.2, iy + isz * 0.8), (ix + isz * 0.8, iy + isz * 0.2)], fill=WHITE, width=line + 1
        )
    elif kind == "reverse":
        draw.arc([ix, iy, ix + isz, iy + isz], 200, 340, fill=WHITE, width=line)
        draw.arc([ix, iy, ix + isz, iy + isz], 20, 160, fill=WHITE, width=line)
        head = isz * 0.22
        draw.polygon(
            [
                (ix + isz, iy + isz * 0.5),
                (ix + isz - head, iy + isz * 0.25),
                (ix + isz + head * 0.4, iy + isz * 0.25),
            ],
            fill=WHITE,
        )
        draw.polygon(
            [(ix, iy + isz * 0.5), (ix + head, iy + isz * 0.75), (ix - head * 0.4, iy + isz * 0.75)],
            fill=WHITE,
        )
    elif kind == "choice":
        draw.polygon(
            [(ix + isz / 2, iy), (ix + isz, iy + isz / 2), (ix + isz / 2, iy + isz), (ix, iy + isz / 2)],
            outline=WHITE,
            width=line,
        )
        draw.line([(ix + isz / 2, iy), (ix + isz / 2, iy + isz)], fill=WHITE, width=line)
    elif kind == "answer":
        # a U-turn: the draw goes back
        draw.arc([ix, iy, ix + isz * 0.8, iy + isz * 0.8], 180, 360, fill=WHITE, width=line + 1)
        draw.line([(ix + isz * 0.8, iy + isz * 0.4), (ix + isz * 0.8, iy + isz)], fill=WHITE, width=line + 1)
        draw.polygon(
            [
                (ix - isz * 0.1, iy + isz * 0.4),
                (ix + isz * 0.3, iy + isz * 0.4),
                (ix + isz * 0.1, iy + isz * 0.75),
            ],
            fill=WHITE,
        )
    elif kind == "risk":
        draw.polygon(
            [(ix + isz / 2, iy), (ix + isz, iy + isz * 0.92), (ix, iy + isz * 0.92)],
            outline=WHITE,
            width=line,
        )
        draw.line([(ix + isz / 2, iy + isz * 0.3), (ix + isz / 2, iy + isz * 0.62)], fill=WHITE, width=line)
        draw.ellipse(
            [ix + isz / 2 - line, iy + isz * 0.72, ix + isz / 2 + line, iy + isz * 0.72 + 2 * line],
            fill=WHITE,
        )
    elif kind == "dungeon":
        # a barred window
        draw.rectangle([ix, iy, ix + isz, iy + isz], outline=WHITE, width=line)
        for bar in (0.33, 0.66):
            draw.line([(ix + isz * bar, iy), (ix + isz * bar, iy + isz)], fill=WHITE, width=line)
    elif kind == "extra":
        draw.rounded_rectangle([ix + isz * 0.15, iy, ix + isz * 0.85, iy + isz], 3, outline=WHITE, width=line)
        draw.line(
            [(ix + isz * 0.5, iy + isz * 0.25), (ix + isz * 0.5, iy + isz * 0.75)], fill=WHITE, width=line
        )
        draw.line(
            [(ix + isz * 0.25, iy + isz * 0.5), (ix + isz * 0.75, iy + isz * 0.5)], fill=WHITE, width=line
        )
    elif kind == "escort":
        for dx in (0.0, 0.35):
            draw.rounded_rectangle(
                [ix + isz * dx, iy + isz * (0.1 + dx / 3), ix + isz * (dx + 0.6), iy + isz],
                3,
                fill=colour,
                outline=WHITE,
                width=line,
            )
    elif kind == "last":
        # a finishing flag
        draw.line([(ix + isz * 0.15, iy), (ix + isz * 0.15, iy + isz)], fill=WHITE, width=line)
        draw.polygon(
            [(ix + isz * 0.15, iy), (ix + isz, iy + isz * 0.25), (ix + isz * 0.15, iy + isz * 0.5)],
            fill=WHITE,
        )
    elif kind in ("clockwise", "anticlockwise"):
        # the direction of play: a circular arrow, three quarters round, turning that way (the
        # anticlockwise one is the clockwise one seen in a mirror)
        mirror = kind == "anticlockwise"
        arc = (-30, 240) if mirror else (-60, 210)
        draw.arc([ix, iy, ix + isz, iy + isz], *arc, fill=WHITE, width=max(3, round(s / 9)))
        cx, cy, r = ix + isz / 2, iy + isz / 2, isz / 2
        end = math.radians(210)
        px, py = cx + r * math.cos(end), cy + r * math.sin(end)
        tx, ty = -math.sin(end), math.cos(end)  # along the turn, clockwise on screen
        head = isz * 0.42
        arrow = [
            (px + tx * head, py + ty * head),
            (px + math.cos(end) * head * 0.7, py + math.sin(end) * head * 0.7),
            (px - math.cos(end) * head * 0.7, py - math.sin(end) * head * 0.7),
        ]
        draw.polygon([(2 * cx - ax if mirror else ax, ay) for ax, ay in arrow], fill=WHITE)
    elif kind == "disc":
        pass  # the badge's colour is the message (the suit to follow)
    elif kind == "magic":
        symbol(draw, "star", ix, iy, isz, WHITE)
    elif kind == "turn":
        symbol(draw, "crown", ix, iy + isz * 0.15, isz, WHITE)
    elif kind in ("shield", "battle", "key"):
        symbol(draw, {"battle": "sword"}.get(kind, kind), ix, iy, isz, WHITE)
    if text and font is not None:
        draw.text(
            (x + s / 2, y + s / 2),
            text,
            font=font,
            fill=WHITE,
            anchor="mm",
            stroke_width=2,
            stroke_fill=colour,
        )
