"""The import rules of docs/ARCHITECTURE.md, checked by reading every module's imports."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STDLIB = set(sys.stdlib_module_names) | {"__future__"}

# layer -> (files, allowed top-level third-party packages, allowed project packages)
RULES: dict[str, tuple[str, set[str], tuple[str, ...]]] = {
    "engines": ("bot/games/**/*.py", set(), ("bot.games",)),
    "database": (
        "db/**/*.py",
        {"sqlalchemy", "sqlmodel", "alembic", "openskill", "orjson", "asyncpg"},
        ("db",),
    ),  # asyncpg: a move on PostgreSQL
    "service": ("bot/service/**/*.py", {"openskill"}, ("bot.games", "bot.worker", "bot.service", "db")),
    "images": ("bot/images/**/*.py", {"PIL"}, ("bot.games", "bot.images")),
    "ui": ("bot/ui/**/*.py", {"discord"}, ("bot.games", "bot.service", "bot.ui", "bot.images")),
    "cogs": ("cogs/**/*.py", {"discord"}, ("bot.games", "bot.ui")),
    "web": (
        "bot/web/**/*.py",
        {"aiohttp", "jinja2", "pygal", "markupsafe", "discord"},
        ("bot.games", "bot.service", "bot.images", "bot.ui", "bot.web"),
    ),  # discord: the tables' embeds, as bot.ui.render makes them
    "simulate": ("bot/simulate.py", set(), ("bot.games",)),
    "AI workers": ("bot/worker.py", set(), ("bot.games",)),  # each worker process imports only this
}


def imports_of(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:  # ``from bot import worker`` imports the module bot.worker
                submodule = ROOT.joinpath(*node.module.split("."), alias.name)
                is_module = submodule.with_suffix(".py").exists() or (submodule / "__init__.py").exists()
                names.append(f"{node.module}.{alias.name}" if is_module else node.module)
    return names


def _allowed(name: str, third_party: set[str], project: tuple[str, ...]) -> bool:
    top = name.split(".")[0]
    if top in STDLIB:
        return True
    if top in third_party:
        return True
    return any(name == p or name.startswith(p + ".") for p in project)


@pytest.mark.parametrize("layer", sorted(RULES))
def test_layer_imports(layer: str) -> None:
    pattern, third_party, project = RULES[layer]
    files = sorted(ROOT.glob(pattern))
    assert files, f"no files for {layer}"
    bad = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in files
        for name in imports_of(path)
        if not _allowed(name, third_party, project)
    ]
    assert not bad, "\n".join(bad)


def test_engines_have_no_clock_or_global_random() -> None:
    """Engines may seed a private ``random.Random`` from their own state, never use the global one."""
    for path in sorted(ROOT.glob("bot/games/**/*.py")):
        names = imports_of(path)
        for forbidden in ("time", "datetime", "asyncio", "secrets"):
            assert forbidden not in names, f"{path.relative_to(ROOT)} imports {forbidden}"
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "random":
                assert all(a.name == "Random" for a in node.names), f"{path.relative_to(ROOT)}: global random"
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
            ):
                assert node.attr == "Random", f"{path.relative_to(ROOT)} uses the global random.{node.attr}"


def test_nothing_imports_cogs() -> None:
    for path in sorted(ROOT.glob("**/*.py")):
        if ".venv" in path.parts or path.is_relative_to(ROOT / "tests"):
            continue
        for name in imports_of(path):
            assert not name.startswith("cogs"), f"{path.relative_to(ROOT)} imports {name}"


SIZE_CAPPED = ("bot/**/*.py", "db/**/*.py", "cogs/**/*.py")  # every module: engines, bot, database, cogs
NOT_SIZE_CAPPED: tuple[str, ...] = ()
MODULE_LINE_LIMIT = 400


def test_modules_stay_small() -> None:
    """A module of the bot (engines included), the cogs or the database past about 400 lines
    mixes seams: split it by responsibility (docs/ARCHITECTURE.md lists the modules)."""
    paths = {path for pattern in SIZE_CAPPED for path in ROOT.glob(pattern)}
    capped = sorted(p for p in paths if not any(p.is_relative_to(ROOT / skip) for skip in NOT_SIZE_CAPPED))
    assert all(
        any(p.is_relative_to(ROOT / folder) for p in capped)
        for folder in ("db", "bot/ui", "bot/games", "cogs")
    ), "the cap finds the modules it should"
    too_long = [
        f"{path.relative_to(ROOT)} has {lines} lines"
        for path in capped
        if (lines := len(path.read_text().splitlines())) > MODULE_LINE_LIMIT
    ]
    assert not too_long, "\n".join(too_long)


def test_sql_only_in_db() -> None:
    for path in sorted(ROOT.glob("**/*.py")):
        rel = path.relative_to(ROOT)
        if ".venv" in path.parts or rel.parts[0] in ("db", "tests", "benchmarks"):
            continue
        for name in imports_of(path):
            top = name.split(".")[0]
            assert top not in ("sqlalchemy", "sqlmodel", "aiosqlite", "asyncpg", "alembic"), (
                f"{rel} imports {name}"
            )


# Where no engine move code may be written: a rename in an engine would silently break it.
OUTSIDE_ENGINES = ("cogs", "bot/ui", "bot/service", "bot/images", "db")
# Words that are the bot's own and happen to spell a move kind, by file:
NOT_MOVES = {
    ("bot/ui/lobby.py", "join"),  # the lobby's Join button (its custom id's action)
    ("bot/ui/party.py", "join"),  # the party lobby's Join button
    ("bot/images/dynasty.py", "cut"),  # the view data's phase "cut", not the dealer's move
    ("bot/images/dreams.py", "attack"),  # the attack pile's card back, not the move
    ("bot/ui/help.py", "court"),  # the game id keying the guide's page, not the move
}


def _declared_kinds() -> set[str]:
    """Every move kind the registered and example games declare or offer: their commands'
    kinds, their ``card_kinds``, their rule timers' moves, and the kinds of the legal moves
    met in a few random matches (seeded, so the set is the same every run)."""
    import random

    from bot.games import EXAMPLES, GAMES
    from bot.games.base import Rng, move_kind

    kinds: set[str] = set()
    for game in (*GAMES.values(), *EXAMPLES.values()):
        kinds.update(game.card_kinds)
        for command in game.commands:
            kinds.update(command.moves)
        players = game.hints.players or game.min_players
        for seed in range(3):
            rnd = random.Random(seed)
            state = game.setup(players, seed, dict(game.hints.quick))
            for _ in range(400):
                if game.outcome(state) is not None:
                    break
                timed = game.timer(state)
                if timed is not None:
                    kinds.add(move_kind(timed.move))
                seat = rnd.choice(sorted(game.to_act(state)))
                kinds.update(move.kind for move in game.legal_moves(state, seat))
                state, _events = game.apply(
                    state, seat, game.ai_move(state, seat, Rng.from_seed(rnd.getrandbits(62)))
                )
    return kinds


def _not_code(tree: ast.AST) -> set[int]:
    """The string constants that cannot be a move code: a ``name=`` argument (a slash
    command's own name) and a key read from a mapping (``data["attack"]``,
    ``data.get("phase")``: the view data's keys)."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "name":
            skip.add(id(node.value))
        elif isinstance(node, ast.Subscript):
            skip.add(id(node.slice))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and node.args
        ):
            skip.add(id(node.args[0]))
    return skip


