"""A small loopback TCP proxy that delays, stalls and drops, for the fault suite.

``TcpProxy`` listens on a loopback port and forwards each connection to its upstream,
byte for byte, under the ``Conditions`` of the moment:

- ``delay_ms`` (+ up to ``jitter_ms``): each chunk is held that long before it is passed
  on, in each direction, keeping its order (latency);
- ``drop_rate``: the chance, per chunk, that the connection is cut with a TCP reset in both
  directions (a lossy link that TCP gives up on: the peers see the connection die);
- ``blackhole``: nothing is passed on while set; what was held follows when it is cleared
  (a partition that heals before TCP gives up);
- ``refuse``: new connections are reset at once (the peer is unreachable).

``cut()`` resets every open connection. Randomness comes from a seeded RNG. ``ProxyThread``
runs proxies on an event loop of its own thread, so that a busy caller does not slow the
traffic it forwards; its handles are safe to use from any thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import socket
import struct
import threading
from collections.abc import Coroutine
from concurrent.futures import Future
from dataclasses import dataclass, replace
from typing import Any, TypeVar

LOOPBACK = "127.0.0.1"
_CHUNK = 64 * 1024
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Conditions:
    delay_ms: float = 0.0
    jitter_ms: float = 0.0
    drop_rate: float = 0.0
    blackhole: bool = False
    refuse: bool = False

    def __post_init__(self) -> None:
        if self.delay_ms < 0 or self.jitter_ms < 0 or not 0.0 <= self.drop_rate <= 1.0:
            raise ValueError(f"unsuitable network conditions: {self}")


CLEAR = Conditions()


@dataclass
class ProxyStats:
    connections: int = 0  # accepted
    refused: int = 0  # reset at once (``refuse``, or the upstream did not answer)
    cuts: int = 0  # connections reset while open (drops and ``cut``)
    bytes_forwarded: int = 0


class _Link:
    """One proxied connection: two sockets and the two directions between them."""

    def __init__(self, proxy: TcpProxy, client: asyncio.StreamWriter) -> None:
        self.proxy = proxy
        self.writers = [client]
        self.tasks: list[asyncio.Task[None]] = []
        self.closed = False

    def reset(self) -> None:
        """Close both sockets with a TCP reset (no orderly shutdown)."""
        if self.closed:
            return
        self.closed = True
        for writer in self.writers:
            _reset(writer)
        for task in self.tasks:
            task.cancel()


class TcpProxy:
    def __init__(
        self, upstream_port: int, upstream_host: str = LOOPBACK, port: int = 0, seed: int = 0
    ) -> None:
        self.upstream = (upstream_host, upstream_port)
        self.conditions = CLEAR
        self.stats = ProxyStats()
        self._wanted_port = port
        self._rng = random.Random(seed)
        self._server: asyncio.Server | None = None
        self._links: set[_Link] = set()
        self._unblocked = asyncio.Event()
        self._unblocked.set()

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("the proxy is not listening")
        port: int = self._server.sockets[0].getsockname()[1]
        return port

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._accept, LOOPBACK, self._wanted_port)

    def set_conditions(self, conditions: Conditions) -> None:
        self.conditions = conditions
        if conditions.blackhole:
            self._unblocked.clear()
        else:
            self._unblocked.set()

    def cut(self) -> int:
        """Reset every open connection; returns how many there were."""
        links = list(self._links)
        for link in links:
            self._cut(link)
        return len(links)

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        self.cut()

    def _cut(self, link: _Link) -> None:
        if not link.closed:
            self.stats.cuts += 1
        link.reset()
        self._links.discard(link)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.stats.connections += 1
        if self.conditions.refuse:
            self.stats.refused += 1
            _reset(writer)
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.upstream)
        except OSError:
            self.stats.refused += 1
            _reset(writer)
            return
        link = _Link(self, writer)
        link.writers.append(up_writer)
        self._links.add(link)
        link.tasks = [
            asyncio.create_task(self._pipe(link, reader, up_writer)),
            asyncio.create_task(self._pipe(link, up_reader, writer)),
        ]
        await asyncio.gather(*link.tasks, return_exceptions=True)
        self._links.discard(link)
        for end in link.writers:
            end.close()

    async def _pipe(
        self, link: _Link, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        """One direction: read, hold for the delay (in order), stall while blackholed,
        write; a drop resets the whole link; end of stream half-closes the other side."""
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()
        sender = asyncio.create_task(self._send(link, queue, writer))
        loop = asyncio.get_running_loop()
        due = 0.0
        try:
            while chunk := await reader.read(_CHUNK):
                conditions = self.conditions
                if conditions.drop_rate and self._rng.random() < conditions.drop_rate:
                    self._cut(link)
                    return
                hold = conditions.delay_ms + self._rng.uniform(0.0, conditions.jitter_ms)
                due = max(due, loop.time() + hold / 1000.0)
                queue.put_nowait((due, chunk))
            queue.put_nowait((due, b""))
            await sender
        except (OSError, asyncio.IncompleteReadError):
            self._cut(link)
        finally:
            sender.cancel()

    async def _send(
        self,
        link: _Link,
        queue: asyncio.Queue[tuple[float, bytes]],
        writer: asyncio.StreamWriter,
    ) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                due, chunk = await queue.get()
                wait = due - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                await self._unblocked.wait()
                if not chunk:
                    if writer.can_write_eof():
                        writer.write_eof()
                    return
                writer.write(chunk)
                await writer.drain()
                self.stats.bytes_forwarded += len(chunk)
        except OSError:
            self._cut(link)


def _reset(writer: asyncio.StreamWriter) -> None:
    sock = writer.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()


class ProxyHandle:
    """A proxy running on a ``ProxyThread``: thread-safe controls."""

    def __init__(self, runner: ProxyThread, proxy: TcpProxy) -> None:
        self._runner = runner
        self._proxy = proxy
        self.port = proxy.port
        self.upstream_port = proxy.upstream[1]

    @property
    def conditions(self) -> Conditions:
        return self._proxy.conditions

    def set_conditions(self, conditions: Conditions) -> None:
        self._runner.call(self._set(conditions))

    def update(self, **changes: Any) -> None:
        self.set_conditions(replace(self._proxy.conditions, **changes))

    def cut(self) -> int:
        return self._runner.call(self._cut())

    def stats(self) -> ProxyStats:
        return replace(self._proxy.stats)

    async def _set(self, conditions: Conditions) -> None:
        self._proxy.set_conditions(conditions)

    async def _cut(self) -> int:
        return self._proxy.cut()


class ProxyThread:
    """An event loop in a daemon thread that hosts proxies; ``stop`` closes them all."""

    def __init__(self, seed: int = 0) -> None:
        self._seed = seed
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name="tavola-proxy", daemon=True)
        self._proxies: list[TcpProxy] = []
        self._thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_forever()

    def call(self, coroutine: Coroutine[Any, Any, T], timeout: float = 30.0) -> T:
        future: Future[T] = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        return future.result(timeout)

    def add(self, upstream_port: int, port: int = 0) -> ProxyHandle:
        """A new proxy in front of ``127.0.0.1:upstream_port`` (on ``port``, else a free one)."""
        seed = self._seed * 1000 + len(self._proxies)
        proxy = TcpProxy(upstream_port, port=port, seed=seed)
        self.call(proxy.start())
        self._proxies.append(proxy)
        return ProxyHandle(self, proxy)

    def stop(self) -> None:
        if not self._loop.is_running():
            return
        with contextlib.suppress(Exception):
            self.call(self._close_all(), timeout=10.0)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10.0)
        self._loop.close()

    async def _close_all(self) -> None:
        for proxy in self._proxies:
            await proxy.close()
