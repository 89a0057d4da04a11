"""Glyphs: a small picture per named card that shares its effect marks with others (the
battle cards, the risk cards, the four wild royals, the two last cards), so that each reads
at a glance without its name. All drawn by this code from simple shapes.

A glyph is a silhouette in one colour on the card's paper, in a square box ``(x, y, size)``;
effect marks (:func:`bot.images.symbols.mark`) are white shapes in a round badge, so the
two never look alike.
"""

from __future__ import annotations

from collections.abc import Callable

from PIL import ImageDraw

RGB = tuple[int, int, int]
PAPER: RGB = (250, 248, 240)
FLAME: RGB = (232, 110, 30)
EMBER: RGB = (250, 200, 50)
Point = tuple[float, float]


class Box:
    """Fractions of the glyph's square box to pixels: ``b(0.5, 0.5)`` is its centre."""

    def __init__(self, x: float, y: float, size: float) -> None:
        self.x, self.y, self.s = x, y, size

    def __call__(self, fx: float, fy: float) -> Point:
        return (self.x + fx * self.s, self.y + fy * self.s)

    def rect(self, x0: float, y0: float, x1: float, y1: float) -> list[float]:
        return [self.x + x0 * self.s, self.y + y0 * self.s, self.x + x1 * self.s, self.y + y1 * self.s]

    def disc(self, cx: float, cy: float, r: float) -> list[float]:
        return self.rect(cx - r, cy - r, cx + r, cy + r)

    def width(self, fraction: float) -> int:
        return max(2, round(self.s * fraction))


def _flame(draw: ImageDraw.ImageDraw, b: Box, x0: float, y0: float, x1: float, y1: float) -> None:
    """A flame filling the box's part (x0, y0)-(x1, y1): orange with a yellow heart."""

    def tongue(left: float, top: float, right: float, bottom: float, fill: RGB) -> None:
        w, h = right - left, bottom - top
        draw.ellipse(b.rect(left, top + h * 0.4, right, bottom), fill=fill)
        draw.polygon(
            [b(left + w * 0.02, top + h * 0.7), b(left + w * 0.55, top), b(right - w * 0.02, top + h * 0.7)],
            fill=fill,
        )

    w, h = x1 - x0, y1 - y0
    tongue(x0, y0, x1, y1, FLAME)
    tongue(x0 + w * 0.28, y0 + h * 0.4, x1 - w * 0.28, y1 - h * 0.04, EMBER)


def cannonball(draw: ImageDraw.ImageDraw, b: Box, c: RGB) -> None:
    draw.ellipse(b.rect(0.06, 0.2, 0.84, 0.98), fill=c)
    draw.ellipse(b.rect(0.2, 0.34, 0.36, 0.5), fill=PAPER)
    draw.line([b(0.66, 0.3), b(0.84, 0.1)], fill=c, width=b.width(0.08))
    _flame(draw, b, 0.76, -0.04, 1.0, 0.22)


def catapult(draw: ImageDraw.ImageDraw, b: Box, c: RGB) -> None:
    draw.rectangle(b.rect(0.04, 0.76, 0.96, 0.86), fill=c)
    for cx in (0.22, 0.78):
        draw.ellipse(b.disc(cx, 0.88, 0.11), fill=c, outline=PAPER, width=1)
    draw.polygon([b(0.5, 0.78), b(0.64, 0.42), b(0.78, 0.78)], fill=c)
    draw.line([b(0.92, 0.66), b(0.24, 0.24)], fill=c, width=b.width(0.1))
    draw.pieslice(b.rect(0.04, 0.02, 0.4, 0.38), 20, 200, fill=c)
    draw.ellipse(b.disc(0.2, 0.1, 0.1), fill=c)


def flaming_arrow(draw: ImageDraw.ImageDraw, b: Box, c: RGB) -> None:
    draw.line([b(0.08, 0.92), b(0.72, 0.28)], fill=c, width=b.width(0.09))
    draw.polygon([b(0.98, 0.02), b(0.58, 0.22), b(0.78, 0.42)], fill=c)
    for along in (0.0, 0.14):
        draw.polygon(
            [b(0.1 + along, 0.9 - along), b(0.0 + along, 0.78 - along), b(0.1 + along, 0.74 - along)], fill=c
        )
        draw.polygon(
            [b(0.1 + along, 0.9 - along), b(0.22 + along, 1.0 - along), b(0.26 + along, 0.9 - along)], fill=c
        )
    _flame(draw, b, 0.28, 0.04, 0.62, 0.56)


