"""The only bot service instance is killed mid-match at a table of bots: the table waits
(nothing else may play its seats), its engine keeps telling the turn, and the instance
started again says hello and the engine tells it the waiting turn at once: the match
finishes, each decision landed once."""

from __future__ import annotations

import time
import urllib.request

import pytest
from prometheus_client.parser import text_string_to_metric_families

from support.platform import bot_table, eventually, match_state
from tavola.bots.audit import audit
from tavola.cli.client import Client
from tavola.cli.platform import Platform
from tavola.protocol import events as codec
from tavola.protocol import records_export
from tavola.v1 import game_pb2

pytestmark = pytest.mark.e2e


def engine_metric(platform: Platform, name: str) -> float:
    url = f"http://127.0.0.1:{platform.metrics_ports['engine']}/metrics"
    with urllib.request.urlopen(url, timeout=5) as reply:
        text = reply.read().decode()
    return sum(
        sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == name
    )


def engine_log(platform: Platform) -> str:
    assert platform.log_dir is not None
    return (platform.log_dir / "engine.log").read_text()


def test_a_table_of_bots_waits_for_the_bot_service_and_goes_on_once_it_is_back(
    client: Client, platform: Platform
) -> None:
    match_id, _ = bot_table(client, "fan-tan", 4, {"hands": "2"})
    eventually(lambda: match_state(client, match_id).version > 20, timeout=60, every=0.05)
    platform.kill("bots")
    try:
        time.sleep(1.0)  # a decision under way when it was killed has landed or is lost
        stalled = match_state(client, match_id)
        assert not stalled.finished, "the match ended before the kill"
        time.sleep(2.0)
        assert match_state(client, match_id).version == stalled.version  # it waits
        assert engine_metric(platform, "tavola_engine_bot_turns_waiting") >= 1
        hellos = engine_log(platform).count('"bots.hello"')
    finally:
        platform.start("bots")
    # the instance says hello; the engine tells it the waiting turns
    eventually(lambda: engine_log(platform).count('"bots.hello"') > hellos, timeout=60)
    final = eventually(lambda: (m := match_state(client, match_id)).finished and m, timeout=180)
    assert final.version > stalled.version
    record = client.game.ExportMatch(game_pb2.ExportMatchRequest(match_id=match_id))
    stored = [records_export.from_record(e) for e in record.events]
    assert [e.version for e in stored] == list(range(1, final.version + 1))
    runs: list[str] = []  # the command id of each bot decision's batch, in order
    for event in stored:
        cause = codec.decode_metadata(event.metadata).cause
        if cause.HasField("bot_decision") and (not runs or runs[-1] != cause.command_id):
            runs.append(cause.command_id)
    assert runs and len(runs) == len(set(runs)), "a bot decision landed twice"
    report = audit(stored)
    assert report.checked == len(runs) and report.differ == 0, report.line()
