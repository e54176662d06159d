"""Scenario helpers for the Spades tests: deal chosen cards, bid and play by code."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest

from tavola.games.spades import GAME, DealerChosen, HandDealt, HandStarted, SpadesState
from tavola.rules.cards import cards
from tavola.rules.interface import Event


class Table:
    """Builds states by folding explicit events and drives them through ``decide``."""

    game = GAME

    @staticmethod
    def deal(
        hands: Sequence[str],
        dealer: int = 3,
        hand: int = 1,
        scores: tuple[int, int] = (0, 0),
        bags: tuple[int, int] = (0, 0),
        deciding: bool = False,
    ) -> SpadesState:
        """Hand ``hand`` dealt by ``dealer`` with the given cards (seat order); earlier
        scores and bags (a match in progress) are set directly."""
        dealt = [cards(h) for h in hands]
        assert sorted(c for h in dealt for c in h) == sorted(set(c for h in dealt for c in h))
        assert all(len(h) == 13 for h in dealt) and len({c for h in dealt for c in h}) == 52
        state = GAME.fold(GAME.initial_state(4, {}), [DealerChosen(dealer)])
        state = replace(state, scores=scores, bags=bags, deciding=deciding, hand=hand - 1)
        events: list[Event] = [HandStarted(hand, dealer, (13,) * 4)]
        events += [HandDealt(hand, s, tuple(sorted(h))) for s, h in enumerate(dealt)]
        return GAME.fold(state, events)

    @staticmethod
    def act(state: SpadesState, code: str) -> tuple[SpadesState, list[Event]]:
        """The seat on turn sends ``code``; returns the new state and the events."""
        assert state.turn is not None, "nobody on turn"
        events = GAME.decide(state, state.turn, GAME.decode_action(code))
        return GAME.fold(state, events), events

    @classmethod
    def run(cls, state: SpadesState, codes: str) -> tuple[SpadesState, list[Event]]:
        """Several actions, comma or space separated ("bid 4, nil, bid 3, bid 2"; "2C AC")."""
        produced: list[Event] = []
        parts: list[str] = []
        for chunk in codes.split(","):
            words = chunk.split()
            parts += [" ".join(words)] if words[0] in ("bid", "nil", "blind") else words
        for code in parts:
            state, events = cls.act(state, code)
            produced += events
        return state, produced

    @staticmethod
    def play_out(state: SpadesState) -> tuple[SpadesState, list[Event]]:
        """Finish the current hand with the first legal card each turn."""
        produced: list[Event] = []
        while state.phase == "play":
            assert state.turn is not None
            action = GAME.legal_actions(state, state.turn)[0]
            events = GAME.decide(state, state.turn, action)
            state = GAME.fold(state, events)
            produced += events
        return state, produced


@pytest.fixture
def table() -> type[Table]:
    return Table


# The source's worked example as a deal: dealer 3, seat 0 leads. Seat 1 takes four club
# tricks, seat 0 ruffs the fifth and runs its spades: seat 0 takes 9, seat 1 takes 4.
EXAMPLE_HANDS = (
    "AS KS QS JS TS 9S 8S 7S 6S 2C 3C 4C 5C",
    "AC KC QC JC TC 9C 8C 7C 6C 2D 3D 4D 5D",
    "6D 7D 8D 9D TD JD QD KD AD 5S 4S 3S 2S",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
)
EXAMPLE_PLAY = (
    "2C AC 6D 2H  KC 7D 3H 3C  QC 8D 4H 4C  JC 9D 5H 5C  TC TD 6H 6S "
    "AS 9C 5S 7H  KS 8C 4S 8H  QS 7C 3S 9H  JS 6C 2S TH  TS 2D JD JH "
    "9S 3D QD QH  8S 4D KD KH  7S 5D AD AH"
)
# One suit each: seat 0 holds every spade and takes all 13 tricks.
SUIT_HANDS = (
    "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
    "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
    "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
    "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
)


@pytest.fixture
def example_hands() -> tuple[str, ...]:
    return EXAMPLE_HANDS


@pytest.fixture
def example_play() -> str:
    return EXAMPLE_PLAY


@pytest.fixture
def suit_hands() -> tuple[str, ...]:
    return SUIT_HANDS
