"""How each Barbu event changes the state (``evolve``), one small function per event."""

from __future__ import annotations

from tavola.games.barbu.contracts import Contract
from tavola.games.barbu.events import (
    CardPlayed,
    ContractChosen,
    DealEndedEarly,
    DealScored,
    DealStarted,
    DoublesDeclared,
    FirstDeclarerDrawn,
    HandDealt,
    Passed,
    SessionEnded,
    TrickWon,
    WentOut,
)
from tavola.games.barbu.play import grow_row
from tavola.games.barbu.state import (
    DEALS_PER_BLOCK,
    SEATS,
    BarbuState,
    Phase,
    changed,
)
from tavola.rules.cards import Card, Trick, remove_card
from tavola.rules.interface import Event


def evolve(state: BarbuState, event: Event) -> BarbuState:
    memo = state.memo
    if memo is not None and memo[0] is event:
        return memo[1]
    match event:
        case CardPlayed():
            return _card_played(state, event)
        case TrickWon():
            return _trick_won(state, event)
        case Passed(seat=seat):
            return changed(state, turn=_next_in_play(state.hands, seat))
        case WentOut(seat=seat, points=points):
            return changed(
                state, finished=(*state.finished, seat), points=_add(state.points, seat, points)
            )
        case DoublesDeclared():
            return _doubles_declared(state, event)
        case HandDealt(seat=seat, cards=cards):
            return changed(state, hands=_put(state.hands, seat, cards))
        case DealStarted():
            return _deal_started(state, event)
        case ContractChosen():
            return _contract_chosen(state, event)
        case DealEndedEarly():
            return changed(state, turn=None, trick=None)
        case DealScored(deal=deal, totals=totals):
            phase: Phase = "over" if deal >= state.options.deals else "deal"
            return changed(state, phase=phase, totals=totals, turn=None, trick=None)
        case SessionEnded():
            return changed(state, phase="over", turn=None)
        case FirstDeclarerDrawn(declarer=declarer):
            return changed(state, phase="deal", declarer=declarer)
    raise TypeError(f"not a Barbu event: {event!r}")


def advance(state: BarbuState, event: Event) -> BarbuState:
    """``evolve``, remembered by ``state`` (see ``state``'s docstring)."""
    after = evolve(state, event)
    if after is not state:
        state.memo = (event, after)
    return after


def _put(
    hands: tuple[tuple[Card, ...], ...], seat: int, cards: tuple[Card, ...]
) -> tuple[tuple[Card, ...], ...]:
    return (*hands[:seat], cards, *hands[seat + 1 :])


def _add(values: tuple[int, ...], seat: int, amount: int) -> tuple[int, ...]:
    return (*values[:seat], values[seat] + amount, *values[seat + 1 :])


def _deal_started(state: BarbuState, event: DealStarted) -> BarbuState:
    new_block = (event.deal - 1) % DEALS_PER_BLOCK == 0
    return changed(
        state,
        phase="contract",
        deal=event.deal,
        declarer=event.declarer,
        dealer=event.dealer,
        hands=((),) * SEATS,
        contract=None,
        trump=None,
        start_rank=None,
        turn=event.declarer,
        doubles=(),
        block_doubles=(0,) * SEATS if new_block else state.block_doubles,
        trick=None,
        tricks_played=0,
        tricks_taken=(0,) * SEATS,
        captured=((),) * SEATS,
        rows=(None,) * SEATS,
        finished=(),
        points=(0,) * SEATS,
    )


def _contract_chosen(state: BarbuState, event: ContractChosen) -> BarbuState:
    left = tuple(c for c in state.remaining[event.declarer] if c != event.contract)
    remaining = (*state.remaining[: event.declarer], left, *state.remaining[event.declarer + 1 :])
    chosen = changed(
        state,
        contract=event.contract,
        trump=event.trump,
        start_rank=event.start_rank,
        remaining=remaining,
    )
    if state.options.no_doubling:
        return start_play(chosen)
    return changed(chosen, phase="doubling", turn=(event.declarer + 1) % SEATS)


def start_play(state: BarbuState) -> BarbuState:
    trick = None if state.contract == Contract.DOMINO else Trick(state.declarer)
    return changed(state, phase="play", turn=state.declarer, trick=trick)


def _doubles_declared(state: BarbuState, event: DoublesDeclared) -> BarbuState:
    made = tuple((event.seat, target) for target in event.doubled)
    block = state.block_doubles
    if event.seat != state.declarer and state.declarer in event.doubled:
        block = _add(block, event.seat, 1)
    after = changed(state, doubles=state.doubles + made, block_doubles=block)
    if event.seat == state.declarer:
        return start_play(after)
    return changed(after, turn=(event.seat + 1) % SEATS)


def _card_played(state: BarbuState, event: CardPlayed) -> BarbuState:
    hands = _put(state.hands, event.seat, remove_card(state.hands[event.seat], event.card))
    if state.contract == Contract.DOMINO:
        suit = event.card.suit
        rows = (*state.rows[:suit], grow_row(state.rows[suit], event.card), *state.rows[suit + 1 :])
        return changed(state, hands=hands, rows=rows, turn=_next_in_play(hands, event.seat))
    assert state.trick is not None
    trick = state.trick.with_play(event.seat, event.card)
    return changed(state, hands=hands, trick=trick, turn=(event.seat + 1) % SEATS)


def _trick_won(state: BarbuState, event: TrickWon) -> BarbuState:
    winner = event.winner
    captured = _put(state.captured, winner, state.captured[winner] + event.penalty_cards)
    return changed(
        state,
        trick=Trick(winner),
        turn=winner,
        tricks_played=event.trick,
        tricks_taken=_add(state.tricks_taken, winner, 1),
        captured=captured,
        points=_add(state.points, winner, event.points),
    )


def _next_in_play(hands: tuple[tuple[Card, ...], ...], seat: int) -> int | None:
    """The next seat clockwise after ``seat`` still holding cards (Domino)."""
    for step in range(1, SEATS + 1):
        candidate = (seat + step) % SEATS
        if hands[candidate]:
            return candidate
    return None
