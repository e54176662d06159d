"""Engines shard the tables: a second engine takes half the partitions, a call reaching the
engine that does not write a match is answered by its writer (forwarded over NATS), and
when an engine is killed the other takes its partitions and its matches finish — every
move appended exactly once, the chain intact, every bot decision re-derived."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest
from prometheus_client.parser import text_string_to_metric_families

from support.platform import bot_table, eventually, match_state
from tavola.bots.audit import audit
from tavola.bus.partitions import PARTITIONS, partition_of
from tavola.cli.client import Client
from tavola.cli.platform import Platform, free_port, wait_healthy
from tavola.eventlog.chain import verify_chain
from tavola.faults.bus import check_bus
from tavola.protocol import records_export
from tavola.v1 import game_pb2

pytestmark = pytest.mark.e2e
T = TypeVar("T", bound=tuple[Any, ...])


def metric(port: int, name: str, outcome: str | None = None) -> float:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as reply:
        text = reply.read().decode()
    return sum(
        sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == name and (outcome is None or sample.labels.get("outcome") == outcome)
    )


def answers(port: int) -> bool:
    try:
        metric(port, "tavola_engine_partitions_held")
    except OSError:
        return False
    return True


@dataclass
class SecondEngine:
    """An engine of our own, on its own gRPC address, beside the platform's."""

    process: subprocess.Popen[bytes]
    address: str
    metrics_port: int

    def held(self) -> float:
        return metric(self.metrics_port, "tavola_engine_partitions_held")

    def forwarded(self) -> float:
        return metric(self.metrics_port, "tavola_engine_forwarded_total", "forwarded")


@contextlib.contextmanager
def started_engine(platform: Platform, tmp_path: Path) -> Iterator[SecondEngine]:
    """A second engine, once it holds half of the partitions (the first gave them back)."""
    env = platform.env("engine")
    address, metrics_port = f"127.0.0.1:{free_port()}", free_port()
    env.update(
        {
            "TAVOLA_GRPC_ADDRESS": address,
            "TAVOLA_METRICS_PORT": str(metrics_port),
            "TAVOLA_LOG_FILE": str(tmp_path / "engine-b.log"),
        }
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "services.engine"],
        env=env,
        stdout=open(tmp_path / "engine-b.stderr", "wb"),  # noqa: SIM115
        stderr=subprocess.STDOUT,
    )
    engine = SecondEngine(process, address, metrics_port)
    try:
        wait_healthy(address, 60, process)
        first = platform.metrics_ports["engine"]
        # a second engine takes half of the partitions within a few seconds
        eventually(
            lambda: metric(first, "tavola_engine_partitions_held") == engine.held() == 32,
            timeout=30,
        )
        yield engine
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(30)


@pytest.fixture
def second_engine(platform: Platform, tmp_path: Path) -> Iterator[SecondEngine]:
    with started_engine(platform, tmp_path) as engine:
        yield engine


@contextlib.contextmanager
def through(engine: SecondEngine, platform: Platform) -> Iterator[Client]:
    """A client of the admin account connected to ``engine``'s own gRPC address."""
    via = Client.connect(engine.address, platform.token)
    try:
        yield via
    finally:
        via.close()


def exactly_once(client: Client, match_id: str) -> None:
    final = eventually(lambda: (m := match_state(client, match_id)).finished and m, timeout=240)
    record = client.game.ExportMatch(game_pb2.ExportMatchRequest(match_id=match_id))
    stored = [records_export.from_record(e) for e in record.events]
    assert [e.version for e in stored] == list(range(1, final.version + 1))
    assert verify_chain(stored) is None
    report = audit(stored)
    assert report.differ == 0, report.line()


def written_by(engine: SecondEngine, via: Client, match_id: str) -> bool:
    """Whether the second engine writes the match: a call through it is not forwarded."""
    before = engine.forwarded()
    via.game.GetMatch(game_pb2.GetMatchRequest(match_id=match_id), timeout=10)
    return engine.forwarded() == before


TRIES = 40  # each engine holds half the partitions: 40 tables all miss one 1 time in 10^12


def table_written(
    engine: SecondEngine, via: Client, by_second: bool, open_table: Callable[[], T]
) -> T:
    """A table that the second engine writes (or that it does not): which engine writes a
    match is its id's partition, so chance — open tables until one lands where asked."""
    for _ in range(TRIES):
        table = open_table()
        if written_by(engine, via, table[0]) == by_second:
            return table
    where = "the second" if by_second else "the first"
    raise AssertionError(f"no match of {TRIES} was written by {where} engine")


