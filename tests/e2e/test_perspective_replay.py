"""Replay a finished match as one seat saw it: a referee gets exactly what the seat's stream
delivered live, event for event, and the seat's view at each version; a running match's
seats stay closed to the referee.

For every game the test's own account plays seat 0 of a bot table through the public API
(any legal action from its view), while a stream of that seat records everything it
delivers (events and views). After the end a referee account, without the seat's token,
reads seat 0 again: ``StreamEvents`` from version 0, ``GetView`` at each version a view was
delivered; the CLI's offline projection of the exported record equals ``GetView`` at every
version; and ``tavola replay MATCH --seat 0`` prints it.
"""

from __future__ import annotations

import threading
import time

import grpc
import pytest

from support.accounts import new_account
from support.platform import bot_table
from tavola.accounts.model import Kind
from tavola.cli import perspective
from tavola.cli import replay as replay_command
from tavola.cli.client import Client
from tavola.cli.errors import reason_of
from tavola.match.events import option_texts
from tavola.protocol import records_export
from tavola.rules import registry
from tavola.v1 import game_pb2

pytestmark = pytest.mark.e2e
# a short match of each game, no turn timers (the test's seat plays as it likes)
SHORT = {game: option_texts(registry.get(game).info.short) for game in registry.names()}
LOCALE = "en"


class Recorder(threading.Thread):
    """Everything seat 0's stream delivers from version 0 to the end (events and views)."""

    def __init__(self, client: Client, match_id: str, token: str) -> None:
        super().__init__(daemon=True)
        self.delivered: list[game_pb2.StreamEventsResponse] = []
        self.error: BaseException | None = None
        self._call = client.game.StreamEvents(
            game_pb2.StreamEventsRequest(
                match_id=match_id,
                seat=0,
                seat_token=token,
                after_version=0,
                until_end=True,
                views=True,
                locale=LOCALE,
            ),
            timeout=600,
        )

    def run(self) -> None:
        try:
            self.delivered.extend(self._call)
        except BaseException as error:  # reported by the test
            self.error = error


def play_seat_zero(client: Client, match_id: str, token: str, deadline_s: float = 420) -> int:
    """Seat 0 plays the first legal action of its view whenever it has one; moves made."""
    moves, deadline = 0, time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        view = client.game.GetView(
            game_pb2.GetViewRequest(match_id=match_id, seat=0, seat_token=token), timeout=10
        )
        if view.finished:
            return moves
        if not view.legal_actions:
            time.sleep(0.05)
            continue
        try:
            client.game.SubmitAction(
                game_pb2.SubmitActionRequest(
                    match_id=match_id,
                    seat=0,
                    seat_token=token,
                    command_id=f"me-{moves}",
                    expected_version=view.version,
                    action=view.legal_actions[0].code,
                ),
                timeout=10,
            )
            moves += 1
        except grpc.RpcError as error:
            if error.code() not in (  # the table moved on meanwhile: look again
                grpc.StatusCode.ABORTED,
                grpc.StatusCode.FAILED_PRECONDITION,
            ):
                raise
    raise AssertionError(f"match {match_id} did not end in {deadline_s} s")


def refused(call, request) -> grpc.RpcError:  # type: ignore[no-untyped-def]
    with pytest.raises(grpc.RpcError) as caught:
        answer = call(request, timeout=10)
        if not hasattr(answer, "version"):
            next(iter(answer))  # a stream: its first message
    return caught.value


