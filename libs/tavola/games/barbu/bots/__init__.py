"""Barbu bots: four levels behind ``tavola.bots.interface.Policy`` (docs/games/barbu-bots.md).

* easy — any legal action (uniform, from the given RNG);
* medium — the hand alone: the contract the hand suits best, doubles the declarer when the
  hand suits the contract, duck under the winning card / win cheaply, shed dangerous cards;
* hard — medium's skeleton with card counting and inferred voids (tracker), expected points
  of every seat for doubles (and the block obligation planned), safest leads, sure winners;
* master — samples ``Budget.samples`` consistent deals of the unseen cards and plays every
  candidate forward (medium rollouts), picking the best mean adjusted score.

Every decision reads only ``Knowledge`` (the seat's view and the events it was shown).
"""

from __future__ import annotations

from collections.abc import Sequence
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
from tavola.games.barbu.actions import BarbuAction, ChooseContract, Double, PlayCard
from tavola.games.barbu.bots import cardplay, decisions
from tavola.games.barbu.bots.master import best_card
from tavola.games.barbu.bots.tracker import to_card
from tavola.rules.errors import Reason
from tavola.rules.interface import Game


class EasyPolicy:
    reads_view = False

    def decide(
        self,
        game: Game[Any, Any],
        knowledge: Knowledge,
        legal: Sequence[Any],
        rng: Rng,
        budget: Budget,
    ) -> Any:
        return legal[int(rng.random() * len(legal))]


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
        if len(legal) == 1:
            return legal[0]
        know = decisions.deal_of(knowledge)
        first = legal[0]
        if isinstance(first, ChooseContract):
            return decisions.contract_heuristic(know, legal)[0]
        if isinstance(first, Double):
            return decisions.doubles_medium(know, legal)
        cards = decisions.cards_of(legal)
        return cards[cardplay.medium(decisions.my_sim(know), sorted(cards))[0]]


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
        if len(legal) == 1:
            return legal[0]
        know = decisions.deal_of(knowledge)
        vmt = decisions.option(knowledge, "void_must_trump")
        first = legal[0]
        if isinstance(first, ChooseContract):
            return decisions.contract_master(know, legal, budget.samples, rng, vmt)
        if isinstance(first, Double):
            view = knowledge.view
            return decisions.doubles_master(
                know, legal, view.doubles_owed[knowledge.seat], view.deal, budget.samples, rng, vmt
            )
        cards = decisions.cards_of(legal)
        return cards[best_card(know, sorted(cards), budget.samples, rng, vmt)]


def hint(
    game: Game[Any, Any], knowledge: Knowledge, legal: Sequence[Any]
) -> tuple[BarbuAction, Reason]:
    """The hard level's choice and why (a ``barbu.hint.*`` reason with parameters)."""
    know = decisions.deal_of(knowledge)
    first = legal[0]
    if isinstance(first, ChooseContract):
        return decisions.contract_heuristic(know, legal)
    if isinstance(first, Double):
        view = knowledge.view
        owed = view.doubles_owed[knowledge.seat]
        action = decisions.doubles_hard(know, legal, owed, view.deal)
        return action, decisions.double_reason(action, know, owed)
    cards = decisions.cards_of(legal)
    card, code = cardplay.hard(decisions.my_sim(know), sorted(cards), know)
    chosen: PlayCard = cards[card]
    return chosen, Reason.of(f"barbu.hint.{code}", card=to_card(card).code)


POLICIES: dict[str, Policy] = {
    "easy": RandomPolicy(),
    "medium": MediumPolicy(),
    "hard": HintPolicy(hint),
    "master": MasterPolicy(),
}

BOTS = GameBots(
    policies=POLICIES,
    hint=hint,
    master_samples=200,  # about 1 s per decision on one core (docs/games/barbu-bots.md)
    policy_version=2,
    # the arena plays one block per match (one declarer's seven contracts)
    arena=ArenaSettings(
        players=4,
        options={"blocks": 1},
        deals={"medium/easy": 12, "hard/medium": 120, "master/hard": 12},
    ),
)
