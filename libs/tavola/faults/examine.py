"""Reading the log once the services have stopped, and holding it to the checkers.

One pass over every stream: versions, hash chain, the command ids of match streams; every
match folded (ended, or who is to act and which deadlines run), every finished one through
the offline verifier and the bot audit; every table folded into the lobby's index row. Then
the ledger against the command runs, the tables against their matches, and the lobby's
live index against the rows folded here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import asyncpg
from google.protobuf.message import DecodeError

from tavola.bots.audit import audit
from tavola.eventlog.chain import verify_chain
from tavola.eventlog.model import StoredEvent
from tavola.eventlog.postgres import PostgresEventStore
from tavola.faults.checks import (
    CommandTally,
    Mark,
    MatchFacts,
    Run,
    TableFacts,
    Violation,
    check_commands,
    check_table,
    check_versions,
    compare_rows,
    runs_of,
)
from tavola.faults.ledger import Command
from tavola.lobby import table as tables
from tavola.lobby.index import TableRow, row_of
from tavola.match import aggregate
from tavola.match.aggregate import MatchState
from tavola.match.verify import Discrepancy, verify
from tavola.protocol import events as codec

LOBBY_COLUMNS = (
    "table_id, game, status, players, free_seats, host_account_id, host_name, match_id,"
    " house_rules, access, created_at_ms, version, members"
)


@dataclass
class LogFindings:
    streams: int = 0
    events: int = 0
    chains_intact: int = 0
    matches: int = 0
    matches_finished: int = 0
    matches_verified: int = 0
    bot_decisions: int = 0
    tables: int = 0
    lobby_rows: int = 0
    commands: CommandTally = field(default_factory=CommandTally)
    violations: list[Violation] = field(default_factory=list)
    matches_by_id: dict[str, MatchFacts] = field(default_factory=dict)


@dataclass
class _Pass:
    findings: LogFindings
    stopped_at: Mapping[str, int]  # match id -> version when the faults stopped
    runs: dict[str, dict[str, list[Run]]] = field(default_factory=dict)
    rows: list[TableRow] = field(default_factory=list)
    finished_tables: set[str] = field(default_factory=set)


async def examine_log(
    database_url: str,
    commands: Sequence[Command],
    tables_run: Sequence[TableFacts],
    stopped_at: Mapping[str, int],
) -> LogFindings:
    findings = LogFindings()
    work = _Pass(findings, stopped_at)
    pool = await asyncpg.create_pool(database_url, min_size=1, max_size=4)
    assert pool is not None
    try:
        store = PostgresEventStore(pool, clock=lambda: datetime.now(UTC))
        streams = [r["stream_id"] for r in await pool.fetch(_STREAMS)]
        recorded = {
            (r["stream_id"], r["command_id"]): (r["first_version"], r["last_version"])
            for r in await pool.fetch(_COMMANDS)
        }
        for stream_id in streams:
            _examine_stream(work, stream_id, await store.read_stream(stream_id))
        live_rows = await pool.fetch(f"SELECT {LOBBY_COLUMNS} FROM lobby_tables")
    finally:
        await pool.close()
    findings.commands, violations = check_commands(commands, work.runs, recorded)
    findings.violations += violations
    for table in tables_run:
        table_facts = TableFacts(
            table.number,
            table.table_id,
            table.status,
            table.error,
            table.table_id in work.finished_tables,
        )
        match = findings.matches_by_id.get(_match_of(work, table.table_id))
        findings.violations += check_table(table_facts, match)
    findings.lobby_rows = len(live_rows)
    findings.violations += compare_rows(
        "lobby index",
        [_lobby_row(r) for r in live_rows],
        [_row_tuple(row) for row in work.rows],
        key=1,
    )
    return findings


_STREAMS = "SELECT stream_id FROM events GROUP BY stream_id ORDER BY stream_id"
_COMMANDS = "SELECT stream_id, command_id, first_version, last_version FROM commands"


def _examine_stream(work: _Pass, stream_id: str, stored: list[StoredEvent]) -> None:
    findings = work.findings
    findings.streams += 1
    findings.events += len(stored)
    gap = check_versions(stream_id, [s.version for s in stored])
    if gap is not None:
        findings.violations.append(gap)
    broken = verify_chain(stored)
    if broken is None:
        findings.chains_intact += 1
    else:
        findings.violations.append(Violation("chain", stream_id, f"broken at version {broken}"))
    if gap is not None or not stored:
        return
    if stream_id.startswith("match-"):
        _examine_match(work, stream_id, stored)
    elif stream_id.startswith("table-"):
        state = tables.fold([codec.decode_payload("", s.type, s.payload) for s in stored])
        findings.tables += 1
        work.rows.append(row_of(state))
        if state.finished:
            work.finished_tables.add(state.created.table_id)


def _examine_match(work: _Pass, stream_id: str, stored: list[StoredEvent]) -> None:
    findings = work.findings
    findings.matches += 1
    work.runs[stream_id] = runs_of([Mark(s.version, _command_of(s)) for s in stored])
    state = fold_match(stored)
    match_id = stream_id.removeprefix("match-")
    revealed = stored[-1].type == "match.SeedRevealed"
    findings.matches_by_id[match_id] = MatchFacts(
        match_id=match_id,
        ended=state.ended is not None,
        revealed=revealed,
        to_act=tuple(sorted(state.to_act())),
        deadlines=len(state.deadlines),
        paused=state.pause is not None,
        version=state.version,
        version_when_faults_stopped=work.stopped_at.get(match_id, 0),
    )
    if state.ended is None or not revealed:
        return
    findings.matches_finished += 1
    try:
        verify(codec.decode_recorded(stored))
    except Discrepancy as error:
        findings.violations.append(Violation("verifier", stream_id, str(error)))
        return
    report = audit(stored)
    findings.bot_decisions += report.checked
    if report.differ:
        findings.violations.append(Violation("verifier", stream_id, report.line()))
        return
    findings.matches_verified += 1


def _command_of(stored: StoredEvent) -> str:
    try:
        return codec.decode_metadata(stored.metadata).cause.command_id
    except DecodeError:
        return ""


def fold_match(stored: Sequence[StoredEvent]) -> MatchState:
    """The match state the stored events give (the engine's fold)."""
    state: MatchState | None = None
    for item in stored:
        game = state.created.game if state else ""
        state = aggregate.evolve(state, codec.decode_payload(game, item.type, item.payload))
    assert state is not None
    return state


def _match_of(work: _Pass, table_id: str) -> str:
    return next((row.match_id for row in work.rows if row.table_id == table_id), "")


def _row_tuple(row: TableRow) -> tuple[object, ...]:
    return (
        row.table_id,
        row.game,
        row.status,
        row.players,
        row.free_seats,
        row.host_account_id,
        row.host_name,
        row.match_id,
        tuple(row.house_rules),
        row.access,
        row.created_at_ms,
        row.version,
        tuple(row.members),
    )


def _lobby_row(record: Any) -> tuple[object, ...]:
    values = list(record.values())
    values[8] = tuple(values[8])  # house_rules
    values[12] = tuple(values[12])  # members
    return tuple(values)
