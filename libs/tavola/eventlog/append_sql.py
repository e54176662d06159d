"""The append statement: any number of streams' batches in one round trip and one commit.

``APPEND`` inserts every event of every batch of a group, and their command rows, from
arrays — one statement, so one transaction and one commit for all of them. It checks
nothing itself: the batches were sealed from each stream's head as committed (its version
and hash, known to the store), so the keys settle everything else. A writer elsewhere that
appended version N first, or a command id already recorded, makes the statement fail with
a unique violation — and write nothing at all; the store then tells whose batch it was.

Why that is enough: a batch is only ever sealed from a head that is committed (the store
learns heads from its own committed appends and from what it reads), and versions are
never rewritten, so "version N exists with this hash" stays true forever. Inserting N+1
after it leaves no gap; the primary key ``(stream_id, version)`` refuses a second N+1.

A group of one batch of a few events (what a lone table's move is) is written by a
``VALUES`` statement of the same shape instead (``statement``): its scalar parameters cost
the client far less to encode than eighteen one-element arrays, and the server plans no
``unnest``. The two write the same rows and answer the same columns.

``COMMAND_ONLY`` records a command that appended nothing, if the stream is still at the
expected version.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

from tavola.eventlog.model import Cursor, SealedEvent, StoredEvent

APPEND = """
WITH inserted AS (
    INSERT INTO events (stream_id, version, event_id, type, schema_version, rules_version,
                        payload, audience, metadata, recorded_at, prev_hash, hash)
    SELECT s, v, i, t, sv, rv, p, a::int[], m, r, ph, h
    FROM unnest($1::text[], $2::int[], $3::uuid[], $4::text[], $5::int[], $6::int[],
                $7::bytea[], $8::text[], $9::bytea[], $10::timestamptz[], $11::bytea[],
                $12::bytea[]) AS u(s, v, i, t, sv, rv, p, a, m, r, ph, h)
    RETURNING stream_id, version, tx, position
), recorded AS (
    INSERT INTO commands (command_id, stream_id, first_version, last_version, result,
                          recorded_at)
    SELECT * FROM unnest($13::text[], $14::text[], $15::int[], $16::int[], $17::bytea[],
                         $18::timestamptz[])
)
SELECT stream_id, version, tx, position FROM inserted
"""

COMMAND_ONLY = """
INSERT INTO commands (command_id, stream_id, first_version, last_version, result, recorded_at)
SELECT $1, $2, $3 + 1, $3, $4, $5
WHERE coalesce((SELECT max(version) FROM events WHERE stream_id = $2), 0) = $3
RETURNING 1
"""


@dataclass(frozen=True)
class Batch:
    """One stream's events sealed after its committed head, and its command."""

    stream_id: str
    expected: int
    sealed: list[SealedEvent]
    command_id: str | None
    result: bytes
    recorded_at: datetime

    def stored(self, cursors: dict[tuple[str, int], Cursor]) -> tuple[StoredEvent, ...]:
        return tuple(s.stored(cursors[(self.stream_id, s.version)]) for s in self.sealed)


def arguments(batches: Sequence[Batch]) -> list[list[Any]]:
    """``APPEND``'s eighteen array arguments for ``batches`` (one per stream)."""
    events: list[list[Any]] = [[] for _ in range(12)]
    commands: list[list[Any]] = [[] for _ in range(6)]
    for batch in batches:
        for sealed in batch.sealed:
            own = _own(sealed)
            row = (batch.stream_id, *own[:8], batch.recorded_at, *own[8:])
            for column, value in zip(events, row, strict=True):
                column.append(value)
        if batch.command_id is not None:
            record: tuple[Any, ...] = (
                batch.command_id,
                batch.stream_id,
                batch.expected + 1,
                batch.expected + len(batch.sealed),
                batch.result,
                batch.recorded_at,
            )
            for column, field in zip(commands, record, strict=True):
                column.append(field)
    return [*events, *commands]


VALUES_AT_MOST = 8  # events in a batch written with ``VALUES`` (beyond: the arrays)


def statement(batches: Sequence[Batch]) -> tuple[str, list[Any]]:
    """The statement that writes ``batches`` (one per stream) and its arguments: ``VALUES``
    for a lone batch of at most ``VALUES_AT_MOST`` events, else ``APPEND``."""
    if len(batches) == 1 and len(batches[0].sealed) <= VALUES_AT_MOST:
        batch = batches[0]
        args: list[Any] = [batch.stream_id, batch.recorded_at]
        for sealed in batch.sealed:
            args += _own(sealed)
        if batch.command_id is not None:
            args += (
                batch.command_id,
                batch.expected + 1,
                batch.expected + len(batch.sealed),
                batch.result,
            )
        return _values(len(batch.sealed), batch.command_id is not None), args
    return APPEND, arguments(batches)


@cache
def _values(events: int, command: bool) -> str:
    """``APPEND`` for one stream's ``events`` events (and its command, if ``command``) as
    ``VALUES`` rows: ``$1`` the stream, ``$2`` the time, ten parameters an event, then
    the command's four."""
    rows = []
    for n in range(events):
        p = [f"${3 + 10 * n + k}" for k in range(10)]
        rows.append(
            f"($1, {p[0]}::int, {p[1]}::uuid, {p[2]}::text, {p[3]}::int, {p[4]}::int, "
            f"{p[5]}::bytea, CAST({p[6]}::text AS int[]), {p[7]}::bytea, $2::timestamptz, "
            f"{p[8]}::bytea, {p[9]}::bytea)"
        )
    sql = (
        "WITH inserted AS (\n"
        "    INSERT INTO events (stream_id, version, event_id, type, schema_version,\n"
        "                        rules_version, payload, audience, metadata, recorded_at,\n"
        "                        prev_hash, hash)\n"
        "    VALUES " + ",\n           ".join(rows) + "\n"
        "    RETURNING stream_id, version, tx, position\n)"
    )
    if command:
        c = [f"${3 + 10 * events + k}" for k in range(4)]
        sql += (
            ", recorded AS (\n"
            "    INSERT INTO commands (command_id, stream_id, first_version, last_version,\n"
            "                          result, recorded_at)\n"
            f"    VALUES ({c[0]}::text, $1, {c[1]}::int, {c[2]}::int, {c[3]}::bytea, $2)\n)"
        )
    return sql + "\nSELECT stream_id, version, tx, position FROM inserted"


def _own(sealed: SealedEvent) -> tuple[Any, ...]:
    """An event's own columns, in the table's order less ``stream_id`` and ``recorded_at``
    (the batch's): version, event_id, type, schema_version, rules_version, payload,
    audience, metadata, prev_hash, hash."""
    event = sealed.event
    return (
        sealed.version,
        event.event_id,
        event.type,
        event.schema_version,
        event.rules_version,
        event.payload,
        _audience(event.audience),
        event.metadata,
        sealed.prev_hash,
        sealed.hash,
    )


def cursors(rows: Sequence[Any]) -> dict[tuple[str, int], Cursor]:
    """Where Postgres placed each inserted event in the global order."""
    return {(row["stream_id"], row["version"]): Cursor(row["tx"], row["position"]) for row in rows}


def _audience(audience: tuple[int, ...] | None) -> str | None:
    """An ``int[]`` literal (``NULL``: public), since the rows' arrays have other lengths."""
    if audience is None:
        return None
    return "{" + ",".join(str(int(seat)) for seat in audience) + "}"
