"""Telling a dependency that is down from a bug: what is retried later, and what is not."""

from __future__ import annotations

import asyncpg
import nats.errors
import nats.js.errors
import pytest

from tavola.service.failures import dependency_of, is_outage


@pytest.mark.parametrize(
    "error",
    [
        ConnectionRefusedError(),
        TimeoutError(),
        asyncpg.exceptions.InternalClientError("cannot switch to state 12"),
        nats.errors.NoRespondersError(),
        nats.js.errors.ServiceUnavailableError(),  # JetStream without a leader yet
    ],
)
def test_a_dependency_that_is_away_is_an_outage(error: BaseException) -> None:
    assert is_outage(error)


@pytest.mark.parametrize(
    "error", [ValueError("a bug"), KeyError("x"), nats.js.errors.NotFoundError()]
)
def test_a_bug_or_a_refusal_is_not(error: BaseException) -> None:
    assert not is_outage(error)


def test_a_jetstream_answer_is_the_bus() -> None:
    assert dependency_of(nats.js.errors.ServiceUnavailableError()) == "bus"
