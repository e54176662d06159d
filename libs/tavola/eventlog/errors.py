"""Typed errors of the event log. Each carries the facts a caller needs to react."""

from __future__ import annotations

from typing import TYPE_CHECKING
from uuid import UUID

if TYPE_CHECKING:
    from tavola.eventlog.model import CommandRecord, Cursor


class EventLogError(Exception):
    """Base class of every error raised by the event log."""


class ConcurrencyConflict(EventLogError):
    """The stream was not at ``expected`` version (it was at ``actual``); nothing was written."""

    def __init__(self, stream_id: str, expected: int, actual: int) -> None:
        super().__init__(f"stream {stream_id!r} is at version {actual}, expected {expected}")
        self.stream_id = stream_id
        self.expected = expected
        self.actual = actual


class DuplicateCommand(EventLogError):
    """The command id was already recorded; nothing was written.

    ``record`` is the original outcome: its result bytes and the versions it produced.
    """

    def __init__(self, record: CommandRecord) -> None:
        super().__init__(
            f"command {record.command_id!r} already recorded on {record.stream_id!r} "
            f"(versions {record.first_version}..{record.last_version})"
        )
        self.record = record


class DuplicateEventId(EventLogError):
    """An event id given to ``append`` is already stored; nothing was written."""

    def __init__(self, event_id: UUID) -> None:
        super().__init__(f"event id {event_id} is already stored")
        self.event_id = event_id


class TrackingConflict(EventLogError):
    """A consumer tried to save a position that is not after its stored one.

    Raised inside the consumer's transaction so its effects roll back with it: two
    instances of one projection can never both apply the same event.
    """

    def __init__(self, name: str, cursor: Cursor) -> None:
        super().__init__(f"consumer {name!r} is already at or past {cursor}")
        self.name = name
        self.cursor = cursor


class MigrationError(EventLogError):
    """The recorded migrations do not match the shipped ones (edited or unknown file)."""
