"""A seat's session against a fake platform: a table that moved on is shown, not an error;
an automatic move is announced with its reason; `q` asks, then leaves or pauses; and the
demo counts every move, the last one included."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import grpc
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2

from tavola.cli.demo import count_moves
from tavola.cli.matchbook import Kept
from tavola.cli.preview import PREVIEW_MATCH, Scene, scenes
from tavola.cli.session import Session
from tavola.cli.terminal import run_lines
from tavola.v1 import common_pb2, events_pb2, game_pb2


class Refused(grpc.RpcError, grpc.Call):  # type: ignore[misc]
    """An error as the platform sends it: a status with an ErrorInfo detail."""

    def __init__(self, code: grpc.StatusCode, message: str, reason: str, **params: str) -> None:
        info = error_details_pb2.ErrorInfo(reason=reason, domain="tavola.v1", metadata=params)
        detail = any_pb2.Any()
        detail.Pack(info)
        self._code, self._message = code, message
        self._status = status_pb2.Status(code=code.value[0], message=message, details=[detail])

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return self._message

    def trailing_metadata(self) -> Any:
        return (("grpc-status-details-bin", self._status.SerializeToString()),)

    def initial_metadata(self) -> Any:
        return ()

    def is_active(self) -> bool:
        return False

    def time_remaining(self) -> float | None:
        return None

    def cancel(self) -> bool:
        return False

    def add_callback(self, callback: Any) -> bool:
        return False


@dataclass
class FakeGame:
    views: list[game_pb2.GetViewResponse]
    refuse: Exception | None = None
    calls: list[str] = field(default_factory=list)

    def GetView(self, request: Any, timeout: float = 0) -> game_pb2.GetViewResponse:
        self.calls.append("GetView")
        return self.views[0] if len(self.views) == 1 else self.views.pop(0)

    def SubmitAction(self, request: Any, timeout: float = 0) -> Any:
        self.calls.append(f"SubmitAction {request.action} @{request.expected_version}")
        if self.refuse is not None:
            raise self.refuse
        return game_pb2.SubmitActionResponse(version=request.expected_version + 1)

    def LeaveMatch(self, request: Any, timeout: float = 0) -> Any:
        self.calls.append("LeaveMatch")
        return game_pb2.LeaveMatchResponse(version=99, replaced_by="hard")

    def GetHint(self, request: Any, timeout: float = 0) -> Any:
        action = self.views[0].legal_actions[0]
        reason = common_pb2.Reason(
            code="x",
            text=f"Play {action.code}: it is best.",
            params=[common_pb2.ReasonParam(name="card", string_value=action.code)],
        )
        return game_pb2.GetHintResponse(action=action, reason=reason)


@dataclass
class FakeClient:
    game: FakeGame


def spades_turns() -> Iterator[Scene]:
    return (s for s in scenes("spades") if s.view.legal_actions and s.view.view.fields)


def session_on(
    views: list[game_pb2.GetViewResponse], locale: str = "en", refuse: Exception | None = None
) -> tuple[Session, FakeGame]:
    game = FakeGame(list(views), refuse)
    session = Session(FakeClient(game), Kept(PREVIEW_MATCH, "spades", 0, "token"), locale)  # type: ignore[arg-type]
    session.refresh()
    return session, game


def test_a_move_against_a_table_that_moved_on_shows_what_changed_not_an_error() -> None:
    turns = list(spades_turns())
    before, after = turns[3], turns[4]
    stale = Refused(
        grpc.StatusCode.ABORTED,
        "Stale version: you saw 15, the table is at 24",
        "command.stale",
        expected=str(before.view.version),
        actual=str(after.view.version),
    )
    session, game = session_on([before.view, after.view, after.view], refuse=stale)
    for envelope in after.events[len(before.events) :]:
        session._queue.put(envelope)
    session.handle("1")
    texts = [n.text.plain for n in session.notices]
    assert not any("Stale" in text for text in texts), texts
    changed = next(n for n in session.notices if n.kind == "changed")
    assert "The table moved on while you chose:" in changed.text.plain
    assert "played" in changed.text.plain or "bid" in changed.text.plain
    assert session.view.version == after.view.version
    assert (
        game.calls[1] == f"SubmitAction {before.view.legal_actions[0].code} @{before.view.version}"
    )


def test_an_automatic_move_for_my_seat_is_announced_with_its_reason() -> None:
    scene = next(spades_turns())
    session, _ = session_on([scene.view], locale="pt")
    reason = common_pb2.Reason(
        code="spades.auto.card", params=[common_pb2.ReasonParam(name="card", string_value="4H")]
    )
    envelope = events_pb2.EventEnvelope(
        version=scene.view.version + 1,
        type="spades.CardPlayed",
        cause=events_pb2.Cause(
            kind=events_pb2.CAUSE_KIND_TIMEOUT, seat=0, action="4H", automatic_reason=reason
        ),
        last_in_batch=True,
    )
    session._queue.put(envelope)
    session.pump(0.1)
    auto = [n for n in session.notices if n.kind == "auto"]
    assert len(auto) == 1
    assert "4♥" in auto[0].text.plain and "4H" not in auto[0].text.plain
    assert "tempo" in auto[0].text.plain.lower()  # rendered in Portuguese


def test_q_asks_then_leaves_for_good_or_pauses_or_stays() -> None:
    scene = next(spades_turns())
    session, game = session_on([scene.view])
    assert session.handle("q") == "" and session.asking == "quit"
    assert session.handle("") == "" and session.asking == ""
    session.handle("q")
    assert session.handle("p") == "paused" and "LeaveMatch" not in game.calls
    session.handle("q")
    assert session.handle("l") == "left"
    assert game.calls[-1] == "LeaveMatch" and session.left_by == "hard"


def test_a_hint_is_shown_in_the_one_notation_with_the_key_to_type() -> None:
    scene = next(s for s in spades_turns() if s.view.legal_actions[0].code[0].isdigit())
    session, _ = session_on([scene.view])
    session.handle("h")
    hint = session.notices[-1]
    assert hint.kind == "hint" and hint.text.plain.startswith("hint: 1 ")
    assert scene.view.legal_actions[0].code not in hint.text.plain
    assert session.hint == scene.view.legal_actions[0].code


def test_through_a_pipe_the_table_is_printed_once_per_turn_and_end_of_input_pauses() -> None:
    scene = next(spades_turns())
    session, _ = session_on([scene.view])
    printed: list[str] = []
    answers = iter(["h", "zz"])

    def read(prompt: str) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    assert run_lines(session, read, printed.append) == "paused"
    tables = [p for p in printed if PREVIEW_MATCH in p]
    assert len(tables) == 1  # a hint and an error do not print the table again
    assert any(p.startswith("hint:") for p in printed)


def envelope(version: int, kind: int, last: bool, seat: int = -1) -> events_pb2.EventEnvelope:
    return events_pb2.EventEnvelope(
        version=version, cause=events_pb2.Cause(kind=kind, seat=seat), last_in_batch=last
    )


def test_the_demo_counts_the_last_move_whose_batch_ends_on_a_system_event() -> None:
    action, chance, system = (
        events_pb2.CAUSE_KIND_ACTION,
        events_pb2.CAUSE_KIND_CHANCE,
        events_pb2.CAUSE_KIND_SYSTEM,
    )
    timeout = events_pb2.CAUSE_KIND_TIMEOUT
    stream = [
        envelope(1, system, True),
        envelope(2, chance, True),
        envelope(3, action, False, 0),
        envelope(4, action, True, 0),
        envelope(5, timeout, True, 1),
        envelope(6, action, False, 2),
        envelope(7, chance, False),
        envelope(8, system, False),
        envelope(9, system, True),  # the last move's batch ends on SeedRevealed
    ]
    assert count_moves(stream) == 3


def test_the_fake_error_is_what_grpc_status_reads() -> None:
    from tavola.cli.errors import reason_of

    error = Refused(grpc.StatusCode.ABORTED, "m", "command.stale", expected="1")
    assert reason_of(error) == ("command.stale", {"expected": "1"})
