"""Doppelkopf events (facts, past tense).

Private: ``HandDealt`` (its owner), ``ReservationChosen`` (its maker until every seat has
declared; only the winning reservation is ever made public), ``TrumpsHandedOver`` and
``CardReturned`` (the two partners of an Armut). Everything else is public.
"""

from __future__ import annotations

from dataclasses import dataclass

from tavola.games.doppelkopf.model import Call, Contract, Party, Reservation, ScoreLine
from tavola.rules.cards import Card
from tavola.rules.interface import Event


@dataclass(frozen=True, slots=True)
class DealerDrawn(Event):
    """The first dealer, drawn from the match seed."""

    dealer: int


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    """A deal: ``seats`` are the four players from the dealer's left; ``bock`` doubles."""

    deal: int
    dealer: int
    seats: tuple[int, ...]
    bock: bool
    forced_solo: int | None  # Pflichtsolo: this seat must declare a solo now


@dataclass(frozen=True, slots=True)
class HandDealt(Event):
    """One seat's twelve (or ten) cards; seen by that seat only."""

    deal: int
    seat: int
    cards: tuple[Card, ...]

    def audience(self) -> frozenset[int] | None:
        return frozenset((self.seat,))


@dataclass(frozen=True, slots=True)
class ReservationChosen(Event):
    """What a seat declared; seen by that seat only."""

    seat: int
    reservation: Reservation

    def audience(self) -> frozenset[int] | None:
        return frozenset((self.seat,))


@dataclass(frozen=True, slots=True)
class SeatDeclared(Event):
    """A seat has declared (its choice stays hidden until every seat has)."""

    seat: int


@dataclass(frozen=True, slots=True)
class ReservationsShown(Event):
    """Who said "reservation" (per seat index; seats not in the game are False)."""

    reserved: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class ContractChosen(Event):
    """The game to be played. ``declarer`` is None for a normal game."""

    contract: Contract
    declarer: int | None
    compulsory: bool


@dataclass(frozen=True, slots=True)
class HandThrown(Event):
    """Schmeißen: a seat laid its hand down with ``nines`` nines."""

    seat: int
    nines: int


@dataclass(frozen=True, slots=True)
class DealCancelled(Event):
    """The deal does not count and the same dealer deals again (``reason`` is a code)."""

    deal: int
    reason: str


@dataclass(frozen=True, slots=True)
class PovertyAnswered(Event):
    seat: int
    accepted: bool


@dataclass(frozen=True, slots=True)
class TrumpsHandedOver(Event):
    """The poor player's trumps go to the partner; seen by those two only."""

    poor: int
    partner: int
    cards: tuple[Card, ...]

    def audience(self) -> frozenset[int] | None:
        return frozenset((self.poor, self.partner))


@dataclass(frozen=True, slots=True)
class TrumpsCounted(Event):
    """Public: how many trumps changed hands (and so how many cards come back)."""

    poor: int
    partner: int
    count: int


@dataclass(frozen=True, slots=True)
class CardReturned(Event):
    """One card the partner gives back to the poor player; seen by those two only."""

    partner: int
    poor: int
    card: Card

    def audience(self) -> frozenset[int] | None:
        return frozenset((self.partner, self.poor))


@dataclass(frozen=True, slots=True)
class CardPassed(Event):
    """Public: a card (face down) went from ``giver`` to ``receiver``."""

    giver: int
    receiver: int


@dataclass(frozen=True, slots=True)
class Announced(Event):
    """``seat`` announced ``call``; ``level`` is its party's level now (skipped levels
    included); ``reply`` marks a late Re/Kontra made as a reply."""

    seat: int
    party: Party
    call: Call
    level: int
    reply: bool


@dataclass(frozen=True, slots=True)
class AnnouncementsDeferred(Event):
    """``seat``, which could only announce (another seat is to play), lets its
    announcements pass until the next card or announcement at the table: it is not to act
    until then."""

    seat: int


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class SchweinchenShown(Event):
    """The holder of both ♦A played the first: both are now the highest trumps (known)."""

    seat: int


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    number: int
    winner: int
    points: int


@dataclass(frozen=True, slots=True)
class PartnerFound(Event):
    """Hochzeit: ``partner`` won trick ``trick`` and plays with the wedding player."""

    wedding: int
    partner: int
    trick: int


@dataclass(frozen=True, slots=True)
class WeddingAlone(Event):
    """Hochzeit: nobody else won one of the first three tricks: a solo (not compulsory)."""

    wedding: int


@dataclass(frozen=True, slots=True)
class GameScored(Event):
    """The settlement of one game, itemised. ``lines`` credit a party; ``value`` is the Re
    party's net value per player before the solo factor and ``multiplier`` (Bock)."""

    deal: int
    contract: Contract
    re_seats: tuple[int, ...]
    re_points: int
    kontra_points: int
    winner: Party | None
    lines: tuple[ScoreLine, ...]
    value: int
    multiplier: int
    scores: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BockRoundEarned(Event):
    """Bockrunde: one more full round counts double (``reasons`` are codes)."""

    reasons: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PlayerLeft(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class GameAbandoned(Event):
    """A player left: the current game ends at once, unscored."""

    deal: int
    seat: int


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    """The match is over; ``interrupted`` when too few players remained."""

    interrupted: bool


EVENT_TYPES: tuple[type[Event], ...] = (
    DealerDrawn,
    GameStarted,
    HandDealt,
    ReservationChosen,
    SeatDeclared,
    ReservationsShown,
    ContractChosen,
    HandThrown,
    DealCancelled,
    PovertyAnswered,
    TrumpsHandedOver,
    TrumpsCounted,
    CardReturned,
    CardPassed,
    Announced,
    AnnouncementsDeferred,
    CardPlayed,
    SchweinchenShown,
    TrickWon,
    PartnerFound,
    WeddingAlone,
    GameScored,
    BockRoundEarned,
    PlayerLeft,
    GameAbandoned,
    MatchEnded,
)