def siege_tower(draw: ImageDraw.ImageDraw, b: Box, c: RGB) -> None:
    draw.rectangle(b.rect(0.2, 0.18, 0.8, 0.84), fill=c)
    for left in (0.2, 0.43, 0.66):
        draw.rectangle(b.rect(left, 0.02, left + 0.14, 0.2), fill=c)
    draw.rectangle(b.rect(0.38, 0.46, 0.62, 0.84), fill=PAPER)
    for cx in (0.3, 0.7):
        draw.ellipse(b.disc(cx, 0.86, 0.12), fill=c, outline=PAPER, width=1)


def imperial_tax(draw: ImageDraw.ImageDraw, b: Box, c: RGB) -> None:
    """A stack of coins."""
    for i in range(4):
        top = 0.72 - i * 0.18
        draw.rounded_rectangle(b.rect(0.12, top, 0.88, top + 0.24), radius=b.s * 0.1, fill=c, outline=PAPER)
    draw.ellipse(b.rect(0.12, 0.08, 0.88, 0.3), fill=c, outline=PAPER, width=b.width(0.05))
    draw.ellipse(b.rect(0.3, 0.14, 0.7, 0.24), outline=PAPER, width=1)


def dark_knight(draw: ImageDraw.ImageDraw, b: Box, c: RGB) -> None:
    """A closed helmet with a plume."""
    draw.pieslice(b.rect(0.18, 0.16, 0.82, 0.8), 180, 360, fill=c)
    draw.rectangle(b.rect(0.18, 0.47, 0.82, 0.96), fill=c)
    draw.rectangle(b.rect(0.26, 0.46, 0.74, 0.54), fill=PAPER)
    for cx in (0.4, 0.5, 0.6):
        draw.line([b(cx, 0.66), b(cx, 0.84)], fill=PAPER, width=1)
    draw.polygon([b(0.5, 0.18), b(0.62, 0.0), b(0.98, 0.06), b(0.62, 0.2)], fill=c)


def poison_garden(draw: ImageDraw.ImageDraw, b: Box, c: RGB) -> None:
    """A skull."""
    draw.ellipse(b.rect(0.12, 0.04, 0.88, 0.72), fill=c)
    draw.rounded_rectangle(b.rect(0.28, 0.56, 0.72, 0.94), radius=b.s * 0.06, fill=c)
    for cx in (0.34, 0.66):
        draw.ellipse(b.disc(cx, 0.4, 0.11), fill=PAPER)
    draw.polygon([b(0.5, 0.52), b(0.44, 0.64), b(0.56, 0.64)], fill=PAPER)
    for cx in (0.4, 0.5, 0.6):
        draw.line([b(cx, 0.76), b(cx, 0.94)], fill=PAPER, width=1)


def castle_fire(draw: ImageDraw.ImageDraw, b: Box, c: RGB) -> None:
    """A castle wall in flames."""
    draw.rectangle(b.rect(0.04, 0.62, 0.96, 0.98), fill=c)
    for left in (0.04, 0.3, 0.56, 0.82):
        draw.rectangle(b.rect(left, 0.5, left + 0.14, 0.64), fill=c)
    draw.pieslice(b.rect(0.38, 0.7, 0.62, 1.1), 180, 360, fill=PAPER)
    _flame(draw, b, 0.14, -0.02, 0.86, 0.62)


def goblet(draw: ImageDraw.ImageDraw, b: Box, c: RGB) -> None:
    draw.pieslice(b.rect(0.12, -0.28, 0.88, 0.6), 0, 180, fill=c)
    draw.rectangle(b.rect(0.44, 0.56, 0.56, 0.84), fill=c)
    draw.rounded_rectangle(b.rect(0.24, 0.82, 0.76, 0.96), radius=b.s * 0.05, fill=c)
    draw.ellipse(b.disc(0.5, 0.32, 0.08), fill=PAPER)


def king(draw: ImageDraw.ImageDraw, b: Box, c: RGB) -> None:
    """A tall crown of three spikes under a cross."""
    draw.polygon(
        [b(0.08, 0.9), b(0.08, 0.4), b(0.3, 0.62), b(0.5, 0.3), b(0.7, 0.62), b(0.92, 0.4), b(0.92, 0.9)],
        fill=c,
    )
    for cx in (0.08, 0.92):
        draw.ellipse(b.disc(cx, 0.38, 0.08), fill=c)
    draw.rectangle(b.rect(0.45, 0.0, 0.55, 0.34), fill=c)
    draw.rectangle(b.rect(0.36, 0.08, 0.64, 0.17), fill=c)
    draw.rectangle(b.rect(0.08, 0.74, 0.92, 0.79), fill=PAPER)


