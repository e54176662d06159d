"""The one error type of the local infrastructure: raised with a message a person can act on."""

from __future__ import annotations


class InfraError(RuntimeError):
    """Local Postgres or NATS could not be found, started, reached or stopped."""
