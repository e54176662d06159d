"""Master: determinized sampling. Each sample deals the unseen cards to the other seats
(their counts and every exclusion the tracker inferred respected), plays every candidate
forward with the medium policy for all four seats, and scores the seat's adjusted points
for the deal; the candidate with the best total over the samples wins.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tavola.bots.interface import Rng
from tavola.games.barbu.bots.cardplay import rollout_choice
from tavola.games.barbu.bots.playout import rollout
from tavola.games.barbu.bots.sim import PENALTY_COUNT, SEATS, Sim, adjusted
from tavola.games.barbu.bots.tracker import DealKnowledge
from tavola.games.barbu.contracts import Contract

RESTARTS = 30


def determinize(know: DealKnowledge, rng: Rng) -> list[list[int]]:
    """A deal of the unseen cards consistent with the counts and the exclusions."""
    return Dealer(know).deal(rng)


class Dealer:
    """The determinizations of one decision: the unseen cards and the seats each may go to
    are worked out once, then every sample only draws."""

    def __init__(self, know: DealKnowledge) -> None:
        self.know = know
        self.unseen = sorted(know.unseen())
        others = [s for s in range(SEATS) if s != know.seat]
        self.allowed = {c: [s for s in others if c not in know.excluded[s]] for c in self.unseen}
        # nothing excluded (at the contract, the doubles and early in play): the room left
        # is every card left
        self.anywhere = all(seats == others for seats in self.allowed.values())
        widths = {c: len(seats) for c, seats in self.allowed.items()}
        # most constrained first; with nothing excluded the (stable) sort changes nothing
        self.width = widths.__getitem__ if len(set(widths.values())) > 1 else None
        self.room = list(know.counts)
        self.room[know.seat] = 0
        self.others = others

    def deal(self, rng: Rng) -> list[list[int]]:
        for _ in range(RESTARTS):
            hands = self._attempt(rng)
            if hands is not None:
                return hands
        return _matching(self.know, self.unseen, self.allowed)

    def _attempt(self, rng: Rng) -> list[list[int]] | None:
        """Each card to an allowed seat with room, drawn in proportion to the room left."""
        order = list(self.unseen)
        rng.shuffle(order)
        if self.width is not None:
            order.sort(key=self.width)
        hands: list[list[int]] = [[] for _ in range(SEATS)]
        hands[self.know.seat] = list(self.know.hand)
        place = self._anywhere if self.anywhere else self._allowed
        return hands if place(order, rng, hands) else None

    def _allowed(self, order: list[int], rng: Rng, hands: list[list[int]]) -> bool:
        room = list(self.room)
        allowed = self.allowed
        draw = rng.random
        for card in order:
            seats = allowed[card]
            total = sum(map(room.__getitem__, seats))
            if not total:
                return False
            pick = draw() * total
            for seat in seats:
                if room[seat]:
                    pick -= room[seat]
                    if pick < 0:
                        break
            else:  # (rounding) the last seat with room
                seat = [s for s in seats if room[s]][-1]
            hands[seat].append(card)
            room[seat] -= 1
        return True

    def _anywhere(self, order: list[int], rng: Rng, hands: list[list[int]]) -> bool:
        """``_allowed`` when every card may go to every other seat: the room is the cards
        left, and the draw minus the rooms in turn goes below 0 exactly where the draw is
        below their running sum (the subtractions are exact while it is not)."""
        room = list(self.room)
        first, second, third = self.others
        draw = rng.random
        left = sum(room)
        for card in order:
            if not left:
                return False
            pick = draw() * left  # < left: the third seat has room when it is reached
            if pick < room[first]:
                seat = first
            elif pick < room[first] + room[second]:
                seat = second
            else:
                seat = third
            hands[seat].append(card)
            room[seat] -= 1
            left -= 1
        return True


def _matching(
    know: DealKnowledge, unseen: list[int], allowed: dict[int, list[int]]
) -> list[list[int]]:
    """Cards to seat slots by augmenting paths (a consistent deal always exists)."""
    slots = [s for s in range(SEATS) if s != know.seat for _ in range(know.counts[s])]
    owner: dict[int, int] = {}

    def place(card: int, seen: set[int]) -> bool:
        for slot, seat in enumerate(slots):
            if seat in allowed[card] and slot not in seen:
                seen.add(slot)
                if slot not in owner or place(owner[slot], seen):
                    owner[slot] = card
                    return True
        return False

    for card in unseen:
        place(card, set())
    hands: list[list[int]] = [[] for _ in range(SEATS)]
    hands[know.seat] = list(know.hand)
    for slot, card in owner.items():
        hands[slots[slot]].append(card)
    return hands


def build_sim(know: DealKnowledge, hands: list[list[int]], void_must_trump: bool) -> Sim:
    assert know.contract is not None
    left = PENALTY_COUNT.get(know.contract, 0) - know.captured_penalties
    return Sim(
        know.contract,
        know.trump,
        know.start_rank,
        hands,
        know.seat,
        void_must_trump,
        list(know.trick),
        know.tricks_played,
        list(know.points),
        left,
        list(know.rows),
        list(know.finished),
    )


Choose = Callable[[Sim, list[int]], int]


def best_card(
    know: DealKnowledge,
    legal: Sequence[int],
    samples: int,
    rng: Rng,
    void_must_trump: bool,
    choose: Choose = rollout_choice,
) -> int:
    totals = dict.fromkeys(legal, 0)
    dealer = Dealer(know)
    for _ in range(card_samples(samples, len(legal))):
        base = build_sim(know, dealer.deal(rng), void_must_trump)
        for card in legal:
            sim = base.copy()
            sim.play(card)
            if choose is rollout_choice:
                rollout(sim)
            else:
                sim.rollout(choose)
            totals[card] += adjusted(sim.points, know.doubles, know.seat)
    return max(legal, key=lambda c: totals[c])


def card_samples(samples: int, moves: int) -> int:
    """Determinizations for a card decision: ``samples`` up to 4 candidate cards, then the
    same total work (about ``4 * samples`` rollouts) spread over more candidates."""
    return max(8, min(samples, 4 * samples // moves))


def contract_outcomes(
    know: DealKnowledge,
    candidates: Sequence[tuple[Contract, int | None]],
    samples: int,
    rng: Rng,
    void_must_trump: bool,
) -> list[list[list[int]]]:
    """Per candidate (contract, trump suit / start rank), the raw points of every seat in
    ``samples`` deals rolled out from the start of play (the same deals for each)."""
    out: list[list[list[int]]] = [[] for _ in candidates]
    dealer = Dealer(know)
    for _ in range(samples):
        hands = dealer.deal(rng)
        for i, (contract, param) in enumerate(candidates):
            trump = param if contract == Contract.TRUMPS else None
            start = param if contract == Contract.DOMINO else None
            sim = Sim(
                contract,
                trump,
                start,
                [list(h) for h in hands],
                know.declarer,
                void_must_trump,
                penalties_left=PENALTY_COUNT.get(contract, 0),
            )
            rollout(sim)
            out[i].append(sim.points)
    return out
