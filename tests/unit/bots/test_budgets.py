"""A table's thinking time scales the master's work, never below one sampled deal."""

from __future__ import annotations

from tavola.bots.interface import Budget
from tavola.bots.registry import budget_for, default_budget
from tavola.games.fantan import bots as fantan_bots


def test_no_thinking_time_means_the_games_calibrated_default():
    assert budget_for("fan-tan") == default_budget("fan-tan")
    assert default_budget("fan-tan") == Budget(samples=fantan_bots.BOTS.master_samples)


def test_the_thinking_time_scales_the_sampled_deals():
    full = fantan_bots.BOTS.master_samples
    assert budget_for("fan-tan", 250).samples == round(full / 4)
    assert budget_for("fan-tan", 4000).samples == full * 4


def test_a_tiny_thinking_time_still_samples_one_deal():
    assert budget_for("fan-tan", 1).samples >= 1
    assert all(budget_for(game, 1).samples >= 1 for game in ("spades", "barbu", "dominoes"))
