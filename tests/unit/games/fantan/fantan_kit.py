"""Scenario kit for the Fan Tan tests: deals written out, moves by code, crafted shuffles."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from tavola.games.fantan import (
    GAME,
    CardsSetAside,
    DealerChosen,
    FanTanState,
    HandDealt,
    HandStarted,
)
from tavola.rules.cards import Card, cards, standard_deck
from tavola.rules.errors import IllegalAction, Reason
from tavola.rules.interface import Event, OptionValue

__all__ = ["GAME", "act", "crafted_deck", "deal", "illegal", "moves", "permutation"]


def deal(
    hands: Sequence[str],
    dealer: int = 0,
    options: Mapping[str, OptionValue] | None = None,
    aside: str = "",
) -> FanTanState:
    """Hand 1 of a match with these hands (seat order), folded from explicit events."""
    n = len(hands)
    dealt = [tuple(sorted(cards(h))) for h in hands]
    events: list[Event] = [DealerChosen(dealer), HandStarted(1, dealer, tuple(map(len, dealt)))]
    events += [HandDealt(1, seat, hand) for seat, hand in enumerate(dealt)]
    if aside:
        events.append(CardsSetAside(1, tuple(sorted(cards(aside)))))
    return GAME.fold(GAME.initial_state(n, options or {}), events)


def act(state: FanTanState, seat: int, code: str) -> tuple[FanTanState, list[Event]]:
    """``seat`` plays ``code`` through ``decide``; returns the new state and the events."""
    events = GAME.decide(state, seat, GAME.decode_action(code))
    return GAME.fold(state, events), events


def moves(state: FanTanState, script: str) -> tuple[FanTanState, list[Event]]:
    """Plays ``"1:7D 2:7H 0:7S"`` (seat:card) in order; returns the state and all events."""
    produced: list[Event] = []
    for move in script.split():
        seat, code = move.split(":")
        state, events = act(state, int(seat), code)
        produced += events
    return state, produced


def illegal(
    state: FanTanState, seat: int, code: str, error: type[Exception] = IllegalAction
) -> Reason:
    """Asserts ``seat`` may not play ``code`` (the state is untouched); returns the reason."""
    before = state
    with pytest.raises(error) as caught:
        GAME.decide(state, seat, GAME.decode_action(code))
    assert state == before
    reason = caught.value.reason  # type: ignore[attr-defined]
    assert isinstance(reason, Reason)
    return reason


def crafted_deck(
    players: int, dealer: int, fixed: Mapping[int, str], aside: str = "", equal: bool = False
) -> list[Card]:
    """A deck order that deals ``fixed`` cards to those seats (one card at a time from the
    dealer's left), the other cards in deck order to whoever still needs cards, and ``aside``
    (with ``equal``) as the undealt tail."""
    each = 52 // players if equal else None
    total = 52 if each is None else each * players
    order = [(dealer + 1 + i) % players for i in range(total)]
    need = {s: order.count(s) for s in range(players)}
    wanted = {s: list(cards(text)) for s, text in fixed.items()}
    tail = list(cards(aside))
    used = {c for hand in wanted.values() for c in hand} | set(tail)
    spare = [c for c in standard_deck() if c not in used]
    for seat in range(players):
        hand = wanted.setdefault(seat, [])
        assert len(hand) <= need[seat], f"seat {seat} gets {need[seat]} cards"
        while len(hand) < need[seat]:
            hand.append(spare.pop(0))
    deck = [wanted[seat].pop(0) for seat in order]
    return deck + tail + spare


def permutation(deck: Sequence[Card]) -> tuple[int, ...]:
    """The shuffle outcome that puts ``deck`` in this order."""
    assert sorted(deck) == sorted(standard_deck())
    return tuple(c.index for c in deck)
