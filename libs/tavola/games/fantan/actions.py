"""Fan Tan actions: play a card (code ``"7D"``) or pass (``"pass"``, never legal: passes
are automatic)."""

from __future__ import annotations

from dataclasses import dataclass

from tavola.rules.cards import Card
from tavola.rules.interface import Action


@dataclass(frozen=True, slots=True)
class Play(Action):
    card: Card


@dataclass(frozen=True, slots=True)
class Pass(Action):
    pass


FanTanAction = Play | Pass
