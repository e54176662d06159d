"""With JSON logs, every line a service writes is one JSON object — structlog's events and
the standard-library loggers of asyncio, grpc, asyncpg and nats alike — on stderr, or in
``TAVOLA_LOG_FILE`` rotated by size. Each case runs in a fresh interpreter (logging is
process-wide)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

PROGRAM = textwrap.dedent(
    """
    import asyncio, logging, sys, warnings
    import grpc, structlog
    from tavola.service.logging import configure

    configure("probe", json=True, level="INFO")
    log = structlog.get_logger("tavola.probe")
    log.info("probe.started", table_id="t-1", seat=2)
    for name in ("asyncio", "asyncpg.pool", "nats.aio.client", "grpc._cython.cygrpc"):
        logging.getLogger(name).warning("a line from %s", name)
    try:
        1 / 0
    except ZeroDivisionError:
        log.exception("probe.failed")
        logging.getLogger("asyncio").exception("a stdlib traceback")
    warnings.warn("careful")

    async def broken(request, context):
        raise RuntimeError("a bug in a handler")

    async def grpc_call():  # grpc's own Python logger reports the handler's exception
        server = grpc.aio.server()
        service = grpc.method_handlers_generic_handler(
            "probe.Service", {"Broken": grpc.unary_unary_rpc_method_handler(broken)}
        )
        server.add_generic_rpc_handlers((service,))
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            try:
                await channel.unary_unary("/probe.Service/Broken")(b"", timeout=5)
            except grpc.aio.AioRpcError:
                pass
        await server.stop(None)

    asyncio.run(grpc_call())
    for n in range(int(sys.argv[1])):
        log.info("probe.filler", n=n, padding="x" * 100)
    """
)


def run(env: dict[str, str], filler: int = 0) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("TAVOLA_LOG")}
    return subprocess.run(
        [sys.executable, "-c", PROGRAM, str(filler)],
        env={**base, "GRPC_VERBOSITY": "ERROR", **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )


def json_lines(text: str) -> list[dict[str, Any]]:
    lines = [line for line in text.splitlines() if line.strip()]
    for line in lines:
        assert line.startswith("{"), f"not a JSON line: {line!r}"
    return [json.loads(line) for line in lines]


def test_every_line_on_stderr_is_json_whichever_logger_wrote_it() -> None:
    records = json_lines(run({}).stderr)

    loggers = {record.get("logger") for record in records}
    assert {"asyncio", "asyncpg.pool", "nats.aio.client", "py.warnings"} <= loggers
    from_grpc = [r for r in records if r["logger"].startswith("grpc")]
    assert any("a bug in a handler" in r.get("exception", "") for r in from_grpc)
    assert all(record["service"] == "probe" for record in records)
    assert all({"timestamp", "level", "event"} <= record.keys() for record in records)
    started = next(record for record in records if record["event"] == "probe.started")
    assert (started["table_id"], started["seat"], started["level"]) == ("t-1", 2, "info")
    failed = next(record for record in records if record["event"] == "probe.failed")
    assert "ZeroDivisionError" in failed["exception"]
    stdlib = next(record for record in records if record["event"] == "a stdlib traceback")
    assert "ZeroDivisionError" in stdlib["exception"]


def test_a_log_file_gets_the_lines_and_is_rotated_by_size(tmp_path: Path) -> None:
    path = tmp_path / "engine.log"
    result = run(
        {
            "TAVOLA_LOG_FILE": str(path),
            "TAVOLA_LOG_FILE_MAX_BYTES": "4096",
            "TAVOLA_LOG_FILE_BACKUPS": "2",
        },
        filler=300,
    )

    assert result.stderr == ""
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["engine.log", "engine.log.1", "engine.log.2"]
    for name in files:
        assert (tmp_path / name).stat().st_size <= 4096
        json_lines((tmp_path / name).read_text())
    last = json_lines(path.read_text())[-1]
    assert (last["event"], last["n"]) == ("probe.filler", 299)


def test_ids_bound_for_a_request_are_on_its_lines_and_restored_after() -> None:
    import contextvars

    import structlog

    from tavola.service.logging import bound

    def check() -> None:
        structlog.contextvars.clear_contextvars()
        structlog.contextvars.bind_contextvars(service="probe", seat=1)
        with bound(match_id="m-1", seat=2):
            assert structlog.contextvars.get_contextvars() == {
                "service": "probe",
                "match_id": "m-1",
                "seat": 2,
            }
            with bound(seat=3):
                assert structlog.contextvars.get_contextvars()["seat"] == 3
            assert structlog.contextvars.get_contextvars()["seat"] == 2
        assert structlog.contextvars.get_contextvars() == {"service": "probe", "seat": 1}

    contextvars.copy_context().run(check)  # the test's own context, nothing leaks out
