"""Doppelkopf state: the whole match (``DokoState``) and the game being played (``Deal``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tavola.games.doppelkopf.model import Contract, Party, Reservation, SeatParty, TrickRecord
from tavola.games.doppelkopf.options import DokoOptions
from tavola.games.doppelkopf.trumps import CardRules, card_rules
from tavola.rules.cards import Card, Trick

Phase = Literal[
    "draw_dealer", "deal", "reservations", "poverty_offer", "poverty_return", "play", "over"
]


@dataclass(frozen=True, slots=True)
class Deal:
    """One game (one deal). Per-seat tuples are indexed by seat number (all seats)."""

    number: int
    dealer: int
    seats: tuple[int, ...]  # the four players, from the dealer's left
    bock: bool
    forced_solo: int | None
    hands: tuple[tuple[Card, ...], ...]
    declared: tuple[Reservation | None, ...]
    reserved: tuple[bool, ...] = ()
    contract: Contract = Contract.NORMAL
    declarer: int | None = None
    compulsory: bool = False
    re: tuple[bool, ...] = ()  # the truth: who is Re (known to the server only)
    alone: bool = False  # Re is one player: scored as a solo
    partner: int | None = None  # wedding or Armut partner, once known
    wedding_open: bool = False
    shift: int = 0  # announcement deadlines moved later (late wedding clarification)
    asked: int | None = None  # Armut: the seat being asked
    to_return: int = 0  # Armut: cards the partner still has to give back
    schweinchen: int | None = None
    schweinchen_shown: bool = False
    turn: int | None = None
    trick: Trick | None = None
    tricks: tuple[TrickRecord, ...] = ()
    levels: tuple[int, int] = (0, 0)  # Re, Kontra announcement levels
    replied: tuple[bool, bool] = (False, False)  # the party's Re/Kontra was a late reply
    announcers: tuple[SeatParty, ...] = ()
    waiting: tuple[int, ...] = ()  # seats that let their announcements pass (``wait``)

    @property
    def rules(self) -> CardRules:
        return card_rules(self.contract, self.schweinchen is not None)

    def party(self, seat: int) -> Party:
        return Party.RE if self.re[seat] else Party.KONTRA

    def next_seat(self, seat: int) -> int:
        return self.seats[(self.seats.index(seat) + 1) % len(self.seats)]


@dataclass(frozen=True, slots=True)
class DokoState:
    players: int
    options: DokoOptions
    phase: Phase = "draw_dealer"
    present: tuple[bool, ...] = ()
    totals: tuple[int, ...] = ()
    dealer: int = 0
    deals: int = 0  # deals so far (numbers the chance requests "deal/N")
    games: int = 0  # games scored
    rounds_done: int = 0
    deals_in_round: int = 0  # dealer moves in the current round
    target_reached: bool = False
    bock_pending: int = 0  # Bock rounds earned and not started
    bock_left: int = 0  # games left in the running Bock round
    solo_owed: tuple[bool, ...] = ()
    deal: Deal | None = None
    last_scores: tuple[int, ...] = ()
    interrupted: bool = False
