"""The bot service scales out: two instances in one NATS queue group share the bot seats'
work, each decision lands once, and when one instance is killed mid-match the other
finishes the match (the killed instance's unacknowledged events are redelivered to it)."""

from __future__ import annotations

import urllib.request
from collections.abc import Iterator

import pytest
from prometheus_client.parser import text_string_to_metric_families

from support.platform import bot_table, eventually, match_state
from tavola.bots.audit import audit
from tavola.cli.client import Client
from tavola.cli.platform import Platform
from tavola.protocol import records_export
from tavola.v1 import events_pb2, game_pb2

pytestmark = pytest.mark.e2e
REPLICA = "bots-1"


def decisions_made(platform: Platform, key: str) -> float:
    """Bot decisions an instance submitted and the engine accepted (its own metrics)."""
    url = f"http://127.0.0.1:{platform.metrics_ports[key]}/metrics"
    with urllib.request.urlopen(url, timeout=5) as reply:
        text = reply.read().decode()
    return sum(
        sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == "tavola_bots_decisions_total" and sample.labels["outcome"] == "ok"
    )


def answers(platform: Platform, key: str) -> bool:
    try:
        decisions_made(platform, key)
    except OSError:
        return False
    return True


@pytest.fixture(scope="module")
def two_bot_services(platform: Platform) -> Iterator[Platform]:
    platform.start("bots", replica=1)
    eventually(lambda: answers(platform, REPLICA), timeout=60, every=0.2)
    yield platform
    platform.stop(REPLICA)


def finished_and_exported(client: Client, match_id: str) -> tuple[game_pb2.GetMatchResponse, list]:
    """Once the match has ended: its summary and its stored events (the exported record)."""
    final = eventually(lambda: (m := match_state(client, match_id)).finished and m, timeout=240)
    record = client.game.ExportMatch(game_pb2.ExportMatchRequest(match_id=match_id))
    return final, [records_export.from_record(e) for e in record.events]


def bot_commands(stored: list) -> list[str]:
    """The command id of each bot action's batch, in order (one per decision)."""
    from tavola.protocol import events as codec

    commands: list[str] = []
    for event in stored:
        cause = codec.decode_metadata(event.metadata).cause
        by_bot = cause.kind == events_pb2.CAUSE_KIND_ACTION and cause.HasField("bot_decision")
        if by_bot and (not commands or commands[-1] != cause.command_id):
            commands.append(cause.command_id)
    return commands


def assert_exactly_once(client: Client, match_id: str) -> None:
    final, stored = finished_and_exported(client, match_id)
    assert [e.version for e in stored] == list(range(1, final.version + 1))
    commands = bot_commands(stored)
    assert commands and len(commands) == len(set(commands)), "a bot decision landed twice"
    report = audit(stored)
    assert report.checked == len(commands) and report.differ == 0, report.line()


def test_two_bot_services_share_the_tables_and_each_decision_lands_once(
    client: Client, two_bot_services: Platform
) -> None:
    before = {key: decisions_made(two_bot_services, key) for key in ("bots", REPLICA)}
    matches = [bot_table(client, "fan-tan", 4, {"hands": "2"}, level="hard")[0] for _ in range(4)]
    for match_id in matches:
        assert_exactly_once(client, match_id)
    shares = {key: decisions_made(two_bot_services, key) - before[key] for key in ("bots", REPLICA)}
    assert all(share > 0 for share in shares.values()), shares


def test_a_bot_service_killed_mid_match_leaves_the_match_to_the_other(
    client: Client, two_bot_services: Platform
) -> None:
    match_id, _ = bot_table(client, "fan-tan", 4, {"hands": "3"}, level="medium")
    eventually(lambda: match_state(client, match_id).version > 40, timeout=60, every=0.05)
    assert not match_state(client, match_id).finished, "the match ended before the kill"
    two_bot_services.kill(REPLICA)
    try:
        assert_exactly_once(client, match_id)
    finally:
        two_bot_services.start("bots", replica=1)
