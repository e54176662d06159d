"""Doubles: who may double whom, the block obligation, and the pairwise settlement."""

from __future__ import annotations

from itertools import combinations

from tavola.games.barbu.events import PairSettlement
from tavola.games.barbu.state import DEALS_PER_BLOCK, SEATS, BarbuState
from tavola.rules.errors import Reason


def doubling_order(declarer: int) -> tuple[int, ...]:
    """One turn each, from the declarer's left to the declarer."""
    return tuple((declarer + step) % SEATS for step in (1, 2, 3, 4))


def allowed_targets(state: BarbuState, seat: int) -> tuple[int, ...]:
    """Seats ``seat`` may double now, ignoring the obligation."""
    if seat == state.declarer:
        return tuple(sorted({a for a, b in state.doubles if b == seat}))
    if state.contract is not None and state.contract.positive:
        return (state.declarer,)
    return tuple(s for s in range(SEATS) if s != seat)


def legal_doubles(state: BarbuState, seat: int) -> tuple[tuple[int, ...], ...]:
    """Every legal set of seats to double (``()`` = pass), smallest sets first."""
    allowed = allowed_targets(state, seat)
    forced = state.must_double_declarer(seat)
    choices = []
    for size in range(len(allowed) + 1):
        for targets in combinations(allowed, size):
            if not forced or state.declarer in targets:
                choices.append(targets)
    return tuple(choices)


def why_double_illegal(state: BarbuState, seat: int, targets: tuple[int, ...]) -> Reason | None:
    allowed = allowed_targets(state, seat)
    for target in targets:
        if target == seat:
            return Reason.of("barbu.cannot_double_self")
        if target in allowed:
            continue
        if seat == state.declarer:
            return Reason.of("barbu.redouble_only", seat=target)
        return Reason.of("barbu.positive_double_declarer_only", seat=target)
    if state.must_double_declarer(seat) and state.declarer not in targets:
        return Reason.of(
            "barbu.must_double_declarer",
            declarer=state.declarer,
            owed=state.owed(seat),
            deals_left=DEALS_PER_BLOCK - state.block_position,
        )
    return None


def settle(
    raw: tuple[int, ...], doubles: tuple[tuple[int, int], ...]
) -> tuple[tuple[PairSettlement, ...], tuple[int, ...]]:
    """Every pair's transfer (from raw scores only) and each seat's net transfer."""
    made = set(doubles)
    pairs = []
    net = [0] * len(raw)
    for low, high in combinations(range(len(raw)), 2):
        count = ((low, high) in made) + ((high, low) in made)
        amount = count * abs(raw[low] - raw[high])
        if amount == 0:
            pairs.append(PairSettlement(low, high, count, None, None, 0))
            continue
        payer, payee = (low, high) if raw[low] < raw[high] else (high, low)
        net[payer] -= amount
        net[payee] += amount
        pairs.append(PairSettlement(low, high, count, payer, payee, amount))
    return tuple(pairs), tuple(net)
