"""A test-only rules change: Fan Tan's rules version 2, whose seat 0 scores one more at the
end; the game keeps version 1 for the matches played under it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import pytest

from tavola.games.fantan.game import FanTan
from tavola.rules import registry
from tavola.rules.interface import SeatScore


class FanTanV2(FanTan):
    info = replace(FanTan.info, rules_version=2)

    def __init__(self, previous: FanTan) -> None:
        self._previous = previous

    def standings(self, state: Any) -> tuple[SeatScore, ...]:
        played = super().standings(state)
        if not self.is_over(state):
            return played
        return tuple(replace(s, score=s.score + 1) if s.seat == 0 else s for s in played)

    def rules_versions(self) -> dict[int, Any]:
        return {1: self._previous, 2: self}


@contextmanager
def fan_tan_v2(monkeypatch: pytest.MonkeyPatch) -> Iterator[FanTanV2]:
    """Version 2 is the current Fan Tan inside the block (version 1 kept)."""
    current = registry.get("fan-tan")
    original = registry.get
    v2 = FanTanV2(current)

    def patched(name: str) -> Any:
        return v2 if name == "fan-tan" else original(name)

    monkeypatch.setattr(registry, "get", patched)
    registry.played.cache_clear()
    try:
        yield v2
    finally:
        monkeypatch.undo()
        registry.played.cache_clear()
