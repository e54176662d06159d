"""Hand estimates for contract choice and doubles (medium and hard): the expected raw points
of a 13-card hand in each contract, from simple counts (high cards, low cards, length).

``estimate`` is calibrated on the simulator; ``BASELINE`` is what a declarer with a random
hand scores on average, so ``estimate - BASELINE`` says how well a hand *suits* a contract.
"""

from __future__ import annotations

from collections.abc import Sequence

from tavola.games.barbu.contracts import Contract

# Calibration against the simulator (1500 random deals, medium play by all four seats, the
# seat as declarer): the raw estimate's mean, the regression slope of the real points on it,
# and the declarer's real mean points (``BASELINE``).
RAW_MEAN: dict[Contract, float] = {
    Contract.NO_TRICKS: -6.55,
    Contract.NO_QUEENS: -5.02,
    Contract.NO_LAST_TWO: -7.54,
    Contract.NO_HEARTS: -7.62,
    Contract.NO_KING: -5.14,
    Contract.TRUMPS: 25.17,
    Contract.DOMINO: 20.84,
}
SLOPE: dict[Contract, float] = {
    Contract.NO_TRICKS: 0.8,
    Contract.NO_QUEENS: 1.08,
    Contract.NO_LAST_TWO: 1.2,
    Contract.NO_HEARTS: 0.7,
    Contract.NO_KING: 0.61,
    Contract.TRUMPS: 1.21,
    Contract.DOMINO: 1.11,
}
BASELINE: dict[Contract, float] = {
    Contract.NO_TRICKS: -6.64,
    Contract.NO_QUEENS: -6.14,
    Contract.NO_LAST_TWO: -7.35,
    Contract.NO_HEARTS: -7.84,
    Contract.NO_KING: -5.39,
    Contract.TRUMPS: 21.94,
    Contract.DOMINO: 16.85,
}
MEAN_DANGER = 2.02  # _danger of a random hand


def _suits(hand: Sequence[int]) -> list[list[int]]:
    suits: list[list[int]] = [[], [], [], []]
    for card in sorted(hand):
        suits[card // 13].append(card % 13)
    return suits


def danger(hand: Sequence[int], only: int | None = None) -> float:
    """Expected tricks the hand is forced to win in a no-trump deal (high cards not covered
    by low cards of the same suit)."""
    total = 0.0
    for suit, ranks in enumerate(_suits(hand)):
        if only is not None and suit != only:
            continue
        high = sum(max(0.0, (r - 6) / 6) for r in ranks)
        low = sum(1 for r in ranks if r <= 4)
        total += max(0.0, high - 0.45 * low) + (0.3 if len(ranks) <= 1 and high else 0.0)
    return total


def estimate(contract: Contract, hand: Sequence[int], param: int | None = None) -> float:
    """Expected raw points of ``hand`` in ``contract`` (calibrated)."""
    raw = raw_estimate(contract, hand, param)
    return BASELINE[contract] + SLOPE[contract] * (raw - RAW_MEAN[contract])


def raw_estimate(contract: Contract, hand: Sequence[int], param: int | None = None) -> float:
    suits = _suits(hand)
    ratio = danger(hand) / MEAN_DANGER
    if contract == Contract.NO_TRICKS:
        return -6.5 * ratio
    if contract == Contract.NO_LAST_TWO:
        return -7.5 * (0.4 + 0.6 * ratio)
    if contract == Contract.NO_QUEENS:
        risk = sum(max(0.15, 0.85 - 0.2 * sum(1 for r in s if r < 10)) for s in suits if 10 in s)
        risk += sum(0.25 for s in suits if 10 not in s for r in s if r > 10 and len(s) <= 3)
        return -6.0 * (0.4 * risk + 0.6 * ratio)
    if contract == Contract.NO_HEARTS:
        hearts = suits[2]
        ace = 6.0 * (0.7 if 12 in hearts and len(hearts) <= 3 else 0.3)
        return -(ace + 3.0 * danger(hand, 2) + 4.0 * ratio)
    if contract == Contract.NO_KING:
        hearts = suits[2]
        lower = sum(1 for r in hearts if r < 11)
        risk = 0.25 * ratio + (0.1 if 11 in hearts and lower >= 4 else 0.0)
        return -20.0 * risk
    if contract == Contract.TRUMPS:
        return 5.0 * trump_tricks(suits, 3 if param is None else param)
    return domino_value(suits, 6 if param is None else param)


def trump_tricks(suits: list[list[int]], trump: int) -> float:
    trumps = suits[trump]
    tricks = 0.75 * len(trumps) + sum(0.35 for r in trumps if r >= 10)
    for suit, ranks in enumerate(suits):
        if suit != trump:
            tricks += sum({12: 0.85, 11: 0.4}.get(r, 0.0) for r in ranks)
            tricks += 0.3 * max(0, 2 - len(ranks)) * (len(trumps) >= 4)
    return tricks


def domino_value(suits: list[list[int]], start: int) -> float:
    """More cards near the starting rank (and of it) go out sooner."""
    distance = sum(abs(r - start) for ranks in suits for r in ranks)
    opens = sum(1 for ranks in suits if start in ranks)
    return 16.25 + 4.0 * (opens - 1) - 0.9 * (distance - 40)


def best_parameter(contract: Contract, hand: Sequence[int]) -> int | None:
    if contract == Contract.TRUMPS:
        return max(range(4), key=lambda s: (estimate(contract, hand, s), -s))
    if contract == Contract.DOMINO:
        return max(range(13), key=lambda r: (estimate(contract, hand, r), -abs(r - 6)))
    return None


def suitability(contract: Contract, hand: Sequence[int]) -> float:
    return estimate(contract, hand, best_parameter(contract, hand)) - BASELINE[contract]
