"""The NATS client every service uses: nats-py's, hardened against a reader that dies while
the connection still says it is connected.

nats-py's read loop ends on an error it does not expect with a log line and nothing else:
the client stays CONNECTED, nothing more is read, and a ``flush`` then succeeds without a
round trip (it takes the dead reader for a client shutting down), so a health check says
SERVING while every subscription, push consumer and request is dead (nats.py pull request
914, open). One such error is reachable in normal operation: a ``flush`` whose PONG was
late (a stalled link, a paused server) cancels its future, and the late PONG then sets the
result of that cancelled future, ``InvalidStateError`` — the fault suite saw the scoring
service's durable consumer stop there for good after a three-second stall.

``Connection`` takes a PONG for a ping nobody waits for any more as answered, and, should
the read loop still end while the client believes it is connected, hands the connection to
nats-py's own reconnect path (the same one a reset connection takes: subscriptions are
made again and JetStream redelivers what was not acknowledged). These are private methods
of nats-py; ``tests/integration/bus/test_connection.py`` holds them to the behaviour above
with a real server behind a stalled link.

``ask`` is a request: the reply comes to one subscription of the connection's own inbox
(``<inbox prefix>.<unique>.*``), told apart by a counter. nats-py's ``request`` does the
same with a random token per request (a NUID and two bytes from ``os.urandom``), which was
a tenth of the bot service's CPU at a table of bots.
"""

from __future__ import annotations

import asyncio
import itertools
import secrets
from typing import Any

import structlog
from nats import errors
from nats.aio.client import Client
from nats.aio.msg import Msg

log = structlog.get_logger(__name__)


class ReaderStopped(errors.Error):
    """The read loop ended while the client was connected (the cause is logged)."""

    def __str__(self) -> str:
        return "nats: the connection's reader stopped"


_NO_RESPONDERS = "503"  # the status header of the server's answer for a subject nobody serves


class Connection(Client):
    def __init__(self) -> None:
        super().__init__()
        self._replies: dict[str, asyncio.Future[Msg]] = {}
        self._reply_prefix = ""
        self._reply_subscribed: asyncio.Future[None] | None = None
        self._tokens = itertools.count(1)

    async def ask(
        self,
        subject: str,
        payload: bytes,
        timeout: float,
        headers: dict[str, str] | None = None,
    ) -> Msg:
        """The reply to a request (``Client.request``'s errors: ``TimeoutError`` after
        ``timeout`` seconds, ``NoRespondersError`` when nobody serves the subject)."""
        if self._reply_subscribed is None:
            self._reply_subscribed = asyncio.ensure_future(self._subscribe_replies())
        await asyncio.shield(self._reply_subscribed)
        token = str(next(self._tokens))
        answer: asyncio.Future[Msg] = asyncio.get_running_loop().create_future()
        self._replies[token] = answer
        try:
            await self.publish(subject, payload, reply=self._reply_prefix + token, headers=headers)
            async with asyncio.timeout(timeout):
                msg = await answer
        except TimeoutError:
            raise errors.TimeoutError from None
        finally:
            del self._replies[token]
        if msg.headers and msg.headers.get("Status") == _NO_RESPONDERS:
            raise errors.NoRespondersError
        return msg

    async def _subscribe_replies(self) -> None:
        prefix = f"{bytes(self._inbox_prefix).decode()}.{secrets.token_hex(11)}."
        await self.subscribe(prefix + "*", cb=self._on_reply)
        self._reply_prefix = prefix

    async def _on_reply(self, msg: Msg) -> None:
        answer = self._replies.get(msg.subject[len(self._reply_prefix) :])
        if answer is not None and not answer.done():
            answer.set_result(msg)

    async def _process_pong(self) -> None:
        pongs: list[asyncio.Future[Any]] = self._pongs
        if pongs and pongs[0].done():  # its flush gave up waiting (cancelled): answered now
            pongs.pop(0)
            self._pongs_received += 1
            self._pings_outstanding = 0
            return
        await super()._process_pong()

    async def _read_loop(self) -> None:
        await super()._read_loop()
        if asyncio.current_task() is not self._reading_task:
            return  # an earlier reader, cancelled by a reconnect that has made a new one
        if self.is_connected:
            log.error("nats.reader_stopped", server=str(self.connected_url or ""))
            await self._process_op_err(ReaderStopped())


def reading(client: Client) -> bool:
    """Whether the client's read loop runs (a client that is not connected has none)."""
    task: asyncio.Task[None] | None = client._reading_task
    return task is not None and not task.done()
