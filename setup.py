"""Build script: compiles the ``dynasty`` engine's hot modules with mypyc.

The modules stay ordinary Python source; compiling them only makes them faster (the
benchmark in ``benchmarks/bench_dynasty.py`` needs it). Everything else about the package
is in ``pyproject.toml``.

- ``KINGS_PURE_PYTHON=1 pip install -e .`` skips the compilation.
- If mypyc or a C compiler is missing, or the build fails, the package installs without
  the compiled modules and runs as pure Python (a warning says so).
- The build writes ``bot/games/dynasty/_native.json`` with a digest of each compiled
  source. At import, :mod:`bot.games.dynasty` falls back to the source files when a
  compiled module no longer matches its source (edited after the last build).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
PACKAGE = "bot/games/dynasty"
NATIVE_MODULES = ("cards", "state", "tables", "engine")  # as bot.games.dynasty.NATIVE_MODULES (not importable here)
MANIFEST = "_native.json"


def source_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def native_extensions() -> list:
    if os.environ.get("KINGS_PURE_PYTHON"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("warning: mypyc is not available; the dynasty engine stays pure Python", file=sys.stderr)
        return []
    try:
        return mypycify(
            [f"{PACKAGE}/{m}.py" for m in NATIVE_MODULES],
            opt_level="3",
            group_name="bot.games.dynasty.native",
        )
    except (Exception, SystemExit) as err:  # noqa: BLE001 - optional build; mypy exits on type errors
        print(f"warning: mypyc could not compile the dynasty engine ({err}); it stays pure Python",
              file=sys.stderr)
        return []


class BuildNative(build_ext):
    """build_ext that never fails the install, and records what it compiled."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as err:  # noqa: BLE001 - optional build: no compiler, broken toolchain...
            print(f"warning: compiling the dynasty engine failed ({err}); it stays pure Python",
                  file=sys.stderr)
            for ext in self.extensions:
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            return
        digests = {m: source_digest(HERE / PACKAGE / f"{m}.py") for m in NATIVE_MODULES}
        out = Path(self.get_ext_fullpath(f"bot.games.dynasty.{NATIVE_MODULES[0]}")).parent / MANIFEST
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(digests, indent=1) + "\n")


setup(ext_modules=native_extensions(), cmdclass={"build_ext": BuildNative})
