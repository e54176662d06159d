"""Turn timers: deadlines are facts in the log, the engine plays the automatic move when
one passes, records it as automatic with its reason, and no restart loses a timer."""

from __future__ import annotations

from support.engine import engine_fixture
from tavola.v1 import events_pb2


async def deadlines(fx, match_id="m1"):
    return [
        e for e in await fx.engine.events_after(match_id, -1, 0) if e.type == "match.DeadlineSet"
    ]


async def test_a_spades_bid_gets_a_thirty_second_deadline_known_to_every_client():
    fx = engine_fixture()
    await fx.create(game="spades", players=4)
    (deadline,) = await deadlines(fx)
    fields = {f.name: f.value.int_value for f in deadline.payload.fields}
    assert fields["seconds"] == 30
    assert fields["deadline_ms"] == fx.now.ms + 30_000
    assert deadline.public


async def test_no_deadline_is_set_for_the_platforms_own_bots():
    fx = engine_fixture()
    await fx.create(game="spades", players=4, bots=(0, 1, 2, 3))
    assert await deadlines(fx) == []


async def test_when_the_bid_timer_runs_out_the_suggested_bid_is_made_and_marked_automatic():
    fx = engine_fixture()
    await fx.create(game="spades", players=4)
    before = (await fx.view("m1", -1)).version
    fx.now.ms += 29_999
    assert await fx.engine.fire_due() == 0
    fx.now.ms += 1
    assert await fx.engine.fire_due() == 1
    new = await fx.engine.events_after("m1", -1, before)
    timeout = [e for e in new if e.cause.kind == events_pb2.CAUSE_KIND_TIMEOUT]
    assert timeout and timeout[0].cause.action.startswith("bid")
    assert timeout[0].cause.automatic_reason.code
    assert new[-1].type == "match.DeadlineSet"  # the next seat's clock starts


async def test_a_move_in_time_cancels_the_timer():
    fx = engine_fixture()
    await fx.create(game="spades", players=4)
    (seat,) = (await fx.view("m1", -1)).to_act
    await fx.act("m1", seat, "bid 3")
    fx.now.ms += 29_000
    await fx.act("m1", (seat + 1) % 4, "bid 2")
    fx.now.ms += 2_000  # the first deadline has passed, but that bid was made
    assert await fx.engine.fire_due() == 0


async def test_a_restarted_engine_recovers_running_timers_from_the_log():
    fx = engine_fixture()
    await fx.create(game="spades", players=4)
    engine = fx.restarted()
    assert await engine.recover_timers() == 1
    fx.now.ms += 30_000
    assert await engine.fire_due() == 1


async def test_a_match_with_automatic_moves_still_verifies_offline():
    from tavola.cli.replay import decode
    from tavola.match.verify import verify

    fx = engine_fixture()
    await fx.create(game="spades", players=4, bots=(1, 2, 3))
    for _ in range(4000):  # the bots' watchdogs fire too (no bot service here)
        spectator = await fx.view("m1", -1)
        if spectator.finished:
            break
        fx.now.ms += 31_000
        fired = await fx.engine.fire_due()
        if not fired:
            seat = spectator.to_act[0]
            await fx.act("m1", seat, (await fx.view("m1", seat)).legal_actions[0].code)
    assert (await fx.view("m1", -1)).finished
    verify(decode(await fx.store.read_stream("match-m1")))


async def test_the_view_tells_clients_the_running_deadline():
    fx = engine_fixture()
    await fx.create(game="spades", players=4)
    view = await fx.view("m1", -1)
    (deadline,) = view.deadlines
    assert deadline.seconds == 30 and deadline.deadline.ToMilliseconds() == fx.now.ms + 30_000


async def test_a_doppelkopf_table_with_people_pauses_twenty_seconds_between_games():
    fx = engine_fixture()
    await fx.create(game="doppelkopf", players=4, options={"match": "1_round"})
    # play the first game to its end with the first legal action of the seat on turn
    for _ in range(2000):
        events = await fx.engine.events_after("m1", -1, 0)
        if any(e.type == "match.PauseStarted" for e in events) or events[-1].type.startswith(
            "match.SeedRevealed"
        ):
            break
        spectator = await fx.view("m1", -1)
        seat = spectator.to_act[0]
        await fx.act("m1", seat, (await fx.view("m1", seat)).legal_actions[0].code)
    events = await fx.engine.events_after("m1", -1, 0)
    (pause,) = [e for e in events if e.type == "match.PauseStarted"]
    assert {f.name: f.value.int_value for f in pause.payload.fields}["seconds"] == 20
    before = len(events)
    fx.now.ms += 19_000
    assert await fx.engine.fire_due() == 0
    fx.now.ms += 1_000
    assert await fx.engine.fire_due() == 1
    after = await fx.engine.events_after("m1", -1, 0)
    assert len(after) > before and any(e.type.endswith("HandDealt") for e in after[before:])


