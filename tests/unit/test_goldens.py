"""Golden playthroughs: the same seeded matches still produce the recorded events.

A failure shows the first differing line. If the change of behaviour is intended, bump the
game's rules version and run ``make goldens``.
"""

from __future__ import annotations

import difflib
import pathlib

import pytest

from tavola.rules.playthrough import available, render

GOLDENS = pathlib.Path(__file__).resolve().parent.parent / "goldens"


@pytest.mark.parametrize("golden", available(), ids=lambda g: g.name)
def test_the_golden_playthrough_is_reproduced_exactly(golden) -> None:
    expected = (GOLDENS / f"{golden.name}.txt").read_text()
    actual = render(golden)
    if actual != expected:
        diff = "".join(
            list(
                difflib.unified_diff(
                    expected.splitlines(True), actual.splitlines(True), "golden", "now"
                )
            )[:40]
        )
        pytest.fail(f"{golden.name} differs from its golden:\n{diff}")
