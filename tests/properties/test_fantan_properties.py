"""Fan Tan property test: for any seed, player count and option combination, a random match
ends (no deadlock, ``play_match`` raises otherwise) and every invariant of
``tests/unit/games/fantan/fantan_checks.py`` holds."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tavola.games.fantan import GAME
from tavola.rules.driver import play_match

_CHECKS = str(Path(__file__).resolve().parents[1] / "unit" / "games" / "fantan")
if _CHECKS not in sys.path:
    sys.path.insert(0, _CHECKS)

from fantan_checks import check_playout  # noqa: E402

options_strategy = st.fixed_dictionaries(
    {
        "penalty": st.sampled_from(["per_card", "card_value"]),
        "face_cards_ten": st.booleans(),
        "any_seven_starts": st.booleans(),
        "equal_hands": st.booleans(),
        "hands": st.integers(min_value=0, max_value=3),
        "penalty_limit": st.sampled_from([0, 0, 1, 10, 40]),
    }
)


@settings(
    max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    seed=st.binary(min_size=32, max_size=32),
    players=st.integers(min_value=3, max_value=7),
    options=options_strategy,
    rng_seed=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_any_match_ends_and_keeps_the_invariants(
    seed: bytes, players: int, options: dict[str, Any], rng_seed: int
) -> None:
    out = play_match(GAME, players, options, seed=seed, rng=random.Random(rng_seed))
    checker = check_playout(out, players, options, rng_seed)
    assert checker.hands >= 1
    again = play_match(GAME, players, options, seed=seed, rng=random.Random(rng_seed))
    assert again.events == out.events
