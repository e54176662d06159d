"""Barbu bots: legal and deterministic at every level, honest, and the heuristics and
inferences they claim (docs/games/barbu-bots.md)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from tavola.bots import Budget
from tavola.bots.arena import pairing
from tavola.bots.knowledge import knowledge_of
from tavola.games.barbu import (
    GAME,
    BarbuState,
    CardPlayed,
    ChooseContract,
    ContractChosen,
    DealScored,
    DealStarted,
    Double,
    DoublesDeclared,
    FirstDeclarerDrawn,
    HandDealt,
    PlayCard,
)
from tavola.games.barbu.bots import POLICIES, hint
from tavola.games.barbu.bots.cardplay import rollout_choice
from tavola.games.barbu.bots.decisions import deal_of
from tavola.games.barbu.bots.master import determinize
from tavola.games.barbu.bots.sim import PENALTY_COUNT, Sim
from tavola.games.barbu.contracts import Contract
from tavola.rules.cards import Card, cards
from tavola.rules.driver import resolve_all_chance
from tavola.rules.interface import Event

LEVELS = ("easy", "medium", "hard", "master")
SMALL = Budget(samples=4)
OPTIONS: tuple[dict[str, Any], ...] = (
    {},
    {"void_must_trump": True, "play_out_all_tricks": True},
    {"fixed_order": True},
)


def positions(
    seed: int, options: dict[str, Any], every: float
) -> Iterator[tuple[BarbuState, list[Event]]]:
    """Random positions (a seat on turn) of a match driven by uniform random moves."""
    rng = random.Random(seed)
    state = GAME.initial_state(4, options)
    events: list[Event] = []
    while True:
        state, produced = resolve_all_chance(GAME, state, seed.to_bytes(32, "big"))
        events += produced
        if GAME.is_over(state) or state.deal > 8:
            return
        if rng.random() < every:
            yield state, list(events)
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        produced = GAME.decide(state, seat, legal[rng.randrange(len(legal))])
        state = GAME.fold(state, produced)
        events += produced


def decide(
    level: str,
    state: BarbuState,
    events: Sequence[Event],
    seed: int,
    options: dict[str, Any] | None = None,
) -> Any:
    (seat,) = GAME.to_act(state)
    knowledge = knowledge_of(GAME, state, events, seat, options)
    legal = GAME.legal_actions(state, seat)
    return POLICIES[level].decide(GAME, knowledge, legal, random.Random(seed), SMALL)


def kind(state: BarbuState) -> str:
    return f"{state.phase}:{state.contract.code if state.contract is not None else '-'}"


def test_every_level_returns_a_legal_action_of_every_kind_in_random_matches() -> None:
    kinds = set()
    for i, options in enumerate(OPTIONS):
        for state, events in positions(i, options, every=0.08):
            (seat,) = GAME.to_act(state)
            legal = GAME.legal_actions(state, seat)
            for level in LEVELS:
                assert decide(level, state, events, i, options) in legal, (level, kind(state))
            kinds.add(kind(state))
    assert {
        "contract:-",
        "doubling:trumps",
        "doubling:no-king",
        "play:domino",
        "play:trumps",
        "play:no-tricks",
        "play:no-queens",
        "play:no-hearts",
        "play:no-last-two",
        "play:no-king",
    } <= kinds


def test_decisions_are_the_same_for_the_same_seed() -> None:
    for state, events in positions(7, {}, every=0.05):
        for level in LEVELS:
            assert decide(level, state, events, 3) == decide(level, state, events, 3)


# ----- honesty --------------------------------------------------------------------------
def redistributed(state: BarbuState, events: list[Event], rng: random.Random) -> list[Event] | None:
    """The same match with the other seats' hidden cards of this deal dealt differently,
    consistently with everything public (every action replays to the same events)."""
    (seat,) = GAME.to_act(state)
    know = deal_of(knowledge_of(GAME, state, events, seat))
    hands = determinize(know, rng)
    start = max(i for i, e in enumerate(events) if isinstance(e, DealStarted))
    deck = {c.index: c for c in cards(" ".join(r + s for s in "CDHS" for r in "23456789TJQKA"))}
    out = list(events[: start + 1])
    replay = GAME.fold(GAME.initial_state(4, {}), out)
    for event in events[start + 1 :]:
        if isinstance(event, HandDealt):
            if event.seat != seat:
                played = know.played_by[event.seat]
                new = sorted(deck[c] for c in [*hands[event.seat], *played])
                event = HandDealt(event.deal, event.seat, tuple(new))
            out.append(event)
            replay = GAME.evolve(replay, event)
    rest = events[len(out) :]
    while rest:
        action = _action_of(rest[0])
        if action is None:
            return None
        (actor,) = GAME.to_act(replay)
        produced = GAME.decide(replay, actor, action)
        if produced != rest[: len(produced)]:
            return None
        replay = GAME.fold(replay, produced)
        out += produced
        rest = rest[len(produced) :]
    return out


def _action_of(event: Event) -> Any:
    if isinstance(event, CardPlayed):
        return PlayCard(event.card)
    if isinstance(event, ContractChosen):
        return ChooseContract(event.contract, event.trump, event.start_rank)
    if isinstance(event, DoublesDeclared) and not event.automatic:
        return Double(event.doubled)
    return None


def test_no_level_changes_its_decision_when_the_hidden_cards_are_dealt_differently() -> None:
    rng = random.Random(11)
    checked = 0
    for i, options in enumerate(OPTIONS[:2]):
        for state, events in positions(20 + i, options, every=0.06):
            other = redistributed(state, events, rng)
            if other is None:
                continue
            twin = GAME.fold(GAME.initial_state(4, options), other)
            (seat,) = GAME.to_act(state)
            assert GAME.view(twin, seat) == GAME.view(state, seat)
            hidden = [s for s in range(4) if s != seat]
            if state.phase == "play" and all(twin.hands[s] == state.hands[s] for s in hidden):
                continue
            checked += 1
            for level in LEVELS:
                assert decide(level, state, events, 5, options) == decide(
                    level, twin, other, 5, options
                ), level
    assert checked >= 10


def test_the_bot_package_never_receives_a_state() -> None:
    import ast
    import pathlib

    import tavola.games.barbu.bots as bots

    for path in pathlib.Path(bots.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text())
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        attrs = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        assert "BarbuState" not in names, path
        assert not attrs & {"legal_actions", "fold", "evolve", "decide"}, path
        imported = {
            a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names
        }
        assert not imported & {"BarbuState", "build_view", "legal_cards"}, path


# ----- scripted positions ----------------------------------------------------------------
HANDS = (
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
)


def scripted(
    hands: Sequence[str],
    contract: str,
    played: str = "",
    declarer: int = 0,
    options: dict[str, Any] | None = None,
) -> tuple[BarbuState, list[Event]]:
    """Deal 1 with the hands written out, ``contract`` chosen, nobody doubling, then the
    ``played`` cards in turn."""
    events: list[Event] = [
        FirstDeclarerDrawn(declarer),
        DealStarted(1, declarer, (declarer - 1) % 4, (declarer + 2) % 4, (13,) * 4),
    ]
    events += [HandDealt(1, s, tuple(sorted(cards(h)))) for s, h in enumerate(hands)]
    state = GAME.fold(GAME.initial_state(4, options or {}), events)
    codes = ["contract " + contract] + ["pass"] * 3 + played.split()
    for code in codes:
        if GAME.is_over(state) or not GAME.to_act(state):
            break
        (seat,) = GAME.to_act(state)
        produced = GAME.decide(state, seat, GAME.decode_action(code))
        state = GAME.fold(state, produced)
        events += produced
    return state, events


def known(state: BarbuState, events: list[Event], seat: int | None = None) -> Any:
    if seat is None:
        (seat,) = GAME.to_act(state)
    return deal_of(knowledge_of(GAME, state, events, seat))


def card(code: str) -> int:
    return Card.parse(code).index


MIXED = (
    "2S 3S 4S 5S 6S 2H 3H 4H 2D 3D 2C 3C QC",
    "7S 8S 9S TS 5H 6H 7H 4D 5D 6D 4C 5C 6C",
    "JS QS KS AS 8H 9H TH 7D 8D 9D 7C 8C 9C",
    "JH QH KH AH TD JD QD KD AD TC JC KC AC",
)


def test_hard_infers_a_void_from_a_failure_to_follow() -> None:
    # No Tricks: seat 0 leads 2S, seat 1 follows, seat 2 follows, seat 3 has no spade.
    state, events = scripted(MIXED, "no-tricks", "2S 7S JS TD")
    know = known(state, events)  # seat 2 won the trick (J♠) and is on turn
    assert know.void(3, 3) and not know.void(1, 3)
    assert not any(c // 13 == 3 for c in know.possible(3))


def test_hard_infers_no_higher_trump_when_a_void_seat_does_not_overruff() -> None:
    hands = (
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS 2C 3C 4C",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "QS KS AS 5C 6C 7C 8C 9C TC JC QC KC AC",
    )
    # Trumps ♥: seat 1 trumps the 2♠ with the 2♥; seat 2, without spades, discards a
    # diamond, so it holds no heart above the 2♥ — no heart at all. Seen from seat 0.
    state, events = scripted(hands, "trumps H", "2S 2H 2D QS")
    know = known(state, events, seat=0)
    assert know.void(2, 3) and not know.void(1, 2)
    assert not any(c // 13 == 2 for c in know.possible(2))
    assert card("AH") in know.possible(1)


def test_hard_infers_no_higher_trump_from_an_undertrump_on_a_trump_lead() -> None:
    hands = (
        "2H 3S 4S 5S 6S 7S 8S 9S TS JS 2C 3C 4C",
        "3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 2S",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "QS KS AS 5C 6C 7C 8C 9C TC JC QC KC AC",
    )
    # Trumps ♥, 2♥ led: seat 1 must beat it and plays A♥ — no inference; nobody else has
    # hearts: seat 2 and seat 3 show voids in hearts.
    state, events = scripted(hands, "trumps H", "2H AH 2D 5C")
    know = known(state, events, seat=0)
    assert know.void(2, 2) and know.void(3, 2)


def test_hard_infers_only_hearts_from_a_heart_lead_in_no_hearts() -> None:
    # Seat 1 leads after winning: build a No Hearts deal where seat 1 holds only hearts.
    state, events = scripted(HANDS, "no-hearts", "2S")
    # seat 1 has no spade: discards a heart; seat 1 then only ever holds hearts.
    state, events = scripted(HANDS, "no-hearts", "2S 2H 2D 2C")
    know = known(state, events)
    assert know.void(1, 3) and know.void(2, 3) and know.void(3, 3)


def test_hard_infers_a_domino_pass_excludes_every_playable_card() -> None:
    # Domino from 3: seat 0 opens 3♠; seats 1, 2 and 3 hold no 3 and neither 2♠ nor 4♠, so
    # they pass. Seen from seat 1: seat 2 cannot hold any card that was playable.
    state, events = scripted(MIXED, "domino 3", "3S")
    know = known(state, events, seat=1)
    assert know.passes == [0, 1, 1, 1]
    playable = {card(c) for c in ("3H", "3D", "3C", "2S", "4S")}
    assert not playable & know.possible(2)
    assert playable <= know.possible(0)


def test_medium_ducks_with_its_highest_losing_card() -> None:
    state, events = scripted(MIXED, "no-tricks", "2S 7S JS TD QS TC 3S")  # seat 1: 8S 9S TS
    assert decide("medium", state, events, 0) == PlayCard(Card.parse("TS"))
    state, events = scripted(MIXED, "no-tricks", "6S 7S")  # seat 2: JS QS KS AS, all win
    assert decide("medium", state, events, 0) == PlayCard(Card.parse("JS"))
    state, events = scripted(MIXED, "no-queens", "3S 7S")  # seat 2 cannot duck either
    assert decide("medium", state, events, 0) == PlayCard(Card.parse("JS"))


def test_medium_discards_the_queen_in_no_queens_and_the_king_in_no_king() -> None:
    hands = (
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS 2C",
        "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH AH",
        "KH 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
        "AD 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    )
    state, events = scripted(hands, "no-king", "2S QS")  # seat 2 has no spade
    assert decide("medium", state, events, 0) == PlayCard(Card.parse("KH"))
    state, events = scripted(hands, "no-queens", "2S QS")
    assert decide("medium", state, events, 0) == PlayCard(Card.parse("QD"))


def test_medium_wins_cheaply_in_trumps() -> None:
    state, events = scripted(MIXED, "trumps C", "2S 7S")  # seat 2: JS QS KS AS
    assert decide("medium", state, events, 0) == PlayCard(Card.parse("JS"))


def test_the_hint_is_the_hard_choice_with_a_catalogued_reason() -> None:
    for state, events in positions(3, {}, every=0.05):
        (seat,) = GAME.to_act(state)
        knowledge = knowledge_of(GAME, state, events, seat)
        legal = GAME.legal_actions(state, seat)
        action, reason = hint(GAME, knowledge, legal)
        assert action == POLICIES["hard"].decide(GAME, knowledge, legal, random.Random(0), SMALL)
        assert reason.code in GAME.messages()


def test_the_rollout_simulator_matches_the_engine() -> None:
    rng = random.Random(2)
    for i, options in enumerate(OPTIONS[:2]):
        for state, _ in positions(40 + i, options, every=0.04):
            if state.phase != "play":
                continue
            sim = _sim_of(state)
            while True:
                (seat,) = GAME.to_act(state)
                legal = GAME.legal_actions(state, seat)
                assert seat == sim.turn
                assert sorted(a.card.index for a in legal) == sorted(sim.legal())
                action = legal[rng.randrange(len(legal))]
                produced = GAME.decide(state, seat, action)
                state = GAME.fold(state, produced)
                sim.play(action.card.index)
                scored = [e for e in produced if isinstance(e, DealScored)]
                if scored or sim.over:
                    assert list(state.points) == sim.points or list(scored[0].raw) == sim.points
                    break


def _sim_of(state: BarbuState) -> Sim:
    assert state.contract is not None
    trick = state.trick.plays if state.trick is not None else ()
    return Sim(
        state.contract,
        None if state.trump is None else int(state.trump),
        None if state.start_rank is None else int(state.start_rank) - 2,
        [[c.index for c in h] for h in state.hands],
        state.turn or 0,
        state.options.void_must_trump,
        [(p.seat, p.card.index) for p in trick],
        state.tricks_played,
        list(state.points),
        PENALTY_COUNT.get(state.contract, 0) - sum(len(c) for c in state.captured),
        [None if r is None else (r[0] - 2, r[1] - 2) for r in state.rows],
        list(state.finished),
    )


def test_a_rollout_of_a_whole_deal_totals_the_contract_points() -> None:
    deck = list(range(52))
    random.Random(4).shuffle(deck)
    for contract in Contract:
        sim = Sim(
            contract,
            2 if contract == Contract.TRUMPS else None,
            5 if contract == Contract.DOMINO else None,
            [sorted(deck[i * 13 : (i + 1) * 13]) for i in range(4)],
            0,
            penalties_left=PENALTY_COUNT.get(contract, 0),
        )
        sim.rollout(rollout_choice)
        assert sum(sim.points) == contract.raw_total


@pytest.mark.parametrize(("better", "worse"), [("medium", "easy")])
def test_a_quick_arena_shows_the_better_level_ahead(better: str, worse: str) -> None:
    result = pairing(GAME, 4, {}, better, worse, deals=4, budget=SMALL)
    assert result.low > 0, result.line()
