"""Re-simulation and import on the engine, in-process: a clean log audits clean; a rules
change (a test-only variant of Fan Tan whose standings differ, as rules version 2) is
reported for exactly the matches it changes, with the first difference, while each match
still verifies under the version it was played with; a record imported from another
installation (in parts) verifies, is kept read-only and audits like a local match."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import grpc
import pytest

from support.engine import engine_fixture, player
from support.referee import REFEREE, play_out
from support.rules_v2 import fan_tan_v2
from tavola.match import audit as audits
from tavola.match.verify import Discrepancy, verify
from tavola.protocol import events as codec
from tavola.protocol.errors import ServiceError
from tavola.v1 import audit_pb2, game_pb2


async def three_matches():
    fx = engine_fixture()
    for match_id, game in (("m1", "fan-tan"), ("m2", "spades"), ("m3", "fan-tan")):
        await fx.create(game=game, players=4, match_id=match_id)
        await play_out(fx, match_id)
    return fx


async def audit_all(fx, caller=REFEREE) -> dict[str, audit_pb2.AuditMatchResponse]:
    listed = await fx.engine.list_finished(audit_pb2.ListFinishedMatchesRequest(), caller)
    return {
        m.match_id: await fx.engine.audit_match(
            audit_pb2.AuditMatchRequest(match_id=m.match_id), caller
        )
        for m in listed.matches
    }


async def test_a_clean_log_audits_clean():
    fx = await three_matches()
    found = await audit_all(fx)
    assert sorted(found) == ["m1", "m2", "m3"]
    assert [a.differs for a in found.values()] == [False, False, False]
    assert all(a.recorded_rules_version == a.current_rules_version == 1 for a in found.values())


async def test_a_rules_change_is_reported_for_exactly_the_matches_it_changes(monkeypatch):
    fx = await three_matches()
    with fan_tan_v2(monkeypatch):
        await _rules_change_reported(fx)


async def _rules_change_reported(fx) -> None:
    found = await audit_all(fx)
    assert sorted(m for m, a in found.items() if a.differs) == ["m1", "m3"]
    for match_id in ("m1", "m3"):
        answer = found[match_id]
        stored = await fx.store.read_stream(f"match-{match_id}")
        ended = next(s for s in stored if s.type == "match.MatchEnded")
        assert (answer.recorded_rules_version, answer.current_rules_version) == (1, 2)
        assert answer.difference.version == ended.version
        assert answer.difference.event_type == "match.MatchEnded"
        assert answer.difference.field == "standings"
        assert answer.difference.recorded != answer.difference.rederived
        verify(codec.decode_recorded(stored))  # still verifies under version 1
    assert not found["m2"].differs


async def test_a_rules_version_this_installation_does_not_keep_fails_verification():
    fx = await three_matches()
    records = codec.decode_recorded(await fx.store.read_stream("match-m1"))
    created = replace(records[0].event, rules_version=9)  # type: ignore[type-var]
    with pytest.raises(Discrepancy, match="rules version 9"):
        verify([replace(records[0], event=created), *records[1:]])
    assert audits.audit(records).difference is None


async def test_whoever_may_export_a_finished_match_may_audit_it():
    fx = await three_matches()
    outsider = replace(player(0), account_id="00000000-0000-4000-8000-0000000000ff")
    listed = await fx.engine.list_finished(audit_pb2.ListFinishedMatchesRequest(), outsider)
    assert [m.match_id for m in listed.matches] == ["m1", "m2", "m3"]
    only = await fx.engine.list_finished(
        audit_pb2.ListFinishedMatchesRequest(game="spades"), player(0)
    )
    assert [(m.match_id, m.game, m.imported) for m in only.matches] == [("m2", "spades", False)]
    answer = await fx.engine.audit_match(audit_pb2.AuditMatchRequest(match_id="m1"), outsider)
    assert not answer.differs


async def test_a_running_match_is_not_audited():
    fx = engine_fixture()
    await fx.create()
    with pytest.raises(ServiceError) as caught:
        await fx.engine.audit_match(audit_pb2.AuditMatchRequest(match_id="m1"), REFEREE)
    assert caught.value.code == grpc.StatusCode.FAILED_PRECONDITION
    assert caught.value.reason.code == "audit.not_finished"
    listed = await fx.engine.list_finished(audit_pb2.ListFinishedMatchesRequest(), REFEREE)
    assert list(listed.matches) == []


def parts(payload: bytes, size: int = 48 * 1024) -> list[bytes]:
    return [payload[i : i + size] for i in range(0, len(payload), size)]


async def send(fx, payload: bytes, caller=REFEREE) -> audit_pb2.ImportRecordResponse:
    digest = hashlib.sha256(payload).hexdigest()
    chunks = parts(payload, 4096)
    answer = None
    for index, chunk in enumerate(chunks):
        request = audit_pb2.ImportRecordRequest(
            record_sha256=digest, part=index, parts=len(chunks), chunk=chunk
        )
        answer = await fx.engine.import_record(request, caller)
        if answer.complete:  # the last part, or a record imported before
            assert answer.received == len(chunks) and (answer.already or index + 1 == len(chunks))
            break
        assert answer.received == index + 1
    assert answer is not None
    return answer


async def test_a_record_imported_in_parts_is_kept_read_only_and_audits():
    there = await three_matches()
    await there.engine.file_correction(
        audit_pb2.FileCorrectionRequest(match_id="m1", kind="void_game", reason="forfeit"),
        REFEREE,
    )
    record = await there.engine.export(game_pb2.ExportMatchRequest(match_id="m1"))
    payload = record.SerializeToString(deterministic=True)
    assert len(payload) > 4096  # several parts
    here = engine_fixture()
    answer = await send(here, payload)
    assert (answer.match_id, answer.game, answer.events) == ("m1", "fan-tan", len(record.events))
    assert not answer.already
    assert (await send(here, payload)).already  # the same record again: nothing new
    listed = await here.engine.list_finished(audit_pb2.ListFinishedMatchesRequest(), REFEREE)
    assert [(m.match_id, m.imported) for m in listed.matches] == [("m1", True)]
    audited = await here.engine.audit_match(audit_pb2.AuditMatchRequest(match_id="m1"), REFEREE)
    assert audited.imported and not audited.differs
    with pytest.raises(ServiceError) as caught:  # read-only: nothing is decided on it
        await here.engine.file_correction(
            audit_pb2.FileCorrectionRequest(match_id="m1", kind="void_game", reason="x"),
            REFEREE,
        )
    assert caught.value.reason.code == "match.not_found"
    stored = await here.store.read_stream("imported-m1")
    kept = game_pb2.ExportMatchResponse.FromString(stored[0].payload)
    assert kept == record  # exactly as exported, its own hashes


async def test_a_tampered_record_is_refused_and_nothing_is_imported():
    there = await three_matches()
    record = await there.engine.export(game_pb2.ExportMatchRequest(match_id="m2"))
    record.events[5].payload = record.events[5].payload[:-1] + b"\x01"
    here = engine_fixture()
    with pytest.raises(ServiceError) as caught:
        await send(here, record.SerializeToString())
    assert caught.value.code in (
        grpc.StatusCode.FAILED_PRECONDITION,
        grpc.StatusCode.INVALID_ARGUMENT,
    )
    assert caught.value.reason.code in ("import.not_verified", "import.bad_record")
    assert await here.store.read_stream("imported-m2") == []
    with pytest.raises(ServiceError) as caught:
        await send(here, b"not a record at all")
    assert caught.value.reason.code == "import.bad_record"


async def test_a_record_of_a_match_played_here_is_not_imported_over_it():
    fx = await three_matches()
    record = await fx.engine.export(game_pb2.ExportMatchRequest(match_id="m2"))
    with pytest.raises(ServiceError) as caught:
        await send(fx, record.SerializeToString())
    assert caught.value.reason.code == "import.exists_here"


async def test_parts_must_come_in_order_and_only_a_referee_imports():
    fx = engine_fixture()
    request = audit_pb2.ImportRecordRequest(record_sha256="0" * 64, part=1, parts=2, chunk=b"x")
    with pytest.raises(ServiceError) as caught:
        await fx.engine.import_record(request, REFEREE)
    assert caught.value.reason.code == "import.part_missing"
    with pytest.raises(ServiceError) as caught:
        await fx.engine.import_record(request, player(0))
    assert caught.value.code == grpc.StatusCode.PERMISSION_DENIED


async def test_a_match_begun_under_version_1_plays_on_under_it_after_version_2_arrives(
    monkeypatch,
):
    fx = engine_fixture()
    await fx.create(game="fan-tan", players=4)
    for _ in range(10):  # a few moves under version 1
        spectator = await fx.view("m1", -1)
        seat = spectator.to_act[0]
        await fx.act("m1", seat, (await fx.view("m1", seat)).legal_actions[0].code)
    with fan_tan_v2(monkeypatch):
        await play_out(fx, "m1")
        stored = await fx.store.read_stream("match-m1")
        assert {s.rules_version for s in stored} == {1}
        records = codec.decode_recorded(stored)
        verify(records)  # under version 1, the one it was played with
        found = audits.audit(records)
        assert found.differs and found.difference is not None
        assert found.difference.field == "standings"
