"""Composition root of the bot service.

It hears of nothing but its seats: the engine pushes a bot seat its events and view and
tells it its turn (``<ns>.bots.seat.>`` to every instance, ``<ns>.bots.act.>`` to one of
them, a queue group). No match's events reach it otherwise: a turn that does not lead to
a move is told again by the engine (``services/engine/bot_turns.py``), and an instance
that (re)connects says hello (``<ns>.bots.hello``) so that every engine tells it the
turns that wait at once.
"""

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
from tavola.bus.partitions import partition_of
from tavola.service import runtime
from tavola.service.config import ServiceConfig
from tavola.v1 import game_pb2, internal_pb2

log = structlog.get_logger(__name__)


async def run(config: ServiceConfig, stop: asyncio.Event) -> None:
    async with contextlib.AsyncExitStack() as stack:
        names = subjects.Subjects(config.namespace)
        hello = asyncio.Event()  # set: say hello (at start, and after each reconnect)

        async def reconnected() -> None:
            hello.set()

        nc = await runtime.connect_nats(config.nats_url, "bots", reconnected=reconnected)
        stack.push_async_callback(nc.drain)

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
                metrics.TURNS_FAILED.inc()
            except Exception as error:  # the engine tells the turn again
                log.warning("bots.turn_failed", error=type(error).__name__)
                metrics.TURNS_FAILED.inc()
            else:
                metrics.TURNS_OK.inc()

        async def on_turn(msg: Msg) -> None:
            task = asyncio.create_task(turn(msg.data))  # one subscription: never wait here
            turns.add(task)
            task.add_done_callback(turns.discard)

        # every instance reads every push (any of them may be asked to play the seat); one
        # of them (a queue group) is told a seat's turn and decides it at once
        await nc.subscribe(names.bot_seats_all, cb=on_push)
        await nc.subscribe(names.bot_turns_all, queue=subjects.BOTS_GROUP, cb=on_turn)
        greeter = asyncio.create_task(_greet(nc, names, hello, stop))
        stack.push_async_callback(_cancel, greeter)
        hello.set()
        server, port, watch = await runtime.start_health_server(
            os.environ.get("TAVOLA_HEALTH_ADDRESS", "127.0.0.1:0"),
            {"bus": runtime.nats_check(nc)},
        )
        stack.push_async_callback(server.stop, 1.0)
        stack.push_async_callback(watch.stop)
        metrics_port = runtime.start_metrics(config.metrics_port)
        log.info("bots.ready", health_port=port, metrics_port=metrics_port)
        await stop.wait()
        log.info("bots.stopping")


async def _greet(
    nc: Any, names: subjects.Subjects, hello: asyncio.Event, stop: asyncio.Event
) -> None:
    """Say hello whenever ``hello`` is set (the subscriptions are in place by then): every
    engine tells this instance the turns that wait for a bot. A hello the bus did not take
    is said again a second later, a few times (the next reconnect says it anyway)."""
    while not stop.is_set():
        await hello.wait()
        hello.clear()
        for attempt in range(5):
            try:
                await nc.publish(names.bots_hello, b"")
                await nc.flush(timeout=2)
            except Exception as error:
                log.warning("bots.hello_failed", error=type(error).__name__, attempt=attempt)
                await asyncio.sleep(1.0)
            else:
                log.info("bots.hello")
                break


async def _cancel(task: asyncio.Task[None]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
