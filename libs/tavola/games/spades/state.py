"""The Spades match state: one immutable value for the whole match."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tavola.games.spades.timers import DEFAULT_CLOCK
from tavola.rules.cards import Card, Trick
from tavola.rules.timers import TimerSettings

Phase = Literal["draw_dealer", "deal", "bidding", "play", "over"]
SEATS = 4


@dataclass(frozen=True, slots=True)
class SpadesOptions:
    """Table options: the match thresholds (500 / -200 by the rule book), an optional
    fixed number of hands (0: play to a threshold) and the turn timers."""

    target: int = 500
    floor: int = -200
    hands: int = 0
    clock: TimerSettings = DEFAULT_CLOCK


@dataclass(frozen=True, slots=True)
class SpadesState:
    phase: Phase = "draw_dealer"
    hand: int = 0
    dealer: int = 0
    hands: tuple[tuple[Card, ...], ...] = ((), (), (), ())
    bids: tuple[int | None, ...] = (None, None, None, None)
    turn: int | None = None
    trick: Trick | None = None
    last_trick: Trick | None = None
    last_winner: int | None = None
    tricks: tuple[int, ...] = (0, 0, 0, 0)
    spades_broken: bool = False
    scores: tuple[int, int] = (0, 0)
    bags: tuple[int, int] = (0, 0)
    deciding: bool = False
    winner: int | None = None
    hands_played: int = 0
    options: SpadesOptions = SpadesOptions()
