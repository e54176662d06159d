"""Invariant checker for Fan Tan playouts: replays a match event by event and checks every
rule the events must respect (used by the playout and property tests)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any

import pytest

from tavola.games.fantan import (
    GAME,
    CardPlayed,
    CardsSetAside,
    DealerChosen,
    DealVoided,
    FanTanState,
    HandBlocked,
    HandDealt,
    HandScored,
    HandStarted,
    HandWon,
    Pass,
    Passed,
    Play,
)
from tavola.games.fantan.options import FanTanOptions
from tavola.rules.cards import Card, standard_deck
from tavola.rules.driver import Playout
from tavola.rules.errors import IllegalAction, NotYourTurn
from tavola.rules.interface import Event

ALL_ACTIONS = [Play(c) for c in standard_deck()] + [Pass()]


def cards_in(value: Any) -> set[Card]:
    """Every card inside an event or view: Card values and strings that are card codes."""
    if isinstance(value, Card):
        return {value}
    if isinstance(value, str):
        try:
            return {Card.parse(value)} if 2 <= len(value) <= 3 else set()
        except ValueError:
            return set()
    if isinstance(value, tuple):
        return set().union(*map(cards_in, value)) if value else set()
    if is_dataclass(value):
        return cards_in(tuple(getattr(value, f.name) for f in fields(value)))
    return set()


@dataclass
class Checker:
    """Folds a playout's events from the initial state and checks each step."""

    options: FanTanOptions
    state: FanTanState
    rng: random.Random
    deep_every: int = 53
    hands: int = 0
    blocked: int = 0
    voided: int = 0
    passes: int = 0
    steps: int = 0
    played: set[Card] = field(default_factory=set)
    aside: int = 0
    last_actor: int | None = None

    def run(self, events: list[Event]) -> FanTanState:
        for event in events:
            self.before(event)
            self.state = GAME.evolve(self.state, event)
            self.after(event)
        return self.state

    def before(self, event: Event) -> None:
        state = self.state
        self.steps += 1
        if event.audience() is None and not isinstance(event, CardPlayed):
            assert not cards_in(event), f"public event reveals cards: {event}"
        if isinstance(event, CardPlayed | Passed):
            self.check_turn(state, event.seat)
            if isinstance(event, CardPlayed) and self.steps % self.deep_every == 0:
                self.deep(state)
        match event:
            case CardPlayed(seat=seat, card=played):
                assert GAME.why_illegal(state, seat, Play(played)) is None
                assert played not in self.played
                self.played.add(played)
            case Passed(seat=seat):
                assert GAME.legal_actions(state, seat) == ()
                self.passes += 1
            case HandBlocked():
                assert self.options.equal_hands and self.aside > 0
                assert all(not GAME._playable(state, h) for h in state.hands)
            case HandScored(penalties=pen, totals=totals, cards_left=left):
                self.check_score(state, pen, totals, left)
            case HandDealt(seat=seat):
                assert event.audience() == frozenset({seat})
            case CardsSetAside(cards=set_aside):
                assert event.audience() == frozenset()
                self.aside = len(set_aside)
            case DealVoided():
                self.voided += 1

    def after(self, event: Event) -> None:
        state = self.state
        match event:
            case HandStarted():
                self.played, self.aside, self.last_actor = set(), 0, None
                self.hands += 1
            case HandWon(seat=seat):
                assert state.hands[seat] == ()
            case HandBlocked():
                self.blocked += 1
            case DealerChosen() | HandScored():
                assert GAME.chance(state) is not None or GAME.is_over(state)

    def check_turn(self, state: FanTanState, seat: int) -> None:
        assert GAME.to_act(state) == frozenset({seat})
        if self.last_actor is not None:
            assert seat == (self.last_actor + 1) % state.players  # clockwise
        self.last_actor = seat

    def check_score(
        self,
        state: FanTanState,
        pen: tuple[int, ...],
        totals: tuple[int, ...],
        left: tuple[int, ...],
    ) -> None:
        assert left == tuple(len(h) for h in state.hands)
        assert len(self.played) + sum(left) + self.aside == 52
        played_or_held = self.played.union(*state.hands)
        assert len(played_or_held) == len(self.played) + sum(left)
        assert pen == tuple(sum(self.options.card_penalty(c) for c in h) for h in state.hands)
        if self.options.penalty == "per_card":
            assert pen == left
        assert totals == tuple(t + p for t, p in zip(state.totals, pen, strict=True))
        if state.last_winner is not None:
            assert left[state.last_winner] == 0
            assert all(n > 0 for s, n in enumerate(left) if s != state.last_winner)

    def deep(self, state: FanTanState) -> None:
        """Views, legality of every action, illegal actions and code round trips."""
        for seat in range(state.players):
            view = GAME.view(state, seat)
            assert view.hand == state.hands[seat]
            assert cards_in(view) <= set(state.hands[seat]) | self.played
        assert cards_in(GAME.view(state, None)) <= self.played
        on_turn = next(iter(GAME.to_act(state)))
        legal = set(GAME.legal_actions(state, on_turn))
        assert legal
        for action in ALL_ACTIONS:
            assert (GAME.why_illegal(state, on_turn, action) is None) == (action in legal)
        for action in legal:
            assert GAME.decode_action(GAME.encode_action(action)) == action
        self.check_refusals(state, on_turn, legal)

    def check_refusals(self, state: FanTanState, on_turn: int, legal: set[Any]) -> None:
        before = state
        for action in self.rng.sample(ALL_ACTIONS, 3):
            if action not in legal:
                with pytest.raises(IllegalAction):
                    GAME.decide(state, on_turn, GAME.decode_action(GAME.encode_action(action)))
        other = (on_turn + 1 + self.rng.randrange(state.players - 1)) % state.players
        with pytest.raises(NotYourTurn):
            GAME.decide(state, other, self.rng.choice(ALL_ACTIONS))
        assert state == before


def check_playout(out: Playout, players: int, options: dict[str, Any], seed: int) -> Checker:
    """Replays ``out`` from the initial state, checking every invariant; returns the
    checker (with its counters)."""
    initial = GAME.initial_state(players, options)
    checker = Checker(initial.options, initial, random.Random(seed))
    final = checker.run(out.events)
    assert final == out.state  # replaying the events rebuilds the same state
    assert GAME.is_over(final) and GAME.chance(final) is None and not GAME.to_act(final)
    scored = [e for e in out.events if isinstance(e, HandScored)]
    assert scored and final.totals == scored[-1].totals
    limit = initial.options.penalty_limit
    planned = GAME.hands_in_match(initial)
    assert (planned is not None and len(scored) == planned) or max(final.totals) >= limit > 0
    return checker