def test_two_engines_share_the_partitions_and_a_call_reaches_the_tables_writer(
    client: Client, platform: Platform, second_engine: SecondEngine
) -> None:
    with through(second_engine, platform) as via_second:
        # a match's partition comes from its id, so which engine writes it is chance: open
        # tables until each engine writes one
        matches: list[str] = []
        elsewhere: list[str] = []
        here: list[str] = []
        while len(matches) < TRIES and not (elsewhere and here):
            match_id = bot_table(client, "fan-tan", 4, {"hands": "1"})[0]
            matches.append(match_id)
            (here if written_by(second_engine, via_second, match_id) else elsewhere).append(
                match_id
            )
        assert elsewhere and here, f"of {len(matches)} matches, one engine wrote them all"
        for match_id in matches:
            exactly_once(client, match_id)
        # once the match is over (the bots move between two calls), the answer through the
        # engine that does not write it is the writer's own
        summary = via_second.game.GetMatch(game_pb2.GetMatchRequest(match_id=elsewhere[0]))
        assert summary == match_state(client, elsewhere[0])


def test_a_person_plays_through_the_engine_that_does_not_write_the_table(
    client: Client, platform: Platform, second_engine: SecondEngine
) -> None:
    with through(second_engine, platform) as via_second:
        match_id, (seat_token,) = table_written(
            second_engine,
            via_second,
            False,
            lambda: bot_table(client, "fan-tan", 3, {"hands": "1"}, humans=1),
        )
        before, moves = second_engine.forwarded(), 0
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            view = via_second.game.GetView(
                game_pb2.GetViewRequest(match_id=match_id, seat=0, seat_token=seat_token)
            )
            if view.finished:
                break
            if 0 not in view.to_act or not view.legal_actions:
                time.sleep(0.02)  # the bots are playing
                continue
            via_second.game.SubmitAction(
                game_pb2.SubmitActionRequest(
                    match_id=match_id,
                    seat=0,
                    seat_token=seat_token,
                    command_id=f"move-{moves}",
                    expected_version=view.version,
                    action=view.legal_actions[0].code,
                )
            )
            moves += 1
        assert moves > 0 and second_engine.forwarded() > before
        exactly_once(client, match_id)


def test_when_an_engine_dies_the_other_takes_its_partitions_and_its_matches_finish(
    client: Client, platform: Platform, second_engine: SecondEngine
) -> None:
    with through(second_engine, platform) as via_second:
        match_id, _ = table_written(
            second_engine, via_second, True, lambda: bot_table(client, "fan-tan", 7, {"hands": "7"})
        )
    eventually(lambda: match_state(client, match_id).version > 60, timeout=60, every=0.05)
    assert not match_state(client, match_id).finished, "the match ended before the kill"
    second_engine.process.kill()
    second_engine.process.wait()
    first = platform.metrics_ports["engine"]
    eventually(lambda: metric(first, "tavola_engine_partitions_held") == 64, timeout=30)
    exactly_once(client, match_id)
    # the killed engine relayed its partitions' share of the log, and saved none of it as
    # it died: the one that took them over published on from their saved cursors
    every_event_on_the_bus(platform)


def every_event_on_the_bus(platform: Platform) -> None:
    """Every event of the log (as read first) is on the bus. The platform goes on (other
    tables of the module, the lobby), so the bus, read next, may hold a few more."""
    namespace = platform.extra_env["TAVOLA_NAMESPACE"]
    tally, violations = asyncio.run(
        check_bus(platform.database_url, [platform.nats_url], namespace, catch_up_seconds=30)
    )
    assert tally.published > 0 and tally.missing == 0, (tally, violations)


