"""Corrections of a finished match: who may file them, what is refused (and how it reads
in English and Brazilian Portuguese), how they fold into the result, and that the
verifier lists them apart from play and checks what each references."""

from __future__ import annotations

import dataclasses

import grpc
import pytest

from support.engine import engine_fixture, player
from support.referee import REFEREE, play_out
from tavola.match import corrections
from tavola.match.events import Correction
from tavola.match.verify import Discrepancy, split, verify
from tavola.protocol import events as codec
from tavola.protocol.errors import ServiceError
from tavola.rules import registry
from tavola.v1 import audit_pb2, game_pb2

BAD = grpc.StatusCode.INVALID_ARGUMENT


async def finished(game: str = "fan-tan", players: int = 4, options=None):
    """A match played to its end by its people (each plays its first legal action; a
    pause between games is waited out)."""
    fx = engine_fixture()
    await fx.create(game=game, players=players, options=options)
    await play_out(fx, "m1")
    return fx


def request(kind: str, **fields: object) -> audit_pb2.FileCorrectionRequest:
    fields.setdefault("reason", "scorer's error")
    return audit_pb2.FileCorrectionRequest(match_id="m1", kind=kind, **fields)  # type: ignore[arg-type]


async def records_of(fx):
    return codec.decode_recorded(await fx.store.read_stream("match-m1"))


async def test_a_referee_voids_a_game_appended_after_the_end_and_verify_lists_it():
    fx = await finished()
    before = await fx.store.read_stream("match-m1")
    answer = await fx.engine.file_correction(request("void_game"), REFEREE)
    after = await fx.store.read_stream("match-m1")
    assert after[: len(before)] == before  # nothing edited
    assert [s.type for s in after[len(before) :]] == ["match.Correction"]
    ended = next(s.version for s in before if s.type == "match.MatchEnded")
    assert answer.correction.references == ended and answer.correction.version == after[-1].version
    records = codec.decode_recorded(after)
    state = verify(records)
    play, filed = split(records)
    assert len(play) == len(before) and [r.event.kind for r in filed] == ["void_game"]  # type: ignore[attr-defined]
    assert state.corrections[0].referee == REFEREE.account_id
    shown = await fx.engine.get_match(game_pb2.GetMatchRequest(match_id="m1"))
    assert [c.kind for c in shown.corrections] == ["void_game"]
    assert shown.corrections[0].reason == "scorer's error"
    export = await fx.engine.export(game_pb2.ExportMatchRequest(match_id="m1"))
    assert len(export.events) == len(after)
    result = corrections.corrected("fan-tan", records)
    assert result is not None and result.voided


async def test_a_retry_with_the_same_command_id_appends_nothing():
    fx = await finished()
    first = await fx.engine.file_correction(request("void_game", command_id="c1"), REFEREE)
    again = await fx.engine.file_correction(request("void_game", command_id="c1"), REFEREE)
    assert again.duplicate and again.correction == first.correction
    types = [s.type for s in await fx.store.read_stream("match-m1")]
    assert types.count("match.Correction") == 1
    with pytest.raises(ServiceError) as caught:
        await fx.engine.file_correction(request("void_hand", hand=1, command_id="c1"), REFEREE)
    assert caught.value.reason.code == "command.reused"


async def test_only_a_referee_or_an_admin_may_correct():
    fx = await finished()
    with pytest.raises(ServiceError) as caught:
        await fx.engine.file_correction(request("void_game"), player(0))
    assert caught.value.code == grpc.StatusCode.PERMISSION_DENIED


async def test_a_running_match_cannot_be_corrected():
    fx = engine_fixture()
    await fx.create()
    with pytest.raises(ServiceError) as caught:
        await fx.engine.file_correction(request("void_game"), REFEREE)
    assert caught.value.code == grpc.StatusCode.FAILED_PRECONDITION
    assert caught.value.reason.code == "correction.not_finished"


