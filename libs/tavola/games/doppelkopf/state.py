"""Doppelkopf state: the whole match (``DokoState``) and the game being played (``Deal``).

Both are values: nothing changes one once the rules have built it. ``changed`` and
``deal_changed`` make the next one from a hand-written copy of the slots (several times
cheaper than ``dataclasses.replace``, which still works). Each also caches what the rules
computed from it, never compared nor taken by ``replace``: a deal its card rules
(``rules_cache``); a match state the seats to act and their legal actions (``acting``,
``legal``) and the last state folded from it (``memo``: the event and the state after it
— ``Chain`` folds the events of a decision as it decides them, so the caller's fold of the
very same events costs nothing).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from tavola.games.doppelkopf.model import Contract, Party, Reservation, SeatParty, TrickRecord
from tavola.games.doppelkopf.options import DokoOptions
from tavola.games.doppelkopf.trumps import CardRules, card_rules
from tavola.rules.cards import Card, Trick

Phase = Literal[
    "draw_dealer", "deal", "reservations", "poverty_offer", "poverty_return", "play", "over"
]


@dataclass(slots=True)
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
    rules_cache: CardRules | None = field(init=False, default=None, repr=False, compare=False)

    @property
    def rules(self) -> CardRules:
        rules = self.rules_cache
        if rules is None:
            rules = self.rules_cache = card_rules(self.contract, self.schweinchen is not None)
        return rules

    def party(self, seat: int) -> Party:
        return Party.RE if self.re[seat] else Party.KONTRA

    def next_seat(self, seat: int) -> int:
        return self.seats[(self.seats.index(seat) + 1) % len(self.seats)]


@dataclass(slots=True)
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
    acting: frozenset[int] | None = field(init=False, default=None, repr=False, compare=False)
    legal: dict[int, Any] | None = field(init=False, default=None, repr=False, compare=False)
    memo: tuple[Any, DokoState] | None = field(init=False, default=None, repr=False, compare=False)


_new = object.__new__
_RULE_FIELDS = frozenset(("contract", "schweinchen"))


def deal_changed(deal: Deal, **changes: Any) -> Deal:
    """The deal with ``changes`` (``dataclasses.replace`` for the hot path)."""
    new: Deal = _new(Deal)
    new.number = deal.number
    new.dealer = deal.dealer
    new.seats = deal.seats
    new.bock = deal.bock
    new.forced_solo = deal.forced_solo
    new.hands = deal.hands
    new.declared = deal.declared
    new.reserved = deal.reserved
    new.contract = deal.contract
    new.declarer = deal.declarer
    new.compulsory = deal.compulsory
    new.re = deal.re
    new.alone = deal.alone
    new.partner = deal.partner
    new.wedding_open = deal.wedding_open
    new.shift = deal.shift
    new.asked = deal.asked
    new.to_return = deal.to_return
    new.schweinchen = deal.schweinchen
    new.schweinchen_shown = deal.schweinchen_shown
    new.turn = deal.turn
    new.trick = deal.trick
    new.tricks = deal.tricks
    new.levels = deal.levels
    new.replied = deal.replied
    new.announcers = deal.announcers
    new.waiting = deal.waiting
    new.rules_cache = None if _RULE_FIELDS.intersection(changes) else deal.rules_cache
    for name, value in changes.items():
        setattr(new, name, value)
    return new


def changed(state: DokoState, **changes: Any) -> DokoState:
    """The match state with ``changes`` (``dataclasses.replace`` for the hot path)."""
    new: DokoState = _new(DokoState)
    new.players = state.players
    new.options = state.options
    new.phase = state.phase
    new.present = state.present
    new.totals = state.totals
    new.dealer = state.dealer
    new.deals = state.deals
    new.games = state.games
    new.rounds_done = state.rounds_done
    new.deals_in_round = state.deals_in_round
    new.target_reached = state.target_reached
    new.bock_pending = state.bock_pending
    new.bock_left = state.bock_left
    new.solo_owed = state.solo_owed
    new.deal = state.deal
    new.last_scores = state.last_scores
    new.interrupted = state.interrupted
    new.acting = new.legal = new.memo = None
    for name, value in changes.items():
        setattr(new, name, value)
    return new
