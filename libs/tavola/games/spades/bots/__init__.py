"""Spades bots: four levels behind ``tavola.bots.interface.Policy`` and the hint.

Every level is a function of ``Knowledge`` (the seat's view and the events it was shown)
and its own RNG; none is ever given a game state, so none can see another seat's cards.

* **easy**: any legal action, uniformly (random bids included);
* **medium**: bids the table's suggested bid, or nil when the hand truly supports it;
  plays "duck when the trick is lost, win cheaply when it is not" (``medium``);
* **hard**: a fractional trick count for the bid; card counting and inferred voids for
  the play, with goals for nil, covering, setting a nil and bags (``hard``);
* **master**: Monte Carlo over ``budget.samples`` consistent deals (``master``).

``hint`` is the hard level's choice with its reason (``spades.hint.<code>``).
See ``docs/games/spades-bots.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tavola.bots.interface import (
    ArenaSettings,
    Budget,
    GameBots,
    HintPolicy,
    Knowledge,
    Policy,
    RandomPolicy,
    Rng,
)
from tavola.games.spades.actions import Bid, Play, SpadesAction
from tavola.games.spades.bots.bids import hard_bid, medium_bid, trick_estimate
from tavola.games.spades.bots.hard import hard_card
from tavola.games.spades.bots.master import master_bid, master_card
from tavola.games.spades.bots.medium import medium_card
from tavola.games.spades.bots.seen import Seen, seen_of
from tavola.rules.cards import Card
from tavola.rules.errors import Reason
from tavola.rules.interface import Game


def _cards(legal: Sequence[SpadesAction]) -> list[Card]:
    return [a.card for a in legal if isinstance(a, Play)]


def _bidding(legal: Sequence[SpadesAction]) -> bool:
    return any(isinstance(a, Bid) for a in legal)


class MediumPolicy:
    reads_view = True

    def decide(
        self,
        game: Game[Any, Any],
        knowledge: Knowledge,
        legal: Sequence[Any],
        rng: Rng,
        budget: Budget,
    ) -> Any:
        seen = seen_of(knowledge)
        if _bidding(legal):
            return Bid(medium_bid(seen.hand, seen.bids[seen.partner]))
        return Play(medium_card(seen, _cards(legal))[0])


class MasterPolicy:
    reads_view = True

    def decide(
        self,
        game: Game[Any, Any],
        knowledge: Knowledge,
        legal: Sequence[Any],
        rng: Rng,
        budget: Budget,
    ) -> Any:
        seen = seen_of(knowledge)
        if _bidding(legal):
            return Bid(master_bid(seen, rng, budget.samples))
        return Play(master_card(seen, _cards(legal), rng, budget.samples))


def _bid_hint(seen: Seen) -> tuple[SpadesAction, Reason]:
    bid = hard_bid(seen.hand, seen.bids[seen.partner])
    if bid == 0:
        return Bid(0), Reason.of("spades.hint.nil")
    worth = round(trick_estimate(seen.hand), 1)
    return Bid(bid), Reason.of("spades.hint.bid", bid=bid, worth=str(worth))


def hint(
    game: Game[Any, Any], knowledge: Knowledge, legal: Sequence[Any]
) -> tuple[SpadesAction, Reason]:
    """The hard level's choice for the seat on turn, with a short reason."""
    seen = seen_of(knowledge)
    if _bidding(legal):
        return _bid_hint(seen)
    chosen, code = hard_card(seen, _cards(legal))
    return Play(chosen), Reason.of(f"spades.hint.{code}", card=chosen.code)


POLICIES: Mapping[str, Policy] = {
    "easy": RandomPolicy(),
    "medium": MediumPolicy(),
    "hard": HintPolicy(hint),
    "master": MasterPolicy(),
}

BOTS = GameBots(
    policies=POLICIES,
    hint=hint,
    master_samples=450,  # about 1 s per decision on one core (docs/games/spades-bots.md)
    policy_version=2,
    # the arena plays matches of two hands
    arena=ArenaSettings(players=4, options={"hands": 2}, deals=30),
)
