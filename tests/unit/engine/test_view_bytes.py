"""A view written from parts (``view_bytes``: what every viewer of a version shares, made
once, around what is the seat's own) is byte for byte what protobuf serializes of the
view built field by field, for every game, viewer, locale and version of a whole match."""

from __future__ import annotations

import dataclasses

import pytest

from services.engine.mapping import deadline_pb, standings_pb
from services.engine.queries import shared_parts, view_bytes, view_of
from support.engine import engine_fixture
from tavola.match.aggregate import MatchState
from tavola.match.events import DeadlineSet, option_texts
from tavola.protocol import events as codec
from tavola.protocol.envelopes import SPECTATOR
from tavola.protocol.records import to_record
from tavola.rules import registry
from tavola.rules.errors import RulesError
from tavola.rules.messages import render
from tavola.v1 import game_pb2

GAMES = tuple((game, option_texts(registry.get(game).info.short)) for game in registry.names())


def built(state: MatchState, seat: int, locale: str, blocked: bool) -> game_pb2.GetViewResponse:
    """The view as protobuf's constructors build it, field by field (the reference)."""
    game = state.game
    viewer = None if seat == SPECTATOR else seat
    seen = game.view(state.game_state, viewer)
    response = game_pb2.GetViewResponse(
        version=state.version,
        view=to_record(seen, f"{state.created.game}.View"),
        to_act=sorted(state.to_act()),
        finished=state.ended is not None,
        standings=standings_pb(state),
        game=state.created.game,
        deadlines=[deadline_pb(d) for d in state.deadlines],
        away=sorted(state.away),
    )
    if viewer is not None and state.ended is None:
        legal = game.legal_actions(state.game_state, seat)
        codes = {game.encode_action(a) for a in legal}
        for action in legal:
            response.legal_actions.add(
                code=game.encode_action(action),
                label=game.describe_action(action) if blocked else "",
            )
        for item in getattr(seen, "hand", ()) if blocked else ():
            code = getattr(item, "code", None)
            if code is None or code in codes:
                continue
            try:
                action = game.decode_action(code)
            except RulesError:
                continue
            reason = game.why_illegal(state.game_state, seat, action)
            if reason is not None:
                response.blocked.add(
                    code=code, reason=codec.reason_to_pb(reason, render(reason, locale))
                )
    return response


async def played(game: str, options: dict[str, str]):  # type: ignore[no-untyped-def]
    fx = engine_fixture()
    await fx.create(game, options=options)
    async for state in fx.states():
        yield state


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
async def test_a_view_written_from_parts_is_protobufs_bytes(game, options):
    blocked_seen = legal_seen = 0
    async for state in played(game, options):
        shared = shared_parts(state)
        for seat in (SPECTATOR, *range(state.players)):
            for locale, blocked in (("en", True), ("pt", True), ("en", False)):
                want = built(state, seat, locale, blocked)
                data = view_bytes(state, seat, locale, blocked, shared)
                assert data == want.SerializeToString(deterministic=True)
                assert data == view_bytes(state, seat, locale, blocked)
                assert view_of(state, seat, locale, blocked) == want
                blocked_seen += len(want.blocked)
                legal_seen += len(want.legal_actions)
    assert legal_seen and (blocked_seen or game == "dominoes")


async def test_the_shared_parts_carry_deadlines_and_away_seats_in_their_place():
    state = await anext(played("spades", option_texts(registry.get("spades").info.short)))
    state = dataclasses.replace(
        state,
        away=frozenset({2, 0}),
        deadlines=(DeadlineSet(seat=1, deadline_ms=1_700_000_000_123, seconds=30),),
    )
    for seat in (SPECTATOR, 0, 1):
        want = built(state, seat, "en", True)
        assert list(want.away) == [0, 2] and want.deadlines[0].seconds == 30
        assert view_bytes(state, seat, "en", True) == want.SerializeToString(deterministic=True)
