"""Telling a dependency that is down (Postgres, NATS, another service) from a bug."""

from __future__ import annotations

import asyncio

import asyncpg
import nats.errors
import nats.js.errors

_DOWN: tuple[type[BaseException], ...] = (
    OSError,  # refused, reset, unreachable
    asyncio.TimeoutError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,  # connection closed / pool closing
    asyncpg.exceptions.OperatorInterventionError,  # admin shutdown, cannot connect now
    asyncpg.exceptions.InsufficientResourcesError,  # too many connections, disk full
    # a connection the server terminated ("cannot switch to state …; another operation is
    # in progress"): the pool replaces it, a retry works
    asyncpg.exceptions.InternalClientError,
    nats.errors.NoRespondersError,
    nats.errors.TimeoutError,
    nats.errors.ConnectionClosedError,
    nats.errors.ConnectionDrainingError,
    nats.errors.ConnectionReconnectingError,
    nats.errors.NoServersError,
    nats.errors.OutboundBufferLimitError,
    nats.errors.StaleConnectionError,
    # JetStream answered 503: no stream leader yet (a server of the cluster came back)
    nats.js.errors.ServiceUnavailableError,
)


def is_outage(error: BaseException) -> bool:
    """True when ``error`` says a dependency is unreachable (retrying later may work)."""
    return isinstance(error, _DOWN)


def dependency_of(error: BaseException) -> str:
    """Which kind of dependency failed, for the reason's ``service`` parameter."""
    if isinstance(
        error,
        asyncpg.PostgresError | asyncpg.InterfaceError | asyncpg.exceptions.InternalClientError,
    ):
        return "database"
    if isinstance(error, nats.errors.Error):
        return "bus"
    return "network"
