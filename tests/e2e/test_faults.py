"""The short form of the fault suite (``make faults`` runs the long one): tables of every
game played by the platform's bots and by the harness's own clients through the real
services on a durable Postgres and a 3-node JetStream cluster, while services are killed
and paused, Postgres and NATS restart, a node is lost and comes back, and the network is
slowed, stalled and cut — then nothing acknowledged is lost or duplicated, every chain and
version sequence holds, every table finished or goes on, every finished match verifies,
every projection and client view equals the log's.

The seed is random unless ``TAVOLA_FAULTS_SEED`` is set; it is printed, and a failure names
the checks that failed (``python -m tavola.faults --form short --seed N`` repeats it)."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

import pytest

from tavola.faults.profile import SHORT
from tavola.faults.suite import run
from tavola.rules import registry

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(1200)]


def test_the_platform_loses_and_duplicates_nothing_it_acknowledged_under_faults(
    tmp_path: Path,
) -> None:
    seed = int(os.environ.get("TAVOLA_FAULTS_SEED") or secrets.randbelow(1_000_000))
    report = run(SHORT, seed, tmp_path / "faults")
    assert report.ok, "\n".join(
        [*(v.line() for v in report.failing[:30]), f"seed {seed}: {report.failed_checks()}"]
    )
    commands = report.log.commands
    assert commands.acknowledged > 0 and commands.lost == 0 and commands.duplicated == 0
    assert report.log.chains_intact == report.log.streams > 0
    assert report.tally.node_losses >= 1 and report.tally.postgres_restarts >= 1
    assert report.tally.nats_restarts >= 1 and sum(report.tally.kills.values()) >= 4
    assert {t.game for t in report.tables} == set(registry.names())
