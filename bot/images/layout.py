"""Cards laid out in a picture: groups of cards under their captions, in lines short enough
that a hand still reads at the size of Discord's preview."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.images.draw import CARD_H, CARD_W, FELT, FELT_TEXT, GAP, MARGIN, Face, card_image, fit_text, font

ROW_MAX = 6  # cards per line at most

Line = list[tuple[str, list[Face], int]]  # (caption, cards, block width in pixels)
CAPTION_SIZES = (18, 16, 14)  # a group's caption is never drawn smaller than 14 pixels
PREVIEW = (400, 300)  # about the box Discord's preview fits a picture into


def _cards_width(count: int) -> int:
    return max(count, 1) * (CARD_W + GAP) - GAP


def _blocks(rows: Sequence[tuple[str, Sequence[Face]]], per_row: int, fill: bool = False) -> list[Line]:
    """Groups packed into lines at most ``per_row`` cards wide. A group that does not fit
    what is left of a line starts the next one (or, with ``fill``, fills the line and goes on
    in the next under its caption again); a group longer than a line is split (without
    ``fill``, its caption over the first line only). A caption longer than its cards widens its block, so it is never squeezed."""
    limit = _cards_width(per_row)
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    lines: list[Line] = [[]]
    used = -GAP * 2
    for caption, faces in rows:
        rest, text = list(faces), caption
        while True:
            label = int(measure.textlength(text, font=font(CAPTION_SIZES[-1]))) if text else 0
            budget = limit + GAP * len(lines[-1])  # the wider gap between groups is free
            room = (budget - used - GAP * 2 + GAP) // (CARD_W + GAP)
            take = min(len(rest), per_row)
            if lines[-1] and min(max(_cards_width(take), label), limit) + GAP * 2 + used > budget:
                if fill and room >= 2 and label <= _cards_width(room):
                    take = room
                else:
                    lines.append([])
                    used = -GAP * 2
            block = min(max(_cards_width(take), label), limit)
            lines[-1].append((text, rest[:take], block))
            used += GAP * 2 + block
            rest = rest[take:]
            text = text if fill else ""
            if not rest:
                break
    return [line for line in lines if line]


def _widest(lines: list[Line]) -> int:
    return max(sum(w for _c, _f, w in line) + GAP * 2 * (len(line) - 1) for line in lines)


def _size(lines: list[Line], title: str) -> tuple[int, int]:
    width = max(MARGIN * 2 + _widest(lines), 360)
    height = MARGIN + (30 if title else 0) + len(lines) * (24 + CARD_H + GAP) + MARGIN - GAP
    return width, height


def _layout(rows: Sequence[tuple[str, Sequence[Face]]], title: str, per_row: int | None) -> list[Line]:
    """The lines of the picture: ``per_row`` cards wide, or by default the width (at most
    ROW_MAX cards) at which the picture shows largest in Discord's preview; then the fewest
    lines, groups kept whole, and lines as even as they can be (3 and 2 cards, not 4 and 1)."""
    if per_row is not None:
        return _blocks(rows, per_row)

    def preview_scale(lines: list[Line]) -> float:
        width, height = _size(lines, title)
        return min(PREVIEW[0] / width, PREVIEW[1] / height)

    options = [(_blocks(rows, n, fill), not fill) for fill in (False, True) for n in range(ROW_MAX, 2, -1)]
    best = max(options, key=lambda o: (round(preview_scale(o[0]), 2), -len(o[0]), o[1], -_widest(o[0])))
    return best[0]


def picture(
    rows: Sequence[tuple[str, Sequence[Face]]], *, title: str = "", per_row: int | None = None
) -> bytes:
    """Groups of cards, each with its caption above it, packed left to right in lines; one
    PNG."""
    lines = _layout(rows, title, per_row)
    width, height = _size(lines, title)
    image = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(image)
    y = MARGIN
    if title:
        text, f = fit_text(draw, title, width - 2 * MARGIN, (22, 18, 15))
        draw.text((MARGIN, y), text, font=f, fill=FELT_TEXT)
        y += 30
    for line in lines:
        x = MARGIN
        for caption, faces, block in line:
            if caption:
                text, f = fit_text(draw, caption, block, CAPTION_SIZES)
                draw.text((x, y), text, font=f, fill=FELT_TEXT)
            for i, face in enumerate(faces):
                image.paste(card_image(face), (x + i * (CARD_W + GAP), y + 24))
            x += block + GAP * 2
        y += 24 + CARD_H + GAP
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=3)
    return out.getvalue()
