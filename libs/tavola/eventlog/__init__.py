"""The event log: append-only streams in Postgres, one per match or table.

Port and types live in ``model``; adapters are ``postgres.PostgresEventStore`` and
``memory.InMemoryEventStore``; ``chain`` is the hash chain and its offline verifier;
``subscribe.tail`` follows the global order; ``tracking`` and ``match_secrets`` are small
Postgres helpers; ``migrate.migrate`` creates the schema. Nothing here connects at import.

Duplicate commands: ``append`` with an already recorded ``command_id`` writes nothing and
raises ``DuplicateCommand``, whose ``record`` holds the original result and versions.
"""

from tavola.eventlog.chain import GENESIS_HASH, event_hash, verify_chain
from tavola.eventlog.errors import (
    ConcurrencyConflict,
    DuplicateCommand,
    DuplicateEventId,
    EventLogError,
    MigrationError,
    TrackingConflict,
)
from tavola.eventlog.model import (
    AppendResult,
    CommandRecord,
    Cursor,
    EventStore,
    NewEvent,
    StoredEvent,
)
from tavola.eventlog.subscribe import tail

__all__ = [
    "GENESIS_HASH",
    "AppendResult",
    "CommandRecord",
    "ConcurrencyConflict",
    "Cursor",
    "DuplicateCommand",
    "DuplicateEventId",
    "EventLogError",
    "EventStore",
    "MigrationError",
    "NewEvent",
    "StoredEvent",
    "TrackingConflict",
    "event_hash",
    "tail",
    "verify_chain",
]
