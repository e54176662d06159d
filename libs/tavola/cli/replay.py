"""``tavola replay`` and ``tavola verify``: a match rebuilt from the log alone."""

from __future__ import annotations

import asyncio
import pathlib
import sys
from datetime import UTC, datetime

import asyncpg
import grpc
from google.protobuf import json_format

from tavola.bots.audit import audit
from tavola.cli.client import Client, default_address, default_database_url
from tavola.cli.format import event_line
from tavola.eventlog.chain import verify_chain
from tavola.eventlog.model import StoredEvent
from tavola.eventlog.postgres import PostgresEventStore
from tavola.match import aggregate
from tavola.match.verify import Discrepancy
from tavola.match.verify import verify as verify_records
from tavola.protocol import events as codec
from tavola.protocol import records_export
from tavola.protocol.envelopes import FULL, SPECTATOR, to_envelope
from tavola.v1 import events_pb2, game_pb2

decode = codec.decode_recorded  # stored events -> Recorded (event and cause), in order


async def load(match_id: str, database_url: str) -> list[StoredEvent]:
    pool = await asyncpg.create_pool(database_url, min_size=1, max_size=2)
    assert pool is not None
    try:
        store = PostgresEventStore(pool, clock=lambda: datetime.now(UTC))
        return await store.read_stream(f"match-{match_id}")
    finally:
        await pool.close()


def _database(url: str | None) -> str:
    url = url or default_database_url()
    if not url:
        print("tavola: no database (set TAVOLA_DATABASE_URL or run `tavola up`)", file=sys.stderr)
        raise SystemExit(2)
    return url


def replay(match_id: str, database_url: str | None) -> int:
    stored = asyncio.run(load(match_id, _database(database_url)))
    if not stored:
        print(f"tavola: no match {match_id}", file=sys.stderr)
        return 1
    state = aggregate.fold([r.event for r in decode(stored)])
    finished = state.ended is not None
    viewer = FULL if finished else SPECTATOR
    created = state.created
    print(
        f"match {match_id}: {created.game}, {len(created.seats)} seats, options "
        f"{dict((o.name, o.value) for o in created.options)}"
    )
    for seat in created.seats:
        print(f"  seat {seat.seat}: {seat.player_name}{' (bot)' if seat.is_bot else ''}")
    for item in stored:
        envelope = to_envelope(item, viewer)
        who = (
            f" seat {envelope.cause.seat}"
            if envelope.cause.kind in (events_pb2.CAUSE_KIND_ACTION, events_pb2.CAUSE_KIND_TIMEOUT)
            else ""
        )
        print(event_line(envelope) + (f"   <-{who} {envelope.cause.action}" if who else ""))
    print("final standings:" if finished else "standings so far (match not finished):")
    for line in sorted(state.game.standings(state.game_state), key=lambda s: (s.rank, s.seat)):
        print(
            f"  {line.rank}. seat {line.seat} {created.seats[line.seat].player_name:<18}"
            f" {line.score:>6}"
        )
    return 0


def verify(match_id: str, database_url: str | None, *, bots: bool = True) -> int:
    stored = asyncio.run(load(match_id, _database(database_url)))
    if not stored:
        print(f"tavola: no match {match_id}", file=sys.stderr)
        return 1
    return check(stored, bots=bots)


def verify_file(path: str, *, bots: bool = True) -> int:
    """Verify an exported record offline: no server, no database."""
    record = json_format.Parse(pathlib.Path(path).read_text(), game_pb2.ExportMatchResponse())
    if record.format != records_export.FORMAT:
        print(f"FAILED: unknown record format {record.format!r}")
        return 1
    return check([records_export.from_record(e) for e in record.events], bots=bots)


def export(match_id: str, output: str, address: str | None) -> int:
    client = Client.connect(address or default_address())
    try:
        record = client.game.ExportMatch(game_pb2.ExportMatchRequest(match_id=match_id))
    except grpc.RpcError as error:
        print(f"tavola export: {error.code().name}: {error.details()}", file=sys.stderr)
        return 1
    finally:
        client.close()
    text = json_format.MessageToJson(record, indent=1)
    if output == "-":
        print(text)
    else:
        pathlib.Path(output).write_text(text)
    return 0


def check(stored: list[StoredEvent], *, bots: bool = True) -> int:
    """The chain, the records against the rules and the seed, then (``bots``) every bot
    decision re-derived; 0 when all hold."""
    broken = verify_chain(stored)
    if broken is not None:
        print(f"FAILED: hash chain broken at version {broken}")
        return 1
    try:
        state = verify_records(decode(stored))
    except Discrepancy as error:
        print(f"FAILED: {error}")
        return 1
    print(
        f"OK: {len(stored)} events, chain intact, seed matches its commitment, every deal "
        f"and move re-derived ({state.created.game})."
    )
    if not bots:
        print("bot decisions not re-derived (--no-bots)")
        return 0
    report = audit(stored)
    print(report.line())
    for mismatch in report.mismatches:
        print(f"FAILED: {mismatch.line()}")
    return 1 if report.differ else 0
