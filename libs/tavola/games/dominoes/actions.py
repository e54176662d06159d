"""Dominoes actions: lay a tile (``"6-4"``, or ``"6-4 L"`` / ``"6-4 R"`` when it fits both
ends with different results) or pass (``"pass"``: decodable, never legal — passing and
drawing are automatic)."""

from __future__ import annotations

from dataclasses import dataclass

from tavola.games.dominoes.line import End
from tavola.rules.interface import Action
from tavola.rules.tiles import Tile


@dataclass(frozen=True, slots=True)
class Play(Action):
    tile: Tile
    end: End | None = None


@dataclass(frozen=True, slots=True)
class Pass(Action):
    pass


DominoesAction = Play | Pass
