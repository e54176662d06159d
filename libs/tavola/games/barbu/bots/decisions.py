"""Contract choice and doubles for every level, and the glue from a seat's knowledge to the
card heuristics (actions <-> int cards)."""

from __future__ import annotations

from collections.abc import Sequence
from statistics import fmean

from tavola.bots.interface import Knowledge, Rng
from tavola.games.barbu.actions import ChooseContract, Double, PlayCard
from tavola.games.barbu.bots import estimate as est
from tavola.games.barbu.bots.master import contract_outcomes
from tavola.games.barbu.bots.sim import SEATS, Sim
from tavola.games.barbu.bots.tracker import DealKnowledge, read
from tavola.games.barbu.contracts import Contract
from tavola.games.barbu.state import DEALS_PER_BLOCK
from tavola.rules.cards import Rank, Suit
from tavola.rules.errors import Reason

SIM_BASELINE = est.BASELINE
DECLARER_EDGE = 3.0  # a declarer chose the contract: expect them a little above average
DOUBLE_MARGIN = 3.0


def option(knowledge: Knowledge, name: str) -> bool:
    return dict(knowledge.options).get(name, "False").lower() in ("true", "1", "yes", "on")


def deal_of(knowledge: Knowledge) -> DealKnowledge:
    return read(knowledge, option(knowledge, "void_must_trump"))


def my_sim(know: DealKnowledge) -> Sim:
    """The trick (or rows) and the seat's own hand; other hands are left empty."""
    assert know.contract is not None
    hands: list[list[int]] = [[] for _ in range(SEATS)]
    hands[know.seat] = list(know.hand)
    return Sim(
        know.contract,
        know.trump,
        know.start_rank,
        hands,
        know.seat,
        trick=list(know.trick),
        tricks_played=know.tricks_played,
        rows=list(know.rows),
    )


def cards_of(legal: Sequence[object]) -> dict[int, PlayCard]:
    return {a.card.index: a for a in legal if isinstance(a, PlayCard)}


# ----- contract ---------------------------------------------------------------------------
def _action(legal: Sequence[object], contract: Contract, param: int | None) -> ChooseContract:
    for action in legal:
        if isinstance(action, ChooseContract) and action.contract == contract:
            trump = int(action.trump) if action.trump is not None else None
            rank = int(action.start_rank) - 2 if action.start_rank is not None else None
            if param is None or param in (trump, rank):
                return action
    raise ValueError("no such contract action")


def _contracts(legal: Sequence[object]) -> list[Contract]:
    return sorted({a.contract for a in legal if isinstance(a, ChooseContract)})


def contract_heuristic(
    know: DealKnowledge, legal: Sequence[object]
) -> tuple[ChooseContract, Reason]:
    """The contract the hand suits best relative to an average hand."""
    best = max(_contracts(legal), key=lambda c: est.suitability(c, know.hand))
    action = _action(legal, best, est.best_parameter(best, know.hand))
    return action, Reason.of("barbu.hint.contract", contract=_code(action))


def _code(action: ChooseContract) -> str:
    code = action.contract.code
    if action.trump is not None:
        code += " " + Suit(action.trump).letter
    if action.start_rank is not None:
        code += " " + Rank(action.start_rank).letter
    return code


