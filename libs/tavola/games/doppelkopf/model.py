"""Doppelkopf vocabulary: contracts, reservations, parties, calls and small records."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from tavola.rules.cards import PlayedCard


class Party(IntEnum):
    RE = 0
    KONTRA = 1

    @property
    def other(self) -> Party:
        return Party.KONTRA if self == Party.RE else Party.RE


class Contract(IntEnum):
    """What is played. Solos are ``QUEEN_SOLO`` and above."""

    NORMAL = 0
    WEDDING = 1
    POVERTY = 2
    QUEEN_SOLO = 3
    JACK_SOLO = 4
    CLUBS_SOLO = 5
    SPADES_SOLO = 6
    HEARTS_SOLO = 7
    DIAMONDS_SOLO = 8
    FLEISCHLOS = 9

    @property
    def is_solo(self) -> bool:
        return self >= Contract.QUEEN_SOLO


class Reservation(IntEnum):
    """A seat's declaration before the first card ("healthy" or a reservation)."""

    HEALTHY = 0
    WEDDING = 1
    POVERTY = 2
    THROW = 3
    QUEEN_SOLO = 4
    JACK_SOLO = 5
    CLUBS_SOLO = 6
    SPADES_SOLO = 7
    HEARTS_SOLO = 8
    DIAMONDS_SOLO = 9
    FLEISCHLOS = 10

    @property
    def is_solo(self) -> bool:
        return self >= Reservation.QUEEN_SOLO

    @property
    def contract(self) -> Contract:
        if self.is_solo:
            return Contract(int(self) - 1)
        if self == Reservation.WEDDING:
            return Contract.WEDDING
        if self == Reservation.POVERTY:
            return Contract.POVERTY
        return Contract.NORMAL


class Call(IntEnum):
    """An announcement. Its level: Re/Kontra 1, no 90 2, no 60 3, no 30 4, schwarz 5."""

    RE = 0
    KONTRA = 1
    NO_90 = 2
    NO_60 = 3
    NO_30 = 4
    SCHWARZ = 5

    @property
    def level(self) -> int:
        return max(int(self), 1)


@dataclass(frozen=True, slots=True)
class TrickRecord:
    """A completed trick: its number (1-based), plays in order and winner."""

    number: int
    plays: tuple[PlayedCard, ...]
    winner: int


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One line of a settlement: a label code (catalogue), the party credited, points."""

    label: str
    party: Party
    value: int


@dataclass(frozen=True, slots=True)
class SeatParty:
    """A seat whose party the table knows (views)."""

    seat: int
    party: Party
