"""A whole match played by bots, through the public gRPC API, services as processes."""

from __future__ import annotations

import grpc
import pytest

from support.platform import bot_table, eventually, match_state
from tavola.v1 import game_pb2, lobby_pb2, scoring_pb2

pytestmark = pytest.mark.e2e


def test_a_full_bot_match_finishes_and_its_standings_reach_the_scoring_service(client):
    match_id, _ = bot_table(client, "fan-tan", 4)
    events = list(
        client.game.StreamEvents(
            game_pb2.StreamEventsRequest(match_id=match_id, seat=-1, until_end=True), timeout=120
        )
    )
    versions = [e.event.version for e in events]
    assert versions == list(range(1, len(versions) + 1))
    assert events[-1].event.type == "match.SeedRevealed"
    match = match_state(client, match_id)
    assert match.finished and match.version == len(events)
    standings = eventually(
        lambda: client.scoring.GetMatchStandings(
            scoring_pb2.GetMatchStandingsRequest(match_id=match_id)
        )
    )
    assert [(line.seat, line.score) for line in standings.lines] == [
        (s.seat, s.score) for s in sorted(match.standings, key=lambda s: s.seat)
    ]
    assert all(line.is_bot for line in standings.lines)


def test_a_spectator_never_sees_a_hand(client):
    match_id, _ = bot_table(client, "fan-tan", 3)
    for item in client.game.StreamEvents(
        game_pb2.StreamEventsRequest(match_id=match_id, seat=-1, until_end=True), timeout=120
    ):
        if item.event.type.endswith("HandDealt"):
            assert item.event.hidden and not item.event.payload.fields


def test_the_api_answers_bad_requests_with_precise_statuses(client):
    match_id, tokens = bot_table(client, "fan-tan", 4, humans=1)
    cases = [
        (
            dict(
                match_id="no-such-match", seat=0, seat_token=tokens[0], command_id="a", action="7D"
            ),
            grpc.StatusCode.NOT_FOUND,
        ),
        (
            dict(match_id=match_id, seat=1, seat_token=tokens[0], command_id="b", action="7D"),
            grpc.StatusCode.PERMISSION_DENIED,
        ),
        (
            dict(
                match_id=match_id, seat=0, seat_token=tokens[0], command_id="c", action="not a card"
            ),
            grpc.StatusCode.INVALID_ARGUMENT,
        ),
        (
            dict(
                match_id=match_id,
                seat=0,
                seat_token=tokens[0],
                command_id="d",
                action="7D",
                expected_version=1,
            ),
            grpc.StatusCode.ABORTED,
        ),
    ]
    before = match_state(client, match_id).version
    for fields, code in cases:
        with pytest.raises(grpc.RpcError) as caught:
            client.game.SubmitAction(game_pb2.SubmitActionRequest(**fields), timeout=10)
        assert caught.value.code() == code, fields
        assert caught.value.details()
    with pytest.raises(grpc.RpcError) as caught:
        client.lobby.CreateTable(lobby_pb2.CreateTableRequest(game="chess", players=2))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert match_state(client, match_id).version >= before


def test_an_oversized_message_is_refused(client):
    with pytest.raises(grpc.RpcError) as caught:
        client.game.SubmitAction(
            game_pb2.SubmitActionRequest(match_id="x", action="7" * 200_000, command_id="big"),
            timeout=10,
        )
    assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


def test_a_message_that_is_not_protobuf_gets_invalid_argument(client):
    raw = client.channel.unary_unary("/tavola.v1.GameService/SubmitAction")
    with pytest.raises(grpc.RpcError) as caught:
        raw(b"\xff\xff\xff\xff not protobuf", timeout=10)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.details()


def test_the_server_offers_health_and_reflection(client):
    from grpc_health.v1 import health_pb2, health_pb2_grpc
    from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

    health = health_pb2_grpc.HealthStub(client.channel).Check(
        health_pb2.HealthCheckRequest(service="tavola.v1.GameService"), timeout=5
    )
    assert health.status == health_pb2.HealthCheckResponse.SERVING
    stub = reflection_pb2_grpc.ServerReflectionStub(client.channel)
    replies = list(
        stub.ServerReflectionInfo(
            iter([reflection_pb2.ServerReflectionRequest(list_services="")]), timeout=5
        )
    )
    names = {s.name for s in replies[0].list_services_response.service}
    assert {"tavola.v1.GameService", "tavola.v1.LobbyService", "tavola.v1.ScoringService"} <= names


def test_a_finished_match_exports_as_a_record_that_verifies_offline(client, tmp_path):
    from google.protobuf import json_format

    from tavola.cli.replay import verify_file

    match_id, _ = bot_table(client, "fan-tan", 3)
    list(
        client.game.StreamEvents(
            game_pb2.StreamEventsRequest(match_id=match_id, seat=-1, until_end=True), timeout=120
        )
    )
    record = client.game.ExportMatch(game_pb2.ExportMatchRequest(match_id=match_id))
    path = tmp_path / "record.json"
    path.write_text(json_format.MessageToJson(record))
    assert verify_file(str(path)) == 0
    record.events[7].payload = record.events[7].payload[:-1] + b"\x01"
    path.write_text(json_format.MessageToJson(record))
    assert verify_file(str(path)) == 1


