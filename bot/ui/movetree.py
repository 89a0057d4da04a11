"""The hand's move tree: a player's legal moves arranged by the steps of their labels.

``Move.path`` splits a move's label into the choices a player makes one after another
(a card, then its suit); the hand view shows one level at a time. A custom id carries only
the positions chosen so far (``join_path``), never a card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.base import Move


def _unique(items: Sequence[str]) -> list[str]:
    seen: dict[str, None] = {}
    for x in items:
        seen.setdefault(x, None)
    return list(seen)


@dataclass(frozen=True, slots=True)
class Node:
    """A position in the tree of a seat's legal moves (grouped by ``Move.path``)."""

    labels: tuple[str, ...]  # the steps chosen so far
    children: tuple[str, ...]  # labels of the next step
    leaf: Move | None  # the move completed by exactly these steps
    choose_leaf_index: int | None = None  # index of a "just this" child when leaf and children coexist


def walk(moves: Sequence[Move], path: Sequence[int]) -> Node | None:
    """Follow child indices from the root; None if the path does not exist."""
    cand = list(moves)
    labels: list[str] = []
    for depth, idx in enumerate(path):
        node = _node(cand, labels, depth)
        if node.choose_leaf_index is not None and idx == node.choose_leaf_index:
            if depth == len(path) - 1:
                return Node(tuple(labels), (), node.leaf)
            return None
        if not 0 <= idx < len(node.children):
            return None
        label = node.children[idx]
        labels.append(label)
        cand = [m for m in cand if len(m.path) > depth and m.path[depth] == label]
    return _node(cand, labels, len(path))


def _node(cand: list[Move], labels: list[str], depth: int) -> Node:
    leaf = next((m for m in cand if len(m.path) == depth), None)
    children = tuple(_unique([m.path[depth] for m in cand if len(m.path) > depth]))
    extra = len(children) if leaf is not None and children else None
    return Node(tuple(labels), children, leaf, extra)


def parse_path(text: str) -> list[int] | None:
    if text == "":
        return []
    try:
        return [int(x) for x in text.split(".")]
    except ValueError:
        return None


def join_path(path: Sequence[int]) -> str:
    return ".".join(str(i) for i in path)
