"""A fast playout of the rest of a hand, for the master level.

Cards are bits (``index = suit * 13 + rank - 2``) and hands are ints, so a playout of a
whole hand costs well under a millisecond. Every seat plays the **rollout policy**, the
medium level's rules with a little counting: a nil bidder plays its highest losing card;
its partner plays high to cover it; a side that needs tricks cashes the top remaining card
of a suit, wins cheaply at the end of a trick and lets a partner's top card ride; a side
that has its tricks (or plays before an opponent's clean nil) plays low; a side that has
its tricks dumps its highest losing card.

``value`` scores the finished hand for a partnership exactly as the rule book does
(penalties for crossing ten bags included) less ``BAG_COST`` per bag won, the future price
of a bag, and the master maximises its side's value minus the other side's.
"""

from __future__ import annotations

from collections.abc import Sequence

from tavola.rules.cards import Card

BAG_COST = 3
SUIT = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
SPADES = SUIT[3]
SIDE = SUIT[0] | SUIT[1] | SUIT[2]
# BEAT[i]: the cards that beat card i when it leads the trick so far.
BEAT = tuple(
    (SUIT[i // 13] & ~((1 << (i + 1)) - 1)) | (0 if i // 13 == 3 else SPADES) for i in range(52)
)
ABOVE = tuple(SUIT[i // 13] & ~((1 << (i + 1)) - 1) for i in range(52))


def bit(card: Card) -> int:
    return 1 << card.index


def mask(cards: Sequence[Card]) -> int:
    out = 0
    for c in cards:
        out |= 1 << c.index
    return out


def _top(m: int) -> int:
    return m.bit_length() - 1


def _bottom(m: int) -> int:
    return (m & -m).bit_length() - 1


def low_card(m: int) -> int:
    """The lowest card: any side card before any spade, then the lowest rank."""
    side = m & SIDE
    if not side:
        return _bottom(m)
    best, best_rank = -1, 99
    for s in (0, 1, 2):
        x = side & SUIT[s]
        if x:
            i = _bottom(x)
            if i - 13 * s < best_rank:
                best, best_rank = i, i - 13 * s
    return best


def high_card(m: int) -> int:
    """The highest side card (by rank), else the highest spade."""
    side = m & SIDE
    if not side:
        return _top(m)
    best, best_rank = -1, -1
    for s in (0, 1, 2):
        x = side & SUIT[s]
        if x:
            i = _top(x)
            if i - 13 * s > best_rank:
                best, best_rank = i, i - 13 * s
    return best


class Hand:
    """A hand in progress with every card known (one sampled deal)."""

    __slots__ = ("best", "best_seat", "bids", "broken", "hands", "led", "played", "tricks", "turn")

    def __init__(
        self,
        hands: list[int],
        bids: Sequence[int],
        tricks: Sequence[int],
        broken: bool,
        trick: Sequence[tuple[int, int]],
        turn: int,
    ) -> None:
        self.hands = hands
        self.bids = list(bids)
        self.tricks = list(tricks)
        self.broken = broken
        self.turn = turn
        self.played = 0
        self.led = -1
        self.best = -1
        self.best_seat = -1
        for seat, index in trick:
            self._add(seat, index)

    def _add(self, seat: int, index: int) -> None:
        self.played += 1
        if self.led < 0:
            self.led, self.best, self.best_seat = index // 13, index, seat
        elif (1 << index) & BEAT[self.best]:
            self.best, self.best_seat = index, seat
        if index >= 39:
            self.broken = True

    def legal(self, seat: int) -> int:
        hand = self.hands[seat]
        if self.led >= 0:
            return hand & SUIT[self.led] or hand
        return hand if self.broken else (hand & SIDE or hand)

    def play(self, seat: int, index: int) -> None:
        self.hands[seat] &= ~(1 << index)
        self._add(seat, index)
        if self.played == 4:
            self.tricks[self.best_seat] += 1
            self.turn = self.best_seat
            self.played, self.led, self.best, self.best_seat = 0, -1, -1, -1
        else:
            self.turn = (seat + 1) % 4

    def finish(self) -> None:
        while self.hands[self.turn]:
            seat = self.turn
            self.play(seat, self.choose(seat))

    # ----- the rollout policy ------------------------------------------------------------
    def _clean_nil(self, seat: int) -> bool:
        return self.bids[seat] == 0 and self.tricks[seat] == 0

    def _missing(self, seat: int) -> int:
        a, b = seat % 2, seat % 2 + 2
        contract = self.bids[a] + self.bids[b]
        taken = (self.tricks[a] if self.bids[a] else 0) + (self.tricks[b] if self.bids[b] else 0)
        return contract - taken

    def choose(self, seat: int) -> int:
        m = self.legal(seat)
        if not m & (m - 1):
            return _top(m)
        if self._clean_nil(seat):
            return self._duck_high(m) if self.led >= 0 else low_card(m)
        partner = (seat + 2) % 4
        if self._clean_nil(partner):
            return self._cover(seat, m)
        if self.led >= 0 and self._before_clean_nil(seat):
            return low_card(m)
        if self._missing(seat) > 0:
            return self._take(seat, m)
        return self._duck_high(m) if self.led >= 0 else low_card(m)

    def _before_clean_nil(self, seat: int) -> bool:
        for k in range(1, 4 - self.played):
            other = (seat + k) % 4
            if other % 2 != seat % 2 and self._clean_nil(other):
                return True
        return False

    def _duck_high(self, m: int) -> int:
        losers = m & ~BEAT[self.best]
        if losers:
            return high_card(losers)
        return _top(m) if self.played == 3 else _bottom(m)

    def _cover(self, seat: int, m: int) -> int:
        if self.led < 0:
            return high_card(m)
        if self.played >= 2 and self.best_seat != (seat + 2) % 4:
            return self._take(seat, m) if self._missing(seat) > 0 else self._duck_high(m)
        winners = m & BEAT[self.best]
        return _top(winners) if winners else low_card(m)

    def _others(self, seat: int) -> int:
        h = self.hands
        return (h[0] | h[1] | h[2] | h[3]) & ~h[seat]

    def _take(self, seat: int, m: int) -> int:
        others = self._others(seat)
        if self.led < 0:
            for s in (0, 1, 2, 3):
                x = m & SUIT[s]
                if x and not others & ABOVE[_top(x)] and (s < 3 or self.broken):
                    return _top(x)
            return low_card(m)
        if self.best_seat == (seat + 2) % 4 and not others & BEAT[self.best]:
            return low_card(m)
        winners = m & BEAT[self.best]
        if not winners:
            return low_card(m)
        if self.played == 3:
            return _bottom(winners)
        high = _top(winners)
        if not others & ABOVE[high] and winners & SUIT[self.led]:
            return high
        if self.best_seat == (seat + 2) % 4:
            return low_card(m)
        return _bottom(winners)


def value(bids: Sequence[int], tricks: Sequence[int], team: int, bags_before: int) -> int:
    """The hand's score for ``team`` (seats ``team`` and ``team + 2``) less future bags."""
    a, b = team, team + 2
    contract = bids[a] + bids[b]
    taken = (tricks[a] if bids[a] else 0) + (tricks[b] if bids[b] else 0)
    made = taken >= contract
    points = 10 * contract if made else -10 * contract
    bags = taken - contract if made else 0
    for s in (a, b):
        if bids[s] == 0:
            points += 100 if tricks[s] == 0 else -100
            bags += tricks[s]
    if made:
        points += bags
    points -= 100 * ((bags_before + bags) // 10)
    return points - BAG_COST * bags


def margin(hand: Hand, team: int, bags: Sequence[int]) -> int:
    """Value of ``team`` minus the other side's for a finished hand."""
    return value(hand.bids, hand.tricks, team, bags[team]) - value(
        hand.bids, hand.tricks, 1 - team, bags[1 - team]
    )
