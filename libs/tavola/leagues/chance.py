"""A round's chance: every choice of the seating derives from the round's committed seed.

The seed is drawn when the round is scheduled (32 bytes from a cryptographic source, kept
apart from the log), its SHA-256 is shown at once, and it is revealed when the round ends.
Each division's draw reads ``tavola-fair-v1`` bytes (``docs/fairness.md``) under the
purpose ``seating/<season>/<round>/<division>``, with no client seeds: anyone holding the
revealed seed and the league's stream can derive the seating again
(``tavola.leagues.verify``).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import TypeVar

from tavola.rules import fairness

T = TypeVar("T")


def purpose(season: int, round_: int, division: str) -> str:
    return f"seating/{season}/{round_}/{division}"


class Draw:
    """Uniform integers, shuffles and choices from a seed and a purpose."""

    def __init__(self, seed: bytes, purpose_: str) -> None:
        self._stream = fairness.ByteStream(fairness.purpose_key(seed, [], purpose_))

    def uniform(self, n: int) -> int:
        return self._stream.uniform(n)

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """Fisher-Yates, as ``fairness.shuffle`` (position i holds items[p[i]])."""
        p = list(range(len(items)))
        for i in range(len(p) - 1, 0, -1):
            j = self.uniform(i + 1)
            p[i], p[j] = p[j], p[i]
        return [items[k] for k in p]

    def chance(self, numerator: int, denominator: int) -> bool:
        """True with probability numerator/denominator."""
        return self.uniform(denominator) < numerator


def lot(seed: bytes, entrant: str) -> str:
    """An entrant's lot (the last tie-break): HMAC-SHA256 of its key under a revealed
    seed, hex; lower draws first. Without a revealed seed: SHA-256 of the key."""
    if not seed:
        return hashlib.sha256(entrant.encode()).hexdigest()
    return hmac.new(seed, f"lot|{entrant}".encode(), hashlib.sha256).hexdigest()
