"""The terminal client waits out the platform's rate limits instead of failing on them:
a RESOURCE_EXHAUSTED answer is tried again after the ``retry-after-ms`` it carries, a
bounded number of times; any other answer is the caller's at once."""

from __future__ import annotations

import grpc
import pytest

from tavola.cli import client as client_module


class Outcome:
    def __init__(self, code: grpc.StatusCode, wait_ms: str = "") -> None:
        self._code = code
        self._wait = wait_ms

    def exception(self) -> Exception | None:
        return None if self._code == grpc.StatusCode.OK else RuntimeError(self._code.name)

    def code(self) -> grpc.StatusCode:
        return self._code

    def trailing_metadata(self) -> tuple[tuple[str, str], ...]:
        return (("retry-after-ms", self._wait),) if self._wait else ()


def run(answers: list[Outcome], monkeypatch: pytest.MonkeyPatch) -> tuple[Outcome, list[float]]:
    slept: list[float] = []
    monkeypatch.setattr(client_module.time, "sleep", slept.append)
    queue = list(answers)
    got = client_module._Patient().intercept_unary_unary(lambda d, r: queue.pop(0), None, None)
    return got, slept


def test_a_limited_call_is_tried_again_after_the_wait_the_platform_names(monkeypatch):
    limited = Outcome(grpc.StatusCode.RESOURCE_EXHAUSTED, "250")
    done = Outcome(grpc.StatusCode.OK)
    got, slept = run([limited, limited, done], monkeypatch)
    assert got is done and slept == [0.25, 0.25]


def test_the_waits_are_bounded_and_other_errors_are_not_retried(monkeypatch):
    limited = Outcome(grpc.StatusCode.RESOURCE_EXHAUSTED, "600000")
    got, slept = run([limited] * (client_module.PATIENT_RETRIES + 1), monkeypatch)
    assert got is limited and len(slept) == client_module.PATIENT_RETRIES
    assert max(slept) == client_module.PATIENT_MAX_WAIT_S
    denied = Outcome(grpc.StatusCode.PERMISSION_DENIED)
    got, slept = run([denied], monkeypatch)
    assert got is denied and slept == []
    too_large = Outcome(grpc.StatusCode.RESOURCE_EXHAUSTED)  # no trailer: not a limit
    got, slept = run([too_large], monkeypatch)
    assert got is too_large and slept == []
