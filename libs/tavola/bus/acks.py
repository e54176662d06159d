"""Publishing a batch to JetStream with one wait for all its acknowledgements.

nats-py's ``publish_async`` does the same one message at a time: a semaphore acquired
through ``wait_for``, a NUID and two random bytes for the reply token, a future and a done
callback per message, and a JSON parse of every acknowledgement into a ``PubAck``. The
relay publishes every event of the log, so that was a tenth of the engine's CPU at a
table of bots. Here a batch is one counter: each message's reply subject is the
publisher's inbox (one wildcard subscription, made once) and a number; the batch is done
when every number was answered, and fails at the first answer that is not an
acknowledgement (a JetStream error, no stream for the subject) or after ``timeout``.

An answer for a batch that already gave up (late, after its timeout) finds no number
waiting and is dropped: the caller publishes the batch again, and JetStream drops the
copies it already stored by their ``Nats-Msg-Id``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from collections.abc import Sequence

from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.errors import (
    BadHeaderError,
    BadSubjectError,
    ConnectionClosedError,
    ConnectionDrainingError,
    MaxPayloadError,
    OutboundBufferLimitError,
)
from nats.js.errors import APIError, NoStreamResponseError

Message = tuple[str, bytes, dict[str, str]]  # subject, payload, headers


class AckFailed(Exception):
    """JetStream did not store a message of the batch."""


class _Batch:
    def __init__(self, count: int) -> None:
        self.left = count
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def answered(self, msg: Msg) -> None:
        if self.done.done():
            return
        problem = _problem(msg)
        if problem is not None:
            self.done.set_exception(problem)
            return
        self.left -= 1
        if not self.left:
            self.done.set_result(None)


class JetStreamPublisher:
    def __init__(self, nc: Client) -> None:
        self._nc = nc
        self._prefix = ""
        self._subscribing: asyncio.Future[None] | None = None
        self._numbers = itertools.count(1)
        self._waiting: dict[str, _Batch] = {}

    async def publish(self, messages: Sequence[Message], timeout: float) -> None:
        """Publish ``messages`` and return once JetStream acknowledged every one (raises
        ``AckFailed`` or nats-py's errors, ``TimeoutError`` after ``timeout`` seconds)."""
        if not messages:
            return
        if not self._prefix:
            await self._subscribed()
        batch = _Batch(len(messages))
        numbers = []
        try:
            frames = []
            for subject, payload, headers in messages:
                number = str(next(self._numbers))
                numbers.append(number)
                self._waiting[number] = batch
                frames.append(_frame(self._nc, subject, self._prefix + number, payload, headers))
            await _send(self._nc, frames)
            async with asyncio.timeout(timeout):
                await batch.done
        finally:
            for number in numbers:
                self._waiting.pop(number, None)
            if batch.done.done() and not batch.done.cancelled():
                batch.done.exception()  # seen, if publishing failed before the wait

    async def _subscribed(self) -> None:
        """The inbox's subscription, made once (by the first of concurrent publishes; a
        failed one is tried again by the next publish)."""
        if self._subscribing is None:
            self._subscribing = asyncio.ensure_future(self._subscribe())
        try:
            await asyncio.shield(self._subscribing)
        except Exception:
            self._subscribing = None
            raise

    async def _subscribe(self) -> None:
        prefix = self._nc.new_inbox() + "."
        await self._nc.subscribe(prefix + "*", cb=self._answered)
        self._prefix = prefix

    async def _answered(self, msg: Msg) -> None:
        batch = self._waiting.pop(msg.subject[len(self._prefix) :], None)
        if batch is not None:
            batch.answered(msg)


# A batch's messages are written as NATS protocol frames here, all at once: nats-py's
# ``publish`` checks the subject with a regular expression, builds the header block key by
# key and awaits its buffer once per message, a good part of the relay's work per event.
# The frames are the very bytes ``publish`` writes (``HPUB <subject> <reply> <header size>
# <total size>``, the headers, the payload); ``tests/integration/bus/test_acks.py`` stores
# batches through a real JetStream.
_INVALID_SUBJECT = re.compile(r"[\s]")  # whitespace, CR and LF would break the protocol
_HEADER_NAME = re.compile(r"^[!-9;-~]+$")  # printable ASCII but ':' (RFC 7230 tokens)
_ID_HEADER = "Nats-Msg-Id"


def _frame(nc: Client, subject: str, reply: str, payload: bytes, headers: dict[str, str]) -> bytes:
    if not subject or _INVALID_SUBJECT.search(subject) or _INVALID_SUBJECT.search(reply):
        raise BadSubjectError
    if len(payload) > nc._max_payload:
        raise MaxPayloadError
    if len(headers) == 1 and _ID_HEADER in headers:
        value = headers[_ID_HEADER]
        if "\r" in value or "\n" in value:
            raise BadHeaderError(_ID_HEADER)
        block = b"NATS/1.0\r\nNats-Msg-Id: " + value.strip().encode() + b"\r\n\r\n"
    else:
        lines = [b"NATS/1.0\r\n"]
        for name, value in headers.items():
            key = name.strip()
            if not key:
                continue
            if not _HEADER_NAME.fullmatch(key):
                raise BadHeaderError(key)
            text = value.strip().replace("\r", " ").replace("\n", " ")
            lines.append(key.encode() + b": " + text.encode() + b"\r\n")
        lines.append(b"\r\n")
        block = b"".join(lines)
    head = f"HPUB {subject} {reply} {len(block)} {len(block) + len(payload)}\r\n".encode()
    return head + block + payload + b"\r\n"


async def _send(nc: Client, frames: list[bytes]) -> None:
    """Queue ``frames`` on the connection as ``publish`` would, then kick its flusher once
    (nats-py's own buffer, flusher and limits: private, held by the tests above)."""
    if nc.is_closed:
        raise ConnectionClosedError
    if nc.is_draining_pubs:
        raise ConnectionDrainingError
    size = sum(len(frame) for frame in frames)
    if not nc.is_connected and (
        nc._max_pending_size <= 0 or size + nc._pending_data_size > nc._max_pending_size
    ):
        raise OutboundBufferLimitError  # reconnecting, and no room to keep them
    nc.stats["out_msgs"] += len(frames)
    nc.stats["out_bytes"] += size
    nc._pending.extend(frames)
    nc._pending_data_size += size
    if nc._max_pending_size > 0 and nc._pending_data_size > nc._max_pending_size:
        await nc._flush_pending(force_flush=True)
    elif nc._flush_queue is not None and nc._flush_queue.empty():
        await nc._flush_pending()


def _problem(msg: Msg) -> Exception | None:
    """Why an answer is not an acknowledgement (``None``: it is one)."""
    headers = msg.headers
    if headers and headers.get("Status"):  # 503: no stream takes the subject
        if headers["Status"] == "503":
            return NoStreamResponseError()
        return AckFailed(f"status {headers['Status']}")
    data = msg.data
    if b'"error"' not in data:
        if data.startswith(b"{") and b'"seq"' in data:
            return None
        return AckFailed("not an acknowledgement")
    try:
        error = json.loads(data)["error"]
    except (ValueError, KeyError, TypeError):
        return AckFailed("not an acknowledgement")
    try:
        APIError.from_error(error)  # raises the error's own class (nats-py's mapping)
    except APIError as refused:
        return refused
    except (KeyError, TypeError):  # an error without its code
        pass
    return AckFailed("not an acknowledgement")
