"""One run of the fault suite, from an empty folder to the verdict.

1. The stage: a durable Postgres, a 3-node JetStream cluster, proxies, the four services.
2. The load starts (its own process); once tables are in play, the plan's faults are done at
   their moments (this thread).
3. Settle: every fault undone, no new table; unfinished tables may end — or must at least go
   on. The projections are given time to take in every ended match.
4. While the engine still runs: the client views and the bus against the log.
5. The services stopped: the log (versions, chains, commands, verifier, tables, the lobby's
   index) and the scoring service's projections against a rebuild.
"""

from __future__ import annotations

import asyncio
import re
import time
import traceback
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import asyncpg

from tavola.faults.bus import check_bus
from tavola.faults.checks import TableFacts, Violation
from tavola.faults.examine import examine_log
from tavola.faults.inject import Injector
from tavola.faults.load import LoadResult, LoadSettings
from tavola.faults.profile import Profile
from tavola.faults.projections import caught_up, check_scoring
from tavola.faults.report import Report
from tavola.faults.schedule import Fault, plan
from tavola.faults.stage import DATABASE, NAMESPACE, Stage
from tavola.faults.views import check_views
from tavola.faults.worker import LoadProcess
from tavola.service.failures import is_outage

Say = Callable[[str], None]
T = TypeVar("T")
TERMINAL = ("finished", "refused", "abandoned")
INCIDENT = re.compile(r"\(incident ([0-9a-f]+)\)")


def run(
    profile: Profile, seed: int, folder: Path, say: Say = print, strict: bool = False
) -> Report:
    faults = plan(profile, seed)
    say(f"fault suite: {profile.name} form, seed {seed}, {len(faults)} faults planned:")
    for fault in faults:
        say("  " + fault.describe())
    report = Report(seed, profile.name, strict=strict)
    started = time.monotonic()
    stage = Stage(folder, seed)
    try:
        stage.start()
        say(f"stage ready in {time.monotonic() - started:.0f} s ({folder})")
        _exercise(stage, profile, faults, report, say)
    finally:
        stage.stop()
    report.seconds = time.monotonic() - started
    for line in report.lines():
        say(line)
    return report


def _exercise(
    stage: Stage, profile: Profile, faults: list[Fault], report: Report, say: Say
) -> None:
    settings = LoadSettings(profile.concurrent_tables, profile.accounts, profile.think_ms)
    load = LoadProcess(stage.client_address, stage.admin_token, settings, report.seed)
    try:
        _warm_up(load, profile, say)
        injector = Injector(stage, faults, say)
        try:
            injector.run()
        finally:
            injector.finish()
            report.skipped_steps = injector.skipped
        say(f"faults done: {dict(load.counts())}")
        stopped_at = asyncio.run(_match_versions(stage.database_url))
        load.stop_creating()
        _settle(stage, load, profile, say)
    finally:
        result = load.stop()
    if result.failure:
        report.violations.append(Violation("harness", "load", result.failure))
    _check(stage, profile, result, stopped_at, report, say)