# ----- the watchdog on the platform's own bots ------------------------------------------------
async def first_bot_turn(fx, bots):
    """Play the people's first legal actions until a bot seat is on turn; its seat."""
    for _ in range(60):
        (seat, *_) = (await fx.view("m1", -1)).to_act
        if seat in bots:
            return seat
        await fx.act("m1", seat, (await fx.view("m1", seat)).legal_actions[0].code)
    raise AssertionError("no bot seat came on turn")


async def test_with_a_person_at_the_table_a_bot_on_turn_gets_its_thinking_time_plus_grace():
    from tavola.match.aggregate import BOT_WATCHDOG_GRACE_S

    fx = engine_fixture()
    await fx.create(game="fan-tan", players=4, bots=(1, 2, 3), think_ms=4_500)
    seat = await first_bot_turn(fx, (1, 2, 3))
    (deadline,) = (await fx.view("m1", -1)).deadlines
    assert deadline.seat == seat
    assert deadline.seconds == BOT_WATCHDOG_GRACE_S + 5  # 4.5 s of thinking, rounded up


async def test_a_stalled_bot_does_not_keep_the_person_waiting():
    from tavola.match.aggregate import bot_watchdog_seconds

    fx = engine_fixture()
    await fx.create(game="fan-tan", players=4, bots=(1, 2, 3))
    seat = await first_bot_turn(fx, (1, 2, 3))
    before = (await fx.view("m1", -1)).version
    fx.now.ms += bot_watchdog_seconds(0) * 1000 - 1
    assert await fx.engine.fire_due() == 0  # the bot still has time
    fx.now.ms += 1
    assert await fx.engine.fire_due() == 1
    new = await fx.engine.events_after("m1", -1, before)
    (timeout, *_) = [e for e in new if e.cause.kind == events_pb2.CAUSE_KIND_TIMEOUT]
    assert timeout.cause.seat == seat and timeout.cause.automatic_reason.code


async def test_a_bot_that_answers_in_time_cancels_its_watchdog():
    fx = engine_fixture()
    await fx.create(game="fan-tan", players=4, bots=(1, 2, 3))
    seat = await first_bot_turn(fx, (1, 2, 3))
    await fx.act("m1", seat, (await fx.view("m1", seat)).legal_actions[0].code)
    assert all(d.seat != seat for d in (await fx.view("m1", -1)).deadlines)


async def test_a_person_at_a_table_without_timers_gets_no_deadline_only_the_bots_do():
    fx = engine_fixture()
    await fx.create(game="fan-tan", players=4, bots=(1, 2, 3), options={"timers": "false"})
    for _ in range(40):
        view = await fx.view("m1", -1)
        if 0 in view.to_act:
            break
        seat = view.to_act[0]
        assert [d.seat for d in view.deadlines] == [seat]  # a bot's watchdog
        await fx.act("m1", seat, (await fx.view("m1", seat)).legal_actions[0].code)
    assert 0 in view.to_act and list(view.deadlines) == []


async def test_a_doppelkopf_match_of_people_paused_before_its_end_verifies_offline():
    """The pause before the end (recorded with the last move) and the end (a later append)
    are two batches of the platform's: the verifier does not take them for one."""
    from tavola.cli.replay import decode
    from tavola.match.verify import verify

    fx = engine_fixture()
    await fx.create(game="doppelkopf", players=4, options={"match": "one_game"})
    for _ in range(2000):
        events = await fx.engine.events_after("m1", -1, 0)
        if any(e.type == "match.PauseStarted" for e in events):
            break
        spectator = await fx.view("m1", -1)
        seat = spectator.to_act[0]
        await fx.act("m1", seat, (await fx.view("m1", seat)).legal_actions[0].code)
    fx.now.ms += 60_000
    assert await fx.engine.fire_due() == 1
    assert (await fx.view("m1", -1)).finished
    records = decode(await fx.store.read_stream("match-m1"))
    kinds = [type(r.event).__name__ for r in records[-3:]]
    assert kinds == ["PauseStarted", "MatchEnded", "SeedRevealed"]
    verify(records)
