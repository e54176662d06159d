"""The bench's master point measures a tree in a process of its own, on today's positions,
and says so when the baseline's history is not there (figures are never asserted)."""

from __future__ import annotations

from pathlib import Path

from tavola.benchmarks import master


def test_the_probe_measures_the_tree_it_is_given(tmp_path: Path) -> None:
    rates = master.probe(master.LIBS, 0.01, ["dominoes"])
    assert set(rates) == {"dominoes"} and rates["dominoes"] > 0


def test_a_baseline_missing_from_the_history_is_none(tmp_path: Path) -> None:
    assert master.baseline_libs(tmp_path, "0" * 40) is None
