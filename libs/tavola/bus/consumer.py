"""Durable JetStream consumers in a queue group: each event reaches one instance of a
service (the group names both the durable consumer and the queue), at least once; handlers
are idempotent. A handler error naks the message so it is redelivered (after a delay),
never silently dropped."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import structlog
from nats.aio.msg import Msg
from nats.js import JetStreamContext
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy

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
) -> JetStreamContext.PushSubscription:
    async def on_message(msg: Msg) -> None:
        try:
            envelope = events_pb2.EventEnvelope.FromString(msg.data)
        except Exception:
            log.error("bus.undecodable", subject=msg.subject)
            await msg.term()
            return
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

    config = ConsumerConfig(
        durable_name=group,
        deliver_group=group,
        ack_policy=AckPolicy.EXPLICIT,
        deliver_policy=DeliverPolicy.ALL,
        ack_wait=ack_wait,
        max_ack_pending=1000,
    )
    return await js.subscribe(
        subject, queue=group, durable=group, cb=on_message, manual_ack=True, config=config
    )