def contract_master(
    know: DealKnowledge, legal: Sequence[object], samples: int, rng: Rng, vmt: bool
) -> ChooseContract:
    candidates: list[tuple[Contract, int | None]] = []
    for contract in _contracts(legal):
        if contract == Contract.TRUMPS:
            suits = sorted(range(4), key=lambda s: -est.estimate(contract, know.hand, s))[:2]
            candidates += [(contract, s) for s in suits]
        elif contract == Contract.DOMINO:
            ranks = sorted(range(13), key=lambda r: -est.estimate(contract, know.hand, r))[:3]
            candidates += [(contract, r) for r in ranks]
        else:
            candidates.append((contract, None))
    if len(candidates) == 1:
        return _action(legal, *candidates[0])
    outcomes = contract_outcomes(know, candidates, max(4, samples // 4), rng, vmt)
    values = [
        fmean(p[know.seat] for p in out) - SIM_BASELINE[c]
        for (c, _), out in zip(candidates, outcomes, strict=True)
    ]
    pick = max(range(len(candidates)), key=lambda i: values[i])
    return _action(legal, *candidates[pick])


# ----- doubles ------------------------------------------------------------------------------
def _param(know: DealKnowledge) -> int | None:
    return know.trump if know.contract == Contract.TRUMPS else know.start_rank


def _legal_double(legal: Sequence[object], targets: set[int], declarer: int) -> Double:
    choices = [a for a in legal if isinstance(a, Double)]
    wanted = tuple(sorted(targets))
    for action in choices:
        if action.targets == wanted:
            return action
    with_declarer = tuple(sorted(targets | {declarer}))
    for action in choices:
        if action.targets == with_declarer:
            return action
    return choices[0]


def double_reason(action: Double, know: DealKnowledge, owed: int) -> Reason:
    if not action.targets:
        return Reason.of("barbu.hint.pass")
    seats = ",".join(map(str, action.targets))
    if know.declarer in action.targets and owed > 0 and know.seat != know.declarer:
        return Reason.of("barbu.hint.double_owed", seats=seats, owed=owed)
    return Reason.of("barbu.hint.double", seats=seats)


def turns_left(deal: int) -> int:
    """Doubling turns left in the block, this one included."""
    return DEALS_PER_BLOCK - (deal - 1) % DEALS_PER_BLOCK


def owed_slack(owed: int, left: int) -> float:
    """How much worse than even a double of the declarer may look when doubles are owed."""
    if owed <= 0:
        return 0.0
    return 4.0 * owed / max(1, left - owed)


def _allowed(know: DealKnowledge, legal: Sequence[object]) -> set[int]:
    return {t for a in legal if isinstance(a, Double) for t in a.targets}


def doubles_medium(know: DealKnowledge, legal: Sequence[object]) -> Double:
    """Double (or redouble) the declarer when the hand suits the contract."""
    assert know.contract is not None
    mine = est.estimate(know.contract, know.hand, _param(know)) - est.BASELINE[know.contract]
    allowed = _allowed(know, legal)
    if know.seat == know.declarer:
        return _legal_double(legal, allowed if mine >= DOUBLE_MARGIN else set(), know.declarer)
    good = mine >= DOUBLE_MARGIN and know.declarer in allowed
    return _legal_double(legal, {know.declarer} if good else set(), know.declarer)


def doubles_hard(know: DealKnowledge, legal: Sequence[object], owed: int, deal: int) -> Double:
    """Expected raw points of each seat from the hand alone (the declarer and anyone who
    doubled are assumed to like the contract); double every seat expected to score less,
    accepting a worse bet on the declarer while doubles are still owed."""
    assert know.contract is not None
    mine = est.estimate(know.contract, know.hand, _param(know))
    expect = _expected_others(know, mine)
    slack = owed_slack(owed, turns_left(deal))
    targets = set()
    for target in _allowed(know, legal):
        margin = DOUBLE_MARGIN - (slack if target == know.declarer else 0.0)
        if mine - expect[target] > margin:
            targets.add(target)
    return _legal_double(legal, targets, know.declarer)


def _expected_others(know: DealKnowledge, mine: float) -> list[float]:
    assert know.contract is not None
    total = float(know.contract.raw_total)
    doublers = {a for a, b in know.doubles if b == know.seat}
    edge = [0.0] * SEATS
    edge[know.declarer] = DECLARER_EDGE
    for seat in doublers:
        edge[seat] += DECLARER_EDGE
    others = [s for s in range(SEATS) if s != know.seat]
    spread = (total - mine - sum(edge[s] for s in others)) / len(others)
    return [mine if s == know.seat else spread + edge[s] for s in range(SEATS)]


def doubles_master(
    know: DealKnowledge,
    legal: Sequence[object],
    owed: int,
    deal: int,
    samples: int,
    rng: Rng,
    vmt: bool,
) -> Double:
    """Sampled deals played out: double each seat whose mean raw points fall short of mine."""
    assert know.contract is not None
    allowed = _allowed(know, legal)
    if not allowed:
        return _legal_double(legal, set(), know.declarer)
    outcomes = contract_outcomes(
        know, [(know.contract, _param(know))], max(4, samples // 2), rng, vmt
    )[0]
    slack = owed_slack(owed, turns_left(deal))
    targets = set()
    for target in allowed:
        diff = fmean(p[know.seat] - p[target] for p in outcomes)
        margin = 1.0 - (slack if target == know.declarer else 0.0)
        if diff > margin:
            targets.add(target)
    return _legal_double(legal, targets, know.declarer)
