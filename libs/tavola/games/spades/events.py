"""Spades events (facts, past tense). Only ``HandDealt`` is private (its owner sees it)."""

from __future__ import annotations

from dataclasses import dataclass

from tavola.rules.cards import Card
from tavola.rules.interface import Event


@dataclass(frozen=True, slots=True)
class DealerChosen(Event):
    """The first dealer, drawn from the match seed ("first-dealer")."""

    dealer: int


@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    """A new deal ("deal/N"): its number, dealer and the cards each seat received."""

    hand: int
    dealer: int
    counts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandDealt(Event):
    """One seat's 13 cards; seen by that seat only."""

    hand: int
    seat: int
    cards: tuple[Card, ...]

    def audience(self) -> frozenset[int] | None:
        return frozenset((self.seat,))


@dataclass(frozen=True, slots=True)
class BidMade(Event):
    """A seat's bid; 0 is nil."""

    seat: int
    tricks: int


@dataclass(frozen=True, slots=True)
class PlayStarted(Event):
    """The four bids are in: each partnership's contract (nil bids add 0) and the leader."""

    hand: int
    contracts: tuple[int, int]
    leader: int


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class SpadesBroken(Event):
    """The first spade of the hand was played: spades may be led from the next trick."""

    hand: int
    seat: int


@dataclass(frozen=True, slots=True)
class TrickTaken(Event):
    """Trick ``number`` (1-13) of the hand went to ``seat``, who leads next."""

    hand: int
    number: int
    seat: int


@dataclass(frozen=True, slots=True)
class NilResult:
    """One nil bid's settlement: made (+100) or failed (-100, its tricks become bags)."""

    seat: int
    tricks: int
    made: bool
    points: int


@dataclass(frozen=True, slots=True)
class TeamSettlement:
    """Every line of one partnership's score for a hand.

    ``change == contract_points + bag_points + nil_points + bag_penalty`` and
    ``score_after == score_before + change``; ``bags_after == bags_before + bags_won -
    bags_struck``.
    """

    team: int
    bids: tuple[int, int]
    contract: int
    contract_tricks: int
    made: bool
    contract_points: int
    overtricks: int
    nil_bags: int
    bags_won: int
    bag_points: int
    nils: tuple[NilResult, ...]
    nil_points: int
    bags_before: int
    bag_penalty: int
    bags_struck: int
    bags_after: int
    change: int
    score_before: int
    score_after: int


@dataclass(frozen=True, slots=True)
class HandScored(Event):
    """The settlement of a hand for both partnerships (team 0 = seats 0 and 2)."""

    hand: int
    teams: tuple[TeamSettlement, TeamSettlement]
    scores: tuple[int, int]
    bags: tuple[int, int]


@dataclass(frozen=True, slots=True)
class ExtraHandCalled(Event):
    """The match would end but both partnerships have exactly ``score``: one more hand."""

    hand: int
    score: int


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    """The match is over; ``winner`` is the partnership (0: seats 0+2, 1: seats 1+3)."""

    hand: int
    winner: int
    scores: tuple[int, int]
