"""Doppelkopf bots: easy, medium, hard and master behind ``tavola.bots.interface``.

Each level is a function of the seat's knowledge (its view and the events it was shown)
and its own RNG; none receives a game state, so none can see another seat's cards.
``docs/games/doppelkopf-bots.md`` describes the strategies; ``hint`` is the hard level's
choice with its reason (codes ``doppelkopf.hint.*`` in the messages catalogue).

Modules: ``infer`` (what the seat knows: played cards, voids, parties), ``tactics`` (card
play), ``bidding`` (reservations, Armut, announcements), ``sample`` (consistent deals of
the unseen cards), ``rollout`` (fast play-outs) and ``master``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tavola.bots.interface import ArenaSettings, Budget, GameBots, Knowledge, Policy, Rng
from tavola.games.doppelkopf.actions import Announce, AnswerPoverty, Declare, GiveBack, Play
from tavola.games.doppelkopf.announcements import CALL_CODES
from tavola.games.doppelkopf.bots import bidding, tactics
from tavola.games.doppelkopf.bots.infer import Seen, read
from tavola.games.doppelkopf.bots.master import master_call, master_card
from tavola.rules.errors import Reason
from tavola.rules.interface import Deferral, Game

OPTIONAL_DECLINE = 0.9  # easy mostly lets an optional announcement pass


def moving(legal: Sequence[Any]) -> Sequence[Any]:
    """The legal actions without ``wait``: a bot lets optional announcements pass by
    returning None (so every level decides exactly as before ``wait`` existed)."""
    return [a for a in legal if not isinstance(a, Deferral)]


class EasyPolicy:
    """Any legal action, uniformly."""

    reads_view = False

    def decide(
        self,
        game: Game[Any, Any],
        knowledge: Knowledge,
        legal: Sequence[Any],
        rng: Rng,
        budget: Budget,
    ) -> Any:
        legal = moving(legal)
        if (
            not any(isinstance(a, Play) for a in legal)
            and all(isinstance(a, Announce) for a in legal)
            and rng.random() < OPTIONAL_DECLINE
        ):
            return None  # an optional announcement while another seat is on turn
        return legal[rng.randrange(len(legal))]


class RulePolicy:
    """Medium (``hard=False``) or hard: rules of thumb, the hard ones with card counting,
    voids and party inference."""

    reads_view = True

    def __init__(self, hard: bool) -> None:
        self.hard = hard

    def decide(
        self,
        game: Game[Any, Any],
        knowledge: Knowledge,
        legal: Sequence[Any],
        rng: Rng,
        budget: Budget,
    ) -> Any:
        return choose(knowledge, legal, self.hard)[0]


class MasterPolicy:
    """Sampling of consistent deals for cards and announcements; the hard level for the
    rest."""

    reads_view = True

    def decide(
        self,
        game: Game[Any, Any],
        knowledge: Knowledge,
        legal: Sequence[Any],
        rng: Rng,
        budget: Budget,
    ) -> Any:
        legal = moving(legal)
        plays = [a.card for a in legal if isinstance(a, Play)]
        calls = [a for a in legal if isinstance(a, Announce)]
        if not plays and len(calls) == len(legal):
            return master_call(read(knowledge), calls, rng, budget)  # None: not now
        if not plays:
            return choose(knowledge, legal, hard=True)[0]
        seen = read(knowledge)
        call = master_call(seen, calls, rng, budget) if calls else None
        if call is not None:
            return call
        if len(set(plays)) == 1:
            return Play(plays[0])
        return Play(master_card(seen, plays, rng, budget))


def choose(knowledge: Knowledge, legal: Sequence[Any], hard: bool) -> tuple[Any, Reason]:
    """The medium or hard choice among ``legal`` with its reason."""
    legal = moving(legal)
    first = legal[0]
    hand = knowledge.view.hand
    if isinstance(first, Declare):
        choice, why = bidding.reservation(hand, [a.reservation for a in legal], hard)
        return Declare(choice), why
    if isinstance(first, AnswerPoverty):
        accept, why = bidding.accept_poverty(hand, hard)
        return AnswerPoverty(accept), why
    seen = read(knowledge)
    if isinstance(first, GiveBack):
        card, why = bidding.give_back(seen, [a.card for a in legal])
        return GiveBack(card), why
    return _play(seen, legal, hard)


def _play(seen: Seen, legal: Sequence[Any], hard: bool) -> tuple[Any, Reason]:
    plays = [a.card for a in legal if isinstance(a, Play)]
    calls = [a for a in legal if isinstance(a, Announce)]
    if not plays:  # announcements are optional while another seat is on turn
        call = (bidding.hard_call if hard else bidding.medium_call)(seen, calls)
        if call is None:
            return None, Reason.of("doppelkopf.hint.wait")
        return call, Reason.of("doppelkopf.hint.announce", call=_code(call))
    call = (bidding.hard_call if hard else bidding.medium_call)(seen, calls) if calls else None
    if call is not None:
        return call, Reason.of("doppelkopf.hint.announce", call=_code(call))
    card, why = (tactics.hard_card if hard else tactics.medium_card)(seen, plays)
    return Play(card), why


def _code(call: Announce) -> str:
    return CALL_CODES[call.call]


def hint(game: Game[Any, Any], knowledge: Knowledge, legal: Sequence[Any]) -> tuple[Any, Reason]:
    """The hard level's choice with a short reason (a ``doppelkopf.hint.*`` code)."""
    return choose(knowledge, legal, hard=True)


POLICIES: dict[str, Policy] = {
    "easy": EasyPolicy(),
    "medium": RulePolicy(hard=False),
    "hard": RulePolicy(hard=True),
    "master": MasterPolicy(),
}

BOTS = GameBots(
    policies=POLICIES,
    hint=hint,
    master_samples=600,  # about 1 s per decision on one core (docs/games/doppelkopf-bots.md)
    policy_version=2,
    arena=ArenaSettings(
        players=4,
        options={"preset": "official", "match": "one_game"},
        deals={"medium/easy": 150, "hard/medium": 2000, "master/hard": 150},
    ),
)