def test_a_correction_reaching_the_engine_that_does_not_write_the_match_is_forwarded(
    client: Client, platform: Platform, second_engine: SecondEngine
) -> None:
    """A referee's correction is a command of the match's writer: filed through the other
    engine, it is forwarded, appended once, and both engines show it."""
    from tavola.v1 import audit_pb2, audit_pb2_grpc

    with through(second_engine, platform) as via_second:
        match_id, _ = table_written(
            second_engine,
            via_second,
            False,
            lambda: bot_table(client, "fan-tan", 3, {"hands": "1"}),
        )
        eventually(lambda: match_state(client, match_id).finished, timeout=240)
        before = second_engine.forwarded()
        desk = audit_pb2_grpc.AuditServiceStub(via_second.channel)
        request = audit_pb2.FileCorrectionRequest(
            match_id=match_id, kind="void_game", reason="forwarded", command_id="fwd-1"
        )
        filed = desk.FileCorrection(request)
        assert second_engine.forwarded() > before
        assert desk.FileCorrection(request).duplicate
        for via in (client, via_second):
            shown = via.game.GetMatch(game_pb2.GetMatchRequest(match_id=match_id))
            assert [c.version for c in shown.corrections] == [filed.correction.version]
        exactly_once(client, match_id)


class Follower:
    """A spectator's ``StreamEvents`` to the match's end, read on a thread: the versions it
    was sent, and the longest an event took from its commit to this reader (the clocks are
    the same machine's)."""

    def __init__(self, via: Client, match_id: str) -> None:
        self.match_id = match_id
        self.versions: list[int] = []
        self.longest_lag = 0.0
        self.error: BaseException | None = None
        request = game_pb2.StreamEventsRequest(match_id=match_id, seat=-1, until_end=True)
        self._stream = via.game.StreamEvents(request, timeout=240)
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            for response in self._stream:
                event = response.event
                lag = time.time() - event.recorded_at.ToMicroseconds() / 1e6
                self.longest_lag = max(self.longest_lag, lag)
                self.versions.append(event.version)
        except BaseException as error:  # reported by ``ended``
            self.error = error

    def ended(self, timeout: float) -> list[int]:
        self._thread.join(timeout)
        assert not self._thread.is_alive(), f"{self.match_id}: the stream did not end"
        assert self.error is None, f"{self.match_id}: {self.error}"
        return self.versions


def test_a_stream_through_the_engine_that_does_not_write_the_match_sees_every_event(
    client: Client, platform: Platform, second_engine: SecondEngine
) -> None:
    """The second engine hears of the writer's appends on the bus only."""
    with through(second_engine, platform) as via_second:
        match_id, _ = table_written(
            second_engine,
            via_second,
            False,
            lambda: bot_table(client, "fan-tan", 4, {"hands": "1"}, think_ms=20),
        )
        versions = Follower(via_second, match_id).ended(timeout=120)
    final = match_state(client, match_id).version
    assert versions == list(range(1, final + 1))


def test_streams_follow_their_matches_when_a_new_engine_takes_their_partitions(
    client: Client, platform: Platform, tmp_path: Path
) -> None:
    """Streams on the only engine, then a second engine starts and takes half of the
    partitions (their matches move to it mid-hand): every stream goes on to the end with
    every event, none left waiting for the bus it had not listened to."""
    # the only engine gives back its highest partitions first: open tables until a few of
    # them are there (left to chance, none of 8 would be 1 time in 256)
    matches: list[str] = []
    while len(matches) < 8 or sum(partition_of(m) >= PARTITIONS // 2 for m in matches) < 2:
        assert len(matches) < TRIES, f"no {TRIES} tables put 2 in the upper partitions"
        matches.append(bot_table(client, "fan-tan", 4, {"hands": "7"}, think_ms=50)[0])
    followers = [Follower(client, match_id) for match_id in matches]
    eventually(lambda: all(len(f.versions) > 5 for f in followers), timeout=60)
    for follower in followers:
        follower.longest_lag = 0.0  # from here on (the backlog was read at the start)
    with started_engine(platform, tmp_path) as engine:
        with through(engine, platform) as via_second:
            moved = [
                m
                for m in matches
                if written_by(engine, via_second, m) and not match_state(client, m).finished
            ]
        assert moved, "no running match moved to the second engine"
        for follower in followers:
            versions = follower.ended(timeout=180)
            final = match_state(client, follower.match_id).version
            assert versions == list(range(1, final + 1))
            # an event committed by the new engine reaches the old one's stream at once
            # (tens of ms here; unwoken, the stream would wait for its next poll: seconds)
            assert follower.longest_lag < 2.5, (follower.match_id, follower.longest_lag)
    # the partitions given back were relayed on by their new holder from where they were
    every_event_on_the_bus(platform)
