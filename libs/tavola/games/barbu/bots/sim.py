"""A fast, mutable simulator of one Barbu deal's card play (ints for cards), for rollouts.

It mirrors ``tavola.games.barbu.play`` and the contract points exactly (a test compares it
with the engine on random deals); it only serves the bots, never the engine. A deal is
over when every trick is played, when every scoring card is captured (the remaining
tricks cannot change any score), or in Domino when three seats are out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from tavola.games.barbu.contracts import DOMINO_PLACE_POINTS, HEART_LEAD_RESTRICTED, Contract

SEATS = 4
HEARTS = 2
KING_OF_HEARTS = HEARTS * 13 + 11
ACE_OF_HEARTS = HEARTS * 13 + 12
QUEEN = 10
PENALTY_COUNT = {Contract.NO_QUEENS: 4, Contract.NO_HEARTS: 13, Contract.NO_KING: 1}


def penalty_points(contract: Contract, card: int) -> int:
    if contract == Contract.NO_QUEENS:
        return -6 if card % 13 == QUEEN else 0
    if contract == Contract.NO_HEARTS:
        if card // 13 != HEARTS:
            return 0
        return -6 if card == ACE_OF_HEARTS else -2
    if contract == Contract.NO_KING:
        return -20 if card == KING_OF_HEARTS else 0
    return 0


@dataclass
class Sim:
    contract: Contract
    trump: int | None
    start: int | None
    hands: list[list[int]]
    turn: int
    void_must_trump: bool = False
    trick: list[tuple[int, int]] = field(default_factory=list)
    tricks_played: int = 0
    points: list[int] = field(default_factory=lambda: [0] * SEATS)
    penalties_left: int = 0
    rows: list[tuple[int, int] | None] = field(default_factory=lambda: [None] * SEATS)
    finished: list[int] = field(default_factory=list)
    over: bool = False

    def copy(self) -> Sim:
        return Sim(
            self.contract,
            self.trump,
            self.start,
            [list(h) for h in self.hands],
            self.turn,
            self.void_must_trump,
            list(self.trick),
            self.tricks_played,
            list(self.points),
            self.penalties_left,
            list(self.rows),
            list(self.finished),
            self.over,
        )

    # ----- legality ---------------------------------------------------------------------
    def legal(self) -> list[int]:
        hand = self.hands[self.turn]
        if self.contract == Contract.DOMINO:
            return [c for c in hand if self._domino_ok(c)]
        if not self.trick:
            if self.contract in HEART_LEAD_RESTRICTED:
                others = [c for c in hand if c // 13 != HEARTS]
                return others or list(hand)
            return list(hand)
        led = self.trick[0][1] // 13
        follow = [c for c in hand if c // 13 == led]
        trump = self.trump
        if self.contract != Contract.TRUMPS or trump is None:
            return follow or list(hand)
        best = max((c for _, c in self.trick if c // 13 == trump), default=-1)
        if led == trump:
            return [c for c in follow if c > best] or follow or list(hand)
        if follow:
            return follow
        trumps = [c for c in hand if c // 13 == trump]
        winning = [c for c in trumps if c > best]
        if winning:
            return winning
        if self.void_must_trump and trumps:
            return trumps
        return list(hand)

    def _domino_ok(self, card: int) -> bool:
        row = self.rows[card // 13]
        rank = card % 13
        if row is None:
            return rank == self.start
        return rank == row[0] - 1 or rank == row[1] + 1

    # ----- moves ------------------------------------------------------------------------
    def play(self, card: int) -> None:
        seat = self.turn
        self.hands[seat].remove(card)
        if self.contract == Contract.DOMINO:
            self._domino_play(seat, card)
            return
        self.trick.append((seat, card))
        if len(self.trick) < SEATS:
            self.turn = (seat + 1) % SEATS
            return
        self._finish_trick()

    def _finish_trick(self) -> None:
        winner, best = self.trick[0]
        trump = self.trump if self.contract == Contract.TRUMPS else None
        for seat, card in self.trick[1:]:
            if card // 13 == best // 13:
                if card > best:
                    winner, best = seat, card
            elif trump is not None and card // 13 == trump:
                winner, best = seat, card
        self.tricks_played += 1
        number = self.tricks_played
        contract = self.contract
        if contract == Contract.NO_TRICKS:
            self.points[winner] -= 2
        elif contract == Contract.TRUMPS:
            self.points[winner] += 5
        elif contract == Contract.NO_LAST_TWO:
            self.points[winner] -= 10 if number == 12 else 20 if number == 13 else 0
        else:
            for _, card in self.trick:
                value = penalty_points(contract, card)
                if value:
                    self.points[winner] += value
                    self.penalties_left -= 1
            if self.penalties_left <= 0:
                self.over = True
        self.trick = []
        self.turn = winner
        if number == 13:
            self.over = True

    def _domino_play(self, seat: int, card: int) -> None:
        suit, rank = card // 13, card % 13
        row = self.rows[suit]
        self.rows[suit] = (rank, rank) if row is None else (min(row[0], rank), max(row[1], rank))
        if not self.hands[seat]:
            place = len(self.finished)
            self.finished.append(seat)
            self.points[seat] += DOMINO_PLACE_POINTS[place]
            if place == SEATS - 2:
                last = next(s for s in range(SEATS) if s not in self.finished)
                self.points[last] += DOMINO_PLACE_POINTS[SEATS - 1]
                self.over = True
                return
        self._domino_next(seat)

    def _domino_next(self, seat: int) -> None:
        """The next seat with cards; seats without a playable card pass."""
        for step in range(1, 2 * SEATS + 1):
            candidate = (seat + step) % SEATS
            if self.hands[candidate] and self.legal_for(candidate):
                self.turn = candidate
                return
        self.over = True  # cannot happen in a real deal (some row can always grow)

    def legal_for(self, seat: int) -> list[int]:
        saved, self.turn = self.turn, seat
        try:
            return self.legal()
        finally:
            self.turn = saved

    def settle_turn(self) -> None:
        """Domino: move the turn past seats that must pass (as the engine's ``Passed``)."""
        if self.contract == Contract.DOMINO and not self.over and not self.legal():
            self._domino_next(self.turn)

    def rollout(self, choose: Callable[[Sim, list[int]], int]) -> None:
        self.settle_turn()
        while not self.over:
            legal = self.legal()
            self.play(legal[0] if len(legal) == 1 else choose(self, legal))


def adjusted(points: Sequence[int], doubles: Sequence[tuple[int, int]], seat: int) -> int:
    """``seat``'s score after the pairwise settlement of ``doubles`` (raw points given)."""
    total = points[seat]
    for a, b in doubles:
        if seat in (a, b):
            total += points[seat] - points[b if seat == a else a]
    return total
