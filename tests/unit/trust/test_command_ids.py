"""Command ids live in their caller's namespace: no id a client sends can block, alter or
reveal the platform's own commands (timeouts, leaving, the bot service's moves), and a
timer whose automatic move cannot be made is reported once, never retried in a loop."""

from __future__ import annotations

import pytest

from services.engine import metrics
from services.engine.callers import Service, command_key, platform_key
from support.engine import engine_fixture, player, token
from tavola.match import aggregate
from tavola.v1 import events_pb2, game_pb2


def test_no_client_id_is_another_namespaces_key():
    for client_id in ("p/timeout/0/1", "b/1/x", "c/0/y", "p/create"):
        key = command_key(player(0), 0, client_id)
        assert key.startswith("c/0/") and key != platform_key("timeout", 0, 1)
        assert key != command_key(Service.BOTS, 0, client_id)


async def test_a_client_id_equal_to_the_coming_timeout_does_not_disable_the_timer():
    fx = engine_fixture()
    await fx.create(game="spades", players=4)
    (seat,) = (await fx.view("m1", -1)).to_act
    await fx.act("m1", seat, "bid 3")
    view = await fx.view("m1", -1)
    (nxt,) = view.to_act
    (deadline,) = [d for d in view.deadlines if d.seat == nxt]
    squatted = platform_key("timeout", nxt, deadline.deadline.ToMilliseconds())
    # the seat acting before uses that very id for a move of its own in another match
    await fx.create(game="spades", players=4, match_id="m2")
    (other,) = (await fx.view("m2", -1)).to_act
    answer = await fx.act("m2", other, "bid 2", command_id=squatted)
    assert not answer.duplicate
    fx.now.ms += 30_000
    assert await fx.engine.fire_due() >= 1
    events = await fx.engine.events_after("m1", -1, view.version)
    assert any(
        e.cause.kind == events_pb2.CAUSE_KIND_TIMEOUT and e.cause.seat == nxt for e in events
    )


async def test_a_client_id_equal_to_a_bots_id_is_the_clients_own_command():
    fx = engine_fixture()
    await fx.create(players=4, bots=(1, 2, 3), options={"timers": "false"})
    for _ in range(60):
        view = await fx.view("m1", -1)
        (seat,) = view.to_act
        code = (await fx.view("m1", seat)).legal_actions[0].code
        bot_id = f"bot:m1:{seat}:{view.version}"
        if seat == 0:
            answer = await fx.act("m1", 0, code, command_id=f"bot:m1:1:{view.version + 1}")
            assert not answer.duplicate
            break
        await fx.act("m1", seat, code, command_id=bot_id)
    else:
        pytest.fail("the person never came on turn")
    # the bot on turn next still moves with the id a bot would use
    view = await fx.view("m1", -1)
    (seat,) = view.to_act
    if seat != 0:
        code = (await fx.view("m1", seat)).legal_actions[0].code
        moved = await fx.act("m1", seat, code, command_id=f"bot:m1:1:{view.version}")
        assert not moved.duplicate


async def test_a_retry_is_answered_only_after_the_caller_is_authorised():
    fx = engine_fixture()
    await fx.create(players=4)
    (seat,) = (await fx.view("m1", -1)).to_act
    await fx.act("m1", seat, "7D", command_id="mine")
    from tavola.protocol.errors import ServiceError

    with pytest.raises(ServiceError) as caught:  # someone else probing the id
        await fx.engine.submit(
            game_pb2.SubmitActionRequest(
                match_id="m1", seat=seat, seat_token=token(seat), command_id="mine", action="7D"
            ),
            player((seat + 1) % 4),
        )
    assert caught.value.code.name == "PERMISSION_DENIED"


async def test_a_timer_whose_automatic_move_fails_is_reported_once_and_never_looped(monkeypatch):
    fx = engine_fixture()
    await fx.create(game="spades", players=4)
    calls = []

    def broken(state, seat):  # type: ignore[no-untyped-def]
        calls.append(seat)
        raise RuntimeError("no automatic move")

    monkeypatch.setattr(aggregate, "decide_timeout", broken)
    failures = metrics.TIMER_FAILURES.labels(game="spades")
    before = failures._value.get()
    fx.now.ms += 30_000
    for _ in range(5):
        assert await fx.engine.fire_due() == 0
        fx.now.ms += 5_000
        await fx.engine.recover_timers()  # a rescan finds the deadline in the log again
    assert len(calls) == 1
    assert failures._value.get() == before + 1
