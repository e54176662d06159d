"""The engine's application layer on the in-memory log: commands, errors, idempotency."""

from __future__ import annotations

import hashlib

import grpc
import pytest

from support.engine import FakeSeeds, engine_fixture, player, token
from tavola.protocol.errors import ServiceError
from tavola.rules.cards import Card
from tavola.v1 import game_pb2


async def events_in(fx, match_id: str = "m1") -> int:
    return await fx.store.stream_version(f"match-{match_id}")


async def test_a_created_match_opens_with_the_seed_commitment_and_deals_every_hand():
    fx = engine_fixture()
    await fx.create()
    stored = await fx.store.read_stream("match-m1")
    assert stored[0].type == "match.MatchCreated"
    seed = await FakeSeeds().seed("m1")
    envelopes = await fx.engine.events_after("m1", -2, 0)
    assert envelopes[0].payload.fields[7].value.string_value == hashlib.sha256(seed).hexdigest()
    dealt = [e for e in envelopes if e.type == "fan-tan.HandDealt"]
    assert len(dealt) == 4 and all(not e.public for e in dealt)


async def test_the_holder_of_the_seven_of_diamonds_is_the_only_seat_to_act():
    fx = engine_fixture()
    await fx.create()
    spectator = await fx.view("m1", -1)
    (seat,) = spectator.to_act
    view = await fx.view("m1", seat)
    assert [a.code for a in view.legal_actions] == ["7D"]
    hand = next(f for f in view.view.fields if f.name == "hand")
    codes = {item.card.code for item in hand.value.list.items}
    assert {b.code for b in view.blocked} == codes - {"7D"}  # every other card has a reason
    assert all(b.reason.code == "fantan.seven_of_diamonds_first" for b in view.blocked)


async def test_a_legal_card_is_appended_and_returns_the_new_version():
    fx = engine_fixture()
    await fx.create()
    before = await events_in(fx)
    (seat,) = (await fx.view("m1", -1)).to_act
    result = await fx.act("m1", seat, "7D")
    assert result.first_version == before + 1
    assert result.version == await events_in(fx)
    assert not result.duplicate


@pytest.mark.parametrize(
    ("case", "status", "reason"),
    [
        ("illegal card", grpc.StatusCode.FAILED_PRECONDITION, "fantan.seven_of_diamonds_first"),
        ("out of turn", grpc.StatusCode.FAILED_PRECONDITION, "game.not_your_turn"),
        ("wrong token", grpc.StatusCode.PERMISSION_DENIED, "seat.bad_token"),
        ("no such seat", grpc.StatusCode.INVALID_ARGUMENT, "game.no_such_seat"),
        ("malformed action", grpc.StatusCode.INVALID_ARGUMENT, "action.malformed"),
        ("unknown match", grpc.StatusCode.NOT_FOUND, "match.not_found"),
        ("stale version", grpc.StatusCode.ABORTED, "command.stale"),
        ("empty command id", grpc.StatusCode.INVALID_ARGUMENT, "request.missing"),
        ("oversized action", grpc.StatusCode.INVALID_ARGUMENT, "request.too_large"),
    ],
)
async def test_bad_input_gets_a_precise_status_and_changes_nothing(case, status, reason):
    fx = engine_fixture()
    await fx.create()
    before = await events_in(fx)
    (seat,) = (await fx.view("m1", -1)).to_act
    hand = next(f for f in (await fx.view("m1", seat)).view.fields if f.name == "hand")
    other_card = next(v.card.code for v in hand.value.list.items if v.card.code != "7D")
    kwargs = {
        "illegal card": dict(match_id="m1", seat=seat, action=other_card),
        "out of turn": dict(match_id="m1", seat=(seat + 1) % 4, action="7D"),
        "wrong token": dict(match_id="m1", seat=seat, action="7D", seat_token="nope"),
        "no such seat": dict(match_id="m1", seat=9, action="7D"),
        "malformed action": dict(match_id="m1", seat=seat, action="seven of diamonds"),
        "unknown match": dict(match_id="nope", seat=seat, action="7D"),
        "stale version": dict(match_id="m1", seat=seat, action="7D", expected_version=1),
        "empty command id": dict(match_id="m1", seat=seat, action="7D", command_id=""),
        "oversized action": dict(match_id="m1", seat=seat, action="7" * 500),
    }[case]
    if case == "empty command id":
        call = fx.engine.submit(
            game_pb2.SubmitActionRequest(
                match_id="m1", seat=seat, seat_token=token(seat), command_id="", action="7D"
            ),
            player(seat),
        )
    else:
        call = fx.act(**kwargs)
    with pytest.raises(ServiceError) as caught:
        await call
    assert caught.value.code == status
    assert caught.value.reason.code == reason
    assert caught.value.message  # a readable text
    assert await events_in(fx) == before


async def test_a_retried_command_id_returns_the_original_result_and_appends_once():
    fx = engine_fixture()
    await fx.create()
    (seat,) = (await fx.view("m1", -1)).to_act
    first = await fx.act("m1", seat, "7D", command_id="same")
    after = await events_in(fx)
    again = await fx.act("m1", seat, "7D", command_id="same")
    assert again.duplicate and (again.first_version, again.version) == (
        first.first_version,
        first.version,
    )
    assert await events_in(fx) == after


async def test_a_command_id_reused_for_another_action_is_refused():
    fx = engine_fixture()
    await fx.create()
    (seat,) = (await fx.view("m1", -1)).to_act
    await fx.act("m1", seat, "7D", command_id="same")
    after = await events_in(fx)
    with pytest.raises(ServiceError) as caught:
        await fx.act("m1", seat, "8D", command_id="same")
    assert caught.value.code == grpc.StatusCode.ALREADY_EXISTS
    assert await events_in(fx) == after


