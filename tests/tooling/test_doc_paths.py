"""Every file of the repository that README.md or a page of docs/ names exists.

A doc names a file in inline code (`bot/games/kit/engine.py`, `tests/engines/test_pins.py`),
as a link target ([docs/OPERATIONS.md](docs/OPERATIONS.md)) or as a module it runs
(`python -m tests.pins.record`). Files move (the tests went into tiers, a module was split),
and a page that still names the old place sends a newcomer nowhere. A placeholder
(`bot/images/<id>.py`) stands for any name: some file must fit it.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.tooling.test_readme import anchor

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
TOPS = ("bot", "tests", "db", "benchmarks", "docs", "cogs", ".ci")

FENCE = re.compile(r"^```.*?^```", re.DOTALL | re.MULTILINE)
SPAN = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"\]\(([^)\s]+)\)")
MODULE = re.compile(r"python -m ([A-Za-z_][\w.]*)")
PLACEHOLDER = re.compile(r"<[^<>]*>|\{[^{}]*\}")  # <id>, <game id>, {a,b}


def exists(path: str) -> bool:
    """True when ``path`` (from the repository's root) is there; with a placeholder, when
    some file fits it."""
    pattern = PLACEHOLDER.sub("*", path)
    if "*" in pattern:
        return any(ROOT.glob(pattern.rstrip("/")))
    return (ROOT / path).exists()


def named_paths(text: str) -> set[str]:
    """The repository paths in ``text``'s inline code (outside fenced blocks)."""
    found = set()
    for span in SPAN.findall(FENCE.sub("", text)):
        for token in PLACEHOLDER.sub(lambda m: m.group(0).replace(" ", "_"), span).split():
            token = token.strip("()[],;'\"").split("::")[0]
            token = re.sub(r":\d*$", "", token)  # path:line, or a sentence's colon
            if token.startswith(tuple(f"{top}/" for top in TOPS)) and "://" not in token:
                found.add(token)
    return found


def linked_paths(doc: Path, text: str) -> set[str]:
    """The local link targets of ``doc``, from the repository's root."""
    found = set()
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue  # a URL, mailto:, or a heading of the same page
        path = target.partition("#")[0]
        resolved = (doc.parent / path).resolve()
        found.add(str(resolved.relative_to(ROOT)) if resolved.is_relative_to(ROOT) else target)
    return found


def run_modules(text: str) -> set[str]:
    """The repository's modules the text runs with ``python -m`` (fenced blocks included)."""
    return {m for m in MODULE.findall(text) if m.split(".")[0] in TOPS and m != "pytest"}


def module_exists(module: str) -> bool:
    path = ROOT / module.replace(".", "/")
    return path.with_suffix(".py").exists() or (path / "__main__.py").exists()


def headings(path: Path) -> set[str]:
    return {anchor(line) for line in FENCE.sub("", path.read_text()).splitlines() if line.startswith("#")}


def broken_anchors(doc: Path, text: str) -> list[str]:
    """The links to a heading (``#part``, ``OTHER.md#part``) whose page has no such heading."""
    broken = []
    for target in LINK.findall(text):
        path, _, fragment = target.partition("#")
        if not fragment or re.match(r"[a-z]+:", target) or not (path == "" or path.endswith(".md")):
            continue
        page = doc if path == "" else doc.parent / path
        if page.exists() and fragment not in headings(page):
            broken.append(target)
    return broken


def missing(doc: Path, text: str) -> list[str]:
    gone = [p for p in sorted(named_paths(text) | linked_paths(doc, text)) if not exists(p)]
    gone += [f"python -m {m}" for m in sorted(run_modules(text)) if not module_exists(m)]
    return gone + broken_anchors(doc, text)


def test_the_paths_are_found_at_all() -> None:
    adding = ROOT / "docs" / "ADDING_A_GAME.md"
    text = adding.read_text()
    assert "bot/games/kit/codec.py" in named_paths(text)
    assert "bot/images/<game_id>.py" in named_paths(text)
    assert "tests.pins.record" in run_modules(text)
    readme = ROOT / "README.md"
    assert "docs/OPERATIONS.md" in linked_paths(readme, readme.read_text())


def test_a_stale_path_is_caught() -> None:
    doc = ROOT / "docs" / "ADDING_A_GAME.md"
    stale = "Copy `tests/test_highcard.py` and `tests/test_<id>.py`; see [the pins](../tests/pin.py)."
    stale += " `python -m tests.pins.recorder`; [logs](OPERATIONS.md#log) and [here](#8-register)."
    assert missing(doc, stale) == [
        "tests/pin.py",
        "tests/test_<id>.py",
        "tests/test_highcard.py",
        "python -m tests.pins.recorder",
        "OPERATIONS.md#log",
        "#8-register",
    ]
    assert missing(doc, "[logs](OPERATIONS.md#logs), [here](#8-register-test-play)") == []
    assert missing(doc, "`bot/images/<game id>.py`, `https://example.org/bot/x.py`, [a](https://x.org)") == []


def test_every_path_the_docs_name_exists() -> None:
    gone = {doc.name: missing(doc, doc.read_text()) for doc in DOCS}
    assert not {name: paths for name, paths in gone.items() if paths}, gone
