"""The in-memory event store passes the shared EventStore contract."""

from __future__ import annotations

import pytest

from tavola.eventlog.contract import EventStoreContract, SteppingClock
from tavola.eventlog.memory import InMemoryEventStore
from tavola.eventlog.model import EventStore


class TestInMemoryEventStore(EventStoreContract):
    @pytest.fixture
    def store(self, clock: SteppingClock) -> EventStore:
        return InMemoryEventStore(clock)
