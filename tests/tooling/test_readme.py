"""The README stays a page a host reads in minutes (issue 48): under 15 KB, no line over 200
characters outside code blocks, no table cell over 300, and a table of contents whose links
lead to headings or files that exist. Figures and experiments belong in docs/MEASUREMENTS.md."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"


def prose_lines() -> list[str]:
    lines, in_code = [], False
    for line in README.read_text().splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code:
            lines.append(line)
    return lines


def anchor(heading: str) -> str:
    """GitHub's anchor for a heading."""
    text = heading.lstrip("#").strip().lower()
    return re.sub(r"[^a-z0-9 _-]", "", text).replace(" ", "-")


def test_size_lines_and_cells() -> None:
    assert len(README.read_bytes()) < 15_000
    long = [line[:60] for line in prose_lines() if len(line) > 200]
    assert not long, long
    cells = [cell[:60] for line in prose_lines() if line.startswith("|") for cell in line.split("|")]
    assert not [c for c in cells if len(c) > 300]


def test_links_lead_somewhere() -> None:
    text = README.read_text()
    anchors = {anchor(line) for line in prose_lines() if line.startswith("#")}
    for target in re.findall(r"\]\(([^)]+)\)", text):
        if target.startswith("http"):
            continue
        path, _, fragment = target.partition("#")
        if path:
            assert (ROOT / path).exists(), target
            if fragment and path.endswith(".md"):
                inner = {
                    anchor(line) for line in (ROOT / path).read_text().splitlines() if line.startswith("#")
                }
                assert fragment in inner, target
        else:
            assert fragment in anchors, target


def test_the_test_command_is_the_one_ci_runs() -> None:
    assert ".venv/bin/python -m pytest" in README.read_text()
    assert ".venv/bin/python -m pytest" in (ROOT / ".ci" / "run").read_text()
