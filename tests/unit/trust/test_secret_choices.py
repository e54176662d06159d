"""A secret choice stays secret on every stream: a Doppelkopf reservation's code is on its
events' cause only for the seat that made it (and the audit), never for the other seats
or a spectator — nor anyone's command ids."""

from __future__ import annotations

from support.engine import engine_fixture
from tavola.protocol.envelopes import FULL


async def test_a_reservation_is_seen_only_by_the_seat_that_made_it():
    fx = engine_fixture()
    await fx.create(game="doppelkopf", players=4, options={"timers": "false"})
    view = await fx.view("m1", -1)
    seat = view.to_act[0]
    await fx.act("m1", seat, "solo H", command_id="secret-id")
    mine = [e for e in await fx.engine.events_after("m1", seat, 0) if e.cause.seat == seat]
    assert mine and all(e.cause.action == "solo H" for e in mine)
    assert all(e.cause.command_id for e in mine)
    for viewer in [s for s in range(4) if s != seat] + [-1]:
        theirs = [e for e in await fx.engine.events_after("m1", viewer, 0) if e.cause.seat == seat]
        assert theirs and all(e.cause.action == "" and e.cause.command_id == "" for e in theirs)
    audit = [e for e in await fx.engine.events_after("m1", FULL, 0) if e.cause.seat == seat]
    assert all(e.cause.action == "solo H" for e in audit)


async def test_a_public_move_keeps_its_cause_for_everyone():
    fx = engine_fixture()
    await fx.create(game="fan-tan", players=4)
    (seat,) = (await fx.view("m1", -1)).to_act
    await fx.act("m1", seat, "7D")
    spectator = [e for e in await fx.engine.events_after("m1", -1, 0) if e.cause.seat == seat]
    assert spectator and all(e.cause.action == "7D" for e in spectator)
