"""What one seat (or a spectator) may see, and human labels of actions."""

from __future__ import annotations

from dataclasses import dataclass

from tavola.games.barbu.actions import BarbuAction, Double, PlayCard
from tavola.games.barbu.contracts import Contract
from tavola.games.barbu.state import SEATS, BarbuState
from tavola.rules.cards import Card, PlayedCard, Rank, Suit


@dataclass(frozen=True, slots=True)
class DoubleMade:
    doubler: int
    doubled: int


@dataclass(frozen=True, slots=True)
class SeatCards:
    """Cards shown face up in front of a seat (captured penalty cards)."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class RowView:
    """A Domino row: the lowest and highest rank on the table in ``suit``."""

    suit: Suit
    low: Rank
    high: Rank


@dataclass(frozen=True, slots=True)
class BarbuView:
    seat: int | None
    phase: str
    deal: int
    deals_in_session: int
    declarer: int
    dealer: int
    cutter: int
    turn: int | None
    hand: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    contract: Contract | None
    trump: Suit | None
    start_rank: Rank | None
    remaining_contracts: tuple[Contract, ...]
    doubles: tuple[DoubleMade, ...]
    trick_leader: int | None
    trick: tuple[PlayedCard, ...]
    tricks_played: int
    tricks_taken: tuple[int, ...]
    captured: tuple[SeatCards, ...]
    rows: tuple[RowView, ...]
    finished: tuple[int, ...]
    deal_points: tuple[int, ...]
    totals: tuple[int, ...]
    doubles_owed: tuple[int, ...]


def build_view(state: BarbuState, seat: int | None) -> BarbuView:
    trick = state.trick
    return BarbuView(
        seat=seat,
        phase=state.phase,
        deal=state.deal,
        deals_in_session=state.options.deals,
        declarer=state.declarer,
        dealer=state.dealer,
        cutter=(state.declarer + 2) % SEATS,
        turn=state.turn,
        hand=state.hands[seat] if seat is not None else (),
        hand_counts=tuple(len(h) for h in state.hands),
        contract=state.contract,
        trump=state.trump,
        start_rank=state.start_rank,
        remaining_contracts=state.remaining[state.declarer],
        doubles=tuple(DoubleMade(a, b) for a, b in state.doubles),
        trick_leader=trick.leader if trick is not None else None,
        trick=trick.plays if trick is not None else (),
        tricks_played=state.tricks_played,
        tricks_taken=state.tricks_taken,
        captured=tuple(SeatCards(s, cards) for s, cards in enumerate(state.captured)),
        rows=tuple(
            RowView(Suit(s), Rank(row[0]), Rank(row[1]))
            for s, row in enumerate(state.rows)
            if row is not None
        ),
        finished=state.finished,
        deal_points=state.points,
        totals=state.totals,
        doubles_owed=tuple(state.owed(s) for s in range(SEATS)),
    )


CONTRACT_LABELS: dict[Contract, str] = {
    Contract.NO_TRICKS: "No Tricks",
    Contract.NO_QUEENS: "No Queens",
    Contract.NO_LAST_TWO: "No Last Two",
    Contract.NO_HEARTS: "No Hearts",
    Contract.NO_KING: "No King of Hearts",
    Contract.TRUMPS: "Trumps",
    Contract.DOMINO: "Domino",
}


def describe(action: BarbuAction) -> str:
    """A unique human label: "Q♠", "pass", "double 1, 3", "Trumps ♥", "Domino from 7"."""
    if isinstance(action, PlayCard):
        return action.card.label
    if isinstance(action, Double):
        return "double " + ", ".join(map(str, action.targets)) if action.targets else "pass"
    label = CONTRACT_LABELS[action.contract]
    if action.trump is not None:
        label += " " + action.trump.symbol
    if action.start_rank is not None:
        label += " from " + action.start_rank.label
    return label
