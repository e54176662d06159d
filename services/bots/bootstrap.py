"""Composition root of the bot service."""

from __future__ import annotations

import asyncio
import contextlib
import os
from typing import Any

import structlog
from google.protobuf.message import DecodeError
from nats.aio.msg import Msg

from services.bots import metrics
from services.bots.app import BotPlayer, BotPorts
from tavola.bus import rpc, subjects
from tavola.bus.consumer import report_lag, subscribe_events
from tavola.bus.partitions import partition_of
from tavola.service import runtime
from tavola.service.config import ServiceConfig
from tavola.v1 import events_pb2, game_pb2, internal_pb2

log = structlog.get_logger(__name__)


async def run(config: ServiceConfig, stop: asyncio.Event) -> None:
    async with contextlib.AsyncExitStack() as stack:
        nc = await runtime.connect_nats(config.nats_url, "bots")
        stack.push_async_callback(nc.drain)
        js = nc.jetstream()
        names = subjects.Subjects(config.namespace)
        await runtime.await_event_stream(js, names)

        def engine(method: str, response: type[Any]) -> Any:
            async def call(request: Any) -> Any:
                """To the table's writer (the engine holding its partition) directly; to
                any engine while none holds it."""
                partition = partition_of(request.match_id)
                try:
                    return await rpc.call(
                        nc,
                        names.engine_rpc("bots", partition),
                        method,
                        request,
                        response,
                        service="engine",
                        absent_ok=True,
                    )
                except rpc.NobodyServes:
                    return await rpc.call(
                        nc, names.engine_rpc("bots"), method, request, response, service="engine"
                    )

            return call

        player = BotPlayer(
            BotPorts(
                get_match=engine("GetMatch", game_pb2.GetMatchResponse),
                get_view=engine("GetView", game_pb2.GetViewResponse),
                seat_events=engine("GetSeatEvents", internal_pb2.SeatEventsResponse),
                submit=engine("SubmitAction", game_pb2.SubmitActionResponse),
            )
        )

        async def handle(envelope: events_pb2.EventEnvelope, _msg: Msg) -> None:
            with structlog.contextvars.bound_contextvars(match_id=envelope.match_id):
                await player.on_event(envelope)
            metrics.EVENTS_OK.inc()

        async def on_push(msg: Msg) -> None:
            try:
                player.on_push(internal_pb2.SeatPush.FromString(msg.data))
            except DecodeError:
                log.error("bots.push_undecodable", subject=msg.subject)

        turns: set[asyncio.Task[None]] = set()

        async def turn(data: bytes) -> None:
            try:
                told = internal_pb2.BotTurn.FromString(data)
                # a task of its own: what is bound here ends with it
                structlog.contextvars.bind_contextvars(match_id=told.match_id, seat=told.seat)
                await player.on_turn(told)
            except DecodeError:
                log.error("bots.turn_undecodable")
            except Exception as error:  # the committed event on JetStream asks again
                log.warning("bots.turn_failed", error=type(error).__name__)

        async def on_turn(msg: Msg) -> None:
            task = asyncio.create_task(turn(msg.data))  # one subscription: never wait here
            turns.add(task)
            task.add_done_callback(turns.discard)

        # every instance reads every push (any of them may be asked to play the seat); one
        # of them (a queue group) is told a seat's turn and decides it at once
        await nc.subscribe(names.bot_seats_all, cb=on_push)
        await nc.subscribe(names.bot_turns_all, queue=subjects.BOTS_GROUP, cb=on_turn)
        await subscribe_events(
            js,
            names.match_events_all,
            subjects.BOTS_GROUP,
            handle,
            ordered_by=lambda envelope: envelope.match_id,  # matches concurrently
        )
        server, port, watch = await runtime.start_health_server(
            os.environ.get("TAVOLA_HEALTH_ADDRESS", "127.0.0.1:0"),
            {"bus": runtime.nats_check(nc)},
        )
        stack.push_async_callback(server.stop, 1.0)
        stack.push_async_callback(watch.stop)
        metrics_port = runtime.start_metrics(config.metrics_port)
        lag = asyncio.create_task(report_lag(js, names.events_stream, subjects.BOTS_GROUP, stop))
        stack.push_async_callback(_cancel, lag)
        log.info("bots.ready", health_port=port, metrics_port=metrics_port)
        await stop.wait()
        log.info("bots.stopping")


async def _cancel(task: asyncio.Task[None]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
