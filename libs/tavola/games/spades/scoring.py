"""The score of a hand for one partnership, line by line, and the end of the match.

Table (rule book): contract made: +10 per trick bid, +1 per bag; contract set: -10 per
trick bid; nil made: +100; nil failed: -100 and the nil player's tricks become bags; every
10 accumulated bags: -100 and those 10 bags are struck. A nil bid adds 0 to the contract;
a nil bidder's tricks never count towards the partner's contract. Failed-nil tricks always
add to the bag count but score +1 only when the contract is made. Both partners nil: the
contract is 0 (always made) and every trick either takes is a bag.
"""

from __future__ import annotations

from tavola.games.spades.events import NilResult, TeamSettlement

WIN_SCORE = 500
LOSS_SCORE = -200
NIL_POINTS = 100
BAG_LIMIT = 10
BAG_PENALTY = 100
TEAM_SEATS = ((0, 2), (1, 3))


def team_of(seat: int) -> int:
    return seat % 2


def contract_of(bids: tuple[int, int]) -> int:
    """A partnership's contract: the sum of its bids (nil adds 0)."""
    return bids[0] + bids[1]


def settle_team(
    team: int,
    bids: tuple[int, int],
    tricks: tuple[int, int],
    score_before: int,
    bags_before: int,
) -> TeamSettlement:
    """Score one partnership's hand. ``bids``/``tricks`` are in seat order of the team."""
    (first, second), (bid, partner_bid), (taken, partner_taken) = TEAM_SEATS[team], bids, tricks
    contract = bid + partner_bid
    contract_tricks = (taken if bid > 0 else 0) + (partner_taken if partner_bid > 0 else 0)
    made = contract_tricks >= contract
    contract_points = 10 * contract if made else -10 * contract
    overtricks = contract_tricks - contract if made else 0
    nils: tuple[NilResult, ...] = ()
    if bid == 0:
        nils = (_nil(first, taken),)
    if partner_bid == 0:
        nils += (_nil(second, partner_taken),)
    nil_bags = sum(n.tricks for n in nils) if nils else 0
    bags_won = overtricks + nil_bags
    bag_points = bags_won if made else 0
    nil_points = sum(n.points for n in nils) if nils else 0
    penalties, bags_after = divmod(bags_before + bags_won, BAG_LIMIT)
    bag_penalty = -BAG_PENALTY * penalties
    change = contract_points + bag_points + nil_points + bag_penalty
    return TeamSettlement(  # (in field order: keywords would build a dict for every call)
        team,
        bids,
        contract,
        contract_tricks,
        made,
        contract_points,
        overtricks,
        nil_bags,
        bags_won,
        bag_points,
        nils,
        nil_points,
        bags_before,
        bag_penalty,
        BAG_LIMIT * penalties,  # bags_struck
        bags_after,
        change,
        score_before,
        score_before + change,  # score_after
    )


def _nil(seat: int, tricks: int) -> NilResult:
    """A nil bid's settlement: made with no trick, failed with any."""
    return NilResult(seat, tricks, tricks == 0, NIL_POINTS if tricks == 0 else -NIL_POINTS)


def settle_hand(
    bids: tuple[int, ...],
    tricks: tuple[int, ...],
    scores: tuple[int, int],
    bags: tuple[int, int],
) -> tuple[TeamSettlement, TeamSettlement]:
    """Both partnerships' settlements from per-seat bids and tricks."""
    return (
        settle_team(0, (bids[0], bids[2]), (tricks[0], tricks[2]), scores[0], bags[0]),
        settle_team(1, (bids[1], bids[3]), (tricks[1], tricks[3]), scores[1], bags[1]),
    )


def threshold_reached(
    scores: tuple[int, int], target: int = WIN_SCORE, floor: int = LOSS_SCORE
) -> bool:
    first, second = scores
    return first >= target or first <= floor or second >= target or second <= floor


def match_outcome(
    scores: tuple[int, int],
    deciding: bool,
    *,
    target: int = WIN_SCORE,
    floor: int = LOSS_SCORE,
    hands_played: int = 0,
    hands: int = 0,
) -> str:
    """After a hand: ``"continue"``, ``"extra"`` (tied at the end: one more hand) or
    ``"ended"``. Once an extra hand has been called (``deciding``), the first hand that
    leaves the scores unequal ends the match, whatever the thresholds say then. Table
    options may move the thresholds or fix a number of hands (``hands``)."""
    planned_end = bool(hands) and hands_played >= hands
    if not (deciding or planned_end or threshold_reached(scores, target, floor)):
        return "continue"
    return "extra" if scores[0] == scores[1] else "ended"
