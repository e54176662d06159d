"""What the harness's players sent and what they were answered: the ledger the checkers hold
the log to.

Every command a player sends is recorded before it is sent; every answer after it arrives.
A command unanswered (the call failed: the engine away, the network cut) is sent again with
the same command id, as a real client would, until it is answered — acknowledged (its
versions in the match's stream), or rejected (stale, or no longer legal: the table moved on).
"""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass, field
from enum import Enum


class Outcome(Enum):
    PENDING = "pending"  # sent, no answer yet (unanswered when the run ends)
    ACKED = "acked"  # the engine answered OK: the command is in the log
    REJECTED = "rejected"  # the engine refused it: it must not be in the log


@dataclass
class Command:
    match_id: str
    seat: int
    command_id: str
    action: str
    expected_version: int
    attempts: int = 0
    outcome: Outcome = Outcome.PENDING
    version: int = 0  # the stream's version after the command (acknowledged)
    first_version: int = 0  # its first event's version (acknowledged)
    duplicate: bool = False  # the acknowledgement was the answer to a retry
    rejection: str = ""  # the status code (and reason) of a refusal

    @property
    def key(self) -> str:
        """The command's id as the log stores it: namespaced by the seat (docs/security.md)."""
        return f"c/{self.seat}/{self.command_id}"

    @property
    def stream_id(self) -> str:
        return f"match-{self.match_id}"


@dataclass
class Ledger:
    """Thread-safe: players write, the checkers read once the load is over."""

    commands: list[Command] = field(default_factory=list)
    retried_on: Counter[str] = field(default_factory=Counter)  # status codes retried on
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def sent(
        self, match_id: str, seat: int, command_id: str, action: str, expected: int
    ) -> Command:
        command = Command(match_id, seat, command_id, action, expected)
        with self._lock:
            self.commands.append(command)
        return command

    def attempt(self, command: Command) -> None:
        with self._lock:
            command.attempts += 1

    def retry(self, command: Command, code: str) -> None:
        with self._lock:
            self.retried_on[code] += 1

    def acked(self, command: Command, version: int, first_version: int, duplicate: bool) -> None:
        with self._lock:
            command.outcome = Outcome.ACKED
            command.version = version
            command.first_version = first_version
            command.duplicate = duplicate

    def rejected(self, command: Command, why: str) -> None:
        with self._lock:
            command.outcome = Outcome.REJECTED
            command.rejection = why

    def by_outcome(self) -> Counter[Outcome]:
        with self._lock:
            return Counter(c.outcome for c in self.commands)

    def snapshot(self) -> list[Command]:
        with self._lock:
            return list(self.commands)
