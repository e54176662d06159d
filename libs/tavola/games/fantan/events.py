"""Fan Tan events (facts, past tense). Only ``HandDealt`` and ``CardsSetAside`` are private."""

from __future__ import annotations

from dataclasses import dataclass

from tavola.rules.cards import Card
from tavola.rules.interface import Event


@dataclass(frozen=True, slots=True)
class DealerChosen(Event):
    """The first dealer, drawn from the match seed."""

    dealer: int


@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    hand: int
    dealer: int
    counts: tuple[int, ...]  # cards dealt to each seat


@dataclass(frozen=True, slots=True)
class HandDealt(Event):
    """One seat's cards; seen by that seat only."""

    hand: int
    seat: int
    cards: tuple[Card, ...]

    def audience(self) -> frozenset[int] | None:
        return frozenset((self.seat,))


@dataclass(frozen=True, slots=True)
class CardsSetAside(Event):
    """Cards left undealt (``equal_hands``); seen by nobody until the audit."""

    hand: int
    cards: tuple[Card, ...]

    def audience(self) -> frozenset[int] | None:
        return frozenset()


@dataclass(frozen=True, slots=True)
class DealVoided(Event):
    """Nobody can open (7♦ was set aside and ``any_seven_starts`` is off, or with it on no
    seven at all was dealt), so the hand is dealt again from the next chance request
    (``deal/N/redeal-K``, same dealer)."""

    hand: int


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """A seat with no playable card passed (automatic, so history shows it)."""

    seat: int


@dataclass(frozen=True, slots=True)
class HandWon(Event):
    hand: int
    seat: int


@dataclass(frozen=True, slots=True)
class HandBlocked(Event):
    """Nobody can play and cards remain (only when cards were set aside)."""

    hand: int


@dataclass(frozen=True, slots=True)
class HandScored(Event):
    hand: int
    penalties: tuple[int, ...]
    totals: tuple[int, ...]
    cards_left: tuple[int, ...]
