"""The fault suite's loopback TCP proxy: it forwards both ways unchanged and in order, holds
everything while stalled, resets connections when told or at random, refuses when asked,
and can be driven from another thread."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator

import pytest

from tavola.infra.proxy import CLEAR, Conditions, ProxyThread, TcpProxy


async def _echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(ConnectionError):
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    writer.close()


@pytest.fixture
async def echo_port() -> AsyncIterator[int]:
    server = await asyncio.start_server(_echo, "127.0.0.1", 0)
    try:
        yield server.sockets[0].getsockname()[1]
    finally:
        server.close()
        await server.wait_closed()


@pytest.fixture
async def proxy(echo_port: int) -> AsyncIterator[TcpProxy]:
    running = TcpProxy(echo_port, seed=1)
    await running.start()
    try:
        yield running
    finally:
        await running.close()


async def _connect(proxy: TcpProxy) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", proxy.port)


async def _dead(reader: asyncio.StreamReader) -> bool:
    """Whether the connection was closed or reset (nothing more to read)."""
    try:
        return await asyncio.wait_for(reader.read(1), 5.0) == b""
    except ConnectionError:
        return True


async def test_bytes_go_through_both_ways_unchanged(proxy: TcpProxy) -> None:
    reader, writer = await _connect(proxy)
    payload = bytes(range(256)) * 1000
    writer.write(payload)
    await writer.drain()
    assert await reader.readexactly(len(payload)) == payload
    writer.close()
    assert proxy.stats.connections == 1


async def test_chunks_keep_their_order_under_delay_and_jitter(proxy: TcpProxy) -> None:
    proxy.set_conditions(Conditions(delay_ms=2.0, jitter_ms=10.0))
    reader, writer = await _connect(proxy)
    sent = b""
    for number in range(40):
        chunk = f"<{number}>".encode()
        sent += chunk
        writer.write(chunk)
        await writer.drain()
        await asyncio.sleep(0)
    assert await reader.readexactly(len(sent)) == sent
    writer.close()


async def test_nothing_passes_while_stalled_and_everything_follows(proxy: TcpProxy) -> None:
    reader, writer = await _connect(proxy)
    proxy.set_conditions(Conditions(blackhole=True))
    writer.write(b"held")
    await writer.drain()
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(reader.readexactly(4), 0.3)
    proxy.set_conditions(CLEAR)
    assert await asyncio.wait_for(reader.readexactly(4), 5.0) == b"held"
    writer.close()


async def test_a_cut_resets_every_open_connection(proxy: TcpProxy) -> None:
    connections = [await _connect(proxy) for _ in range(3)]
    for reader, writer in connections:
        writer.write(b"x")
        assert await reader.readexactly(1) == b"x"
    assert proxy.cut() == 3
    for reader, _ in connections:
        assert await _dead(reader)
    assert proxy.stats.cuts == 3


async def test_a_certain_drop_cuts_the_connection_at_its_first_chunk(proxy: TcpProxy) -> None:
    proxy.set_conditions(Conditions(drop_rate=1.0))
    reader, writer = await _connect(proxy)
    writer.write(b"lost")
    assert await _dead(reader)
    assert proxy.stats.cuts == 1


async def test_a_refusing_proxy_resets_new_connections(proxy: TcpProxy) -> None:
    proxy.set_conditions(Conditions(refuse=True))
    reader, writer = await _connect(proxy)
    writer.write(b"anyone?")
    assert await _dead(reader)
    assert proxy.stats.refused == 1


async def test_a_connection_to_an_upstream_that_is_gone_is_reset() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        nobody = probe.getsockname()[1]
    orphan = TcpProxy(nobody)
    await orphan.start()
    try:
        reader, _writer = await _connect(orphan)
        assert await _dead(reader)
        assert orphan.stats.refused == 1
    finally:
        await orphan.close()


def test_conditions_refuse_negative_delays_and_rates_beyond_one() -> None:
    with pytest.raises(ValueError):
        Conditions(delay_ms=-1)
    with pytest.raises(ValueError):
        Conditions(drop_rate=1.5)


def test_proxies_on_their_own_thread_are_driven_from_this_one() -> None:
    server = socket.create_server(("127.0.0.1", 0))
    runner = ProxyThread(seed=3)
    try:
        handle = runner.add(server.getsockname()[1])
        client = socket.create_connection(("127.0.0.1", handle.port), timeout=5)
        accepted, _ = server.accept()
        accepted.settimeout(5)
        client.sendall(b"ping")
        assert accepted.recv(4) == b"ping"
        handle.update(delay_ms=5.0)
        assert handle.conditions.delay_ms == 5.0
        assert handle.cut() == 1
        client.settimeout(5)
        with contextlib.suppress(ConnectionError):
            assert client.recv(1) == b""
        assert handle.stats().cuts == 1
        client.close()
        accepted.close()
    finally:
        runner.stop()
        server.close()