def _warm_up(load: LoadProcess, profile: Profile, say: Say, timeout: float = 120.0) -> None:
    """Until the first tables are in play (accounts made, tables set up)."""
    deadline = time.monotonic() + timeout
    wanted = max(1, profile.concurrent_tables // 2)
    while load.counts()["playing"] + load.counts()["finished"] < wanted:
        if time.monotonic() > deadline:
            raise RuntimeError(f"no table in play after {timeout:.0f} s: {dict(load.counts())}")
        time.sleep(0.5)
    say(f"load running: {dict(load.counts())}")


def _settle(stage: Stage, load: LoadProcess, profile: Profile, say: Say) -> None:
    """Every table to its end, then every projection caught up (or the time is up)."""
    started = time.monotonic()
    deadline = started + profile.settle_seconds
    last_said = 0.0
    while time.monotonic() < deadline:
        stage.supervise()
        counts = load.counts()
        if all(status in TERMINAL for status in counts.elements()):
            break
        if time.monotonic() - last_said > 15.0:
            say(f"settling ({time.monotonic() - started:.0f} s): {dict(counts)}")
            last_said = time.monotonic()
        time.sleep(1.0)
    while time.monotonic() < deadline:
        stage.supervise()
        progress = asyncio.run(caught_up(stage.database_url))
        done = progress["ended"]
        if progress["scored"] == done == progress["tables_finished"] and not progress["unrated"]:
            break
        time.sleep(1.0)
    say(f"settled in {time.monotonic() - started:.0f} s: {dict(load.counts())}")


def _check(
    stage: Stage,
    profile: Profile,
    result: LoadResult,
    stopped_at: dict[str, int],
    report: Report,
    say: Say,
) -> None:
    tables = list(result.tables)
    players = [seat for table in tables for seat in table.seats]
    commands = list(result.commands)
    cluster = stage.cluster
    assert cluster is not None
    say("checking client views and the bus (services running)")
    views = _attempt(
        "views",
        report,
        lambda: check_views(
            stage.client_address, stage.database_url, players, profile.view_seats, report.seed
        ),
    )
    bus = _attempt(
        "bus", report, lambda: check_bus(stage.database_url, cluster.url.split(","), NAMESPACE)
    )
    stage.stop_services()
    say("checking the log and the projections (services stopped)")
    facts = [TableFacts(t.number, t.table_id, t.status, t.error, False) for t in tables]
    log = _attempt(
        "log", report, lambda: examine_log(stage.database_url, commands, facts, stopped_at)
    )
    scoring = _attempt("scoring", report, lambda: check_scoring(stage.server_url, DATABASE))
    bus_violations: list[Violation] = []
    scoring_violations: list[Violation] = []
    if views is not None:
        report.views = views
    if bus is not None:
        report.bus, bus_violations = bus
    if log is not None:
        report.log = log
    if scoring is not None:
        report.scoring, scoring_violations = scoring
    report.tally = stage.tally
    report.tables = tables
    report.commands = commands
    report.retried_on = result.retried_on
    report.surprises = list(result.surprises)
    report.statuses = result.statuses
    found = [
        *report.log.violations,
        *report.views.violations,
        *bus_violations,
        *scoring_violations,
        *(Violation("statuses", "player call", s) for s in report.surprises),
    ]
    report.violations += [_with_cause(stage, v) for v in found]


def _with_cause(stage: Stage, violation: Violation) -> Violation:
    """An INTERNAL answer's violation, with the exception the service logged for it."""
    incident = INCIDENT.search(violation.detail)
    cause = stage.incident_cause(incident.group(1)) if incident else ""
    if not cause:
        return violation
    return Violation(violation.check, violation.subject, f"{violation.detail} [{cause}]")


async def _match_versions(database_url: str) -> dict[str, int]:
    connection = await asyncpg.connect(database_url)
    try:
        rows = await connection.fetch(
            "SELECT stream_id, max(version) AS version FROM events"
            " WHERE stream_id LIKE 'match-%' GROUP BY stream_id"
        )
    finally:
        await connection.close()
    return {r["stream_id"].removeprefix("match-"): r["version"] for r in rows}


CHECK_ATTEMPTS = 5


def _attempt(name: str, report: Report, check: Callable[[], Coroutine[Any, Any, T]]) -> T | None:
    """Run one checker; if it cannot run at all, that is a violation of its own (the other
    checkers still run). A checker's own connection lost on the way (the database is the
    suite's, nothing is faulted any more; JetStream still electing a leader) is tried again,
    four times at most."""
    for attempt in range(1, CHECK_ATTEMPTS + 1):
        try:
            return asyncio.run(check())
        except Exception as error:
            if attempt < CHECK_ATTEMPTS and is_outage(error):
                print(f"{name}: {type(error).__name__}, checking again", flush=True)
                time.sleep(2.0)
                continue
            detail = "".join(traceback.format_exception_only(error)).strip()
            report.violations.append(Violation(name, "the checker could not run", detail))
            traceback.print_exc()
            return None
    return None
