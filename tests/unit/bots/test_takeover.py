"""A player who leaves is replaced by a bot, and the bot service plays that seat to the end.

Played by the bot service's own ``BotPlayer`` against an in-memory engine (the calls it makes
in production, ``support.engine.bot_ports``), with the internal bus guard of
``GetSeatEvents`` applied: only seats played by a bot *now* may have their stream read.
"""

from __future__ import annotations

import hashlib

from services.bots.app import BotPlayer
from support.engine import account, bot_ports, engine_fixture, player, tell_turns
from tavola.bots.audit import audit
from tavola.protocol.envelopes import FULL, to_envelope
from tavola.v1 import game_pb2, internal_pb2


def token(seat: int) -> str:
    return f"token-{seat}"


async def test_a_departed_players_seat_is_played_by_the_bot_that_replaced_it():
    fx = engine_fixture()
    engine = fx.engine
    seats = [
        internal_pb2.MatchSeat(
            seat=seat,
            player_name="person" if seat == 0 else f"Bot {seat}",
            is_bot=seat != 0,
            bot_level="" if seat == 0 else "medium",
            token_sha256=hashlib.sha256(token(seat).encode()).hexdigest(),
            account_id=account(seat) if seat == 0 else "",
        )
        for seat in range(4)
    ]
    await engine.create_match(
        internal_pb2.CreateMatchRequest(
            match_id="m1", table_id="t1", game="fan-tan", options={"hands": "1"}, seats=seats
        )
    )
    bots = BotPlayer(bot_ports(fx, samples=4))
    delivered = 0
    left = False
    for _ in range(10_000):
        stored = await fx.store.read_stream("match-m1", delivered)
        if not stored:
            state = await engine.load("match-m1".removeprefix("match-"))
            if state.ended is not None or left:
                break
            left = True  # the person walks away while the table waits for them
            await engine.leave(
                game_pb2.LeaveMatchRequest(match_id="m1", seat=0, seat_token=token(0)),
                player(0),
            )
            continue
        for item in stored:
            await tell_turns(bots, to_envelope(item, FULL))
        delivered = stored[-1].version
    everything = await fx.store.read_stream("match-m1")
    assert left, "the person never had to act"
    assert everything[-1].type == "match.SeedRevealed", "the match stalled after the leave"
    match = await engine.get_match(game_pb2.GetMatchRequest(match_id="m1"))
    assert match.seats[0].is_bot and match.seats[0].bot_level
    report = audit(everything)
    assert report.checked > 0 and report.equal == report.checked
