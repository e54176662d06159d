"""The events stream is declared with the configured replicas and retention, and an existing
stream — made by an older version, or with other limits — is brought to them."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator

import nats
import pytest
from nats.js import JetStreamContext
from nats.js.api import DiscardPolicy, StorageType

from tavola.bus.subjects import Subjects
from tavola.service.config import EventStreamLimits
from tavola.service.runtime import ensure_event_stream

pytestmark = pytest.mark.integration


@pytest.fixture
async def jetstream(nats_url: str) -> AsyncIterator[tuple[JetStreamContext, Subjects]]:
    client = await nats.connect(nats_url)
    names = Subjects(f"stream-{secrets.token_hex(4)}")
    try:
        yield client.jetstream(), names
    finally:
        await client.jetstream().delete_stream(names.events_stream)
        await client.close()


async def test_the_stream_is_created_with_the_configured_limits(
    jetstream: tuple[JetStreamContext, Subjects],
) -> None:
    js, names = jetstream
    await ensure_event_stream(js, names, EventStreamLimits(1, 3600, 64 * 1024 * 1024))

    config = (await js.stream_info(names.events_stream)).config
    assert (config.num_replicas, config.max_age, config.max_bytes) == (1, 3600, 64 * 1024**2)
    assert (config.storage, config.discard) == (StorageType.FILE, DiscardPolicy.OLD)
    assert config.subjects == [names.events_all]


async def test_an_existing_stream_is_brought_to_new_limits(
    jetstream: tuple[JetStreamContext, Subjects],
) -> None:
    js, names = jetstream
    await js.add_stream(name=names.events_stream, subjects=[names.events_all])  # as before

    await ensure_event_stream(js, names, EventStreamLimits(1, 7200, -1))
    assert (await js.stream_info(names.events_stream)).config.max_age == 7200
    await ensure_event_stream(js, names, EventStreamLimits(1, 7200, -1))  # unchanged: no-op


async def test_without_limits_given_the_environment_s_apply(
    jetstream: tuple[JetStreamContext, Subjects], monkeypatch: pytest.MonkeyPatch
) -> None:
    js, names = jetstream
    monkeypatch.setenv("TAVOLA_JS_MAX_AGE_SECONDS", "86400")
    monkeypatch.delenv("TAVOLA_JS_REPLICAS", raising=False)
    monkeypatch.delenv("TAVOLA_JS_MAX_BYTES", raising=False)
    await ensure_event_stream(js, names)

    config = (await js.stream_info(names.events_stream)).config
    assert (config.num_replicas, config.max_age, config.max_bytes) == (1, 86400, -1)
