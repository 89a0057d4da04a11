"""SQLAlchemy Core statements run straight on SQLite's own connection, each compiled once.

For every call, SQLAlchemy Core keys the statement, looks up its compiled form, sets up an
execution context and wraps the result: 70-80 us a statement on this machine, where SQLite
runs the statement itself in 5-20 us. The writer connection runs a move's write hundreds of
times a minute (on the event loop when the writer is idle, else on its thread), and the move that ends a match runs six statements (the move, the season,
the standings, the results), so on SQLite those go this shorter way. :class:`Direct` has the
one method of ``Connection`` that the shared code calls, ``execute``. It compiles each
statement for SQLite once for each set of columns it is given, binds the parameters by
position and runs them on the sqlite3 connection. Rows come back as named tuples, read by
attribute like SQLAlchemy's rows, so the same functions (``db.leaderboard``) run on either.

The shorter way drops some of what SQLAlchemy does, so these statements must not need it:
type conversion beyond sqlite3's own (the columns are numbers and text; a bool binds as
1 or 0, as SQLAlchemy binds it), column defaults other than plain values (those are filled
in on an INSERT, as SQLAlchemy fills them in), ``onupdate`` columns, and expanding IN lists
(``bindparam(..., expanding=True)``; a list of separate parameters works). A statement that
needs one of these is refused when it is compiled, never run differently.

The compiled forms are kept while their statement lives: statements built once (module
constants) are compiled once, and a statement built afresh for a rare write is compiled for
that call and dropped with it.
"""

from __future__ import annotations

import functools
import sqlite3
import weakref
from collections import namedtuple
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from sqlalchemy import Column, Table
from sqlalchemy.dialects import sqlite
from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.dml import Insert, UpdateBase

_DIALECT = sqlite.dialect()


@dataclass(frozen=True, slots=True)
class CompiledStatement:
    """A statement compiled once (for SQLite here; ``db.repository`` compiles a move for
    asyncpg too): its SQL, the names of its parameters in the order of its placeholders,
    the columns of RETURNING (when asked for), and the values of the parameters the
    statement carries itself (``.where(SE.guild_id == 5)``)."""

    sql: str
    params: tuple[str, ...]
    returns: tuple[str, ...] = ()
    fixed: Mapping[str, Any] | None = None

    def bind(self, values: Mapping[str, Any]) -> tuple[Any, ...]:
        if not self.fixed:
            return tuple(values[name] for name in self.params)
        return tuple(values[name] if name in values else self.fixed[name] for name in self.params)


def compile_statement(
    statement: Any,
    columns: Sequence[str] = (),
    returns: Sequence[Column[Any]] = (),
    dialect: Dialect = _DIALECT,
) -> CompiledStatement:
    """``statement`` (setting ``columns``, returning ``returns``) as SQLite's SQL text, or as
    another ``dialect``'s (``db.repository`` compiles a PostgreSQL move for asyncpg so)."""
    if returns:
        statement = statement.returning(*returns)
    compiled = statement.compile(dialect=dialect, column_keys=list(columns))
    if compiled.post_compile_params or compiled.literal_execute_params:
        raise ValueError(
            "an expanding IN list cannot take the direct path: give each value a parameter of its own"
        )
    table = getattr(statement, "table", None)
    if (
        isinstance(statement, UpdateBase)
        and isinstance(table, Table)
        and any(c.onupdate is not None for c in table.c)
    ):
        raise ValueError(f"{table.name} has onupdate columns, which the direct path does not fill in")
    fixed = {name: bind.effective_value for name, bind in compiled.binds.items() if not bind.required}
    if fixed and isinstance(statement, Insert):
        raise ValueError("an INSERT on the direct path takes its values as parameters, not from .values()")
    return CompiledStatement(
        compiled.string, tuple(compiled.positiontup or ()), tuple(c.name for c in returns), fixed or None
    )


