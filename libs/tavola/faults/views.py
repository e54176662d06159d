"""Client views against the log, while the engine still runs.

For a sample of the harness's seats, ``GetView`` at a few versions (the last one included)
must equal the view folded here from the log up to that version: the game's view for the
seat, who is to act, whether it ended, the seat's legal actions. And for every harness seat,
the events its stream delivered — across every reconnection, each resumed from the last
version it saw — must be the log's events as that seat may see them, each once, in order.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

import asyncpg
import grpc

from tavola.eventlog.model import StoredEvent
from tavola.eventlog.postgres import PostgresEventStore
from tavola.faults.checks import Violation
from tavola.faults.examine import fold_match
from tavola.faults.load import SeatRecord
from tavola.faults.players import CALL_TIMEOUT, Api
from tavola.match.aggregate import MatchState
from tavola.protocol.envelopes import to_envelope
from tavola.protocol.records import to_record
from tavola.v1 import events_pb2, game_pb2

VERSIONS_PER_SEAT = 3


@dataclass
class ViewFindings:
    views_compared: int = 0
    streams_compared: int = 0
    events_streamed: int = 0
    reconnects: int = 0
    violations: list[Violation] = field(default_factory=list)


async def check_views(
    address: str, database_url: str, players: Sequence[SeatRecord], sample: int, seed: int
) -> ViewFindings:
    """``players``: every harness seat of the run; ``sample`` of them have their views
    compared at a few versions."""
    findings = ViewFindings()
    rng = random.Random(seed)
    chosen = {id(p) for p in rng.sample(list(players), min(sample, len(players)))}
    apis: dict[str, Api] = {}
    pool = await asyncpg.create_pool(database_url, min_size=1, max_size=2)
    assert pool is not None
    try:
        store = PostgresEventStore(pool, clock=lambda: datetime.now(UTC))
        for player in players:
            stored = await store.read_stream(f"match-{player.match_id}")
            if not stored:
                continue
            _compare_stream(findings, player, stored)
            if id(player) in chosen:
                token = player.account_token
                if token not in apis:
                    apis[token] = Api(address, token)
                api = apis[token]
                await _compare_views(findings, api, player, stored, rng)
    finally:
        await pool.close()
        for api in apis.values():
            await api.close()
    return findings


async def _compare_views(
    findings: ViewFindings,
    api: Api,
    player: SeatRecord,
    stored: list[StoredEvent],
    rng: random.Random,
) -> None:
    count = len(stored)
    versions = sorted({*rng.sample(range(2, count + 1), min(VERSIONS_PER_SEAT, count - 1)), count})
    for version in versions:
        subject = f"match {player.match_id} seat {player.seat} at version {version}"
        request = game_pb2.GetViewRequest(
            match_id=player.match_id,
            seat=player.seat,
            seat_token=player.seat_token,
            at_version=version,
            locale="en",
        )
        try:
            live = await api.game.GetView(request, timeout=CALL_TIMEOUT * 2, metadata=api.metadata)
        except grpc.aio.AioRpcError as error:
            findings.violations.append(
                Violation("views", subject, f"GetView: {error.code().name} {error.details()}")
            )
            continue
        findings.views_compared += 1
        problem = view_difference(live, fold_match(stored[:version]), player.seat)
        if problem:
            findings.violations.append(Violation("views", subject, problem))


def view_difference(live: game_pb2.GetViewResponse, state: MatchState, seat: int) -> str:
    """What differs between a served view and the state folded from the log ("" if none)."""
    game = state.game
    view = to_record(game.view(state.game_state, seat), f"{state.created.game}.View")
    legal = (
        [game.encode_action(a) for a in game.legal_actions(state.game_state, seat)]
        if state.ended is None
        else []
    )
    differences = [
        ("version", live.version, state.version),
        ("finished", live.finished, state.ended is not None),
        ("to_act", list(live.to_act), sorted(state.to_act())),
        ("legal actions", [a.code for a in live.legal_actions], legal),
        (
            "view",
            live.view.SerializeToString(deterministic=True),
            view.SerializeToString(deterministic=True),
        ),
    ]
    return "; ".join(
        f"{name} served {_short(a)} but the log gives {_short(b)}"
        for name, a, b in differences
        if a != b
    )


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _compare_stream(findings: ViewFindings, player: SeatRecord, stored: list[StoredEvent]) -> None:
    subject = f"match {player.match_id} seat {player.seat}"
    findings.streams_compared += 1
    findings.reconnects += player.reconnects
    findings.events_streamed += len(player.received)
    for fault in player.stream_faults[:5]:
        findings.violations.append(Violation("streams", subject, fault))
    received = [_comparable(events_pb2.EventEnvelope.FromString(e)) for e in player.received]
    expected = [_comparable(to_envelope(s, player.seat, "", "en")) for s in stored]
    if not player.streamed_to_end:
        expected = expected[: len(received)]  # the run stopped it before the match's end
    if received == expected:
        return
    first = next(
        (i for i, (a, b) in enumerate(zip(received, expected, strict=False)) if a != b),
        min(len(received), len(expected)),
    )
    findings.violations.append(
        Violation(
            "streams",
            subject,
            f"received {len(received)} events, the log has {len(expected)} for the seat;"
            f" first difference at version {first + 1}",
        )
    )


def _comparable(envelope: events_pb2.EventEnvelope) -> bytes:
    copy = events_pb2.EventEnvelope()
    copy.CopyFrom(envelope)
    copy.table_id = ""  # known to the engine only once the match is in its cache
    return copy.SerializeToString(deterministic=True)