def test_an_unfinished_match_cannot_be_exported(client):
    match_id, _ = bot_table(client, "fan-tan", 4, humans=1)
    with pytest.raises(grpc.RpcError) as caught:
        client.game.ExportMatch(game_pb2.ExportMatchRequest(match_id=match_id))
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION


def test_every_service_exposes_prometheus_metrics(client, platform):
    import urllib.request

    bot_table(client, "fan-tan", 3)
    expected = {
        "engine": "tavola_engine_commands_total",
        "lobby": "tavola_lobby_tables",
        "scoring": "tavola_consumer_pending_events",
        "bots": "tavola_bots_turns",
    }
    for name, metric in expected.items():
        port = platform.metrics_ports[name]

        def scrape(port: int = port, metric: str = metric) -> bool:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as reply:
                return metric in reply.read().decode()

        assert eventually(scrape, timeout=30, every=0.5), name


def test_the_standings_rebuilt_from_the_log_equal_the_live_ones(client, platform):
    import subprocess
    import sys

    match_id, _ = bot_table(client, "fan-tan", 3)
    request = scoring_pb2.GetMatchStandingsRequest(match_id=match_id)
    live = eventually(lambda: client.scoring.GetMatchStandings(request), timeout=120)
    env = platform.env()
    done = subprocess.run(
        [sys.executable, "-m", "services.scoring", "rebuild"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "the standings of" in done.stdout.splitlines()[-1]
    assert client.scoring.GetMatchStandings(request) == live


def test_a_table_sets_its_bots_thinking_time_and_each_decision_records_its_work(client):
    match_id, _ = bot_table(client, "fan-tan", 3, level="master", think_ms=5)
    match = match_state(client, match_id)
    assert [(s.bot_level, s.bot_think_ms) for s in match.seats] == [("master", 5)] * 3
    decisions = [
        item.event.cause.bot_decision
        for item in client.game.StreamEvents(
            game_pb2.StreamEventsRequest(match_id=match_id, seat=-1, until_end=True), timeout=120
        )
        if item.event.cause.HasField("bot_decision")
    ]
    # Fan Tan's master samples 3,000 deals in about 1 s; 5 ms of thinking is 15 deals.
    assert decisions and {(d.level, d.samples) for d in decisions} == {("master", 15)}


def test_a_thinking_time_over_a_minute_is_refused(client):
    table = client.lobby.CreateTable(lobby_pb2.CreateTableRequest(game="fan-tan", players=3)).table
    with pytest.raises(grpc.RpcError) as caught:
        client.lobby.FillWithBots(
            lobby_pb2.FillWithBotsRequest(table_id=table.table_id, level="hard", think_ms=60_001)
        )
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "think_ms" in caught.value.details()


def test_a_player_who_leaves_is_replaced_by_a_bot_that_plays_the_match_to_its_end(client):
    match_id, tokens = bot_table(
        client, "fan-tan", 4, {"timers": "false"}, humans=1, level="medium"
    )
    bots_moved = False
    for item in client.game.StreamEvents(
        game_pb2.StreamEventsRequest(match_id=match_id, seat=-1), timeout=60
    ):
        cause = item.event.cause
        bots_moved = bots_moved or cause.HasField("bot_decision")
        if item.event.last_in_batch and 0 in item.event.to_act:
            if bots_moved:
                break  # the bots have played (the bot service knows the table); seat 0 waits
            view = client.game.GetView(
                game_pb2.GetViewRequest(match_id=match_id, seat=0, seat_token=tokens[0])
            )
            client.game.SubmitAction(  # the person opens (7♦ is theirs), then the bots play
                game_pb2.SubmitActionRequest(
                    match_id=match_id,
                    seat=0,
                    seat_token=tokens[0],
                    command_id="person-opens",
                    expected_version=view.version,
                    action=view.legal_actions[0].code,
                ),
                timeout=10,
            )
    left = client.game.LeaveMatch(
        game_pb2.LeaveMatchRequest(match_id=match_id, seat=0, seat_token=tokens[0]), timeout=10
    )
    assert left.replaced_by
    events = list(
        client.game.StreamEvents(
            game_pb2.StreamEventsRequest(match_id=match_id, seat=-1, until_end=True), timeout=120
        )
    )
    assert events[-1].event.type == "match.SeedRevealed"
    match = match_state(client, match_id)
    assert match.finished and match.seats[0].is_bot
    assert any(
        e.event.cause.seat == 0 and e.event.cause.HasField("bot_decision") for e in events
    ), "the bot that took seat 0 over never decided"


def test_a_two_player_dominoes_table_without_a_mode_plays_one_against_one(client):
    table = client.lobby.CreateTable(
        lobby_pb2.CreateTableRequest(game="dominoes", players=2, options={"target": "10"})
    ).table
    assert table.options["mode"] == "block"
    client.lobby.FillWithBots(lobby_pb2.FillWithBotsRequest(table_id=table.table_id))
    match_id = client.lobby.StartMatch(
        lobby_pb2.StartMatchRequest(table_id=table.table_id)
    ).match_id
    assert eventually(lambda: match_state(client, match_id).finished, timeout=120)


def test_options_that_do_not_fit_the_number_of_players_are_refused_at_creation(client):
    with pytest.raises(grpc.RpcError) as caught:
        client.lobby.CreateTable(
            lobby_pb2.CreateTableRequest(
                game="dominoes", players=2, options={"mode": "partnership"}
            )
        )
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "partnership" in caught.value.details()
