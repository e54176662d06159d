"""Publishing a batch to a real JetStream with one wait for all its acknowledgements."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator

import nats
import pytest
from nats.js.errors import APIError, NoStreamResponseError

from tavola.bus.acks import JetStreamPublisher

pytestmark = pytest.mark.integration


@pytest.fixture
async def bus(nats_url: str) -> AsyncIterator[tuple[nats.aio.client.Client, str]]:
    nc = await nats.connect(nats_url)
    js = nc.jetstream()
    name = f"acks{secrets.token_hex(4)}"
    await js.add_stream(name=name, subjects=[f"{name}.>"])
    yield nc, name
    await js.delete_stream(name)
    await nc.close()


async def stored(nc: nats.aio.client.Client, name: str) -> int:
    return (await nc.jetstream().stream_info(name)).state.messages


async def test_a_batch_returns_once_every_message_is_stored(bus) -> None:
    nc, name = bus
    publisher = JetStreamPublisher(nc)
    batch = [(f"{name}.m{n}", f"p{n}".encode(), {"Nats-Msg-Id": f"id{n}"}) for n in range(50)]
    await publisher.publish(batch, timeout=5.0)
    assert await stored(nc, name) == 50
    await publisher.publish(batch[:10], timeout=5.0)  # the same ids again: acknowledged, dropped
    assert await stored(nc, name) == 50
    await publisher.publish([], timeout=5.0)


async def test_batches_published_at_once_are_answered_each_its_own(bus) -> None:
    nc, name = bus
    publisher = JetStreamPublisher(nc)
    await asyncio.gather(
        *(
            publisher.publish(
                [(f"{name}.b{b}", b"x", {"Nats-Msg-Id": f"{b}-{n}"}) for n in range(20)], 5.0
            )
            for b in range(8)
        )
    )
    assert await stored(nc, name) == 160


async def test_a_subject_no_stream_takes_fails_the_batch(bus) -> None:
    nc, name = bus
    publisher = JetStreamPublisher(nc)
    with pytest.raises(NoStreamResponseError):
        await publisher.publish(
            [(f"{name}.ok", b"x", {}), (f"nostream{name}.x", b"x", {})], timeout=5.0
        )


async def test_a_message_jetstream_refuses_fails_the_batch(bus) -> None:
    nc, name = bus
    publisher = JetStreamPublisher(nc)
    # a stream that expects another name refuses the message (an API error, not a timeout)
    with pytest.raises(APIError):
        await publisher.publish(
            [(f"{name}.x", b"x", {"Nats-Expected-Stream": "another"})], timeout=5.0
        )
    await publisher.publish([(f"{name}.y", b"y", {})], timeout=5.0)  # and the next one works
    assert await stored(nc, name) == 1


async def test_no_answer_in_time_is_a_timeout_and_a_late_answer_is_dropped(bus) -> None:
    nc, name = bus
    publisher = JetStreamPublisher(nc)
    # a subscriber that answers nothing stands in for a stream: no 503, no acknowledgement
    silent = await nc.subscribe(f"silent{name}.>")
    with pytest.raises(TimeoutError):
        await publisher.publish([(f"silent{name}.x", b"x", {})], timeout=0.2)
    await silent.unsubscribe()
    assert not publisher._waiting


@pytest.mark.parametrize(
    "headers",
    [{"Nats-Msg-Id": "3f2c-19"}, {"Nats-Msg-Id": " spaced "}, {"A": "1", "Nats-Msg-Id": "x"}, {}],
)
async def test_a_batch_is_written_as_the_frames_nats_py_writes(bus, headers, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The publisher writes protocol frames itself; they are ``publish``'s bytes."""
    from tavola.bus import acks

    nc, name = bus

    async def held(*_args, **_kwargs):  # type: ignore[no-untyped-def]
        return None

    monkeypatch.setattr(nc, "_flush_pending", held)  # frames stay in the buffer to compare
    await nc.publish(f"{name}.f", b"payload", reply="_INBOX.r.1", headers=headers)
    theirs = nc._pending.pop()
    assert acks._frame(nc, f"{name}.f", "_INBOX.r.1", b"payload", headers) == theirs
