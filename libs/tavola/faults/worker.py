"""The load in a process of its own, driven by the suite through a pipe.

The harness's players are gRPC clients; the suite forks servers (Postgres, NATS nodes, the
services) while faults happen, and forking a process in which gRPC's threads are busy is
unsafe (a forked child may crash before it executes its program). So the players live in
their own process, started fresh (``spawn``), like the real clients they stand for. The
suite asks for the tables' counts, tells it to stop creating tables, and at the end to stop,
whereupon it sends back everything the checks need (``LoadResult``) and exits.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import traceback
from collections import Counter
from multiprocessing.connection import Connection
from typing import Any

from tavola.faults.ledger import Ledger
from tavola.faults.load import Load, LoadResult, LoadSettings

COUNTS, STOP_CREATING, STOP = "counts", "stop creating", "stop"


class LoadProcess:
    """The suite's side."""

    def __init__(self, address: str, admin_token: str, settings: LoadSettings, seed: int) -> None:
        context = multiprocessing.get_context("spawn")
        self._conn, child = context.Pipe()
        self._process = context.Process(
            target=_main,
            args=(child, address, admin_token, settings, seed),
            name="tavola-faults-load",
            daemon=True,
        )
        self._process.start()
        child.close()
        self.result: LoadResult | None = None

    def counts(self) -> Counter[str]:
        """Tables by status (none once the process is gone: ``stop`` tells why)."""
        try:
            reply: Counter[str] = self._ask(COUNTS, 30.0)
        except (EOFError, OSError):
            return Counter()
        return reply

    def stop_creating(self) -> None:
        with contextlib.suppress(EOFError, OSError):
            self._ask(STOP_CREATING, 30.0)

    def stop(self, timeout: float = 180.0) -> LoadResult:
        """Stop the players; the load's result (a failure of the load is in it)."""
        if self.result is not None:
            return self.result
        try:
            result: LoadResult = self._ask(STOP, timeout)
        except (EOFError, OSError, TimeoutError) as error:
            result = LoadResult((), (), Counter(), Counter(), (), f"the load process: {error!r}")
        self.result = result
        self._process.join(30.0)
        if self._process.is_alive():
            self._process.kill()
            self._process.join()
        return result

    def _ask(self, command: str, timeout: float) -> Any:
        if not self._process.is_alive():
            raise EOFError("the load process has exited")
        self._conn.send(command)
        if not self._conn.poll(timeout):
            raise TimeoutError(f"the load process did not answer {command!r} in {timeout:.0f} s")
        return self._conn.recv()


def _main(
    conn: Connection, address: str, admin_token: str, settings: LoadSettings, seed: int
) -> None:
    load = Load(address, admin_token, settings, seed, Ledger())
    asyncio.run(_serve(conn, load))
    conn.close()


async def _serve(conn: Connection, load: Load) -> None:
    """Answer the suite until it says stop (or goes away); then send the result."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()

    def on_command() -> None:
        try:
            while conn.poll():
                command = conn.recv()
                if command == COUNTS:
                    conn.send(load.counts())
                elif command == STOP_CREATING:
                    load.creating = False
                    conn.send(True)
                elif command == STOP:
                    load.creating = False
                    stop.set()
        except (EOFError, OSError):  # the suite is gone
            stop.set()

    loop.add_reader(conn.fileno(), on_command)
    running = asyncio.create_task(load.run(stop))
    try:
        await stop.wait()
        await asyncio.wait([running])
    finally:
        loop.remove_reader(conn.fileno())
    error = running.exception()
    failure = "".join(traceback.format_exception(error)) if error is not None else ""
    with contextlib.suppress(OSError):
        conn.send(load.result(failure))