@pytest.mark.parametrize(
    ("kind", "fields", "code", "status"),
    [
        ("void_it", {}, "correction.bad_kind", BAD),
        ("void_game", {"reason": ""}, "correction.bad_reason", BAD),
        (
            "void_game",
            {"reason": "x" * 501},
            "correction.bad_reason",
            grpc.StatusCode.INVALID_ARGUMENT,
        ),
        ("void_hand", {"hand": 0}, "correction.no_such_hand", BAD),
        ("void_hand", {"hand": 99}, "correction.no_such_hand", BAD),
        ("adjust_score", {"amount": 5}, "correction.no_seats", BAD),
        (
            "adjust_score",
            {"seats": [4], "amount": 5},
            "correction.bad_seat",
            grpc.StatusCode.INVALID_ARGUMENT,
        ),
        (
            "adjust_score",
            {"seats": [1, 1], "amount": 5},
            "correction.seat_twice",
            grpc.StatusCode.INVALID_ARGUMENT,
        ),
        (
            "adjust_score",
            {"seats": [1], "amount": 0},
            "correction.bad_amount",
            grpc.StatusCode.INVALID_ARGUMENT,
        ),
        (
            "adjust_score",
            {"seats": [1], "amount": 100_001},
            "correction.bad_amount",
            grpc.StatusCode.INVALID_ARGUMENT,
        ),
        ("void_game", {"seats": [1]}, "correction.field_unused", BAD),
    ],
)
async def test_bad_corrections_are_refused_with_a_documented_status(kind, fields, code, status):
    fx = await finished()
    with pytest.raises(ServiceError) as caught:
        await fx.engine.file_correction(request(kind, **fields), REFEREE)
    assert (caught.value.code, caught.value.reason.code) == (status, code)
    assert caught.value.message and code not in caught.value.message
    pt = caught.value.localised("pt").message
    assert pt and pt != caught.value.message


async def test_a_void_game_is_final_and_a_hand_is_voided_once():
    fx = await finished()
    await fx.engine.file_correction(request("void_hand", hand=1), REFEREE)
    with pytest.raises(ServiceError) as caught:
        await fx.engine.file_correction(request("void_hand", hand=1), REFEREE)
    assert caught.value.reason.code == "correction.hand_void"
    await fx.engine.file_correction(request("void_game"), REFEREE)
    with pytest.raises(ServiceError) as caught:
        await fx.engine.file_correction(request("adjust_score", seats=[0], amount=3), REFEREE)
    assert caught.value.code == grpc.StatusCode.FAILED_PRECONDITION
    verify(await records_of(fx))


async def test_the_result_follows_voided_hands_and_adjustments():
    fx = await finished()
    records = await records_of(fx)
    hands = corrections.hands(records)
    assert hands and [h.number for h in hands] == list(range(1, len(hands) + 1))
    played = corrections.corrected("fan-tan", records)
    assert played is not None and not played.corrected
    total = [sum(h.points[s] for h in hands) for s in range(4)]
    assert total == [s.score for s in played.standings]  # hands add up to the result
    await fx.engine.file_correction(request("void_hand", hand=1), REFEREE)
    await fx.engine.file_correction(request("adjust_score", seats=[2, 3], amount=-7), REFEREE)
    records = await records_of(fx)
    verify(records)
    result = corrections.corrected("fan-tan", records)
    assert result is not None and result.corrected and not result.voided
    expected = [
        played.standings[s].score - hands[0].points[s] - (7 if s in (2, 3) else 0) for s in range(4)
    ]
    assert [s.score for s in result.standings] == expected
    lower = registry.get("fan-tan").info.lower_score_wins
    best = min(expected) if lower else max(expected)
    assert {s.seat for s in result.standings if s.rank == 1} == {
        s for s in range(4) if expected[s] == best
    }


