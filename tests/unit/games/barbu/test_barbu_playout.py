"""The master's fast paths against the plain code they replace: the rollouts of
``playout`` against ``Sim.rollout(rollout_choice)``, the ``Dealer`` against the plain
determinization (same deals from the same draws, so the master decides as before)."""

from __future__ import annotations

import random

import pytest

from tavola.games.barbu.bots.cardplay import rollout_choice
from tavola.games.barbu.bots.master import Dealer
from tavola.games.barbu.bots.playout import rollout
from tavola.games.barbu.bots.sim import PENALTY_COUNT, SEATS, Sim
from tavola.games.barbu.bots.tracker import DealKnowledge
from tavola.games.barbu.contracts import Contract


def _random_sim(rng: random.Random, contract: Contract) -> Sim:
    """A deal of ``contract`` some random cards in; penalty contracts sometimes go on after
    the last penalty card (``play_out_all_tricks``)."""
    deck = list(range(52))
    rng.shuffle(deck)
    if rng.random() < 0.3:  # long suits
        spread = rng.random() * 3
        deck.sort(key=lambda c: c // 13 + rng.random() * spread)
    sim = Sim(
        contract,
        rng.randrange(4) if contract == Contract.TRUMPS else None,
        rng.randrange(13) if contract == Contract.DOMINO else None,
        [deck[i * 13 : (i + 1) * 13] for i in range(SEATS)],
        rng.randrange(SEATS),
        rng.random() < 0.5,
        penalties_left=PENALTY_COUNT.get(contract, 0),
    )
    sim.settle_turn()
    for _ in range(rng.randrange(52)):
        if sim.over and contract in PENALTY_COUNT and sim.tricks_played < 13:
            sim.over = rng.random() < 0.5
        if sim.over:
            break
        legal = sim.legal()
        sim.play(legal[rng.randrange(len(legal))])
    return sim


@pytest.mark.parametrize("contract", list(Contract), ids=lambda c: c.code)
def test_the_fast_rollout_plays_as_the_medium_rollout(contract: Contract) -> None:
    rng = random.Random(int(contract))
    for _ in range(300):
        sim = _random_sim(rng, contract)
        plain, fast = sim.copy(), sim.copy()
        plain.rollout(rollout_choice)
        rollout(fast)
        assert fast == plain


def _plain_deal(know: DealKnowledge, rng: random.Random) -> list[list[int]] | None:
    """One attempt of the determinization as first written (the reference for its draws)."""
    unseen = sorted(know.unseen())
    others = [s for s in range(SEATS) if s != know.seat]
    allowed = {c: [s for s in others if c not in know.excluded[s]] for c in unseen}
    order = list(unseen)
    rng.shuffle(order)
    order.sort(key=lambda c: len(allowed[c]))
    room = list(know.counts)
    room[know.seat] = 0
    hands: list[list[int]] = [[] for _ in range(SEATS)]
    hands[know.seat] = list(know.hand)
    for card in order:
        seats = [s for s in allowed[card] if room[s] > 0]
        total = sum(room[s] for s in seats)
        if not total:
            return None
        pick = rng.random() * total
        for seat in seats:
            pick -= room[seat]
            if pick < 0:
                break
        hands[seat].append(card)
        room[seat] -= 1
    return hands


def test_the_dealer_draws_as_the_plain_determinization() -> None:
    rng = random.Random(5)
    for _ in range(400):
        deck = list(range(52))
        rng.shuffle(deck)
        played = rng.randrange(40)
        seat = rng.randrange(SEATS)
        hands = [deck[played:][s::SEATS] for s in range(SEATS)]
        know = DealKnowledge(seat=seat, declarer=0)
        know.hand = tuple(sorted(hands[seat]))
        know.played = set(deck[:played])
        know.counts = [len(h) for h in hands]
        excluding = rng.random() < 0.7  # else nothing excluded, as at the contract
        for other in range(SEATS):  # exclusions the real deal respects
            if other != seat and excluding and rng.random() < 0.6:
                free = [c for c in deck[played:] if c not in hands[other]]
                know.excluded[other] = set(rng.sample(free, rng.randrange(len(free) + 1)))
        seed = rng.random()
        plain, fast = random.Random(seed), random.Random(seed)
        dealer = Dealer(know)
        for _ in range(3):
            assert dealer._attempt(fast) == _plain_deal(know, plain)
            assert fast.random() == plain.random()