@functools.cache
def _insert_defaults(table: Table) -> dict[str, Any]:
    """The plain-value defaults of a table's columns (what SQLAlchemy fills in on an INSERT
    that does not name them); a default that is a function or SQL is refused. Read once a
    table, not on every INSERT."""
    defaults: dict[str, Any] = {}
    for column in table.c:
        default = column.default
        if default is None:
            continue
        if not getattr(default, "is_scalar", False):
            raise ValueError(f"{table.name}.{column.name} has a default the direct path cannot fill in")
        defaults[column.key] = default.arg  # type: ignore[attr-defined]
    return defaults


class DirectResult:
    """What :meth:`Direct.execute` returns: the rows (if any) and the count of rows changed."""

    __slots__ = ("_rows", "rowcount")

    def __init__(self, rows: list[Any], rowcount: int) -> None:
        self._rows = rows
        self.rowcount = rowcount

    def all(self) -> list[Any]:
        return self._rows

    def first(self) -> Any:
        return self._rows[0] if self._rows else None

    def scalar(self) -> Any:
        return self._rows[0][0] if self._rows else None


class _Prepared:
    """A statement's compiled form for one set of columns, and the type of its rows (made
    from the first rows' column names)."""

    __slots__ = ("compiled", "row_type", "statement")

    def __init__(self, statement: weakref.ref[Any], compiled: CompiledStatement) -> None:
        self.statement = statement
        self.compiled = compiled
        self.row_type: Any = None

    def rows(self, description: Any, rows: list[tuple[Any, ...]]) -> list[Any]:
        if self.row_type is None:
            self.row_type = namedtuple("Row", [d[0] for d in description], rename=True)  # type: ignore[misc]
        return [self.row_type._make(r) for r in rows]


class Direct:
    """``execute`` of a SQLAlchemy ``Connection`` (the subset above) on its sqlite3
    connection, inside whatever transaction the caller began on it."""

    # (id of the statement, the columns it sets) -> its compiled form, while it lives
    _prepared: ClassVar[dict[tuple[int, tuple[str, ...]], _Prepared]] = {}

    def __init__(self, conn: Connection) -> None:
        driver = conn.connection.driver_connection
        assert isinstance(driver, sqlite3.Connection), "the direct path runs on SQLite only"
        self.driver = driver
        self.dialect = conn.dialect

    def execute(
        self, statement: Any, parameters: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None
    ) -> DirectResult:
        """Run ``statement`` with ``parameters`` (a list of them: once for each)."""
        many = isinstance(parameters, Sequence)
        given: list[Mapping[str, Any]] = list(parameters) if many else [parameters or {}]  # type: ignore[arg-type, list-item]
        if not given:
            return DirectResult([], 0)
        if isinstance(statement, Insert) and isinstance(statement.table, Table):
            defaults = _insert_defaults(statement.table)
            given = [{**{k: v for k, v in defaults.items() if k not in row}, **row} for row in given]
        prepared = self._prepare(statement, given[0])
        sql = prepared.compiled.sql
        try:
            if many:
                cursor = self.driver.executemany(sql, [prepared.compiled.bind(row) for row in given])
                return DirectResult([], cursor.rowcount)
            cursor = self.driver.execute(sql, prepared.compiled.bind(given[0]))
            rows = cursor.fetchall()
        except sqlite3.Error as err:  # the error SQLAlchemy would raise (IntegrityError, ...)
            raise DBAPIError.instance(sql, given, err, sqlite3.Error, dialect=self.dialect) from err
        return DirectResult(
            prepared.rows(cursor.description, rows) if cursor.description else [], cursor.rowcount
        )

    def _prepare(self, statement: Any, params: Mapping[str, Any]) -> _Prepared:
        table = getattr(statement, "table", None)
        columns = (
            tuple(k for k in params if k in table.c)
            if isinstance(statement, UpdateBase) and isinstance(table, Table)
            else ()
        )
        key = (id(statement), columns)
        prepared = self._prepared.get(key)
        if prepared is not None and prepared.statement() is statement:
            return prepared

        def gone(_ref: Any, key: tuple[int, tuple[str, ...]] = key) -> None:  # the statement was dropped
            Direct._prepared.pop(key, None)

        prepared = self._prepared[key] = _Prepared(
            weakref.ref(statement, gone), compile_statement(statement, columns)
        )
        return prepared
