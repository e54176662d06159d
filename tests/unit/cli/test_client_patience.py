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


class Stream(grpc.RpcError):
    """A stream that yields ``items``, then (given ``wait_ms``) is refused by a rate limit."""

    def __init__(self, items: list, wait_ms: str = "") -> None:
        self._items, self._wait = items, wait_ms

    def __iter__(self):
        yield from self._items
        if self._wait:
            raise self

    def code(self) -> grpc.StatusCode:
        return grpc.StatusCode.RESOURCE_EXHAUSTED

    def trailing_metadata(self) -> tuple[tuple[str, str], ...]:
        return (("retry-after-ms", self._wait),)

    def cancel(self) -> None:
        pass


def test_the_perspective_replay_waits_out_a_limited_stream_and_resumes_where_it_was(
    monkeypatch,
):
    from types import SimpleNamespace

    from tavola.cli import perspective
    from tavola.v1 import events_pb2, game_pb2

    def item(version: int) -> game_pb2.StreamEventsResponse:
        return game_pb2.StreamEventsResponse(event=events_pb2.EventEnvelope(version=version))

    asked: list[int] = []
    answers = [Stream([], "300"), Stream([item(1), item(2)], "200"), Stream([item(3)])]

    class Game:
        def GetView(self, request, timeout):
            return game_pb2.GetViewResponse(version=3, finished=True)

        def StreamEvents(self, request, timeout):
            asked.append(request.after_version)
            return answers.pop(0)

    slept: list[float] = []
    monkeypatch.setattr(perspective.time, "sleep", slept.append)
    replay = perspective.from_api(SimpleNamespace(game=Game()), "m", 0)
    assert asked == [0, 0, 2] and slept == [0.3, 0.2]
    assert [e.version for e in replay.envelopes] == [1, 2, 3]
