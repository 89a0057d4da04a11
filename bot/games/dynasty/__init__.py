"""King's Court / King's Dynasty / Bonus (seed 000): an UNO-like shedding game.

``GAME`` is the protocol object registered as ``dynasty``.

The hot modules (:data:`NATIVE_MODULES`) are plain Python that the install compiles with
mypyc (see ``setup.py``). Before anything imports them, this package checks that the
compiled files still match their sources (a digest written by the build); if not, or if
``KINGS_PURE_PYTHON`` is set, the sources are loaded instead. :data:`BUILD` says which.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from pathlib import Path

NATIVE_MODULES = ("cards", "state", "tables", "engine")  # in import order; setup.py has the same list
_HERE = Path(__file__).resolve().parent


def _compiled() -> bool:
    """Whether any of the hot modules has a compiled file beside its source."""
    return any(
        (_HERE / f"{m}{suffix}").exists()
        for m in NATIVE_MODULES
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
    )


def _stale() -> bool:
    try:
        digests = json.loads((_HERE / "_native.json").read_text())
    except (OSError, ValueError):
        return True
    return any(
        digests.get(m) != hashlib.sha256((_HERE / f"{m}.py").read_bytes()).hexdigest()
        for m in NATIVE_MODULES
    )


def _load_sources() -> None:
    package = sys.modules[__name__]
    for m in NATIVE_MODULES:
        name = f"{__name__}.{m}"
        spec = importlib.util.spec_from_file_location(name, _HERE / f"{m}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        setattr(package, m, module)


def _choose_build() -> str:
    if not _compiled():
        return "pure Python"
    if any(f"{__name__}.{m}" in sys.modules for m in NATIVE_MODULES):
        return "compiled (mypyc)"  # already imported: keep what is there
    if os.environ.get("KINGS_PURE_PYTHON"):
        _load_sources()
        return "pure Python (KINGS_PURE_PYTHON)"
    if _stale():
        warnings.warn(
            "The compiled dynasty engine does not match its sources (edited since the last "
            "build); using the sources. Run `pip install -e .` again to recompile.",
            RuntimeWarning, stacklevel=2,
        )
        _load_sources()
        return "pure Python (compiled modules out of date)"
    return "compiled (mypyc)"


BUILD = _choose_build()

from bot.games.dynasty.game import GAME, Dynasty

__all__ = ["BUILD", "GAME", "NATIVE_MODULES", "Dynasty"]
