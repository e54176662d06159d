"""``tavola replay``, ``tavola verify`` and ``tavola export``: a match shown as readable text
(whole or as one seat saw it, through the public API or offline from a record), checked
offline, or written out as a self-contained record.

``verify`` shows progress on stderr (events checked, bot decisions re-derived); its verdict
goes to stdout (``OK: …`` or ``FAILED: …``). A file that is not a match record — missing,
empty, truncated, binary — is one line on stderr and exit code 2.
"""

from __future__ import annotations

import asyncio
import pathlib
import sys
from datetime import UTC, datetime

import asyncpg
from google.protobuf import json_format
from google.protobuf.message import DecodeError
from rich.console import Console

from tavola.bots.audit import audit
from tavola.cli import matchbook, perspective
from tavola.cli.client import Client, default_address, default_database_url
from tavola.cli.errors import CliError
from tavola.cli.progress import Bars
from tavola.cli.replay_texts import say
from tavola.cli.texts import t
from tavola.eventlog.chain import verify_chain
from tavola.eventlog.model import StoredEvent
from tavola.eventlog.postgres import PostgresEventStore
from tavola.match.verify import Discrepancy
from tavola.match.verify import verify as verify_records
from tavola.protocol import events as codec
from tavola.protocol import records_export
from tavola.protocol.envelopes import FULL, SPECTATOR
from tavola.protocol.records import RecordError
from tavola.v1 import game_pb2

decode = codec.decode_recorded  # stored events -> Recorded (event and cause), in order
UNREADABLE = (DecodeError, RecordError, ValueError, KeyError, TypeError, IndexError)


async def load(match_id: str, database_url: str) -> list[StoredEvent]:
    try:
        pool = await asyncpg.create_pool(database_url, min_size=1, max_size=2, timeout=10)
    except (TimeoutError, OSError, asyncpg.PostgresError) as error:
        raise CliError(f"cannot reach the database: {error}") from None
    assert pool is not None
    try:
        store = PostgresEventStore(pool, clock=lambda: datetime.now(UTC))
        return await store.read_stream(f"match-{match_id}")
    finally:
        await pool.close()


def _database(url: str | None, locale: str) -> str:
    url = url or default_database_url()
    if not url:
        raise CliError(t("error.no_database", locale), 2)
    return url


def _stored(match_id: str, database_url: str | None, locale: str) -> list[StoredEvent]:
    if not match_id.strip():
        raise CliError(t("error.verify_what", locale), 2)
    stored = asyncio.run(load(match_id.strip(), _database(database_url, locale)))
    if not stored:
        raise CliError(t("error.no_match", locale, match=match_id))
    return stored


def replay(
    match_id: str = "",
    *,
    file: str | None = None,
    seat: int | None = None,
    spectator: bool = False,
    hand: int | None = None,
    step: bool = False,
    from_version: int = 0,
    address: str | None = None,
    locale: str = "en",
) -> int:
    """``tavola replay``: the match as readable text, whole or as one viewer saw it, from
    the platform's public API or offline from an exported record (``perspective``)."""
    match_id = match_id.strip()
    if bool(match_id) == bool(file):
        raise CliError(say("error.what", locale), 2)
    viewer = SPECTATOR if spectator or seat == SPECTATOR else (FULL if seat is None else seat)
    if file:
        stored = read_record(file, locale)
        try:
            seen = perspective.from_stored(stored, viewer, locale)
        except (Discrepancy, *UNREADABLE) as error:
            raise CliError(t("error.not_a_record", locale, path=file, why=error), 2) from None
        if seat is not None and not SPECTATOR <= seat < seen.players:
            last = seen.players - 1
            raise CliError(say("error.no_seat", locale, seat=seat, last=last), 2)
        return show(seen, hand=hand, step=step, from_version=from_version, locale=locale)
    client = Client.connect(address)
    try:
        if viewer == FULL:
            seen = perspective.from_export(client, match_id, locale)
        else:
            token = _kept_token(client.address, match_id, viewer)
            seen = perspective.from_api(client, match_id, viewer, token, locale)
        return show(seen, hand=hand, step=step, from_version=from_version, locale=locale)
    finally:
        client.close()


def _kept_token(address: str, match_id: str, seat: int) -> str:
    """The seat token this user kept for the seat (a player replaying their own seat of a
    match still running needs it); empty otherwise — a referee needs none once it ended."""
    try:
        kept = matchbook.find(address, match_id)
    except matchbook.BookError:
        return ""
    return next((k.seat_token for k in kept if k.match_id == match_id and k.seat == seat), "")


