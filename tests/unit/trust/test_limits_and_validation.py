"""Rate limits (token buckets) and the bounds of every request field."""

from __future__ import annotations

import pytest

from tavola.protocol.errors import ServiceError
from tavola.protocol.validation import MAX_INT, check_request
from tavola.service.limits import Buckets, Rate, StreamCounter, parse_rates
from tavola.v1 import game_pb2, lobby_pb2


def test_a_bucket_allows_its_burst_then_says_how_long_to_wait_and_refills():
    now = [0.0]
    buckets = Buckets(Rate(2, 3), lambda: now[0])
    assert [buckets.take("t") for _ in range(3)] == [0.0, 0.0, 0.0]
    wait = buckets.take("t")
    assert 0 < wait <= 0.5
    assert buckets.take("other") == 0.0  # every key has its own
    now[0] += wait
    assert buckets.take("t") == 0.0


def test_buckets_remember_a_bounded_number_of_keys():
    buckets = Buckets(Rate(1, 1), lambda: 0.0, max_keys=10)
    for key in range(100):
        buckets.take(str(key))
    assert len(buckets) == 10


def test_rates_are_configured_by_name_and_an_unknown_name_is_refused():
    rates = parse_rates("act=40/80,create_table=off")
    assert rates["act"] == Rate(40, 80) and rates["create_table"] is None
    with pytest.raises(ValueError, match="no rate limit named"):
        parse_rates("nonsense=1/1")
    with pytest.raises(ValueError, match="bad rate"):
        parse_rates("act=fast")


def test_a_stream_counter_caps_and_gives_back():
    streams = StreamCounter(2)
    assert streams.open("t") and streams.open("t") and not streams.open("t")
    streams.close("t")
    assert streams.open("t")


@pytest.mark.parametrize(
    ("request_", "field"),
    [
        (game_pb2.SubmitActionRequest(match_id="a\x00b"), "match_id"),
        (game_pb2.SubmitActionRequest(command_id="\x1b[2J"), "command_id"),
        (game_pb2.SubmitActionRequest(action="7" * 65), "action"),
        (game_pb2.SubmitActionRequest(expected_version=2**64 - 1), "expected_version"),
        (game_pb2.GetViewRequest(at_version=MAX_INT + 1), "at_version"),
        (lobby_pb2.CreateTableRequest(options={f"k{i}": "v" for i in range(65)}), "options"),
        (lobby_pb2.CreateTableRequest(options={"k\x00": "v"}), "options"),
        (lobby_pb2.SitDownRequest(client_seed=b"x" * 2000), "client_seed"),
    ],
)
def test_every_field_out_of_bounds_is_invalid_argument_naming_it(request_, field):
    with pytest.raises(ServiceError) as caught:
        check_request(request_)
    assert caught.value.code.name == "INVALID_ARGUMENT"
    assert dict(caught.value.reason.params)["field"] == field


def test_requests_within_bounds_pass():
    check_request(
        game_pb2.SubmitActionRequest(
            match_id="m" * 64, command_id="c-1", action="bid 4", expected_version=MAX_INT
        )
    )
    check_request(lobby_pb2.CreateTableRequest(game="fan-tan", options={"hands": "2"}))
    check_request(lobby_pb2.SitDownRequest(player_name="João Ávila", client_seed=b"x" * 64))
