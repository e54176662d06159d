"""The bench's gRPC client tables play whole matches against the platform, polling and
following their streams (``make bench`` measures them; here only that they play, every
move accepted, and that the streaming seats act on the views pushed to them)."""

from __future__ import annotations

import asyncio
import os

import grpc
import pytest

from support.platform import match_state
from tavola.benchmarks import grpc_floor, tables
from tavola.cli.client import Client
from tavola.cli.platform import Platform

pytestmark = pytest.mark.e2e


async def _one_match(platform: Platform, streaming: bool, pace: float = 0.0) -> tables.Point:
    async with grpc.aio.insecure_channel(platform.address) as channel:
        admin = tables.Api(channel, platform.token)
        prefix = f"bt{os.getpid() % 10000}{'s' if streaming else 'p'}{'r' if pace else ''}-"
        seats = [tables.Api(channel, t) for t in await tables.new_accounts(admin, prefix, 4)]
        point = tables.Point(window=True)
        # index 0: the first client game, Fan Tan of one hand
        task = asyncio.create_task(
            tables.client_table(admin, seats, 0, point, streaming=streaming, pace=pace)
        )
        while not point.matches_started and not task.done():
            await asyncio.sleep(0.05)
        point.stopping = True  # the match under way is played to its end, no other
        await asyncio.wait_for(task, 180)
        return point


@pytest.mark.parametrize(
    ("streaming", "pace"),
    [(False, 0.0), (True, 0.0), (True, 0.01)],
    ids=["polling", "streaming", "streaming-paced"],
)
def test_a_client_table_plays_a_whole_match(
    platform: Platform, client: Client, streaming: bool, pace: float
) -> None:
    point = asyncio.run(_one_match(platform, streaming, pace))
    assert point.matches_finished == 1 and not point.errors
    (match_id,) = point.match_ids
    assert match_state(client, match_id).finished
    assert point.moves > 0 and len(point.latencies) == point.moves
    if streaming:  # each move's view reached its mover's stream; every message counted
        assert 0 < len(point.seen) <= point.moves and point.messages > point.moves


def test_the_grpc_floor_is_measured_on_a_bare_server() -> None:
    floor = asyncio.run(grpc_floor.measure(0.3))
    assert floor.unary_us > 0 and floor.message_us > 0
    assert floor.calls_per_s > 0 and floor.messages_per_s > 0
    assert floor.of(3, 0) == pytest.approx(3 * floor.unary_us / 1000)
