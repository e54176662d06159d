"""The tile kit: dominoes of the double-six set.

Encoding (stable, part of the public contract): a tile is ``Tile(high, low)`` with
``0 <= low <= high <= 6``; its code is ``"6-4"`` (high first), its value (pips) the sum of
its ends. The standard set order (index 0..27) is 0-0, 1-0, 1-1, 2-0, 2-1, 2-2, … 6-6, i.e.
by ``high`` then ``low``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True, order=True)
class Tile:
    high: int
    low: int

    def __post_init__(self) -> None:
        if not 0 <= self.low <= self.high <= 6:
            raise ValueError(f"not a double-six tile: {self.high}-{self.low}")

    @staticmethod
    def of(a: int, b: int) -> Tile:
        return Tile(max(a, b), min(a, b))

    @staticmethod
    def parse(text: str) -> Tile:
        parts = text.strip().replace("|", "-").split("-")
        if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
            raise ValueError(f"not a tile: {text!r}")
        return Tile.of(int(parts[0]), int(parts[1]))

    @property
    def index(self) -> int:
        """The tile's place in the standard set order (0-0 is 0, 6-6 is 27)."""
        return self.high * (self.high + 1) // 2 + self.low

    @property
    def code(self) -> str:
        return f"{self.high}-{self.low}"

    @property
    def pips(self) -> int:
        return self.high + self.low

    @property
    def is_double(self) -> bool:
        return self.high == self.low

    def has(self, number: int) -> bool:
        return number in (self.high, self.low)

    def other_end(self, number: int) -> int:
        """The number left open after matching ``number`` (raises if it does not fit)."""
        if number == self.high:
            return self.low
        if number == self.low:
            return self.high
        raise ValueError(f"{self.code} has no {number}")

    def __str__(self) -> str:
        return self.code


_SET = tuple(Tile(high, low) for high in range(7) for low in range(high + 1))


def double_six_set() -> tuple[Tile, ...]:
    """The 28 tiles in standard order (by high, then low)."""
    return _SET


def index_of(tile: Tile) -> int:
    """``tile.index`` as a function (cheaper in loops than the property)."""
    high = tile.high
    return high * (high + 1) // 2 + tile.low
