"""Taking a move back at a practice table (one person, every other seat the platform's
bots): the match is again exactly as it was before the person's last move of this hand,
the bots' moves since go with it, nothing else is allowed, and the log stays verifiable."""

from __future__ import annotations

import grpc
import pytest

from support.engine import engine_fixture, player, token
from tavola.cli.replay import decode
from tavola.match.verify import Discrepancy, verify
from tavola.protocol.errors import ServiceError
from tavola.v1 import game_pb2

BOTS = (1, 2, 3)


async def take_back(fx, seat=0, command_id="tb-1", seat_token=None):
    return await fx.engine.take_back(
        game_pb2.TakeBackRequest(
            match_id="m1",
            seat=seat,
            seat_token=token(seat) if seat_token is None else seat_token,
            command_id=command_id,
        ),
        player(seat),
    )


async def views(fx):
    """Every seat's view and the spectator's, without the version (it moves on)."""
    out = []
    for seat in (-1, 0, 1, 2, 3):
        view = await fx.view("m1", seat)
        view.ClearField("version")
        view.ClearField("deadlines")
        out.append(view.SerializeToString(deterministic=True))
    return out


async def play_until_person_on_turn(fx, moves=1):
    """Play first legal actions (the bots' seats too) until the person has moved ``moves``
    times and is on turn again; returns the person's moves' versions before each."""
    before = []
    for _ in range(500):
        spectator = await fx.view("m1", -1)
        if spectator.finished:
            return before
        (seat, *_) = spectator.to_act
        if seat == 0:
            if len(before) == moves:
                return before
            before.append(spectator.version)
        await fx.act("m1", seat, (await fx.view("m1", seat)).legal_actions[0].code)
    raise AssertionError("the person never came on turn again")


async def practice(game="fan-tan", options=None):
    fx = engine_fixture()
    await fx.create(game=game, players=4, bots=BOTS, options=options or {"hands": "2"})
    return fx


async def test_taking_back_returns_every_seat_to_just_before_the_persons_last_move():
    fx = await practice()
    await play_until_person_on_turn(fx, moves=2)
    # one more round: the person plays, then the bots, then it is the person's turn again
    spectator = await fx.view("m1", -1)
    snapshot = await views(fx)
    await fx.act("m1", 0, (await fx.view("m1", 0)).legal_actions[0].code)
    await play_until_person_on_turn(fx, moves=0)
    assert await views(fx) != snapshot
    answer = await take_back(fx)
    assert answer.restored_version == spectator.version
    assert answer.version > spectator.version
    assert await views(fx) == snapshot


async def test_moves_are_taken_back_one_at_a_time_to_the_start_of_the_hand():
    fx = await practice()
    await play_until_person_on_turn(fx, moves=0)
    start = await views(fx)
    await play_until_person_on_turn(fx, moves=3)
    await fx.act("m1", 0, (await fx.view("m1", 0)).legal_actions[0].code)
    await play_until_person_on_turn(fx, moves=0)
    for n in range(4):
        await take_back(fx, command_id=f"tb-{n}")
    assert await views(fx) == start
    with pytest.raises(ServiceError) as caught:
        await take_back(fx, command_id="tb-4")
    assert caught.value.code == grpc.StatusCode.FAILED_PRECONDITION
    assert caught.value.reason.code == "take_back.nothing"


async def test_the_same_command_id_answers_again_without_taking_back_twice():
    fx = await practice()
    await play_until_person_on_turn(fx, moves=2)
    first = await take_back(fx, command_id="same")
    again = await take_back(fx, command_id="same")
    assert again.duplicate and (again.version, again.restored_version) == (
        first.version,
        first.restored_version,
    )
    assert (await fx.view("m1", -1)).version == first.version


@pytest.mark.parametrize(
    ("people", "reason"),
    [((0, 1), "take_back.not_practice"), ((0,), "take_back.nothing")],
)
async def test_refused_with_a_reason_and_the_log_untouched(people, reason):
    fx = engine_fixture()
    bots = tuple(s for s in range(4) if s not in people)
    await fx.create(game="fan-tan", players=4, bots=bots, options={"hands": "2"})
    if people == (0, 1):  # a move was made, but another person is at the table
        spectator = await fx.view("m1", -1)
        (seat, *_) = spectator.to_act
        await fx.act("m1", seat, (await fx.view("m1", seat)).legal_actions[0].code)
    before = len(await fx.store.read_stream("match-m1"))
    with pytest.raises(ServiceError) as caught:
        await take_back(fx)
    assert caught.value.code == grpc.StatusCode.FAILED_PRECONDITION
    assert caught.value.reason.code == reason
    assert len(await fx.store.read_stream("match-m1")) == before


async def test_a_wrong_token_is_denied():
    fx = await practice()
    await play_until_person_on_turn(fx, moves=1)
    with pytest.raises(ServiceError) as caught:
        await take_back(fx, seat_token="not-it")
    assert caught.value.code == grpc.StatusCode.PERMISSION_DENIED


async def test_a_finished_hand_is_final():
    fx = await practice()
    first_deal = len(await fx.store.read_stream("match-m1"))
    for _ in range(2000):  # play on until the second hand is dealt
        stored = await fx.store.read_stream("match-m1", first_deal)
        if any(s.type == "fan-tan.HandDealt" for s in stored):
            break
        spectator = await fx.view("m1", -1)
        (seat, *_) = spectator.to_act
        await fx.act("m1", seat, (await fx.view("m1", seat)).legal_actions[0].code)
    else:
        raise AssertionError("the second hand was never dealt")
    if 0 not in (await fx.view("m1", -1)).to_act:
        await play_until_person_on_turn(fx, moves=0)
    with pytest.raises(ServiceError) as caught:
        await take_back(fx)
    assert caught.value.reason.code == "take_back.nothing"


async def test_a_match_with_moves_taken_back_verifies_and_a_forged_take_back_does_not():
    fx = await practice(options={"hands": "1"})
    await play_until_person_on_turn(fx, moves=3)
    await take_back(fx, command_id="a")
    await take_back(fx, command_id="b")
    await fx.play_to_end("m1")
    records = decode(await fx.store.read_stream("match-m1"))
    verify(records)
    index = next(i for i, r in enumerate(records) if r.kind == "take_back")
    forged = list(records)
    taken = forged[index]
    forged[index] = type(taken)(
        version=taken.version,
        event=type(taken.event)(seat=taken.event.seat, to_version=taken.event.to_version - 1),
        kind=taken.kind,
        seat=taken.seat,
        command_id=taken.command_id,
    )
    with pytest.raises(Discrepancy):
        verify(forged)


@pytest.mark.parametrize("game", ["fan-tan", "spades"])
async def test_after_a_take_back_the_hint_reads_the_hand_as_if_the_move_never_happened(game):
    fx = await practice(game, options={"hands": "1"})

    async def hint():
        return await fx.engine.hint(
            game_pb2.GetHintRequest(match_id="m1", seat=0, seat_token=token(0)), player(0)
        )

    for turn in range(12):
        await play_until_person_on_turn(fx, moves=0)
        if (await fx.view("m1", -1)).finished:
            break
        before = await hint()
        await fx.act("m1", 0, (await fx.view("m1", 0)).legal_actions[-1].code)
        if (await fx.view("m1", -1)).finished:
            break
        await play_until_person_on_turn(fx, moves=0)
        if (await fx.view("m1", -1)).finished:
            break
        await take_back(fx, command_id=f"back-{turn}")
        assert await hint() == before
        await fx.act("m1", 0, (await fx.view("m1", 0)).legal_actions[0].code)
