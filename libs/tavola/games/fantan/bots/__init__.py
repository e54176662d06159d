"""Fan Tan bots: four honest levels behind ``tavola.bots.interface.Policy``, and the hint.

Every level decides from the seat's ``Knowledge`` (its view and the events it was shown) and
the RNG it is given — never from a game state. The only kind of action a Fan Tan seat takes
is playing a card (passes are automatic), so every level chooses among the legal cards.

- easy: any legal card, uniformly;
- medium: "play toward your own cards" (``heuristics.medium_key``);
- hard: a linear score of what a player can count — reach, the runs only it can play, the
  ends it holds, what each card hands to opponents and to seats its passes prove stuck
  (``heuristics.assess``, weights fitted against the master's evaluations);
- master: hundreds of consistent deals of the unseen cards played forward
  (``master.outcomes``), ``Budget.samples`` deals per decision; it overrules hard's card
  only when the samples show clearly that another is better (``master.choose``).

See ``docs/games/fan-tan-bots.md``.
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
from tavola.games.fantan.actions import Play
from tavola.games.fantan.bots.heuristics import Assessment, assess, medium_key
from tavola.games.fantan.bots.master import choose
from tavola.games.fantan.bots.model import Seen, bit_of, card_of, mask_of, read
from tavola.rules.errors import Reason
from tavola.rules.interface import Game

__all__ = ["BOTS", "POLICIES", "hint"]


def _plays(legal: Sequence[Any]) -> list[Play]:
    return [a for a in legal if isinstance(a, Play)]


class MediumPolicy:
    """The card with most of your own cards beyond it; keep sevens; farthest from the seven."""

    reads_view = True

    def decide(
        self,
        game: Game[Any, Any],
        knowledge: Knowledge,
        legal: Sequence[Any],
        rng: Rng,
        budget: Budget,
    ) -> Any:
        plays = _plays(legal)
        if len(plays) <= 1:
            return plays[0] if plays else legal[0]
        hand = mask_of(knowledge.view.hand)
        keys = [medium_key(hand, bit_of(p.card)) for p in plays]
        best = max(keys)
        tied = [p for p, k in zip(plays, keys, strict=True) if k == best]
        return tied[rng.randrange(len(tied))]


class MasterPolicy:
    """Sampled consistent deals played forward; the lowest mean penalty gap to the table."""

    reads_view = True

    def decide(
        self,
        game: Game[Any, Any],
        knowledge: Knowledge,
        legal: Sequence[Any],
        rng: Rng,
        budget: Budget,
    ) -> Any:
        plays = _plays(legal)
        if len(plays) <= 1:
            return plays[0] if plays else legal[0]
        seen = read(knowledge)
        cards = [bit_of(p.card) for p in plays]
        return plays[choose(seen, cards, _hard_choice(seen, cards), budget.samples, rng)]


def hint(game: Game[Any, Any], knowledge: Knowledge, legal: Sequence[Any]) -> tuple[Any, Reason]:
    """The hard level's choice for the seat on turn, with a short reason (message code)."""
    plays = _plays(legal)
    if len(plays) == 1:
        return plays[0], Reason.of("fantan.hint.only_card", card=plays[0].card.code)
    seen = read(knowledge)
    assessed = assess(seen, [bit_of(p.card) for p in plays])
    best = _best(assessed)
    return plays[best], _reason(assessed[best], assessed)


def _best(assessed: Sequence[Assessment]) -> int:
    """Hard's choice: the highest score (ties: the earlier legal card)."""
    return max(range(len(assessed)), key=lambda i: (assessed[i].score, -i))


def _hard_choice(seen: Seen, cards: Sequence[int]) -> int:
    return _best(assess(seen, cards))


def _reason(chosen: Assessment, others: Sequence[Assessment]) -> Reason:
    card = card_of(chosen.card).code
    kept_run = max(
        (a for a in others if a.run > chosen.run), key=lambda a: (a.run, -a.card), default=None
    )
    if kept_run is not None:
        return Reason.of("fantan.hint.keep_run", card=card, kept=card_of(kept_run.card).code)
    if chosen.reach > chosen.run:
        return Reason.of("fantan.hint.far_cards", card=card, count=chosen.reach - chosen.run)
    if chosen.own_next >= 0:
        return Reason.of("fantan.hint.own_run", card=card, next=card_of(chosen.own_next).code)
    kept = max(others, key=lambda a: (a.block, -a.card))
    if kept.block >= chosen.block + 1.0:
        return Reason.of("fantan.hint.keep_block", card=card, kept=card_of(kept.card).code)
    if chosen.uncovers == 0:
        return Reason.of("fantan.hint.nobody_waiting", card=card)
    return Reason.of("fantan.hint.least_gift", card=card)


POLICIES: Mapping[str, Policy] = {
    "easy": RandomPolicy(),
    "medium": MediumPolicy(),
    "hard": HintPolicy(hint),
    "master": MasterPolicy(),
}

BOTS = GameBots(
    policies=POLICIES,
    hint=hint,
    master_samples=3000,  # about 1 s per real choice on one core (docs/games/fan-tan-bots.md)
    policy_version=3,  # 3: master overrules hard only on clear evidence
    # The "longer game" table: every card left costs its value, so which cards are left
    # matters, not only how many; the margins are larger than on the 1-per-card table
    # (fewer deals for the same certainty). docs/games/fan-tan-bots.md has both tables.
    arena=ArenaSettings(
        players=4,
        options={"hands": 1, "penalty": "card_value"},
        deals={"medium/easy": 300, "hard/medium": 6000, "master/hard": 1000},
        master_samples=200,
    ),
)
