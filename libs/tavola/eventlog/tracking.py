"""Consumer positions in the global order (Postgres ``tracking`` table).

A projection saves its cursor with ``save_position`` on the same connection and in the
same transaction as its effects: if the transaction commits, both the effects and the new
position are kept; if not, neither. That makes processing effectively-once.
"""

from __future__ import annotations

from typing import Any

import asyncpg

from tavola.eventlog.errors import TrackingConflict
from tavola.eventlog.model import Cursor

_SAVE = """
INSERT INTO tracking (name, tx, position) VALUES ($1, $2, $3)
ON CONFLICT (name) DO UPDATE SET tx = excluded.tx, position = excluded.position
WHERE (tracking.tx, tracking.position) < (excluded.tx, excluded.position)
"""


async def save_position(conn: asyncpg.Connection, name: str, cursor: Cursor) -> None:
    """Record that consumer ``name`` has processed everything up to ``cursor``.

    Must run inside the consumer's open transaction. Raises ``TrackingConflict`` when the
    stored position is already at or after ``cursor`` (another instance got there first):
    let it roll the transaction back.
    """
    if not conn.is_in_transaction():
        raise ValueError("save_position must run inside the consumer's transaction")
    status = await conn.execute(_SAVE, name, cursor.tx, cursor.position)
    if status == "INSERT 0 0":
        raise TrackingConflict(name, cursor)


async def load_position(executor: asyncpg.Pool | asyncpg.Connection, name: str) -> Cursor:
    """Where consumer ``name`` should resume from (``Cursor.START`` if it never saved)."""
    row: Any = await executor.fetchrow("SELECT tx, position FROM tracking WHERE name = $1", name)
    return Cursor.START if row is None else Cursor(row["tx"], row["position"])


_SAVE_MANY = """
INSERT INTO tracking (name, tx, position)
SELECT * FROM unnest($1::text[], $2::xid8[], $3::bigint[])
ON CONFLICT (name) DO UPDATE SET tx = excluded.tx, position = excluded.position
WHERE (tracking.tx, tracking.position) < (excluded.tx, excluded.position)
"""


async def advance_positions(
    executor: asyncpg.Pool | asyncpg.Connection, positions: dict[str, Cursor]
) -> None:
    """Move each named position forward to its cursor, in one statement; a position
    already at or past its cursor stays where it is (another instance got further)."""
    names = sorted(positions)
    await executor.execute(
        _SAVE_MANY,
        names,
        [positions[n].tx for n in names],
        [positions[n].position for n in names],
    )


async def load_positions(
    executor: asyncpg.Pool | asyncpg.Connection, names: list[str]
) -> dict[str, Cursor]:
    """The saved positions of those of ``names`` that have one."""
    rows: Any = await executor.fetch(
        "SELECT name, tx, position FROM tracking WHERE name = ANY($1::text[])", names
    )
    return {row["name"]: Cursor(row["tx"], row["position"]) for row in rows}
