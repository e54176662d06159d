"""``make bench``'s master-bot point: sampled deals per CPU second of every game's master,
against the code of the day issue #13 set its target (``BASELINE``: "every game's master
bot samples at least 2x more deals per second than today"), both measured in this run.

The baseline's ``libs`` are extracted from git (``git archive``) into a temporary folder;
``master_probe.py`` runs over each tree in its own process, on the positions of today's
``tavola/bots/positions.py`` (the same decisions for both; the pinned decisions test holds
that every level still decides exactly as the baseline did). The two trees are measured in
turn, ``ROUNDS`` times each, and the medians compared: the machine's speed drifts within
minutes, and alternating spreads the drift over both. Without git history (an installed
package, a shallow clone) the baseline is skipped and said so.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

import tavola

BASELINE = "c17bf3c"  # the code when issue #13 was filed (the pinned decisions' commit)
TARGET = 2.0
ROUNDS = 3
SAMPLES = 100  # the master's budget per decision here
LIBS = Path(tavola.__file__).resolve().parent.parent
PROBE = Path(__file__).with_name("master_probe.py")
POSITIONS = LIBS / "tavola" / "bots" / "positions.py"


def baseline_libs(folder: Path, commit: str = BASELINE) -> Path | None:
    """The baseline's ``libs`` extracted under ``folder``; None without git or history."""
    try:
        archive = subprocess.run(
            ["git", "-C", str(LIBS.parent), "archive", "--format=tar", commit, "libs"],
            check=True,
            capture_output=True,
            timeout=60,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder / "libs"


def probe(libs: Path, seconds: float, games: list[str]) -> dict[str, float]:
    """Samples per second per game, measured over the ``tavola`` under ``libs``."""
    code = (
        "import runpy, sys; sys.argv = sys.argv[1:]; "
        "runpy.run_path(sys.argv[0], run_name='__main__')"
    )
    env = dict(os.environ, PYTHONPATH=str(libs))
    with tempfile.TemporaryDirectory() as cwd:  # nothing of cwd shadows the tree
        done = subprocess.run(
            [
                sys.executable,
                "-c",
                code,
                str(PROBE),
                str(POSITIONS),
                str(seconds),
                str(SAMPLES),
                ",".join(games),
            ],
            check=True,
            capture_output=True,
            text=True,
            env=env,
            cwd=cwd,
        )
    return {name: rate for name, (rate, _decisions) in json.loads(done.stdout).items()}


def master_rates(seconds: float, games: list[str]) -> None:
    print(
        f"== master bot: sampled deals per CPU second (budget {SAMPLES} a decision); "
        f"baseline: the code of {BASELINE} (issue #13's start), measured in turn with "
        f"today's, {ROUNDS} rounds each, medians =="
    )
    with tempfile.TemporaryDirectory() as folder:
        old_libs = baseline_libs(Path(folder))
        ours: list[dict[str, float]] = []
        theirs: list[dict[str, float]] = []
        for _ in range(ROUNDS if old_libs else 1):
            ours.append(probe(LIBS, seconds, games))
            if old_libs is not None:
                theirs.append(probe(old_libs, seconds, games))
    if old_libs is None:
        print(f"   (no git history with {BASELINE} here: the baseline is not measured)")
    for name in games:
        rate = statistics.median(run[name] for run in ours)
        line = f"{name:>12}: {rate:8.0f} samples/s"
        if theirs:
            before = statistics.median(run[name] for run in theirs)
            line += (
                f" | {BASELINE}: {before:8.0f} samples/s | ratio {rate / before:5.2f}"
                f" (target {TARGET:.2f})"
            )
        print(line)