@pytest.mark.parametrize("game", registry.names())
def test_the_perspective_replay_of_a_seat_is_what_its_stream_delivered(
    game, client, platform, capsys, monkeypatch
):
    referee, _ = new_account(client, "referee", Kind.REFEREE)
    match_id, (token,) = bot_table(
        client, game, 4, {**SHORT[game], "timers": "false"}, humans=1, level="easy", think_ms=1
    )
    recorder = Recorder(client, match_id, token)
    recorder.start()

    # running: nobody reads another seat's hidden cards without the seat's token
    for call, request in (
        (referee.game.GetView, game_pb2.GetViewRequest(match_id=match_id, seat=0)),
        (referee.game.GetView, game_pb2.GetViewRequest(match_id=match_id, seat=1, at_version=3)),
        (referee.game.StreamEvents, game_pb2.StreamEventsRequest(match_id=match_id, seat=0)),
    ):
        error = refused(call, request)
        assert error.code() == grpc.StatusCode.PERMISSION_DENIED
        assert reason_of(error)[0] == "match.running"
    error = refused(referee.game.ExportMatch, game_pb2.ExportMatchRequest(match_id=match_id))
    assert error.code() == grpc.StatusCode.FAILED_PRECONDITION

    assert play_seat_zero(client, match_id, token) > 0
    recorder.join(timeout=120)
    assert not recorder.is_alive() and recorder.error is None, recorder.error
    live_events = [d.event for d in recorder.delivered if d.HasField("event")]
    live_views = [d.view for d in recorder.delivered if d.HasField("view")]
    assert [e.version for e in live_events] == list(range(1, len(live_events) + 1))
    assert live_events[-1].type == "match.SeedRevealed" and live_views
    assert any(e.hidden for e in live_events)  # the other seats' hands

    # finished: the referee reads seat 0 without its token — the very same events…
    replayed = list(
        referee.game.StreamEvents(
            game_pb2.StreamEventsRequest(
                match_id=match_id, seat=0, after_version=0, until_end=True, locale=LOCALE
            ),
            timeout=120,
        )
    )
    assert [r.event for r in replayed] == live_events
    # … and, at each version a view was delivered, the very same view
    for live in live_views:
        again = referee.game.GetView(
            game_pb2.GetViewRequest(
                match_id=match_id, seat=0, at_version=live.version, locale=LOCALE
            ),
            timeout=10,
        )
        assert again == live, live.version
    # every other seat too, and the whole record
    for seat in range(1, 4):
        other = referee.game.GetView(
            game_pb2.GetViewRequest(
                match_id=match_id, seat=seat, at_version=live_events[-1].version
            ),
            timeout=10,
        )
        assert other.finished
    record = referee.game.ExportMatch(game_pb2.ExportMatchRequest(match_id=match_id), timeout=30)
    assert len(record.events) == len(live_events)

    # the CLI's perspective replay reads the same through the API, and offline from the
    # record it projects every version's view exactly as GetView answers it
    seen = perspective.from_api(referee, match_id, 0, "", LOCALE)
    assert seen.envelopes == live_events
    offline = perspective.from_stored(
        [records_export.from_record(e) for e in record.events], 0, LOCALE
    )
    assert offline.envelopes == live_events
    for version in range(1, len(live_events) + 1):
        served = view_at(referee, match_id, version)
        served.ClearField("blocked")  # help for the one deciding (not projected offline)
        assert offline.view_at(version, 0) == served, version
    monkeypatch.setenv("TAVOLA_TOKEN", referee_token(referee))
    capsys.readouterr()
    assert replay_command.replay(match_id, seat=0, address=platform.address) == 0
    out = capsys.readouterr().out
    assert "as seat 0 saw it" in out and "your hand" in out and "final standings" in out
    assert "Credentials" not in out and token not in out


def view_at(client: Client, match_id: str, version: int) -> game_pb2.GetViewResponse:
    """Seat 0's view at ``version``, waiting out the token's read limit when it is hit."""
    for _ in range(50):
        try:
            return client.game.GetView(
                game_pb2.GetViewRequest(
                    match_id=match_id, seat=0, at_version=version, locale=LOCALE
                ),
                timeout=10,
            )
        except grpc.RpcError as error:
            if error.code() != grpc.StatusCode.RESOURCE_EXHAUSTED:
                raise
            time.sleep(0.5)
    raise AssertionError("still limited")


def referee_token(referee: Client) -> str:
    """The referee client's own token (issued again: a client does not keep it readable)."""
    from tavola.v1 import account_pb2

    issued = referee.accounts.IssueToken(account_pb2.IssueTokenRequest(label="cli"), timeout=10)
    return issued.token
