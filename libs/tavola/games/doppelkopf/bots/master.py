"""The master level: Monte Carlo over determinizations (perfect-information play-outs).

For a card: ``budget.samples`` deals of the unseen cards consistent with what the hard
level knows (``sample.Sampler``); on each, every distinct legal card is played and
the deal is played out by the fast rule-of-thumb policy (``rollout``); the card with the
best mean score for the seat wins (ties: the hard level's order). Every card is priced on
the same deals, so their difference is measured with little noise.

For an announcement (on its own turn): the same play-outs from the current position are
settled twice, with and without the party's next call; the call is made when it gains at
least ``MARGIN`` points on average. Reservations and Armut use the hard level's choices.
"""

from __future__ import annotations

from collections.abc import Sequence

from tavola.bots.interface import Budget, Rng
from tavola.games.doppelkopf.actions import Announce
from tavola.games.doppelkopf.bots.infer import Seen
from tavola.games.doppelkopf.bots.rollout import Playout, Setup, score
from tavola.games.doppelkopf.bots.sample import ID
from tavola.games.doppelkopf.bots.tactics import hard_card
from tavola.rules.cards import Card

MARGIN = 0.6  # points a call must gain on average


def master_card(seen: Seen, cards: Sequence[Card], rng: Rng, budget: Budget) -> Card:
    preferred, _ = hard_card(seen, cards)
    candidates = sorted(set(cards), key=lambda c: (c != preferred, c))
    if len(candidates) == 1:
        return candidates[0]
    setup = Setup.of(seen)
    totals = [0.0] * len(candidates)
    for _ in range(max(1, budget.samples)):
        playout = Playout(setup, setup.sampler.hands(rng))
        for i, c in enumerate(candidates):
            outcome = playout.run(ID[c])
            totals[i] += score(seen, outcome, setup.levels, seen.me)
    best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
    return candidates[best]


def master_call(seen: Seen, calls: Sequence[Announce], rng: Rng, budget: Budget) -> Announce | None:
    mine = seen.my_party
    if mine is None or not calls:
        return None
    call = min(calls, key=lambda a: a.call.level)
    setup = Setup.of(seen)
    raised = list(setup.levels)
    raised[mine] = call.call.level
    levels = (raised[0], raised[1])
    gain = 0.0
    samples = max(1, budget.samples // 2)
    for _ in range(samples):
        outcome = Playout(setup, setup.sampler.hands(rng)).run(None)
        gain += score(seen, outcome, levels, seen.me)
        gain -= score(seen, outcome, setup.levels, seen.me)
    return call if gain / samples >= MARGIN else None
