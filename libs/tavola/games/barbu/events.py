"""Barbu events (facts, past tense). Only ``HandDealt`` is private (seen by its owner)."""

from __future__ import annotations

from dataclasses import dataclass

from tavola.games.barbu.contracts import Contract
from tavola.rules.cards import Card, Rank, Suit
from tavola.rules.interface import Event


@dataclass(frozen=True, slots=True)
class FirstDeclarerDrawn(Event):
    """The first declarer, drawn by lot from the match seed."""

    declarer: int


@dataclass(frozen=True, slots=True)
class DealStarted(Event):
    """Deal ``deal`` (1..28): the dealer (declarer's right) dealt 13 cards each, clockwise
    from the declarer; the player opposite the declarer cut."""

    deal: int
    declarer: int
    dealer: int
    cutter: int
    counts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandDealt(Event):
    """One seat's 13 cards; seen by that seat only."""

    deal: int
    seat: int
    cards: tuple[Card, ...]

    def audience(self) -> frozenset[int] | None:
        return frozenset((self.seat,))


@dataclass(frozen=True, slots=True)
class ContractChosen(Event):
    deal: int
    declarer: int
    contract: Contract
    trump: Suit | None
    start_rank: Rank | None


@dataclass(frozen=True, slots=True)
class DoublesDeclared(Event):
    """One doubling turn: ``doubled`` lists the seats doubled (empty: a pass).
    ``automatic`` marks a pass made by the engine because nothing else was legal."""

    deal: int
    seat: int
    doubled: tuple[int, ...]
    automatic: bool


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    """Trick ``trick`` (1..13) taken by ``winner``, worth ``points`` raw points to them;
    ``penalty_cards`` are the scoring cards captured (shown face up)."""

    trick: int
    winner: int
    cards: tuple[Card, ...]
    points: int
    penalty_cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class DealEndedEarly(Event):
    """Every scoring card of the contract is captured: the deal stops after ``tricks``."""

    deal: int
    tricks: int


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """Domino: a seat with no playable card passed (automatic)."""

    seat: int


@dataclass(frozen=True, slots=True)
class WentOut(Event):
    """Domino: a seat emptied its hand, finishing in ``place`` (1..3) for ``points``."""

    seat: int
    place: int
    points: int


@dataclass(frozen=True, slots=True)
class PairSettlement:
    """Doubles between seats ``low`` < ``high``: ``doubles`` is 0 (none), 1 (single) or
    2 (mutual); ``payer`` pays ``amount`` to ``payee`` (both ``None`` when nothing moves)."""

    low: int
    high: int
    doubles: int
    payer: int | None
    payee: int | None
    amount: int


@dataclass(frozen=True, slots=True)
class DealScored(Event):
    """The settlement of a deal: raw scores, every pair's transfer, each seat's net
    transfer, adjusted scores (raw + transfers) and running totals."""

    deal: int
    contract: Contract
    raw: tuple[int, ...]
    settlements: tuple[PairSettlement, ...]
    transfers: tuple[int, ...]
    adjusted: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SessionEnded(Event):
    """After 28 deals: the final totals and the winners (a tie shares the victory)."""

    totals: tuple[int, ...]
    winners: tuple[int, ...]


EVENT_TYPES: tuple[type[Event], ...] = (
    FirstDeclarerDrawn,
    DealStarted,
    HandDealt,
    ContractChosen,
    DoublesDeclared,
    CardPlayed,
    TrickWon,
    DealEndedEarly,
    Passed,
    WentOut,
    DealScored,
    SessionEnded,
)
