"""A player drops their connection mid-hand and resumes exactly where they were."""

from __future__ import annotations

import itertools

import pytest

from support.platform import bot_table, eventually
from tavola.cli.client import Client
from tavola.v1 import game_pb2

pytestmark = pytest.mark.e2e


def view(client: Client, match_id: str, token: str) -> game_pb2.GetViewResponse:
    return client.game.GetView(
        game_pb2.GetViewRequest(match_id=match_id, seat=0, seat_token=token), timeout=10
    )


def play_my_turns(client: Client, match_id: str, token: str, turns: int) -> None:
    """Seat 0 is a person: play its first legal card whenever it is on turn."""
    for n in range(turns):
        current = eventually(lambda: (v := view(client, match_id, token)).legal_actions and v)
        client.game.SubmitAction(
            game_pb2.SubmitActionRequest(
                match_id=match_id,
                seat=0,
                seat_token=token,
                command_id=f"me-{n}",
                expected_version=current.version,
                action=current.legal_actions[0].code,
            ),
            timeout=10,
        )


def collect(
    client: Client, match_id: str, token: str, after: int, count: int
) -> list[game_pb2.StreamEventsResponse]:
    stream = client.game.StreamEvents(
        game_pb2.StreamEventsRequest(
            match_id=match_id, seat=0, seat_token=token, after_version=after
        ),
        timeout=60,
    )
    items = list(itertools.islice(stream, count))
    stream.cancel()
    return items


def test_a_client_that_reconnects_mid_hand_gets_exactly_the_missed_events_and_the_same_view(
    client, platform
):
    match_id, (token,) = bot_table(client, "fan-tan", 4, {"timers": "false"}, humans=1)
    play_my_turns(client, match_id, token, 3)
    # the bots play on until it is the person's turn again; then nothing moves
    head = eventually(lambda: (v := view(client, match_id, token)).legal_actions and v).version
    # The client that never left reads everything; the other one dropped at `gap`.
    never_left = collect(client, match_id, token, 0, head)
    gap = head // 2
    before_drop = collect(client, match_id, token, 0, gap)
    with _Reconnected(platform) as second:
        resumed = collect(second, match_id, token, before_drop[-1].event.version, head - gap)
        rebuilt = view(second, match_id, token)
    assert [e.event.version for e in before_drop + resumed] == list(range(1, head + 1))
    assert before_drop + resumed == never_left
    assert rebuilt == view(client, match_id, token)
    hidden = [e for e in never_left if e.event.hidden]
    assert hidden and all(not e.event.payload.fields for e in hidden)


class _Reconnected:
    """A brand-new connection (a client coming back)."""

    def __init__(self, platform) -> None:
        self._platform = platform

    def __enter__(self) -> Client:
        self._client = Client.connect(self._platform.address, self._platform.token)
        return self._client

    def __exit__(self, *exc: object) -> None:
        self._client.close()
