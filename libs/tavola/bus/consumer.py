"""Durable JetStream consumers in a queue group: each event reaches one instance of a
service (the group names both the durable consumer and the queue), at least once; handlers
are idempotent. A handler error naks the message so it is redelivered (after a delay),
never silently dropped.

NATS hands a subscription's messages to its callback one at a time. With ``ordered_by``
(a key per event, e.g. its match) events of one key are still handled in order, one at a
time, but different keys concurrently — each message acknowledged once handled, at most
``max_ack_pending`` of them in flight."""

from __future__ import annotations

import asyncio
import collections
import contextlib
from collections.abc import Awaitable, Callable

import structlog
from nats.aio.msg import Msg
from nats.js import JetStreamContext
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy
from prometheus_client import Gauge

from tavola.v1 import events_pb2

log = structlog.get_logger(__name__)
Handler = Callable[[events_pb2.EventEnvelope, Msg], Awaitable[None]]


async def subscribe_events(
    js: JetStreamContext,
    subject: str,
    group: str,
    handler: Handler,
    *,
    ack_wait: float = 30.0,
    redelivery_delay: float = 1.0,
    ordered_by: Callable[[events_pb2.EventEnvelope], str] | None = None,
    max_ack_pending: int = 1000,
) -> JetStreamContext.PushSubscription:
    async def handle(envelope: events_pb2.EventEnvelope, msg: Msg) -> None:
        try:
            await handler(envelope, msg)
        except Exception:
            log.exception(
                "bus.handler_failed",
                match_id=envelope.match_id,
                version=envelope.version,
                type=envelope.type,
            )
            await msg.nak(delay=redelivery_delay)
            return
        await msg.ack()

    lanes = _Lanes(handle) if ordered_by is not None else None

    async def on_message(msg: Msg) -> None:
        try:
            envelope = events_pb2.EventEnvelope.FromString(msg.data)
        except Exception:
            log.error("bus.undecodable", subject=msg.subject)
            await msg.term()
            return
        if lanes is None or ordered_by is None:
            await handle(envelope, msg)
        else:
            lanes.put(ordered_by(envelope), envelope, msg)

    config = ConsumerConfig(
        durable_name=group,
        deliver_group=group,
        ack_policy=AckPolicy.EXPLICIT,
        deliver_policy=DeliverPolicy.ALL,
        ack_wait=ack_wait,
        max_ack_pending=max_ack_pending,
    )
    return await js.subscribe(
        subject, queue=group, durable=group, cb=on_message, manual_ack=True, config=config
    )


class _Lanes:
    """One queue and one worker task per key while it has work: in order within a key,
    concurrent across keys."""

    def __init__(self, handle: Callable[[events_pb2.EventEnvelope, Msg], Awaitable[None]]) -> None:
        self._handle = handle
        self._queues: dict[str, collections.deque[tuple[events_pb2.EventEnvelope, Msg]]] = {}
        self._workers: set[asyncio.Task[None]] = set()

    def put(self, key: str, envelope: events_pb2.EventEnvelope, msg: Msg) -> None:
        queue = self._queues.get(key)
        if queue is not None:
            queue.append((envelope, msg))
            return
        self._queues[key] = collections.deque([(envelope, msg)])
        worker = asyncio.create_task(self._work(key))
        self._workers.add(worker)
        worker.add_done_callback(self._workers.discard)

    async def _work(self, key: str) -> None:
        queue = self._queues[key]
        try:
            while queue:
                envelope, msg = queue[0]
                await self._handle(envelope, msg)
                queue.popleft()
        finally:
            del self._queues[key]  # a later message of the key starts a new worker


CONSUMER_PENDING = Gauge(
    "tavola_consumer_pending_events", "Events not yet delivered to a consumer group", ["consumer"]
)
CONSUMER_UNACKED = Gauge(
    "tavola_consumer_unacked_events", "Events delivered but not yet acknowledged", ["consumer"]
)


async def report_lag(
    js: JetStreamContext, stream: str, group: str, stop: asyncio.Event, every: float = 5.0
) -> None:
    """Publish the consumer group's lag as metrics until stopped."""
    while not stop.is_set():
        try:
            info = await js.consumer_info(stream, group)
            CONSUMER_PENDING.labels(consumer=group).set(info.num_pending or 0)
            CONSUMER_UNACKED.labels(consumer=group).set(info.num_ack_pending or 0)
        except Exception as error:  # the broker may be away for a moment: report, go on
            log.warning("bus.lag_unavailable", consumer=group, error=repr(error))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), every)