def queen(draw: ImageDraw.ImageDraw, b: Box, c: RGB) -> None:
    """A crown of five pearl-tipped points with a jewel."""
    tips = (0.06, 0.28, 0.5, 0.72, 0.94)
    heights = (0.36, 0.22, 0.12, 0.22, 0.36)
    outline = [b(0.1, 0.92)]
    for i, (tx, ty) in enumerate(zip(tips, heights)):
        outline.append(b(tx, ty + 0.06))
        if i < len(tips) - 1:
            outline.append(b((tx + tips[i + 1]) / 2, 0.6))
    outline.append(b(0.9, 0.92))
    draw.polygon(outline, fill=c)
    for tx, ty in zip(tips, heights):
        draw.ellipse(b.disc(tx, ty, 0.07), fill=c)
    draw.polygon([b(0.5, 0.62), b(0.58, 0.74), b(0.5, 0.86), b(0.42, 0.74)], fill=PAPER)


def duke(draw: ImageDraw.ImageDraw, b: Box, c: RGB) -> None:
    """A low coronet of three pointed leaves, jewels in its band."""
    draw.rounded_rectangle(b.rect(0.06, 0.58, 0.94, 0.88), radius=b.s * 0.06, fill=c)
    for cx in (0.26, 0.5, 0.74):
        draw.ellipse(b.disc(cx, 0.73, 0.06), fill=PAPER)
    for cx in (0.2, 0.5, 0.8):
        draw.polygon([b(cx - 0.16, 0.6), b(cx, 0.16), b(cx + 0.16, 0.6)], fill=c)


def duchess(draw: ImageDraw.ImageDraw, b: Box, c: RGB) -> None:
    """A low plain coronet under a row of five pearls."""
    draw.rounded_rectangle(b.rect(0.06, 0.6, 0.94, 0.88), radius=b.s * 0.06, fill=c)
    for cx, cy in ((0.14, 0.46), (0.32, 0.36), (0.5, 0.32), (0.68, 0.36), (0.86, 0.46)):
        draw.line([b(cx, cy), b(cx, 0.62)], fill=c, width=b.width(0.05))
        draw.ellipse(b.disc(cx, cy, 0.1), fill=c)


def potion(draw: ImageDraw.ImageDraw, b: Box, c: RGB) -> None:
    """A round flask with a cork."""
    draw.ellipse(b.rect(0.14, 0.32, 0.86, 1.0), fill=c)
    draw.rectangle(b.rect(0.4, 0.1, 0.6, 0.4), fill=c)
    draw.rectangle(b.rect(0.34, 0.0, 0.66, 0.12), fill=c)
    draw.ellipse(b.disc(0.38, 0.58, 0.07), fill=PAPER)
    draw.ellipse(b.disc(0.6, 0.76, 0.05), fill=PAPER)


def treasure(draw: ImageDraw.ImageDraw, b: Box, c: RGB) -> None:
    """A chest with a domed lid and a lock."""
    draw.pieslice(b.rect(0.06, 0.14, 0.94, 0.74), 180, 360, fill=c)
    draw.rectangle(b.rect(0.06, 0.44, 0.94, 0.92), fill=c)
    draw.line([b(0.06, 0.48), b(0.94, 0.48)], fill=PAPER, width=b.width(0.05))
    draw.rectangle(b.rect(0.42, 0.4, 0.58, 0.62), fill=PAPER)
    draw.ellipse(b.disc(0.5, 0.5, 0.035), fill=c)


GLYPHS: dict[str, Callable[[ImageDraw.ImageDraw, Box, RGB], None]] = {
    "cannonball": cannonball,
    "catapult": catapult,
    "flaming arrow": flaming_arrow,
    "siege tower": siege_tower,
    "imperial tax": imperial_tax,
    "dark knight": dark_knight,
    "poison garden": poison_garden,
    "castle fire": castle_fire,
    "goblet": goblet,
    "king": king,
    "queen": queen,
    "duke": duke,
    "duchess": duchess,
    "potion": potion,
    "treasure": treasure,
}


def glyph(draw: ImageDraw.ImageDraw, kind: str, x: float, y: float, size: float, colour: RGB) -> None:
    """The glyph ``kind`` (a key of :data:`GLYPHS`) in the box ``(x, y, size)``."""
    GLYPHS[kind](draw, Box(x, y, size), colour)
