"""The bus only the platform can read: NATS authentication, one user per service with its
subjects, trust from the user and never from a header, no hidden payload on any subject.
Needs the private NATS the tests start (skipped when TAVOLA_NATS_URL names another one)."""

from __future__ import annotations

import asyncio
import os

import nats
import nats.errors
import pytest

from support.platform import bot_table, eventually, match_state
from tavola.bus import rpc
from tavola.bus.subjects import Subjects
from tavola.cli.platform import Platform
from tavola.infra.local import LocalInfra
from tavola.protocol.errors import ServiceError
from tavola.v1 import events_pb2, game_pb2, internal_pb2

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        bool(os.environ.get("TAVOLA_NATS_URL")), reason="needs the tests' private NATS"
    ),
]


def names_of(platform: Platform) -> Subjects:
    return Subjects(platform.extra_env["TAVOLA_NAMESPACE"])


def anonymous(url: str) -> str:
    scheme, _, rest = url.partition("://")
    return f"{scheme}://{rest.rpartition('@')[2]}"


def test_an_unauthenticated_nats_connection_to_the_platforms_bus_is_refused(infra: LocalInfra):
    async def connect() -> None:
        await nats.connect(
            anonymous(infra.nats_url),
            allow_reconnect=False,
            max_reconnect_attempts=0,
            connect_timeout=3,
        )

    with pytest.raises(Exception, match=r"(?i)authorization"):
        asyncio.run(connect())


def test_a_bot_service_user_cannot_submit_for_a_persons_seat(
    infra: LocalInfra, platform: Platform, client
):
    match_id, (token,) = bot_table(client, "fan-tan", 4, humans=1)
    names = names_of(platform)

    async def as_bots() -> None:
        nc = await nats.connect(infra.nats_service_urls()["bots"], inbox_prefix="_INBOX_bots")
        try:
            with pytest.raises(ServiceError) as caught:
                await rpc.call(
                    nc,
                    names.engine_rpc("bots"),
                    "SubmitAction",
                    game_pb2.SubmitActionRequest(
                        match_id=match_id, seat=0, seat_token=token, command_id="x", action="7D"
                    ),
                    game_pb2.SubmitActionResponse,
                )
            assert caught.value.reason.code == "seat.not_bot"
            with pytest.raises(ServiceError) as caught:
                await rpc.call(
                    nc,
                    names.engine_rpc("bots"),
                    "GetSeatEvents",
                    internal_pb2.SeatEventsRequest(match_id=match_id, seat=0),
                    internal_pb2.SeatEventsResponse,
                )
            assert caught.value.reason.code == "seat.not_bot"
        finally:
            await nc.close()

    asyncio.run(as_bots())


def test_the_bot_services_user_may_not_create_matches_nor_read_events_nor_pose_as_the_engine(
    infra: LocalInfra, platform: Platform
):
    names = names_of(platform)
    problems: list[str] = []

    async def on_error(error: Exception) -> None:
        problems.append(str(error).lower())

    async def as_bots() -> None:
        nc = await nats.connect(
            infra.nats_service_urls()["bots"], inbox_prefix="_INBOX_bots", error_cb=on_error
        )
        try:
            await nc.publish(f"{names.engine_rpc('lobby')}.CreateMatch", b"")
            await nc.subscribe(names.events_all)
            await nc.subscribe(f"{names.namespace}.rpc.engine.>")
            await nc.subscribe("_INBOX_engine.>")
            await nc.flush()
            await asyncio.sleep(0.5)
        finally:
            await nc.close()

    asyncio.run(as_bots())
    assert any("publish" in p and "creatematch" in p for p in problems), problems
    assert sum("subscription" in p for p in problems) >= 3, problems


def test_a_header_grants_nothing_the_bus_trusts_only_the_nats_user(
    infra: LocalInfra, platform: Platform, client
):
    """The lobby's user may call the engine only as the lobby: the bot subjects are not
    its to publish on, whatever header it sets."""
    match_id, _ = bot_table(client, "fan-tan", 4, humans=1)
    names = names_of(platform)
    problems: list[str] = []

    async def on_error(error: Exception) -> None:
        problems.append(str(error).lower())

    async def as_lobby() -> None:
        nc = await nats.connect(
            infra.nats_service_urls()["lobby"], inbox_prefix="_INBOX_lobby", error_cb=on_error
        )
        try:
            request = internal_pb2.BusRequest(
                body=game_pb2.SubmitActionRequest(
                    match_id=match_id, seat=1, command_id="x", action="7D"
                ).SerializeToString()
            )
            with pytest.raises((nats.errors.NoRespondersError, nats.errors.TimeoutError)):
                await nc.request(
                    f"{names.engine_rpc('bots')}.SubmitAction",
                    request.SerializeToString(),
                    timeout=2,
                    headers={"Tavola-Internal": "1"},
                )
        finally:
            await nc.close()

    asyncio.run(as_lobby())
    assert any("publish" in p for p in problems), problems


def test_no_hidden_payload_travels_on_the_bus(infra: LocalInfra, platform: Platform, client):
    match_id, _ = bot_table(client, "fan-tan", 4)
    eventually(lambda: match_state(client, match_id).finished, timeout=120)
    names = names_of(platform)

    async def read_all() -> list[events_pb2.EventEnvelope]:
        nc = await nats.connect(infra.nats_url)  # the operator's user reads everything
        try:
            sub = await nc.jetstream().pull_subscribe(
                names.stream_subjects(f"match-{match_id}"),
                durable=None,
                stream=names.events_stream,
            )
            seen: list[events_pb2.EventEnvelope] = []
            while True:
                try:
                    batch = await sub.fetch(500, timeout=2)
                except (TimeoutError, nats.errors.TimeoutError):
                    return seen
                seen += [events_pb2.EventEnvelope.FromString(m.data) for m in batch]
        finally:
            await nc.close()

    envelopes = eventually(
        lambda: (
            (seen := asyncio.run(read_all())) and seen[-1].type.endswith("SeedRevealed") and seen
        )
    )
    dealt = [e for e in envelopes if e.type.endswith("HandDealt")]
    assert dealt and all(e.hidden and not e.payload.fields for e in dealt)
    credentials = [e for e in envelopes if e.type == "match.SeatCredentials"]
    assert credentials and all(not e.payload.fields for e in credentials)
