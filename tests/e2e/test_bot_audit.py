"""A referee re-derives every decision the bot service made, from the log alone.

Bot matches at the hard and the master level (5 ms of thinking: a few sampled deals per
decision) of two games, played by the real services; then ``tavola verify`` on the log
and on the exported record, and the audit library on the exported events.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from google.protobuf import json_format

from support.platform import bot_table
from tavola.bots.audit import audit
from tavola.protocol import records_export
from tavola.v1 import game_pb2

pytestmark = pytest.mark.e2e
TAVOLA = [sys.executable, "-m", "tavola.cli.main"]
GAMES = [("fan-tan", 3, {"hands": "1"}), ("dominoes", 4, {"target": "20"})]
AUDIT_LINE = re.compile(
    r"^(\d+) bot decisions re-derived from the log "
    r"\(level, seed and work recorded\); (\d+) differ$",
    re.MULTILINE,
)


def finished_decisions(client, match_id: str) -> list[game_pb2.StreamEventsResponse]:
    """The match's bot decisions (one per batch), once it has ended."""
    decisions, previous = [], ""
    for item in client.game.StreamEvents(
        game_pb2.StreamEventsRequest(match_id=match_id, seat=-1, until_end=True), timeout=180
    ):
        cause = item.event.cause
        if cause.HasField("bot_decision") and cause.command_id != previous:
            decisions.append(item)
        previous = cause.command_id
    return decisions


def audited(output: str) -> tuple[int, int]:
    found = AUDIT_LINE.search(output)
    assert found, output
    return int(found.group(1)), int(found.group(2))


@pytest.mark.parametrize("level", ["hard", "master"])
@pytest.mark.parametrize(("game", "players", "options"), GAMES)
def test_every_bot_decision_re_derives_from_the_log(
    client, platform, tmp_path, game, players, options, level
):
    match_id, _ = bot_table(client, game, players, options, level=level, think_ms=5)
    decisions = finished_decisions(client, match_id)
    assert decisions
    assert {d.event.cause.bot_decision.level for d in decisions} == {level}

    from_log = subprocess.run(
        [*TAVOLA, "verify", match_id],
        env=platform.env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert from_log.returncode == 0, from_log.stdout + from_log.stderr
    assert audited(from_log.stdout) == (len(decisions), 0)

    record = client.game.ExportMatch(game_pb2.ExportMatchRequest(match_id=match_id))
    path = tmp_path / "record.json"
    path.write_text(json_format.MessageToJson(record))
    from_file = subprocess.run(
        [*TAVOLA, "verify", "--file", str(path)],
        env=platform.env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert from_file.returncode == 0, from_file.stdout + from_file.stderr
    assert audited(from_file.stdout) == (len(decisions), 0)

    report = audit([records_export.from_record(e) for e in record.events])
    assert report.checked == report.equal == len(decisions)
    assert not report.mismatches and not report.skipped