def test_apply_ranks_again_and_a_void_game_counts_for_nothing():
    from tavola.rules.interface import SeatScore

    played = (SeatScore(0, 10, 1), SeatScore(1, 5, 2))  # spades: the higher score wins
    adjust = Correction("adjust_score", (1,), 6, 0, "r", "ref", 9)
    result = corrections.apply("spades", played, [adjust], list)
    assert [(s.seat, s.score, s.rank) for s in result.standings] == [(0, 10, 2), (1, 11, 1)]
    void = Correction("void_game", (), 0, 0, "r", "ref", 9)
    assert corrections.apply("spades", played, [adjust, void], list).voided


async def test_verify_fails_a_correction_that_references_another_event():
    fx = await finished()
    await fx.engine.file_correction(request("void_game"), REFEREE)
    records = await records_of(fx)
    last = records[-1]
    records[-1] = dataclasses.replace(
        last,
        event=dataclasses.replace(last.event, references=2),  # type: ignore[type-var]
    )
    with pytest.raises(Discrepancy) as caught:
        verify(records)
    assert caught.value.version == last.version


async def test_verify_fails_a_correction_that_could_not_have_been_filed():
    fx = await finished()
    await fx.engine.file_correction(request("void_hand", hand=1), REFEREE)
    records = await records_of(fx)
    last = records[-1]
    records[-1] = dataclasses.replace(last, event=dataclasses.replace(last.event, hand=77))  # type: ignore[type-var]
    with pytest.raises(Discrepancy, match="no_such_hand"):
        verify(records)


@pytest.mark.parametrize("game", registry.names())
async def test_every_game_s_hands_add_up_to_its_result(game):
    info = registry.get(game).info
    players = 4 if info.min_players <= 4 <= info.max_players else info.min_players
    options = {"match": "one_game"} if game == "doppelkopf" else None
    fx = await finished(game, players, options)
    records = await records_of(fx)
    hands = corrections.hands(records)
    played = corrections.corrected(game, records)
    assert hands and played is not None
    assert [sum(h.points[s] for h in hands) for s in range(players)] == [
        s.score for s in played.standings
    ]


async def test_partners_share_one_score_so_an_adjustment_names_both():
    fx = await finished("spades")
    with pytest.raises(ServiceError) as caught:
        await fx.engine.file_correction(request("adjust_score", seats=[1], amount=20), REFEREE)
    assert caught.value.reason.code == "correction.partner_missing"
    await fx.engine.file_correction(request("adjust_score", seats=[1, 3], amount=20), REFEREE)
    records = await records_of(fx)
    verify(records)
    result = corrections.corrected("spades", records)
    assert result is not None
    by_seat = {s.seat: s for s in result.standings}
    assert by_seat[1].score == by_seat[3].score and by_seat[1].rank == by_seat[3].rank


async def test_a_correction_is_answered_by_the_match_s_writer_like_any_command():
    """A FileCorrection reaching an engine that does not hold the match's partition is
    forwarded to the one that does (routing.py), which answers it for the caller."""
    from services.engine.policies import POLICIES
    from services.engine.routing import shard_methods

    fx = await finished()
    method = shard_methods(fx.engine)["FileCorrection"]
    assert method.request_type is audit_pb2.FileCorrectionRequest
    policy = POLICIES["/tavola.v1.AuditService/FileCorrection"]
    assert set(policy.scopes) == {"referee", "admin"}


async def test_a_series_is_not_ranked_by_points_so_only_voiding_the_game_corrects_it():
    """A dominoes series is won by games: re-ranking it by corrected points could put the
    series' loser first, so a hand's void or a score's adjustment is refused; a void
    game stands."""
    fx = await finished("dominoes", 2, {"best_of": "3", "target": "15"})
    for kind, fields in (("void_hand", {"hand": 1}), ("adjust_score", {"seats": [0], "amount": 5})):
        with pytest.raises(ServiceError) as caught:
            await fx.engine.file_correction(request(kind, **fields), REFEREE)
        assert caught.value.reason.code == "correction.not_by_score"
        assert caught.value.code == grpc.StatusCode.FAILED_PRECONDITION
    answer = await fx.engine.file_correction(request("void_game"), REFEREE)
    assert answer.correction.kind == "void_game"
    verify(await records_of(fx))
