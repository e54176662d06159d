"""A referee (or an admin) reads every seat of a finished match without a seat token — its
views at any version, its streams, its record — and nobody reads a running match's hidden
cards that way; players keep their own checks."""

from __future__ import annotations

import grpc
import pytest

from support.engine import engine_fixture, player, token
from tavola.accounts.model import KIND_SCOPES, Kind, Principal
from tavola.protocol.errors import ServiceError
from tavola.rules.messages import render
from tavola.v1 import game_pb2

REFEREE = Principal("00000000-0000-4000-8000-00000000aaaa", "ref", Kind.REFEREE,
                    KIND_SCOPES[Kind.REFEREE], "tr")  # fmt: skip
ADMIN = Principal("00000000-0000-4000-8000-00000000bbbb", "boss", Kind.ADMIN,
                  KIND_SCOPES[Kind.ADMIN], "ta")  # fmt: skip
ADMIN_ONLY = Principal(ADMIN.account_id, "boss", Kind.ADMIN, frozenset({"admin"}), "tb")


def view(seat: int, at_version: int = 0, seat_token: str = "") -> game_pb2.GetViewRequest:
    return game_pb2.GetViewRequest(
        match_id="m1", seat=seat, seat_token=seat_token, at_version=at_version
    )


async def refused(call) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        await call
    return caught.value


@pytest.mark.parametrize("caller", [REFEREE, ADMIN, ADMIN_ONLY], ids=["referee", "admin", "adm"])
async def test_a_running_match_s_seats_are_closed_to_a_referee_and_an_admin(caller):
    fx = engine_fixture()
    await fx.create()
    for attempt in (
        fx.engine.view(view(1), caller),
        fx.engine.view(view(1, at_version=3), caller),
        fx.engine.authorize_stream("m1", 1, "", caller),
    ):
        error = await refused(attempt)
        assert error.code == grpc.StatusCode.PERMISSION_DENIED
        assert error.reason.code == "match.running"
        assert error.message == render(error.reason, "en") and "m1" in error.message
    # a spectator's view stays open to them, as to anyone who may look
    assert (await fx.engine.view(view(-1), caller)).view.fields


async def test_a_finished_match_s_every_seat_is_open_to_a_referee_at_any_version():
    fx = engine_fixture()
    await fx.create()
    await fx.play_to_end("m1")
    last = (await fx.view("m1", -1)).version
    for seat in range(4):
        for version in (5, last // 2, last):
            own = await fx.engine.view(view(seat, version, token(seat)), player(seat))
            for caller in (REFEREE, ADMIN, ADMIN_ONLY):
                assert await fx.engine.view(view(seat, version), caller) == own
        state = await fx.engine.authorize_stream("m1", seat, "", REFEREE)
        assert state.ended is not None
    record = await fx.engine.export(game_pb2.ExportMatchRequest(match_id="m1"))
    assert record.events[-1].type == "match.SeedRevealed"


async def test_players_keep_their_own_checks_after_the_end():
    fx = engine_fixture()
    await fx.create()
    await fx.play_to_end("m1")
    other = await refused(fx.engine.view(view(1, seat_token=token(0)), player(0)))
    assert other.reason.code == "seat.not_yours"
    tokenless = await refused(fx.engine.view(view(1), player(1)))
    assert tokenless.reason.code == "seat.bad_token"


def test_the_reason_reads_in_both_languages():
    from tavola.rules.errors import Reason

    reason = Reason.of("match.running", match_id="m1", seat=2)
    assert "m1" in render(reason, "en") and "seat 2" in render(reason, "en")
    assert "lugar 2" in render(reason, "pt") and "andamento" in render(reason, "pt")


def test_the_reading_methods_open_to_referees_and_admins():
    from services.engine.policies import POLICIES

    for method in ("GetView", "StreamEvents", "GetMatch", "ExportMatch"):
        scopes = POLICIES[f"/tavola.v1.GameService/{method}"].scopes
        assert "referee" in scopes and "admin" in scopes, method
    for method in ("SubmitAction", "TakeBack", "LeaveMatch", "GetHint", "ExplainAction"):
        scopes = POLICIES[f"/tavola.v1.GameService/{method}"].scopes
        assert "referee" not in scopes and "admin" not in scopes, method
