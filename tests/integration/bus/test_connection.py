"""A service's NATS connection keeps reading after a health check's flush gave up on a late
PONG (a stalled link), and a reader that stops anyway is noticed and reconnected: with
nats-py alone the connection stayed CONNECTED with no reader, and its health check said
SERVING (the fault suite lost the scoring service's consumer that way)."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import nats.errors
import pytest
from nats.aio.client import Client
from nats.aio.msg import Msg

from tavola.bus.connection import Connection, reading
from tavola.infra.proxy import CLEAR, Conditions, ProxyHandle, ProxyThread
from tavola.service.runtime import connect_nats, nats_check

pytestmark = pytest.mark.integration


@pytest.fixture
def proxied(nats_url: str) -> Iterator[tuple[str, ProxyHandle]]:
    """The test server's URL through a loopback proxy whose link can be stalled."""
    parts = urlsplit(nats_url)
    runner = ProxyThread(seed=1)
    try:
        handle = runner.add(parts.port or 4222)
        credentials = parts.netloc.rpartition("@")[0]
        netloc = (
            f"{credentials}@127.0.0.1:{handle.port}" if credentials else f"127.0.0.1:{handle.port}"
        )
        yield urlunsplit((parts.scheme, netloc, "", "", "")), handle
    finally:
        runner.stop()


async def _round_trip(client: Client, subject: str) -> bytes:
    """A message published by another connection, received by ``client``."""
    received: asyncio.Queue[bytes] = asyncio.Queue()

    async def on_message(msg: object) -> None:
        await received.put(msg.data)  # type: ignore[attr-defined]

    subscription = await client.subscribe(subject, cb=on_message)
    try:
        await client.flush(timeout=5)
        await client.publish(subject, b"ping")
        return await asyncio.wait_for(received.get(), 10)
    finally:
        await subscription.unsubscribe()


async def test_a_late_pong_after_a_failed_health_check_leaves_the_connection_reading(
    proxied: tuple[str, ProxyHandle],
) -> None:
    url, link = proxied
    client = await connect_nats(url, "scoring")
    try:
        assert isinstance(client, Connection)
        check = nats_check(client, timeout=1.0)
        assert await check()

        link.set_conditions(Conditions(blackhole=True))
        with pytest.raises(nats.errors.FlushTimeoutError):  # the check gives up after 1 s
            await check()
        link.set_conditions(CLEAR)  # the held PING reaches the server, its PONG comes back
        await asyncio.sleep(0.5)

        assert client.is_connected and reading(client)
        assert client.stats["reconnects"] == 0  # read on: nothing was lost or made again
        assert await check()
        subject = f"test.connection.{secrets.token_hex(4)}"
        assert await _round_trip(client, subject) == b"ping"
    finally:
        await client.close()


async def test_a_reader_that_stops_while_connected_is_reconnected(nats_url: str) -> None:
    client = await connect_nats(nats_url, "scoring")
    try:
        reconnected = asyncio.Event()
        client._reconnected_cb = _set(reconnected)

        parser = client._ps
        parse = parser.parse

        async def broken(_: bytes) -> None:
            parser.parse = parse  # once
            raise RuntimeError("a parser error nats-py does not expect")

        parser.parse = broken  # type: ignore[method-assign]
        subject = f"test.connection.{secrets.token_hex(4)}"
        await client.subscribe(subject)
        await client.publish(subject, b"read me")  # the next bytes read raise
        await asyncio.wait_for(reconnected.wait(), 10)

        assert client.is_connected and reading(client)
        assert await nats_check(client)()
        assert await _round_trip(client, f"{subject}.after") == b"ping"
    finally:
        await client.close()


def _set(event: asyncio.Event):  # type: ignore[no-untyped-def]
    async def callback() -> None:
        event.set()

    return callback


async def test_ask_gets_each_reply_to_its_own_request_and_tells_nobody_from_slow(
    nats_url: str,
) -> None:
    client = await connect_nats(nats_url, "scoring")
    server = await connect_nats(nats_url, "engine")
    subject = f"test.ask.{secrets.token_hex(4)}"
    try:

        async def echo(msg: Msg) -> None:
            await asyncio.sleep(0.01 * (5 - int(msg.data)))  # later requests answered first
            await msg.respond(b"re:" + msg.data)

        await server.subscribe(subject, cb=echo)
        await server.flush()
        assert isinstance(client, Connection)
        replies = await asyncio.gather(
            *(client.ask(subject, str(n).encode(), 5.0) for n in range(5))
        )
        assert [r.data for r in replies] == [f"re:{n}".encode() for n in range(5)]
        with pytest.raises(nats.errors.NoRespondersError):
            await client.ask(f"{subject}.nobody", b"", 5.0)
        await server.subscribe(f"{subject}.silent", cb=_ignore)
        await server.flush()
        with pytest.raises(nats.errors.TimeoutError):
            await client.ask(f"{subject}.silent", b"", 0.2)
        assert not client._replies  # nothing left waiting
    finally:
        await client.close()
        await server.close()


async def _ignore(_msg: Msg) -> None:
    return None
