"""Presence and the leaver rule, with a clock the test moves: a seat whose client is gone is
marked away for everyone, its moves are made on its timers, and after three automatic
moves in a row a bot takes over (Doppelkopf: the game ends unscored) — until the player
comes back and takes the seat back."""

from __future__ import annotations

from support.engine import engine_fixture, player, token
from tavola.match.verify import verify
from tavola.protocol import events as codec
from tavola.v1 import events_pb2, game_pb2


async def types(fx, after=0):
    return [e.type for e in await fx.engine.events_after("m1", -1, after)]


async def run_out_timers(fx, rounds: int) -> None:
    """Let every running timer run out, ``rounds`` times (people's moves made for them)."""
    for _ in range(rounds):
        view = await fx.view("m1", -1)
        if view.finished or not view.deadlines:
            return
        fx.now.ms = max(d.deadline.ToMilliseconds() for d in view.deadlines)
        await fx.engine.fire_due()
        await fx.engine.sweep_presence()


async def test_a_seat_whose_client_is_gone_for_the_grace_is_marked_away_and_back_when_it_calls():
    fx = engine_fixture()
    await fx.create(game="spades", players=4, bots=(1, 2, 3))
    await fx.view("m1", 0)  # the person looks once
    fx.now.ms += 59_000
    assert await fx.engine.sweep_presence() == 0
    fx.now.ms += 1_000
    assert await fx.engine.sweep_presence() == 1
    spectator = await fx.view("m1", -1)
    assert list(spectator.away) == [0]
    assert "match.SeatAway" in await types(fx)
    await fx.view("m1", 0)  # the person is back
    assert list((await fx.view("m1", -1)).away) == []
    assert (await types(fx))[-1] == "match.SeatBack"


async def test_an_open_stream_keeps_a_seat_present():
    fx = engine_fixture()
    await fx.create(game="spades", players=4, bots=(1, 2, 3))
    fx.engine.presence.stream_opened("m1", 0)
    fx.now.ms += 600_000
    assert await fx.engine.sweep_presence() == 0
    fx.engine.presence.stream_closed("m1", 0)
    fx.now.ms += 60_000
    assert await fx.engine.sweep_presence() == 1


async def test_three_automatic_moves_in_a_row_hand_the_seat_to_a_marked_bot():
    fx = engine_fixture()
    await fx.create(game="fan-tan", players=3, options={"hands": "1"})
    await run_out_timers(fx, 40)
    stored = await fx.store.read_stream("match-m1")
    recorded = codec.decode_recorded(stored)
    left = [r for r in recorded if type(r.event).__name__ == "SeatLeft"]
    assert left and all(r.event.away and r.event.replaced_by == "medium" for r in left)
    for departure in left:
        moves = [r for r in recorded if r.kind == "timeout" and r.seat == departure.event.seat]
        assert len({m.version for m in moves if m.version < departure.version}) >= 3
    match = await fx.engine.get_match(game_pb2.GetMatchRequest(match_id="m1"))
    seat = left[0].event.seat
    assert match.seats[seat].is_bot and match.seats[seat].bot_level == "medium"
    recorded_events = await fx.engine.events_after("m1", -1, 0)
    leave = next(e for e in recorded_events if e.type == "match.SeatLeft")
    assert leave.cause.kind == events_pb2.CAUSE_KIND_LEAVE
    assert leave.cause.automatic_reason.code == "seat.away_takeover"


async def test_a_player_who_comes_back_takes_the_seat_back_from_the_bot():
    fx = engine_fixture()
    await fx.create(game="fan-tan", players=3, options={"hands": "2"})
    for _ in range(40):
        await run_out_timers(fx, 1)
        state = await fx.engine.load("m1")
        if state.left:
            break
    seat = state.left[0].seat
    view = await fx.engine.view(
        game_pb2.GetViewRequest(match_id="m1", seat=seat, seat_token=token(seat)), player(seat)
    )
    assert "match.SeatReclaimed" in await types(fx)
    match = await fx.engine.get_match(game_pb2.GetMatchRequest(match_id="m1"))
    assert not match.seats[seat].is_bot
    assert view.version == match.version
    state = await fx.engine.load("m1")
    assert not state.has_left(seat)
    await run_out_timers(fx, 1)  # silent again: one automatic move is not yet a takeover
    assert not (await fx.engine.load("m1")).has_left(seat)


async def test_a_match_with_a_takeover_and_a_comeback_still_verifies():
    fx = engine_fixture()
    await fx.create(game="fan-tan", players=3, options={"hands": "1"})
    await run_out_timers(fx, 8)
    state = await fx.engine.load("m1")
    for departure in state.left:  # they come back
        await fx.engine.view(
            game_pb2.GetViewRequest(
                match_id="m1", seat=departure.seat, seat_token=token(departure.seat)
            ),
            player(departure.seat),
        )
    await fx.play_to_end("m1")
    stored = await fx.store.read_stream("match-m1")
    assert stored[-1].type == "match.SeedRevealed"
    verify(codec.decode_recorded(stored))


async def test_in_doppelkopf_the_leaver_rule_ends_the_game_unscored():
    fx = engine_fixture()
    await fx.create(game="doppelkopf", players=4, bots=(1, 2, 3))
    await run_out_timers(fx, 12)
    recorded = codec.decode_recorded(await fx.store.read_stream("match-m1"))
    names = [type(r.event).__name__ for r in recorded]
    assert "SeatLeft" in names
    assert "GameAbandoned" in names or "PlayerLeft" in names
