"""Random 28-deal sessions (random contracts, doubles and cards) checking the rule book's
identities, replay, determinism, encoding and hidden information."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Any

import pytest

from tavola.games.barbu import (
    GAME,
    CardPlayed,
    ContractChosen,
    DealEndedEarly,
    DealScored,
    DealStarted,
    DoublesDeclared,
    HandDealt,
    TrickWon,
)
from tavola.games.barbu.contracts import Contract
from tavola.games.barbu.timers import TIMERS
from tavola.rules.cards import Card, standard_deck
from tavola.rules.driver import play_match

DECODABLE = (
    [f"contract {c.code}" for c in Contract if c not in (Contract.TRUMPS, Contract.DOMINO)]
    + [f"contract trumps {s}" for s in "CDHS"]
    + [f"contract domino {r}" for r in "23456789TJQKA"]
    + [
        "pass",
        "double 0",
        "double 1",
        "double 2",
        "double 3",
        "double 0 1",
        "double 0 2",
        "double 0 3",
        "double 1 2",
        "double 1 3",
        "double 2 3",
        "double 0 1 2",
        "double 0 1 3",
        "double 0 2 3",
        "double 1 2 3",
        "double 0 1 2 3",
    ]
    + [c.code for c in standard_deck()]
)
ALL_ACTIONS = [GAME.decode_action(code) for code in DECODABLE]


def option_values(options: Any) -> dict[str, Any]:
    """The table options a state was made with (its timer settings as options too)."""
    values = {k: v for k, v in dataclasses.asdict(options).items() if k != "clock"}
    return {**values, **TIMERS.values(options.clock)}


def cards_in(value) -> list[Card]:
    """Every card anywhere inside an event or view."""
    if isinstance(value, Card):
        return [value]
    if isinstance(value, tuple):
        return [c for item in value for c in cards_in(item)]
    if dataclasses.is_dataclass(value):
        return [c for f in dataclasses.fields(value) for c in cards_in(getattr(value, f.name))]
    return []


def checking_chooser(sample_every: int):
    calls = Counter()

    def choose(game, state, seat, legal, rng):
        for action in legal:
            assert game.decode_action(game.encode_action(action)) == action
        calls["n"] += 1
        if calls["n"] % sample_every == 0:
            check_position(state, seat, legal)
        return legal[rng.randrange(len(legal))]

    return choose


def check_position(state, seat, legal):
    legal_set = set(legal)
    for action in ALL_ACTIONS:
        assert (GAME.why_illegal(state, seat, action) is None) == (action in legal_set), action
    for other in range(4):
        if other != seat:
            assert GAME.legal_actions(state, other) == ()
        view = GAME.view(state, other)
        assert view.hand == state.hands[other]
        foreign = {c for s, h in enumerate(state.hands) if s != other for c in h}
        assert not foreign.intersection(cards_in(dataclasses.replace(view, hand=())))
    spectator = GAME.view(state, None)
    assert spectator.hand == ()
    assert not {c for h in state.hands for c in h}.intersection(cards_in(spectator))


def check_session(out):
    events = out.events
    scored = [e for e in events if isinstance(e, DealScored)]
    assert len(scored) == 28
    for deal in scored:
        assert sum(deal.raw) == deal.contract.raw_total
        assert sum(deal.transfers) == 0
        assert sum(deal.adjusted) == deal.contract.raw_total
        for pair in deal.settlements:
            diff = abs(deal.raw[pair.low] - deal.raw[pair.high])
            assert pair.amount == pair.doubles * diff
    for block in range(4):
        part = scored[7 * block : 7 * block + 7]
        assert sorted(d.contract for d in part) == list(Contract)
        assert sum(sum(d.adjusted) for d in part) == 0
    assert sum(out.state.totals) == 0
    assert out.state.totals == tuple(map(sum, zip(*(d.adjusted for d in scored), strict=True)))
    check_doubling_obligation(events, out.state.options.no_doubling)
    check_early_ends(events)


def check_doubling_obligation(events, no_doubling):
    starts = [e for e in events if isinstance(e, DealStarted)]
    doubled = Counter()
    for event in events:
        if isinstance(event, DealStarted):
            declarer = event.declarer
            block = (event.deal - 1) // 7
        if isinstance(event, DoublesDeclared):
            assert not no_doubling
            if event.seat != declarer and declarer in event.doubled:
                doubled[(block, event.seat)] += 1
    for block in range(4):
        declarer = starts[7 * block].declarer
        assert all(s.declarer == declarer for s in starts[7 * block : 7 * block + 7])
        for seat in range(4):
            if seat != declarer:
                assert doubled[(block, seat)] >= (0 if no_doubling else 2)


def check_early_ends(events):
    contract = None
    for event in events:
        if isinstance(event, ContractChosen):
            contract = event.contract
        if isinstance(event, DealEndedEarly):
            assert contract in (Contract.NO_QUEENS, Contract.NO_HEARTS, Contract.NO_KING)
            assert event.tricks < 13


def check_hidden_information(out):
    state = GAME.initial_state(4, option_values(out.state.options))
    for event in out.events:
        if isinstance(event, HandDealt):
            assert event.audience() == frozenset({event.seat})
        else:
            assert event.audience() is None
            held = {c for h in state.hands for c in h}
            shown = set(cards_in(event))
            if isinstance(event, CardPlayed):
                assert event.card in state.hands[event.seat]
                shown.discard(event.card)
            assert not held.intersection(shown), event
        state = GAME.evolve(state, event)
    assert state == out.state


def run(seed: int, options=None, sample_every: int = 0):
    chooser = checking_chooser(sample_every) if sample_every else None
    kwargs = {"choose": chooser} if chooser else {}
    return play_match(
        GAME, 4, options or {}, seed=seed.to_bytes(32, "big"), rng=random.Random(seed), **kwargs
    )


OPTION_SETS = [
    {},
    {"fixed_order": True},
    {"no_doubling": True},
    {"play_out_all_tricks": True, "void_must_trump": True},
]


@pytest.mark.parametrize("seed", range(40))
def test_random_sessions_keep_every_identity_of_the_rule_book(seed):
    options = OPTION_SETS[seed % len(OPTION_SETS)]
    out = run(seed, options, sample_every=97 if seed < 8 else 0)
    check_session(out)
    if seed < 8:
        check_hidden_information(out)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1000, 1200))
def test_two_hundred_random_sessions_keep_every_identity(seed):
    out = run(seed, OPTION_SETS[seed % len(OPTION_SETS)])
    check_session(out)


def test_replaying_the_events_rebuilds_the_same_state():
    out = run(7)
    assert GAME.fold(GAME.initial_state(4, {}), out.events) == out.state
    assert GAME.is_over(out.state) and GAME.chance(out.state) is None


def test_the_same_seed_and_choices_give_identical_events_even_if_global_random_moves():
    first = run(11).events
    random.seed(12345)
    random.random()
    assert run(11).events == first
    assert run(12).events != first


def test_every_card_of_every_deal_is_played_or_left_in_an_ended_deal():
    out = run(3, {"play_out_all_tricks": True})
    tricks = [e for e in out.events if isinstance(e, TrickWon)]
    domino = sum(
        1 for e in out.events if isinstance(e, ContractChosen) and e.contract == Contract.DOMINO
    )
    assert len(tricks) == 13 * (28 - domino)