def show(
    seen: perspective.Replay,
    *,
    hand: int | None = None,
    step: bool = False,
    from_version: int = 0,
    locale: str = "en",
) -> int:
    """Print the replay; with ``step`` at a terminal, wait for Enter after each move (q:
    stop). Without a terminal on stdin, everything is printed at once."""
    console = Console(highlight=False, soft_wrap=True)
    interactive = step and sys.stdin.isatty()
    width = min(console.width, 100) if console.is_terminal else 80
    items = perspective.render(
        seen, hand=hand, from_version=from_version, locale=locale, width=width
    )
    for item in items:
        for line in item.lines:
            console.print(line)
        if interactive and item.move:
            try:
                answer = input(say("step.prompt", locale))
            except EOFError:
                return 0
            if answer.strip().lower() in ("q", "quit"):
                return 0
    return 0


def verify(
    match_id: str, database_url: str | None, *, bots: bool = True, locale: str = "en"
) -> int:
    return check(_stored(match_id, database_url, locale), bots=bots, locale=locale)


def read_record(path: str, locale: str = "en") -> list[StoredEvent]:
    """An exported record's events; one clear ``CliError`` for anything else."""
    file = pathlib.Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CliError(t("error.no_file", locale, path=path), 2) from None
    except IsADirectoryError:
        raise CliError(t("error.is_folder", locale, path=path), 2) from None
    except UnicodeDecodeError:
        raise CliError(t("error.not_text", locale, path=path), 2) from None
    except OSError as error:
        raise CliError(t("error.unreadable", locale, path=path, why=error.strerror), 2) from None
    if not text.strip():
        raise CliError(t("error.empty_record", locale, path=path), 2)
    try:
        record = json_format.Parse(text, game_pb2.ExportMatchResponse())
    except json_format.ParseError as error:
        why = str(error).splitlines()[0][:120]
        raise CliError(t("error.not_a_record", locale, path=path, why=why), 2) from None
    if record.format != records_export.FORMAT:
        raise CliError(
            t(
                "error.record_format",
                locale,
                path=path,
                format=record.format or "?",
                expected=records_export.FORMAT,
            ),
            2,
        )
    if not record.events:
        raise CliError(t("error.record_empty_events", locale, path=path), 2)
    try:
        return [records_export.from_record(e) for e in record.events]
    except UNREADABLE as error:
        raise CliError(t("error.not_a_record", locale, path=path, why=error), 2) from None


def verify_file(path: str, *, bots: bool = True, locale: str = "en") -> int:
    """Verify an exported record offline: no server, no database."""
    return check(read_record(path, locale), bots=bots, locale=locale)


def export(match_id: str, output: str, address: str | None, locale: str = "en") -> int:
    client = Client.connect(address or default_address())
    try:
        record = client.game.ExportMatch(game_pb2.ExportMatchRequest(match_id=match_id))
    finally:
        client.close()
    text = json_format.MessageToJson(record, indent=1)
    if output == "-":
        print(text)
        return 0
    try:
        pathlib.Path(output).write_text(text)
    except OSError as error:
        raise CliError(t("error.unwritable", locale, path=output, why=error.strerror)) from None
    return 0


def check(stored: list[StoredEvent], *, bots: bool = True, locale: str = "en") -> int:
    """The chain, the records against the rules and the seed, then (``bots``) every bot
    decision re-derived; 0 when all hold. Progress on stderr, the verdict on stdout."""
    broken = verify_chain(stored)
    if broken is not None:
        print(t("verify.chain_broken", locale, version=broken))
        return 1
    with Bars() as bars:
        bars.add("events", t("verify.events", locale), len(stored))
        try:
            records = decode(stored)
            state = verify_records(records, lambda done, total: bars.update("events", done))
        except Discrepancy as error:
            failure = t("verify.failed", locale, why=error)
        except UNREADABLE as error:
            failure = t("verify.undecodable", locale, why=error)
        else:
            failure = ""
        report = None
        if not failure and bots:
            bars.add("bots", t("verify.bots", locale, n=0), len(stored))

            def step(done: int, total: int, checked: int) -> None:
                bars.update("bots", done, description=t("verify.bots", locale, n=checked))

            report = audit(stored, step)
    if failure:
        print(failure)
        return 1
    print(t("verify.ok", locale, events=len(stored), game=state.created.game))
    if report is None:
        print(t("verify.no_bots", locale))
        return 0
    print(report.line())
    for mismatch in report.mismatches:
        print(f"FAILED: {mismatch.line()}")
    return 1 if report.differ else 0
