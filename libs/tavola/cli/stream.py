"""A seat's live stream in a thread: ``StreamEvents`` from a version, resumed after a
dropped connection from the last version seen (a few times, never forever)."""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass
from typing import Any

import grpc

from tavola.cli.client import Client
from tavola.cli.errors import code_of, rpc_line
from tavola.cli.matchbook import Kept
from tavola.v1 import game_pb2

END = "end"
RETRIES = 5
RETRIED = (
    grpc.StatusCode.UNAVAILABLE,
    grpc.StatusCode.INTERNAL,
    grpc.StatusCode.RESOURCE_EXHAUSTED,  # the platform's limits: wait, then resume
)


@dataclass(frozen=True)
class StreamLost:
    """The stream could not be resumed (the message says why)."""

    line: str


class Follower:
    """``StreamEvents`` in a thread: envelopes into ``out``; after a dropped connection it
    resumes from the last version seen (a few times, then gives up: ``StreamLost``)."""

    def __init__(
        self, client: Client, kept: Kept, after: int, out: queue.Queue[Any], locale: str = "en"
    ) -> None:
        self._client, self._kept, self.last, self._out = client, kept, after, out
        self._locale = locale
        self._call: Any = None
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="tavola-stream")

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopped.set()
        if self._call is not None:
            self._call.cancel()

    def _run(self) -> None:
        failures = 0
        while not self._stopped.is_set():
            request = game_pb2.StreamEventsRequest(
                match_id=self._kept.match_id,
                seat=self._kept.seat,
                seat_token=self._kept.seat_token,
                after_version=self.last,
                until_end=True,
            )
            try:
                self._call = self._client.game.StreamEvents(request)
                for item in self._call:
                    self.last = item.event.version
                    failures = 0
                    self._out.put(item.event)
                self._out.put(END)
                return
            except grpc.RpcError as error:
                if self._stopped.is_set() or code_of(error) == grpc.StatusCode.CANCELLED:
                    return
                failures += 1
                retry = code_of(error) in RETRIED
                if failures > RETRIES or not retry:
                    self._out.put(StreamLost(rpc_line(error, self._locale)))
                    return
                self._stopped.wait(min(8.0, 0.5 * 2**failures))
