"""The master level: perfect-information Monte Carlo over consistent deals.

For each of ``budget.samples`` deals of the unseen cards (``deal.Dealer``: counts, voids
and the bids' fit, as the hard level infers them) every candidate action is played
forward to the end of the hand with the rollout policy (``sim``), and the action with the
best average margin (its side's hand score less the other side's, bags priced) is chosen.
The same deals serve every candidate, so their comparison is not blurred by the deal.

* Card play: the candidates are the legal cards (a single legal card is played at once);
  the hard level's card stands unless another beats it by more than
  ``MARGIN_TO_OVERRULE`` points on average.
* Bidding: the candidates are the hard bid's trick estimate −1, itself, +1, and nil when
  the hand has no A♠/K♠/Q♠, at most four spades and is worth at most 2½ tricks (and the
  partner did not bid nil). Seats still to bid are given the hard level's bid for their
  sampled cards; the whole hand is then played out from the first lead.
"""

from __future__ import annotations

from collections.abc import Sequence

from tavola.bots.interface import Rng
from tavola.games.spades.bots.bids import hard_bid, hard_bid_of, trick_estimate
from tavola.games.spades.bots.deal import Deal, Dealer
from tavola.games.spades.bots.hard import hard_card
from tavola.games.spades.bots.seen import SPADE, Seen
from tavola.games.spades.bots.sim import Hand, margin
from tavola.rules.cards import Card, Rank

MARGIN_TO_OVERRULE = 15.0


def _best(totals: Sequence[float]) -> int:
    top = max(totals)
    return next(i for i, t in enumerate(totals) if t == top)


def master_card(seen: Seen, legal: Sequence[Card], rng: Rng, samples: int) -> Card:
    """The card with the best average margin; the hard level's card unless another one
    is better by more than ``MARGIN_TO_OVERRULE`` points on average (playouts are noisy
    and their policy is simpler than the hard level's)."""
    if len(legal) == 1:
        return legal[0]
    default = legal.index(hard_card(seen, legal)[0])
    bids = [b or 0 for b in seen.bids]
    trick = [(p.seat, p.card.index) for p in seen.trick]
    team = seen.seat % 2
    totals = [0.0] * len(legal)
    dealer = Dealer(seen)
    start = Hand([0, 0, 0, 0], bids, seen.tricks, seen.broken, trick, seen.seat)
    indices = [c.index for c in legal]
    for _ in range(max(1, samples)):
        hands = dealer.sample(rng)
        for i, index in enumerate(indices):
            hand = start.dealt(list(hands))
            hand.play(seen.seat, index)
            hand.finish()
            totals[i] += margin(hand, team, seen.bags)
    best = _best(totals)
    if totals[best] - totals[default] <= MARGIN_TO_OVERRULE * max(1, samples):
        return legal[default]
    return legal[best]


def _nil_candidate(hand: Sequence[Card], partner_bid: int | None) -> bool:
    spades = [c.rank for c in hand if c.suit == SPADE]
    return (
        partner_bid != 0
        and len(spades) <= 4
        and not any(r >= Rank.QUEEN for r in spades)
        and trick_estimate(hand) <= 2.5
    )


def bid_candidates(seen: Seen) -> list[int]:
    estimate = max(1, hard_bid(seen.hand, 0))  # with partner "nil", never nil: the count
    out = sorted({max(1, estimate - 1), estimate, min(13, estimate + 1)})
    if _nil_candidate(seen.hand, seen.bids[seen.partner]):
        out.insert(0, 0)
    return out


def _later_bids(seen: Seen, deal: Deal, mine: int) -> list[int]:
    bids: list[int | None] = list(seen.bids)
    bids[seen.seat] = mine
    for k in range(1, 4):
        s = (seen.seat + k) % 4
        if bids[s] is None:
            bids[s] = hard_bid_of(deal[s], bids[(s + 2) % 4])
    return [b or 0 for b in bids]


def master_bid(seen: Seen, rng: Rng, samples: int) -> int:
    candidates = bid_candidates(seen)
    team = seen.seat % 2
    leader = (seen.dealer + 1) % 4
    totals = [0.0] * len(candidates)
    dealer = Dealer(seen)
    for _ in range(max(1, samples)):
        hands = dealer.sample(rng)
        for i, mine in enumerate(candidates):
            bids = _later_bids(seen, hands, mine)
            hand = Hand(list(hands), bids, (0, 0, 0, 0), False, (), leader)
            hand.finish()
            totals[i] += margin(hand, team, seen.bags)
    return candidates[_best(totals)]