async def test_another_seat_may_use_the_same_command_id_it_is_its_own_command():
    fx = engine_fixture()
    await fx.create()
    (seat,) = (await fx.view("m1", -1)).to_act
    await fx.act("m1", seat, "7D", command_id="same")
    (following,) = (await fx.view("m1", -1)).to_act
    view = await fx.view("m1", following)
    answer = await fx.act("m1", following, view.legal_actions[0].code, command_id="same")
    assert not answer.duplicate and answer.first_version > 0


async def test_a_whole_match_ends_with_the_result_and_the_revealed_seed():
    fx = engine_fixture()
    await fx.create(players=3)
    await fx.play_to_end("m1")
    envelopes = await fx.engine.events_after("m1", -1, 0)
    assert [e.type for e in envelopes[-2:]] == ["match.MatchEnded", "match.SeedRevealed"]
    match = await fx.engine.get_match(game_pb2.GetMatchRequest(match_id="m1"))
    assert match.finished and bytes.fromhex(match.seed) == await FakeSeeds().seed("m1")


async def test_a_seat_stream_never_shows_another_seats_cards_or_the_seed_before_the_end():
    fx = engine_fixture()
    await fx.create()
    seed_hex = (await FakeSeeds().seed("m1")).hex()
    for _ in range(30):  # part of a hand
        (seat,) = (await fx.view("m1", -1)).to_act
        await fx.act("m1", seat, (await fx.view("m1", seat)).legal_actions[0].code)
    for viewer in (-1, 0, 1, 2, 3):
        for envelope in await fx.engine.events_after("m1", viewer, 0):
            data = envelope.SerializeToString()
            assert seed_hex.encode() not in data and bytes.fromhex(seed_hex) not in data
            if envelope.type == "fan-tan.HandDealt":
                owner = envelope.audience[0]
                assert envelope.hidden == (viewer != owner)
                assert (len(envelope.payload.fields) > 0) == (viewer == owner)


async def test_the_cache_can_be_thrown_away_and_the_view_is_rebuilt_identically():
    fx = engine_fixture()
    await fx.create()
    for _ in range(12):
        (seat,) = (await fx.view("m1", -1)).to_act
        await fx.act("m1", seat, (await fx.view("m1", seat)).legal_actions[0].code)
    live = [await fx.view("m1", s) for s in range(4)]
    fx.engine.forget("m1")
    rebuilt = [await fx.view("m1", s) for s in range(4)]
    assert live == rebuilt


async def test_a_view_at_a_past_version_equals_the_view_then():
    fx = engine_fixture()
    await fx.create()
    (seat,) = (await fx.view("m1", -1)).to_act
    then = await fx.view("m1", seat)
    await fx.act("m1", seat, "7D")
    past = await fx.engine.view(
        game_pb2.GetViewRequest(
            match_id="m1", seat=seat, seat_token=token(seat), at_version=then.version
        ),
        player(seat),
    )
    assert past.view == then.view and past.version == then.version


def test_cards_in_views_use_the_stable_codes():
    assert Card.parse("10H").code == "TH"


async def test_a_hint_is_a_legal_action_with_a_reason_for_the_seat_on_turn():
    fx = engine_fixture()
    await fx.create()
    (seat,) = (await fx.view("m1", -1)).to_act
    hint = await fx.engine.hint(
        game_pb2.GetHintRequest(match_id="m1", seat=seat, seat_token=token(seat)), player(seat)
    )
    assert hint.action.code == "7D" and hint.reason.text
    with pytest.raises(ServiceError) as caught:
        await fx.engine.hint(
            game_pb2.GetHintRequest(
                match_id="m1", seat=(seat + 1) % 4, seat_token=token((seat + 1) % 4)
            ),
            player((seat + 1) % 4),
        )
    assert caught.value.code == grpc.StatusCode.FAILED_PRECONDITION


async def test_a_player_who_leaves_is_replaced_by_a_marked_bot_and_loses_the_seat():
    fx = engine_fixture()
    await fx.create()
    left = await fx.engine.leave(
        game_pb2.LeaveMatchRequest(match_id="m1", seat=2, seat_token=token(2)), player(2)
    )
    assert left.replaced_by == "easy"
    match = await fx.engine.get_match(game_pb2.GetMatchRequest(match_id="m1"))
    assert match.seats[2].is_bot and match.seats[2].bot_level == "easy"
    with pytest.raises(ServiceError) as caught:
        await fx.engine.view(
            game_pb2.GetViewRequest(match_id="m1", seat=2, seat_token=token(2)), player(2)
        )
    assert caught.value.code == grpc.StatusCode.PERMISSION_DENIED
    with pytest.raises(ServiceError):
        await fx.engine.leave(
            game_pb2.LeaveMatchRequest(match_id="m1", seat=2, seat_token=token(2)), player(2)
        )


async def test_a_doppelkopf_player_leaving_ends_the_game_unscored_as_the_rule_book_says():
    fx = engine_fixture()
    await fx.create(game="doppelkopf", players=4)
    left = await fx.engine.leave(
        game_pb2.LeaveMatchRequest(match_id="m1", seat=1, seat_token=token(1)), player(1)
    )
    assert left.replaced_by == ""
    types = [e.type for e in await fx.engine.events_after("m1", -1, 0)]
    assert "match.SeatLeft" in types
    assert types[-2:] == ["match.MatchEnded", "match.SeedRevealed"]  # too few remain
    from tavola.cli.replay import decode
    from tavola.match.verify import verify

    verify(decode(await fx.store.read_stream("match-m1")))
