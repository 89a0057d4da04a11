"""A player's rating over their matches, drawn by pygal as SVG on the server (no script)."""

from __future__ import annotations

from collections.abc import Sequence

import pygal
from pygal.style import Style

from bot.service.leaderboard import game_name
from bot.service.web import Curve

BOARDS_DRAWN = 6  # the newest boards; older ones are in the table above the chart
STYLE = Style(
    background="transparent",
    plot_background="#fffdf7",
    foreground="#3b3325",
    foreground_strong="#1f1a12",
    foreground_subtle="#d9cfb8",
    colors=("#b8860b", "#2f6f8f", "#8f2f4f", "#3f7f3f", "#6f4f9f", "#9f6f2f"),
    font_family="system-ui, sans-serif",
    label_font_size=13,
    major_label_font_size=13,
    legend_font_size=14,
    title_font_size=16,
)


def label(curve: Curve) -> str:
    current = ", current" if curve.season.current else ""
    return f"{game_name(curve.game_id)} · {curve.season.name}{current}"


def rating_chart(curves: Sequence[Curve]) -> str:
    """The skill (the cautious estimate /leaderboard shows: the rating's mean less three times
    its uncertainty) after each rated match, one line per board, as an SVG element."""
    chart = pygal.XY(
        style=STYLE,
        js=(),  # no script from elsewhere: the chart is plain SVG
        disable_xml_declaration=True,
        width=860,
        height=380,
        show_legend=True,
        legend_at_bottom=True,
        truncate_legend=-1,
        x_title="rated matches on the board",
        y_title="skill (a cautious estimate)",
        dots_size=3,
        print_values=False,
        show_x_guides=False,
        x_label_rotation=0,
    )
    chart.value_formatter = lambda y: f"{y:.1f}"
    drawn = curves[:BOARDS_DRAWN]
    longest = max((len(c.points) - 1 for c in drawn), default=1)
    step = max(1, -(-longest // 10))  # at most about ten whole numbers along the axis
    chart.x_labels = list(range(0, longest + step, step))
    for curve in drawn:
        chart.add(
            label(curve),
            [
                {"value": (n, skill), "label": "start" if n == 0 else f"match #{match_id}"}
                for n, (match_id, skill) in enumerate(curve.points)
            ],
        )
    svg: str = chart.render(is_unicode=True)
    return svg
