"""``make bench``'s platform part: anchors and end-to-end figures from one run, printed side
by side, on a durable Postgres (the settings in force are printed first).

Order: Postgres settings; the raw one-row-per-commit anchor at each concurrency; the event
log's append rate at the same concurrencies; the platform as processes (engine, lobby,
scoring, bots) with the rate limits the bench switches off printed; two long matches for
the read figures; tables of the platform's bots and tables of gRPC clients (one account per
seat) at each concurrency over a fixed window, the clients polling (three calls a move)
and then following their streams with views pushed (one call a move), then those at a
player's pace (the latency of an engine that is not saturated); cold replay,
reconnect-to-live; memory per idle table. Every ratio is to an anchor measured minutes
before in the same run.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import asyncpg
import grpc

from tavola.accounts.local import ensure_account
from tavola.accounts.model import Kind
from tavola.benchmarks import database, grpc_floor, measure, reads, tables
from tavola.benchmarks.tables import Api, Point
from tavola.cli.platform import Platform, wait_healthy
from tavola.eventlog.ids import time_ordered_ids
from tavola.eventlog.migrate import migrate
from tavola.infra.databases import create_database, drop_database
from tavola.infra.local import LocalInfra
from tavola.service.runtime import run as loop_run
from tavola.v1 import game_pb2

# issue #13's targets, printed beside the figures (never asserted)
LOG_GOALS = {1: 0.8, 16: 1.0, 64: 1.0}  # event log appends / raw one-row commits
MOVES_GOAL = 2000  # moves/s at 64 tables
RAW_SHARE_GOAL = 0.25  # moves/s / raw commits/s at 16 and 64 tables
ENGINE_CPU_GOAL_MS = 0.5
PACED_TABLES = 16  # the paced point's tables (the latency goal's concurrency)
PACE_S = 0.25  # a quick player's seconds between seeing a view and acting on it
KINDS = ("bots", "clients", "streams")  # the e2e points' tables, in the order they run
LIMITS_OFF = "address=off,read=off,account=off,create_table=off,lobby=off,stream_open=off,act=off"


@dataclass
class Options:
    window: float = 10.0
    anchor_seconds: float = 3.0
    concurrency: tuple[int, ...] = (1, 16, 64)
    idle_tables: int = 10_000
    reconnects: int = 40
    long_matches: bool = True
    platform: bool = True  # False: the database part only
    scale_out: bool = True  # bot tables again with a second engine sharing the partitions
    kinds: tuple[str, ...] = KINDS  # which tables the e2e points run
    id_log_events: int = 2_000_000  # the log the ids point appends to (0: skip the point)


def say(text: str) -> None:
    print(text, flush=True)


def anchors(url: str, options: Options, store_for: database.StoreFactory) -> dict[int, float]:
    """The raw anchor and the event log's rate at each concurrency; returns the raw rates.

    At each concurrency the anchor runs just before and just after the event log (A, B,
    A), both on the services' event loop (uvloop, ``runtime.run``), and the ratio is to
    their mean: the machine's speed drifts within a run (by a third on a shared VM), and a
    ratio to an anchor measured a minute earlier measured the drift as much as the log."""
    say(
        "== Postgres anchor and event log (same run, same database, the services' event loop;"
        " anchor before and after) =="
    )
    raw: dict[int, float] = {}
    for n in options.concurrency:
        first = loop_run(database.raw_rate(url, n, options.anchor_seconds))
        rate = loop_run(database.append_rate(url, n, options.anchor_seconds, store_for))
        second = loop_run(database.raw_rate(url, n, options.anchor_seconds))
        before, after = first.per_second, second.per_second
        raw[n] = (before + after) / 2
        say(
            f"raw asyncpg one-row INSERT per commit, {n:>2} connections: {raw[n]:9.0f} commits/s"
            f"  (before {before:.0f}, after {after:.0f}){_wal('a commit', first, second)}"
        )
        goal = LOG_GOALS.get(n)
        say(
            f"event log append (1 event + command id), {n:>2} writers:    "
            f"{rate.per_second:9.0f} appends/s  = {rate.per_second / raw[n]:5.2f}x raw"
            + (f" (goal >= {goal:.1f}x)" if goal else "")
            + _wal("an append", rate)
        )
    return raw


def event_ids(url: str, options: Options, store_for: database.StoreFactory) -> None:
    """The event log's appends with random ids (version 4, as until 2026-12-06) and with the
    platform's (version 7, time-ordered: ``tavola.eventlog.ids``), in turn, into a log of
    ``options.id_log_events`` events, each window right after a checkpoint: the rate and the
    WAL an append writes. (Over a whole checkpoint interval the difference is smaller: a
    random id's page costs its full-page image once per interval.)"""
    say(
        f"== event ids: random (v4) against time-ordered (v7, the platform's), a log of"
        f" {options.id_log_events:,} events, each window right after a checkpoint =="
    )
    started = time.perf_counter()
    asyncio.run(database.fill_log(url, options.id_log_events))
    say(f"(log filled in {time.perf_counter() - started:.0f} s)")
    for n in sorted({1, 16} & set(options.concurrency)) or [options.concurrency[0]]:
        rates = {}
        for name, ids in (("v4", uuid.uuid4), ("v7", time_ordered_ids())):
            if not asyncio.run(database.checkpoint(url)):
                say("(no checkpoint: this role may not ask for one; the WAL figures are mixed)")
            rates[name] = loop_run(
                database.append_rate(url, n, options.anchor_seconds, store_for, new_id=ids)
            )
        v4, v7 = rates["v4"], rates["v7"]
        say(
            f"event log append, {n:>2} writers, v4 ids: {v4.per_second:9.0f} appends/s"
            f"{_wal('an append', v4)}; v7 ids: {v7.per_second:9.0f} appends/s"
            f"{_wal('an append', v7)} ({v7.per_second / v4.per_second:.2f}x the rate)"
        )


def _wal(step: str, *rates: database.Rate) -> str:
    """The WAL the server wrote per step ("a commit", "an append"), the mean of the windows',
    as the anchors print it."""
    each = [w for w in (r.wal_per_step for r in rates) if w is not None]
    if not each:
        return ""
    return f"; WAL {sum(each) / len(each):,.0f} B {step}"


@dataclass
class Processes:
    """What the bench reads CPU from (the platform's services and the servers it started) and
    the WAL's position from."""

    services: Callable[[], dict[str, int]]
    servers: dict[str, int]
    database_url: str = ""  # where the WAL's position is read (its server's, every database)

    async def wal(self) -> int | None:
        """The server's WAL position in bytes, or None without a database or on an error."""
        if not self.database_url:
            return None
        try:
            conn = await asyncpg.connect(self.database_url)
        except (OSError, asyncpg.PostgresError):
            return None
        try:
            return await database.wal_position(conn)
        finally:
            await conn.close()

    def cpu(self) -> dict[str, float]:
        out = {name: measure.cpu_seconds(pid) for name, pid in self.services().items()}
        out.update({name: measure.tree_cpu_seconds(pid) for name, pid in self.servers.items()})
        out["bench"] = measure.cpu_seconds(os.getpid())
        return out


def per_move(before: dict[str, float], after: dict[str, float], moves: int) -> dict[str, float]:
    """Each process's CPU seconds a move between two readings."""
    return {k: (after.get(k, 0.0) - before.get(k, 0.0)) / moves for k in after}


def cpu_line(used: dict[str, float]) -> str:
    """``per_move``'s figures as the bench prints them."""
    if not used:
        return "no moves"
    engine = sum(v for k, v in used.items() if k.startswith("engine"))
    platform = sum(v for k, v in used.items() if k != "bench")
    parts = ", ".join(f"{k} {v * 1000:.2f}" for k, v in sorted(used.items()) if v > 0)
    return (
        f"engine CPU {engine * 1000:.2f} ms/move (goal <= {ENGINE_CPU_GOAL_MS} ms);"
        " all platform processes "
        f"{platform * 1000:.2f} ms/move ({parts})"
    )


async def _point(
    label: str,
    count: int,
    make: Callable[[int, Point], asyncio.Task[None]],
    options: Options,
    metrics_port: int,
    processes: Processes,
    raw: dict[int, float],
    engines: list[int] | None = None,
    paced: bool = False,
    floor: grpc_floor.Floor | None = None,
) -> Point:
    point = Point()
    tasks = [make(i, point) for i in range(count)]
    deadline = time.monotonic() + 60
    while point.matches_started < count and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    await asyncio.sleep(1.0)
    ports = engines or [metrics_port]
    wal_before = await processes.wal()
    before_metrics, before_cpu = _scrape_all(ports), processes.cpu()
    point.window, started = True, time.perf_counter()
    await asyncio.sleep(options.window)
    point.window, elapsed = False, time.perf_counter() - started
    after_metrics, after_cpu = _scrape_all(ports), processes.cpu()
    wal_after = await processes.wal()
    await tables.drain(tasks, point, timeout=120)
    ok = "tavola_engine_commands_total{ok}"
    moves = int(after_metrics.get(ok, 0) - before_metrics.get(ok, 0))
    rate = moves / elapsed
    anchor = raw.get(count)
    ratio = f" = {rate / anchor:6.3f}x raw at {count}" if anchor else ""
    goal = (
        f" (goal: >= {MOVES_GOAL:,} moves/s at 64, >= {RAW_SHARE_GOAL}x raw at 16 and 64)"
        if count in (16, 64) and not paced
        else ""
    )
    say(f"{label} {count:>2} tables: {rate:8.1f} moves/s{ratio}{goal}")
    if point.latencies:
        goal = " (goal at 16 tables: p50 <= 5 ms, p99 <= 15 ms)" if count == 16 else ""
        say(f"   SubmitAction {measure.quantiles(point.latencies).ms()}{goal}")
    if point.seen:
        say(f"   move to its view on the mover's stream {measure.quantiles(point.seen).ms()}")
    p50 = measure.histogram_quantile(
        before_metrics, after_metrics, "tavola_engine_command_seconds", 0.5
    )
    p99 = measure.histogram_quantile(
        before_metrics, after_metrics, "tavola_engine_command_seconds", 0.99
    )
    say(f"   engine's own command time: p50 <= {p50 * 1000:.1f} ms, p99 <= {p99 * 1000:.1f} ms")
    used = per_move(before_cpu, after_cpu, moves) if moves else {}
    say(f"   {cpu_line(used)}")
    if moves and wal_before is not None and wal_after is not None:
        say(f"   Postgres WAL {(wal_after - wal_before) / moves:,.0f} B a move (the whole server)")
    point.engine_cpu = {k: v for k, v in used.items() if k.startswith("engine")}
    if floor is not None and moves:
        rpcs = "tavola_grpc_server_started_total"
        calls = (after_metrics.get(rpcs, 0.0) - before_metrics.get(rpcs, 0.0)) / moves
        messages = point.messages / moves
        say(
            f"   gRPC alone: {calls:.2f} calls and {messages:.2f} stream messages a move"
            f" = at least {floor.of(calls, messages):.2f} ms of the engine's CPU a move in"
            " grpc.aio itself (the bare server's floor)"
        )
    for error in point.errors[:3]:
        say(f"   ! {error}")
    return point


def _scrape_all(ports: list[int]) -> dict[str, float]:
    """The engines' metrics, summed."""
    total: dict[str, float] = {}
    for port in ports:
        for key, value in measure.scrape(port).items():
            total[key] = total.get(key, 0.0) + value
    return total


def platform_part(options: Options, raw: dict[int, float], infra: LocalInfra) -> None:
    server_url = infra.database_url
    name = f"tavola_bench_e2e_{os.getpid()}"
    database_url = asyncio.run(create_database(server_url, name))
    _, token = asyncio.run(ensure_account(database_url, "bench-admin", Kind.ADMIN, "bench"))
    logs = Path(tempfile.mkdtemp(prefix="tavola-bench-"))
    platform = Platform(
        database_url,
        infra.nats_url,
        log_dir=logs,
        extra_env={
            "TAVOLA_NAMESPACE": name.replace("_", "-"),
            "TAVOLA_LOG_LEVEL": "WARNING",
            "TAVOLA_LIMITS": LIMITS_OFF,
        },
        nats_urls=infra.nats_service_urls(),
        token=token,
    )
    say("== end to end: the services as processes, clients over gRPC ==")
    say(f"platform rate limits switched off for the bench's own load: TAVOLA_LIMITS={LIMITS_OFF}")
    say(f"logs: {logs}")
    servers = dict(infra.pids)
    processes = Processes(
        lambda: {k: p.pid for k, p in platform.processes.items()}, servers, database_url
    )
    try:
        platform.start_all()
        loop_run(_drive(platform, token, options, raw, processes))
        if options.long_matches:
            asyncio.run(_cold(platform, token, database_url, options))
        if options.idle_tables:
            platform.stop("bots")
            asyncio.run(_idle(platform, token, options))
    finally:
        platform.stop_all()
        asyncio.run(drop_database(server_url, name))


async def _drive(
    platform: Platform, token: str, options: Options, raw: dict[int, float], processes: Processes
) -> None:
    address = platform.address
    port = platform.metrics_ports["engine"]
    async with grpc.aio.insecure_channel(address) as channel:
        admin = Api(channel, token)
        say("-- tables of the platform's bots (easy, think_ms 10), every game in turn --")
        finishes = tables.Finishes(admin)
        one_engine: dict[str, float] = {}
        for count in options.concurrency if "bots" in options.kinds else ():

            def bots(i: int, point: Point) -> asyncio.Task[None]:
                return asyncio.create_task(tables.bot_table(admin, i, point, finishes))

            one_engine = (
                await _point("bots", count, bots, options, port, processes, raw)
            ).engine_cpu
        if options.scale_out and "bots" in options.kinds:
            await _two_engines(platform, admin, options, processes, raw, one_engine)
        if "clients" not in options.kinds and "streams" not in options.kinds:
            return
        say(
            "-- the anchor of the client points: a bare grpc.aio server (no interceptor, no"
            " work) in a process of its own --"
        )
        floor = await grpc_floor.measure()
        say(
            f"unary call, {grpc_floor.IN_FLIGHT} in flight: {floor.calls_per_s:8.0f} calls/s,"
            f" server CPU {floor.unary_us:.0f} us a call"
        )
        say(
            f"server streams, {grpc_floor.IN_FLIGHT} at once: {floor.messages_per_s:8.0f}"
            f" messages/s, server CPU {floor.message_us:.0f} us a message"
        )
        seats_needed = 4 * max(options.concurrency)
        say(f"-- tables of gRPC clients, one account per seat ({seats_needed} accounts) --")
        seat_tokens = await tables.new_accounts(admin, f"bench{os.getpid() % 10000}-", seats_needed)
        channels = [grpc.aio.insecure_channel(address) for _ in range(8)]
        apis = [Api(channels[n % len(channels)], t) for n, t in enumerate(seat_tokens)]
        try:
            for count in options.concurrency if "clients" in options.kinds else ():

                def clients(i: int, point: Point) -> asyncio.Task[None]:
                    return asyncio.create_task(
                        tables.client_table(admin, apis[4 * i : 4 * i + 4], i, point)
                    )

                await _point("clients", count, clients, options, port, processes, raw, floor=floor)
            if "streams" in options.kinds:
                say(
                    "-- the same, each seat following StreamEvents with its views pushed, an"
                    " append's events and view in one message (views, packed: one call a move)"
                    " --"
                )
            for count in options.concurrency if "streams" in options.kinds else ():

                def streaming(i: int, point: Point) -> asyncio.Task[None]:
                    return asyncio.create_task(
                        tables.client_table(
                            admin, apis[4 * i : 4 * i + 4], i, point, streaming=True
                        )
                    )

                await _point(
                    "streams", count, streaming, options, port, processes, raw, floor=floor
                )
            if "streams" in options.kinds:  # then a player's pace
                count = (
                    PACED_TABLES
                    if PACED_TABLES in options.concurrency
                    else max(options.concurrency)
                )
                say(
                    f"-- the same at a player's pace: each seat acts {PACE_S:.2f} s after its"
                    " view (the engine not saturated: latency is service time, not a queue) --"
                )

                def at_pace(i: int, point: Point) -> asyncio.Task[None]:
                    return asyncio.create_task(
                        tables.client_table(
                            admin, apis[4 * i : 4 * i + 4], i, point, streaming=True, pace=PACE_S
                        )
                    )

                await _point(
                    "paced streams",
                    count,
                    at_pace,
                    options,
                    port,
                    processes,
                    raw,
                    paced=True,
                    floor=floor,
                )
        finally:
            for extra in channels:
                await extra.close()


async def _two_engines(
    platform: Platform,
    admin: Api,
    options: Options,
    processes: Processes,
    raw: dict[int, float],
    one_engine: dict[str, float],
) -> None:
    """The same bot tables with two engines sharing the partitions (one gRPC port: the
    kernel spreads connections; the bots reach each table's writer directly): engine CPU
    per move with two engines against one (``one_engine``, the last bots point's) — what
    decides how two engines scale on a machine with the cores for them (docs/scaling.md).
    With a core each, the busier engine saturates first: two give ``one / max(each)``
    times one engine's rate (``one / (sum / 2)`` were their work split evenly)."""
    count = max(options.concurrency)
    say(f"-- scale out: {count} tables of bots, two engines sharing the 64 partitions --")
    platform.start("engine", replica=1)
    ports = [platform.metrics_ports["engine"], platform.metrics_ports["engine-1"]]
    deadline = time.monotonic() + 60
    held = [0.0, 0.0]
    while time.monotonic() < deadline:
        held = _metric(ports, "tavola_engine_partitions_held")
        if sum(held) == 64 and min(held) > 0:
            break
        await asyncio.sleep(0.5)
    say(f"   partitions held: {held[0]:.0f} and {held[1]:.0f}")

    finishes = tables.Finishes(admin)

    def bots(i: int, point: Point) -> asyncio.Task[None]:
        return asyncio.create_task(tables.bot_table(admin, i, point, finishes))

    relayed = _metric(ports, "tavola_relay_published_total")
    try:
        two = await _point(
            "bots, 2 engines,", count, bots, options, ports[0], processes, raw, ports
        )
        after = _metric(ports, "tavola_relay_published_total")
        relayed = [done - before for before, done in zip(relayed, after, strict=True)]
    finally:
        platform.stop("engine-1")
    if sum(relayed) > 0:
        say(
            "   events each engine relayed to the bus (its partitions' share):"
            f" {100 * relayed[0] / sum(relayed):.0f}% and {100 * relayed[1] / sum(relayed):.0f}%"
        )
    one = one_engine.get("engine", 0.0)
    shares = [two.engine_cpu.get(name, 0.0) for name in ("engine", "engine-1")]
    if one and min(shares) > 0:
        say(
            f"   with a core for each engine: two give {one / max(shares):.2f}x one as their"
            f" work split here, {2 * one / sum(shares):.2f}x split evenly (goal >= 1.7x;"
            f" engine CPU a move: one engine {one * 1000:.2f} ms, two"
            f" {shares[0] * 1000:.2f} + {shares[1] * 1000:.2f} ms)"
        )


def _metric(ports: list[int], name: str) -> list[float]:
    """Each engine's ``name`` (0 where it does not answer)."""
    values = []
    for port in ports:
        try:
            values.append(measure.scrape(port).get(name, 0.0))
        except OSError:
            values.append(0.0)
    return values


async def _cold(platform: Platform, token: str, database_url: str, options: Options) -> None:
    say("-- reads: cold replay and reconnect-to-live --")
    address = platform.address
    long = {
        "a full Barbu session": ("barbu", 4, {}),
        "a Doppelkopf match to 30": ("doppelkopf", 4, {"match": "to_30"}),
    }
    async with grpc.aio.insecure_channel(address) as channel:
        admin = Api(channel, token)
        ids = {
            label: await tables.start_bot_match(admin, game, players, opts)
            for label, (game, players, opts) in long.items()
        }
        finals = {}
        for label, match_id in ids.items():
            request = game_pb2.GetMatchRequest(match_id=match_id)
            while not (summary := await admin.call(admin.game.GetMatch, request)).finished:
                await asyncio.sleep(0.5)
            finals[label] = summary.version
    for label, match_id in ids.items():
        say("   " + (await reads.cold_replay(database_url, match_id)).line(label))
    platform.stop("engine")
    platform.start("engine")
    wait_healthy(address, 60, platform.processes["engine"])
    async with grpc.aio.insecure_channel(address) as channel:
        admin = Api(channel, token)
        for label, match_id in ids.items():
            cold, warm = await reads.cold_get_match(admin, match_id)
            say(
                f"   GetMatch on a just-started engine, {label}: cold {cold * 1000:.1f} ms, "
                f"then {warm * 1000:.1f} ms"
            )
        for label, match_id in ids.items():
            first, live = await reads.reconnects(admin, match_id, finals[label], options.reconnects)
            say(
                f"   reconnect from a random version, {label} ({finals[label]} events): "
                f"first event {first.ms()}; caught up to the last {live.ms()}"
            )


async def _idle(platform: Platform, token: str, options: Options) -> None:
    address = platform.address
    pid = platform.processes["engine"].pid
    async with grpc.aio.insecure_channel(address) as channel:
        admin = Api(channel, token)
        per_table, elapsed = await reads.idle_tables(admin, pid, options.idle_tables)
    resident = measure.rss_bytes(pid) / 2**20
    say(
        f"-- memory: {options.idle_tables} idle tables opened in {elapsed:.0f} s; engine "
        f"resident memory {resident:.0f} MiB, {per_table / 1024:.1f} KiB per idle table --"
    )


def run(options: Options, store_for: database.StoreFactory) -> None:
    with LocalInfra.from_env_or_start(data_dir=os.path.join(".tavola", "bench-infra")) as infra:
        found = asyncio.run(database.settings(infra.database_url))
        state = "durable" if database.durable(found) else "NOT DURABLE"
        say(f"== Postgres ({state}): " + ", ".join(f"{k}={v}" for k, v in found.items()) + " ==")
        say(f"machine: {os.cpu_count()} cores; window {options.window:.0f} s per point")
        name = f"tavola_bench_{os.getpid()}"
        url = asyncio.run(create_database(infra.database_url, name))
        try:
            asyncio.run(migrate(url))
            raw = anchors(url, options, store_for)
            if options.id_log_events:
                event_ids(url, options, store_for)
        finally:
            asyncio.run(drop_database(infra.database_url, name))
        if options.platform:
            platform_part(options, raw, infra)
