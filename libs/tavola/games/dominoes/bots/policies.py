"""The four levels behind the bot interface, and the hint (the hard level's choice and why).

Every level is a function of the seat's :class:`~tavola.bots.interface.Knowledge` and the
RNG it is given; none ever receives a game state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tavola.bots.interface import Budget, Knowledge, Rng
from tavola.games.dominoes.actions import Play
from tavola.games.dominoes.bots.heuristics import hard_choice, medium_choice, numbers_text
from tavola.games.dominoes.bots.inference import INDEX, PIPS, infer
from tavola.games.dominoes.bots.sim import (
    Dealer,
    Ends,
    Move,
    after,
    playout_value,
)
from tavola.games.dominoes.line import resolve_end
from tavola.rules.errors import Reason
from tavola.rules.interface import Game


def to_move(action: Play, ends: Ends | None) -> Move:
    if ends is None:
        return (INDEX[action.tile], 1)
    return (INDEX[action.tile], int(resolve_end(action.tile, ends, action.end)))


def _moves(knowledge: Knowledge, legal: Sequence[Any]) -> tuple[list[Play], list[Move]]:
    view = knowledge.view
    ends = None if view.left_end is None else (view.left_end, view.right_end)
    plays = [a for a in legal if isinstance(a, Play)]
    return plays, [to_move(a, ends) for a in plays]


class MediumPolicy:
    """The heaviest playable tile (see :func:`.heuristics.medium_choice`)."""

    reads_view = True

    def decide(
        self,
        game: Game[Any, Any],
        knowledge: Knowledge,
        legal: Sequence[Any],
        rng: Rng,
        budget: Budget,
    ) -> Any:
        plays, moves = _moves(knowledge, legal)
        if len(plays) <= 1:
            return legal[0]
        view = knowledge.view
        ends = None if view.left_end is None else (view.left_end, view.right_end)
        hand = [INDEX[t] for t in view.hand]
        return plays[moves.index(medium_choice(hand, ends, moves))]


class MasterPolicy:
    """Sampled deals consistent with the hard level's knowledge, each candidate played out
    on every deal (the same deals for every candidate), best mean points."""

    reads_view = True

    def decide(
        self,
        game: Game[Any, Any],
        knowledge: Knowledge,
        legal: Sequence[Any],
        rng: Rng,
        budget: Budget,
    ) -> Any:
        plays, moves = _moves(knowledge, legal)
        if len(plays) <= 1:
            return legal[0]
        info = infer(knowledge)
        dealer = Dealer(info)
        options, ends, seat = info.options, info.ends, info.seat
        totals = [0.0] * len(moves)
        for _ in range(max(1, budget.samples)):
            deal = dealer.deal(rng)
            for i, move in enumerate(moves):
                totals[i] += playout_value(deal, options, ends, seat, move)
        best = max(range(len(moves)), key=lambda i: (totals[i], -i))
        return plays[best]


def hint(game: Game[Any, Any], knowledge: Knowledge, legal: Sequence[Any]) -> tuple[Any, Reason]:
    """The hard level's move and a short reason (``dominoes.hint.*``)."""
    plays, moves = _moves(knowledge, legal)
    if len(plays) == 1:
        return plays[0], Reason.of("dominoes.hint.only_move", tile=game.encode_action(plays[0]))
    info = infer(knowledge)
    choice = hard_choice(info, moves)
    action = plays[moves.index(choice.move)]
    code = game.encode_action(action)
    new = after(info.ends, choice.move)
    tile = choice.move[0]
    if choice.goes_out:
        return action, Reason.of("dominoes.hint.domino", tile=code)
    if choice.blocks:
        return action, Reason.of("dominoes.hint.block", tile=code)
    if choice.next_chance == 0.0 and info.ends is not None:
        return action, Reason.of(
            "dominoes.hint.opponent_lacks", tile=code, numbers=numbers_text(new)
        )
    if PIPS[tile] >= max(PIPS[m[0]] for m in moves) and PIPS[tile] >= 8:
        return action, Reason.of("dominoes.hint.heavy", tile=code, pips=PIPS[tile])
    if choice.follow:
        return action, Reason.of("dominoes.hint.keep_control", tile=code, numbers=numbers_text(new))
    return action, Reason.of(
        "dominoes.hint.count",
        tile=code,
        numbers=numbers_text(new),
        chance=round(100 * choice.next_chance),
    )