def test_no_move_code_outside_engines() -> None:
    """No move kind (``"play"``, ``"acc"``) as a whole string literal, nor a code's start
    (``"play:"``), outside ``bot/games/``: the engines declare their moves, the rest reads
    them. Kinds of one letter are left out (too common to tell from other text)."""
    kinds = {k for k in _declared_kinds() if len(k) >= 2}
    assert {"play", "pick", "sell", "duel", "acc", "reveal"} <= kinds, (
        "the collection finds the kinds it should"
    )
    bad = []
    for folder in OUTSIDE_ENGINES:
        for path in sorted((ROOT / folder).glob("**/*.py")):
            rel = path.relative_to(ROOT).as_posix()
            tree = ast.parse(path.read_text(), filename=str(path))
            skip = _not_code(tree)
            for node in ast.walk(tree):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
                    kind = node.value.removesuffix(":")
                    if kind in kinds and (rel, kind) not in NOT_MOVES:
                        bad.append(f"{rel}:{node.lineno} {node.value!r}")
    assert not bad, "move codes outside bot/games/:\n" + "\n".join(bad)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _import_time_imports(
    body: list[ast.stmt], *, type_checking: bool = False
) -> list[ast.Import | ast.ImportFrom]:
    """The imports run when a module is imported: its body's, and those inside its top-level
    ``if``/``try``/``with``/class blocks, but not inside functions (run when called) nor,
    unless ``type_checking``, under ``if TYPE_CHECKING:`` (run by the type checker only)."""
    found: list[ast.Import | ast.ImportFrom] = []
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        elif isinstance(node, ast.If):
            test = node.test
            checking = (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
                isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
            )
            if type_checking or not checking:
                found += _import_time_imports(node.body, type_checking=type_checking)
            found += _import_time_imports(node.orelse, type_checking=type_checking)
        elif isinstance(node, ast.Try):
            for block in (node.body, *(h.body for h in node.handlers), node.orelse, node.finalbody):
                found += _import_time_imports(block, type_checking=type_checking)
        elif isinstance(node, (ast.With, ast.ClassDef)):
            found += _import_time_imports(node.body, type_checking=type_checking)
    return found


