"""The referee's CLI (``tavola correct``, ``audit``, ``import``; the corrections ``tavola
verify`` lists) over an in-process engine: the library functions the commands call, with
the AuditService answered by the engine (run on its own event loop, as a server would)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from support.engine import engine_fixture
from support.referee import REFEREE, play_out
from support.rules_v2 import fan_tan_v2
from tavola.cli import referee
from tavola.cli.errors import CliError
from tavola.cli.main import parser
from tavola.v1 import game_pb2


class Desk:
    """An AuditService stub whose calls the engine answers, as the referee."""

    def __init__(self, loop: asyncio.AbstractEventLoop, engine: Any) -> None:
        self._loop = loop
        self._engine = engine

    def _call(self, method: str, request: Any) -> Any:
        coroutine = getattr(self._engine, method)(request, REFEREE)
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(60)

    def FileCorrection(self, request: Any) -> Any:
        return self._call("file_correction", request)

    def AuditMatch(self, request: Any) -> Any:
        return self._call("audit_match", request)

    def ListFinishedMatches(self, request: Any) -> Any:
        return self._call("list_finished", request)

    def ImportRecord(self, request: Any) -> Any:
        return self._call("import_record", request)


@pytest.fixture
def world() -> Iterator[tuple[asyncio.AbstractEventLoop, Any]]:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()

    async def played() -> Any:
        fx = engine_fixture()
        for match_id, game in (("m1", "fan-tan"), ("m2", "spades"), ("m3", "fan-tan")):
            await fx.create(game=game, players=4, match_id=match_id)
            await play_out(fx, match_id)
        return fx

    fx = asyncio.run_coroutine_threadsafe(played(), loop).result(300)
    yield loop, fx
    loop.call_soon_threadsafe(loop.stop)
    thread.join(5)


def run(loop: asyncio.AbstractEventLoop, coroutine: Any) -> Any:
    return asyncio.run_coroutine_threadsafe(coroutine, loop).result(60)


def args(*argv: str) -> Any:
    return parser().parse_args(list(argv))


def test_correct_parses_each_kind_and_refuses_what_makes_no_sense():
    request = referee.correction_request(
        args("correct", "m1", "--void-game", "--reason", "r"), "en"
    )
    assert (request.kind, request.reason) == ("void_game", "r")
    request = referee.correction_request(
        args("correct", "m1", "--void-hand", "2", "--reason", "r"), "en"
    )
    assert (request.kind, request.hand) == ("void_hand", 2)
    request = referee.correction_request(
        args("correct", "m1", "--adjust", "1=-5", "--adjust", "3=-5", "--reason", "r"), "en"
    )
    assert (request.kind, list(request.seats), request.amount) == ("adjust_score", [1, 3], -5)
    for bad in (["--adjust", "x=1"], ["--adjust", "1=2", "--adjust", "2=3"], []):
        with pytest.raises(CliError) as caught:
            referee.correction_request(args("correct", "m1", *bad, "--reason", "r"), "pt")
        assert caught.value.code == 2


def test_audit_reports_nothing_on_a_clean_log_then_exactly_what_a_rules_change_changes(
    world, monkeypatch, capsys
):
    loop, fx = world
    desk = Desk(loop, fx.engine)
    seen: list[tuple[int, int]] = []
    total, differ = referee.audit_all(desk, progress=lambda d, n: seen.append((d, n)))
    assert (total, differ) == (3, []) and seen[-1] == (3, 3)
    assert referee.audit(desk, "", None) == 0
    assert "3 finished matches re-run" in capsys.readouterr().out

    with fan_tan_v2(monkeypatch):
        total, differ = referee.audit_all(desk)
        assert sorted(a.match_id for a in differ) == ["m1", "m3"]
        assert referee.audit(desk, "fan-tan", None) == 1
        out = capsys.readouterr().out
        assert "2 of 2" in out and "m1" in out and "m3" in out and "m2" not in out
        assert "rules v1 → v2" in out and "match.MatchEnded.standings" in out
        assert referee.audit_all(desk, "spades")[1] == []
    assert referee.audit_all(desk)[1] == []  # back to version 1: clean again


def test_correct_then_verify_lists_the_correction_apart_from_play(world, capsys, tmp_path):
    from google.protobuf import json_format

    loop, fx = world
    desk = Desk(loop, fx.engine)
    request = referee.correction_request(
        args("correct", "m2", "--adjust", "0=7", "--adjust", "2=7", "--reason", "late claim"), "en"
    )
    assert referee.correct(desk, request) == 0
    assert "Correction adjust_score filed on m2" in capsys.readouterr().out
    assert referee.correct(desk, request) == 0
    assert "already filed" in capsys.readouterr().out
    record = run(loop, fx.engine.export(game_pb2.ExportMatchRequest(match_id="m2")))
    path = tmp_path / "m2.json"
    path.write_text(json_format.MessageToJson(record))
    assert referee.verify(args("verify", "--file", str(path), "--no-bots")) == 0
    out = capsys.readouterr().out
    assert "Corrections" in out and "adjust_score +7 → 0,2" in out and "late claim" in out


def test_import_sends_a_record_in_parts_and_it_audits_here(world, tmp_path, capsys):
    from google.protobuf import json_format

    loop, fx = world
    record = run(loop, fx.engine.export(game_pb2.ExportMatchRequest(match_id="m1")))
    path = tmp_path / "m1.json"
    path.write_text(json_format.MessageToJson(record))
    payload = referee.record_bytes(str(path))
    assert payload == record.SerializeToString(deterministic=True)

    async def elsewhere() -> Any:
        return engine_fixture()

    other = run(loop, elsewhere())
    desk = Desk(loop, other.engine)
    monkeypatched = referee.PART
    try:
        referee.PART = 1024  # several parts
        assert referee.import_record(desk, str(path)) == 0
    finally:
        referee.PART = monkeypatched
    assert "Imported m1 (fan-tan" in capsys.readouterr().out
    assert referee.import_record(desk, str(path)) == 0
    assert "imported before" in capsys.readouterr().out
    total, differ = referee.audit_all(desk)
    assert (total, differ) == (1, [])


def test_audit_since_a_date_takes_only_the_matches_ended_since(world):
    loop, fx = world
    desk = Desk(loop, fx.engine)
    assert referee.audit_all(desk, after=referee.since("2000-01-01"))[0] == 3
    assert referee.audit_all(desk, after=referee.since("2999-01-01T10:00"))[0] == 0
    assert referee.audit_all(desk, game="spades")[0] == 1
    with pytest.raises(CliError):
        referee.since("last week")
