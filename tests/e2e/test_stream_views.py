"""A client that asks for views on its stream never polls GetView: after the last event of
each append it receives its seat's view at that version, and plays from it; a stream that
does not ask gets events only, as before."""

from __future__ import annotations

import pytest

from support.platform import bot_table, match_state
from tavola.cli.client import Client
from tavola.v1 import game_pb2

pytestmark = pytest.mark.e2e


def test_a_seat_plays_a_whole_match_from_the_views_pushed_on_its_stream(client: Client) -> None:
    match_id, (seat_token,) = bot_table(client, "fan-tan", 3, {"hands": "1"}, humans=1)
    request = game_pb2.StreamEventsRequest(
        match_id=match_id, seat=0, seat_token=seat_token, until_end=True, views=True
    )
    last_event, views, moves = None, 0, 0
    for response in client.game.StreamEvents(request, timeout=180):
        if response.HasField("event"):
            last_event = response.event
            continue
        assert response.HasField("view") and last_event is not None
        assert last_event.last_in_batch and response.view.version == last_event.version
        views += 1
        if 0 in response.view.to_act and response.view.legal_actions:
            client.game.SubmitAction(
                game_pb2.SubmitActionRequest(
                    match_id=match_id,
                    seat=0,
                    seat_token=seat_token,
                    command_id=f"stream-{moves}",
                    expected_version=response.view.version,
                    action=response.view.legal_actions[0].code,
                )
            )
            moves += 1
    assert last_event is not None and last_event.type == "match.SeedRevealed"
    assert moves > 0 and views > moves
    assert match_state(client, match_id).finished


def test_a_stream_that_does_not_ask_for_views_carries_events_only(client: Client) -> None:
    match_id, _ = bot_table(client, "fan-tan", 3, {"hands": "1"})
    responses = list(
        client.game.StreamEvents(
            game_pb2.StreamEventsRequest(match_id=match_id, seat=-1, until_end=True), timeout=180
        )
    )
    assert responses and all(r.HasField("event") and not r.HasField("view") for r in responses)


def test_a_packed_stream_carries_each_append_and_its_view_in_one_response(
    client: Client,
) -> None:
    """``packed``: the same events in the same order and the same views as the plain
    stream, each wake's events (and the view after them) in one response."""
    match_id, (seat_token,) = bot_table(client, "fan-tan", 3, {"hands": "1"}, humans=1)
    request = game_pb2.StreamEventsRequest(
        match_id=match_id, seat=0, seat_token=seat_token, until_end=True, views=True, packed=True
    )
    events: list[game_pb2.EventEnvelope] = []
    views, moves = 0, 0
    for response in client.game.StreamEvents(request, timeout=180):
        assert not response.HasField("event") and response.events
        assert [e.version for e in response.events] == list(
            range(len(events) + 1, len(events) + 1 + len(response.events))
        )
        events.extend(response.events)
        if not response.HasField("view"):
            continue
        assert response.events[-1].last_in_batch
        assert response.view.version == response.events[-1].version
        views += 1
        if 0 in response.view.to_act and response.view.legal_actions:
            client.game.SubmitAction(
                game_pb2.SubmitActionRequest(
                    match_id=match_id,
                    seat=0,
                    seat_token=seat_token,
                    command_id=f"packed-{moves}",
                    expected_version=response.view.version,
                    action=response.view.legal_actions[0].code,
                )
            )
            moves += 1
    assert events[-1].type == "match.SeedRevealed"
    assert moves > 0 and views > moves
    # the same events, byte for byte, as a plain stream from the start now sends them
    plain = [
        r.event
        for r in client.game.StreamEvents(
            game_pb2.StreamEventsRequest(
                match_id=match_id, seat=0, seat_token=seat_token, until_end=True
            ),
            timeout=180,
        )
    ]
    assert plain == events
    # a backlog is sent a page at a time
    backlog = list(
        client.game.StreamEvents(
            game_pb2.StreamEventsRequest(
                match_id=match_id, seat=0, seat_token=seat_token, until_end=True, packed=True
            ),
            timeout=180,
        )
    )
    assert [e for r in backlog for e in r.events] == events
    assert len(backlog) < len(events) and all(len(r.events) <= 256 for r in backlog)