@pytest.mark.parametrize("type_checking", [False, True], ids=["at import time", "also under TYPE_CHECKING"])
def test_no_import_cycles(type_checking: bool) -> None:
    """No module of bot/, cogs/ or db/ imports, at import time, a module that imports it back
    (directly or through others); nor does one when the imports the type checker alone runs
    count too. ``from package import module`` counts as importing that module, not the
    package's ``__init__``."""
    paths = [p for folder in ("bot", "cogs", "db") for p in sorted((ROOT / folder).glob("**/*.py"))]
    modules = {_module_name(p): p for p in paths}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges: set[str] = set()
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in _import_time_imports(tree.body, type_checking=type_checking):
            if isinstance(node, ast.Import):
                edges.update(alias.name for alias in node.names if alias.name in modules)
                continue
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                if f"{base}.{alias.name}" in modules:
                    edges.add(f"{base}.{alias.name}")
                elif base in modules:
                    edges.add(base)
        graph[name] = edges - {name}

    # Depth-first search; a back edge to a module on the current path closes a cycle.
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path_now: list[str] = []

    def visit(name: str) -> None:
        state[name] = 1
        path_now.append(name)
        for nxt in sorted(graph[name]):
            if state.get(nxt) == 1:
                cycles.append(path_now[path_now.index(nxt) :] + [nxt])
            elif nxt not in state:
                visit(nxt)
        path_now.pop()
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name)
    assert graph["bot.service.matches"], "the graph has edges"
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


# --- the service is built from parts (docs/ARCHITECTURE.md) ------------------------------

SERVICE_FRONT = "MatchService"  # the one front: it passes each call of its API to a part
MAX_PUBLIC_METHODS = 25


def _service_classes() -> list[tuple[str, ast.ClassDef]]:
    return [
        (path.relative_to(ROOT).as_posix(), node)
        for path in sorted(ROOT.glob("bot/service/*.py"))
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path)))
        if isinstance(node, ast.ClassDef)
    ]


def test_service_parts_do_not_inherit_from_each_other() -> None:
    """No mixin chain: a class of the service inherits from no other class of the service
    (a protocol it implements is not inherited from either: it is met by its shape). Errors
    are a family of exceptions, and may be one."""
    names = {node.name for _path, node in _service_classes() if not node.name.endswith("Error")}
    bad = [
        f"{path}: {node.name}({ast.unparse(base)})"
        for path, node in _service_classes()
        for base in node.bases
        if ast.unparse(base).split("[")[0].split(".")[-1] in names
    ]
    assert not bad, "service classes built on other service classes:\n" + "\n".join(bad)


def test_service_has_no_stubs() -> None:
    """No method of the service waits for another class to supply it."""
    for path in sorted(ROOT.glob("bot/service/*.py")):
        assert "NotImplementedError" not in path.read_text(), f"{path.relative_to(ROOT)} has a stub"


def test_service_parts_are_small() -> None:
    """Every part of the service has at most about 25 public methods, the front included: it
    passes the match's own calls on (one line each); the Discord layer reaches the other parts
    by name (``service.parties``, ``service.settings``, ``service.replays``...)."""
    for path, node in _service_classes():
        public = [
            item.name
            for item in node.body
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and not item.name.startswith("_")
        ]
        if node.name == SERVICE_FRONT:
            delegating = [
                item.name
                for item in node.body
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                and not item.name.startswith("_")
                and len([s for s in item.body if not isinstance(s, ast.Expr)]) > 1
            ]
            assert len(delegating) <= 3, f"{path}: the front does more than pass calls on: {delegating}"
        assert len(public) <= MAX_PUBLIC_METHODS, f"{path}: {node.name} has {len(public)} public methods"


# The kit's GameBase is the one wide class: each of its public names is a hook of the game
# protocol that a game may override (the moves, the view, the AI, the codec), read by the
# service and the pictures. Every other class of bot/, db/ and cogs/ stays small.
WIDE_BY_DESIGN = {"bot/games/kit/engine.py:GameBase"}


def test_no_class_is_wide() -> None:
    """No class of the bot has more than about 25 public methods (properties are attributes,
    not counted): a game's move handlers are private and declared with ``@handles``."""
    wide = []
    for folder in ("bot", "db", "cogs"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(), filename=str(path))
            for node in ast.walk(tree):
                if not isinstance(node, ast.ClassDef):
                    continue
                where = f"{path.relative_to(ROOT).as_posix()}:{node.name}"
                public = [
                    item.name
                    for item in node.body
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                    and not item.name.startswith("_")
                    and not any(ast.unparse(d).endswith("property") for d in item.decorator_list)
                ]
                if len(public) > MAX_PUBLIC_METHODS and where not in WIDE_BY_DESIGN:
                    wide.append(f"{where} has {len(public)} public methods")
    assert not wide, "\n".join(wide)
