"""Every SQL statement of table marks (:class:`db.models.TableMark`): what a match's table
and turn message show, kept so that a restart does not send them again."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sqlalchemy import Table, delete, insert, select
from sqlalchemy.engine import Connection

from db.models import TableMark
from db.repository import Repository

mark_table: Table = TableMark.__table__  # type: ignore[attr-defined]
TM = mark_table.c
Mark = tuple[int | None, str | None]  # (version shown, pinged as JSON)


class TableMarks:
    def __init__(self, repo: Repository) -> None:
        self.repo = repo

    async def save(self, marks: Mapping[int, Mark]) -> None:
        """Replace these matches' marks, in one transaction."""
        rows = [{"match_id": m, "shown": shown, "pinged": pinged} for m, (shown, pinged) in marks.items()]
        if rows:
            await self.repo.write(_replace, rows)

    async def load(self, match_ids: Sequence[int]) -> dict[int, Mark]:
        def read(conn: Connection) -> dict[int, Mark]:
            found: dict[int, Mark] = {}
            for start in range(0, len(match_ids), 500):
                chunk = list(match_ids[start : start + 500])
                for row in conn.execute(select(mark_table).where(TM.match_id.in_(chunk))):
                    found[row.match_id] = (row.shown, row.pinged)
            return found

        if not match_ids:
            return {}
        async with self.repo.reading() as conn:
            return await conn.run_sync(read)

    async def forget(self, match_ids: Sequence[int]) -> None:
        if match_ids:
            await self.repo.write(_forget, list(match_ids))


def _replace(conn: Connection, rows: list[dict[str, object]]) -> None:
    conn.execute(delete(mark_table).where(TM.match_id.in_([r["match_id"] for r in rows])))
    conn.execute(insert(mark_table), rows)


def _forget(conn: Connection, match_ids: list[int]) -> None:
    conn.execute(delete(mark_table).where(TM.match_id.in_(match_ids)))
