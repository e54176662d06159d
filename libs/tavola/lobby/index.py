"""The tables index: a projection of the table streams for listing (``ListTables``).

Each table append and its index row are written in one transaction (``PostgresTableIndex``
in the lobby service), so the index never lags or runs ahead of the log; it can be thrown
away and rebuilt from the table streams at any time (``rebuild``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from tavola.eventlog.model import EventStore, NewEvent
from tavola.lobby.table import TableState

MAX_LIST = 200


@dataclass(frozen=True, slots=True)
class TableRow:
    table_id: str
    game: str
    status: str  # open | playing | finished
    players: int
    free_seats: int
    host_account_id: str
    host_name: str
    match_id: str
    house_rules: tuple[str, ...]
    access: str
    created_at_ms: int
    version: int
    members: tuple[str, ...]  # the host, seated and invited accounts


def row_of(state: TableState) -> TableRow:
    created = state.created
    members = {created.host_account_id}
    members |= {s.account_id for s in state.seats if s is not None and s.account_id}
    members |= {i.account_id for i in state.invited}
    return TableRow(
        table_id=created.table_id,
        game=created.game,
        status=state.status,
        players=created.players,
        free_seats=len(state.free_seats()),
        host_account_id=created.host_account_id,
        host_name=created.host_name,
        match_id=created.match_id,
        house_rules=state.house_rules,
        access=created.access,
        created_at_ms=created.created_at_ms,
        version=state.version,
        members=tuple(sorted(m for m in members if m)),
    )


class TableIndex(Protocol):
    async def append(
        self,
        stream_id: str,
        expected: int,
        events: Sequence[NewEvent],
        after: TableState,
        command_id: str | None = None,
        result: bytes = b"",
    ) -> None:
        """Append to a table stream and update its row, atomically."""

    async def list(
        self, game: str, statuses: Sequence[str], limit: int, member: str = ""
    ) -> list[TableRow]: ...

    async def table_of_match(self, match_id: str) -> str | None: ...


class InMemoryTableIndex:
    """The index over an in-memory store (tests)."""

    def __init__(self, store: EventStore) -> None:
        self._store = store
        self.rows: dict[str, TableRow] = {}

    async def append(
        self,
        stream_id: str,
        expected: int,
        events: Sequence[NewEvent],
        after: TableState,
        command_id: str | None = None,
        result: bytes = b"",
    ) -> None:
        await self._store.append(
            stream_id, expected, events, command_id=command_id, command_result=result
        )
        self.rows[after.created.table_id] = row_of(after)

    async def list(
        self, game: str, statuses: Sequence[str], limit: int, member: str = ""
    ) -> list[TableRow]:
        rows = [
            r
            for r in self.rows.values()
            if (not game or r.game == game)
            and r.status in statuses
            and (not member or member in r.members)
        ]
        rows.sort(key=lambda r: (r.created_at_ms, r.table_id), reverse=True)
        return rows[: min(limit, MAX_LIST)]

    async def table_of_match(self, match_id: str) -> str | None:
        return next((r.table_id for r in self.rows.values() if r.match_id == match_id), None)
