"""What a seat sees (``build_view``) and the safe card, computed from that view alone."""

from __future__ import annotations

from dataclasses import dataclass

from tavola.games.spades.bidding import suggested_bid
from tavola.games.spades.play import legal_cards, safe_card
from tavola.games.spades.scoring import TEAM_SEATS, team_of
from tavola.games.spades.state import SpadesState
from tavola.rules.cards import Card, PlayedCard


@dataclass(frozen=True, slots=True)
class SeatView:
    """One player's bid (``None``: not yet; 0: nil), tricks taken, tricks still missing
    to make the bid (``None`` before the bid; 0 for nil) and cards left."""

    seat: int
    team: int
    bid: int | None
    tricks: int
    missing: int | None
    cards: int


@dataclass(frozen=True, slots=True)
class TeamView:
    """A partnership: contract (``None`` until both partners bid), tricks counting towards
    it (nil bidders' excluded), all tricks, tricks still missing, score and bags."""

    team: int
    seats: tuple[int, int]
    contract: int | None
    contract_tricks: int
    tricks: int
    missing: int | None
    score: int
    bags: int


@dataclass(frozen=True, slots=True)
class SpadesView:
    seat: int | None
    phase: str
    hand_number: int
    dealer: int
    turn: int | None
    hand: tuple[Card, ...]
    seats: tuple[SeatView, ...]
    teams: tuple[TeamView, ...]
    trick_leader: int | None
    trick: tuple[PlayedCard, ...]
    last_trick: tuple[PlayedCard, ...]
    last_trick_winner: int | None
    tricks_played: int
    spades_broken: bool
    suggested_bid: int | None
    extra_hand: bool
    winner: int | None


def _seat_view(state: SpadesState, seat: int) -> SeatView:
    bid = state.bids[seat]
    tricks = state.tricks[seat]
    missing = None if bid is None else max(0, bid - tricks)
    return SeatView(seat, team_of(seat), bid, tricks, missing, len(state.hands[seat]))


def _team_view(state: SpadesState, team: int) -> TeamView:
    seats = TEAM_SEATS[team]
    bids = [state.bids[s] for s in seats]
    counting = sum(state.tricks[s] for s in seats if bids[seats.index(s)] != 0)
    contract = None if None in bids else sum(b or 0 for b in bids)
    missing = None if contract is None else max(0, contract - counting)
    return TeamView(
        team,
        seats,
        contract,
        counting,
        sum(state.tricks[s] for s in seats),
        missing,
        state.scores[team],
        state.bags[team],
    )


def build_view(state: SpadesState, seat: int | None) -> SpadesView:
    own = state.hands[seat] if seat is not None else ()
    suggested = None
    if seat is not None and state.phase == "bidding" and state.turn == seat:
        suggested = suggested_bid(own)
    return SpadesView(
        seat=seat,
        phase=state.phase,
        hand_number=state.hand,
        dealer=state.dealer,
        turn=state.turn,
        hand=own,
        seats=tuple(_seat_view(state, s) for s in range(4)),
        teams=(_team_view(state, 0), _team_view(state, 1)),
        trick_leader=state.leader,
        trick=state.trick,
        last_trick=state.last_trick,
        last_trick_winner=state.last_winner,
        tricks_played=sum(state.tricks),
        spades_broken=state.spades_broken,
        suggested_bid=suggested,
        extra_hand=state.deciding,
        winner=state.winner,
    )


def safe_card_for(view: SpadesView) -> Card:
    """The safe card of the viewing seat on its turn, from its view only.

    The side "already has its tricks" (so the seat plays to lose the trick) when the seat
    bid nil, or its partnership's contract tricks reach its contract (always, when both
    partners bid nil). Otherwise it plays the cheapest winning card — unless its partner,
    not a nil bidder, is already winning the trick. See ``play.safe_card``.
    """
    assert view.seat is not None
    seat = view.seat
    led = view.trick[0].card.suit if view.trick else None
    legal = legal_cards(view.hand, led, view.spades_broken)
    team = view.teams[team_of(seat)]
    own_bid = view.seats[seat].bid
    partner = (seat + 2) % 4
    wants_to_lose = own_bid == 0 or team.missing == 0
    partner_can_win = view.seats[partner].bid != 0
    return safe_card(legal, view.trick, partner, wants_to_lose, partner_can_win)
