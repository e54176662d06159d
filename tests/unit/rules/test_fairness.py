"""Fair chance: the published algorithm, its test vectors, and its statistical sanity."""

from __future__ import annotations

import json
import pathlib
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from tavola.rules import fairness
from tavola.rules.interface import ChanceRequest

VECTORS = pathlib.Path(__file__).resolve().parents[3] / "docs" / "fairness-vectors.json"


def test_the_published_test_vectors_still_hold():
    data = json.loads(VECTORS.read_text())
    assert data["algorithm"] == fairness.ALGORITHM
    for case in data["vectors"]:
        seed = bytes.fromhex(case["server_seed_hex"])
        clients = [bytes.fromhex(c) for c in case["client_seeds_hex"]]
        request = ChanceRequest(case["purpose"], case["kind"], case["size"])
        assert fairness.commitment(seed) == case["commitment"]
        assert list(fairness.outcome(seed, clients, request)) == case["outcome"]


@given(
    st.binary(min_size=32, max_size=32),
    st.lists(st.binary(max_size=8), max_size=7),
    st.integers(1, 60),
)
def test_a_shuffle_is_always_a_permutation(seed, clients, size):
    outcome = fairness.outcome(seed, clients, ChanceRequest("deal/1", "shuffle", size))
    assert sorted(outcome) == list(range(size))


def test_a_client_seed_changes_the_deal():
    seed = bytes(32)
    request = ChanceRequest("deal/1", "shuffle", 52)
    assert fairness.outcome(seed, [b""], request) != fairness.outcome(seed, [b"x"], request)


def test_each_purpose_gets_its_own_stream():
    seed = bytes(32)
    one = fairness.outcome(seed, [], ChanceRequest("deal/1", "shuffle", 52))
    two = fairness.outcome(seed, [], ChanceRequest("deal/2", "shuffle", 52))
    assert one != two


def test_draws_are_roughly_uniform():
    seed = bytes(range(32))
    counts = Counter(
        fairness.outcome(seed, [], ChanceRequest(f"d/{i}", "draw", 4))[0] for i in range(4000)
    )
    assert all(900 < counts[k] < 1100 for k in range(4))
