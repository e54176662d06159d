"""Scenario helpers for the Barbu tests: deals written out, actions by code."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tavola.games.barbu import GAME, BarbuState, DealStarted, FirstDeclarerDrawn, HandDealt
from tavola.rules.cards import cards
from tavola.rules.interface import Event, OptionValue

SEATS = 4


def dealt(
    hands: Sequence[str],
    *,
    declarer: int = 0,
    deal: int = 1,
    options: Mapping[str, OptionValue] | None = None,
) -> BarbuState:
    """A state at the contract choice of ``deal`` with the hands written out (by seat)."""
    state = GAME.initial_state(SEATS, options or {})
    parsed = [cards(h) for h in hands]
    events: list[Event] = [
        FirstDeclarerDrawn(declarer),
        DealStarted(
            deal, declarer, (declarer - 1) % 4, (declarer + 2) % 4, tuple(len(h) for h in parsed)
        ),
    ]
    events += [HandDealt(deal, seat, tuple(sorted(h))) for seat, h in enumerate(parsed)]
    return GAME.fold(state, events)


def act(state: BarbuState, seat: int, code: str) -> tuple[BarbuState, list[Event]]:
    events = GAME.decide(state, seat, GAME.decode_action(code))
    return GAME.fold(state, events), events


def on_turn(state: BarbuState) -> int:
    (seat,) = GAME.to_act(state)
    return seat


def choose(
    state: BarbuState, contract: str, doubles: Mapping[int, str] | None = None
) -> BarbuState:
    """The declarer chooses ``contract``; then each doubling turn plays ``doubles[seat]``
    (default "pass") until play starts."""
    state, _ = act(state, state.declarer, "contract " + contract)
    doubles = doubles or {}
    while state.phase == "doubling":
        seat = on_turn(state)
        state, _ = act(state, seat, doubles.get(seat, "pass"))
    return state


def play(state: BarbuState, played: str) -> tuple[BarbuState, list[Event]]:
    """Each card in turn by the seat on turn; returns the state and every event."""
    events: list[Event] = []
    for code in played.split():
        state, new = act(state, on_turn(state), code)
        events += new
    return state, events


def deal_permutation(hands: Sequence[str], declarer: int) -> tuple[int, ...]:
    """A shuffle outcome dealing exactly ``hands`` (13 each, clockwise from the declarer)."""
    parsed = [sorted(cards(h)) for h in hands]
    return tuple(parsed[(declarer + i) % 4][i // 4].index for i in range(52))


def events_of(events: Sequence[Event], kind: type) -> list:  # type: ignore[type-arg]
    return [e for e in events if isinstance(e, kind)]


# A simple full deal: each seat holds one whole suit.
SUIT_HANDS = (
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
)


def resolve(state: BarbuState, seed: bytes = b"\x07" * 32) -> tuple[BarbuState, list[Event]]:
    """Resolve pending chance from ``seed`` (the match's fair dealing)."""
    from tavola.rules.driver import resolve_all_chance

    return resolve_all_chance(GAME, state, seed)


def auto_deal(state: BarbuState) -> tuple[BarbuState, list[Event]]:
    """Finish the current deal with every seat's timeout move."""
    events: list[Event] = []
    start = state.deal
    while state.deal == start and GAME.to_act(state):
        seat = on_turn(state)
        action, _ = GAME.automatic_action(state, seat)
        new = GAME.decide(state, seat, action)
        state = GAME.fold(state, new)
        events += new
    return state, events
