"""Fan Tan table options (parsed) and the building/penalty value of a card."""

from __future__ import annotations

from dataclasses import dataclass

from tavola.games.fantan.timers import DEFAULT_CLOCK
from tavola.rules.cards import Card, Rank
from tavola.rules.timers import TimerSettings


def building_rank(card: Card) -> int:
    """A is low for building: A=1, 2..10, J=11, Q=12, K=13."""
    return 1 if card.rank == Rank.ACE else int(card.rank)


@dataclass(frozen=True, slots=True)
class FanTanOptions:
    penalty: str = "per_card"
    face_cards_ten: bool = False
    any_seven_starts: bool = False
    equal_hands: bool = False
    hands: int = 0
    penalty_limit: int = 0
    clock: TimerSettings = DEFAULT_CLOCK

    def card_penalty(self, card: Card) -> int:
        if self.penalty == "per_card":
            return 1
        value = building_rank(card)
        if self.face_cards_ten and value > 10:
            return 10
        return value
