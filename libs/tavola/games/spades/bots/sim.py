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
SIDE_SUITS = SUIT[:3]
DECK = SIDE | SPADES
# BEAT[i]: the cards that beat card i when it leads the trick so far; LOSE[i]: the others
# (``DECK & ~BEAT[i]``, kept positive: a negative mask would slow down every ``&``).
BEAT = tuple(
    (SUIT[i // 13] & ~((1 << (i + 1)) - 1)) | (0 if i // 13 == 3 else SPADES) for i in range(52)
)
LOSE = tuple(DECK & ~b for b in BEAT)
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
    """The lowest card: any side card before any spade, then the lowest rank (the first
    suit of equal ranks). The side suits' ranks are or-ed into 13 bits; the lowest one
    held is then looked for in clubs, diamonds and hearts, in that order."""
    side = m & SIDE
    if not side:
        return (m & -m).bit_length() - 1
    ranks = (side | side >> 13 | side >> 26) & 0x1FFF
    low = ranks & -ranks
    if side & low:
        return low.bit_length() - 1
    if side >> 13 & low:
        return low.bit_length() + 12
    return low.bit_length() + 25


def high_card(m: int) -> int:
    """The highest side card (by rank; the first suit of equal ranks), else the highest
    spade (the same or-ed ranks as ``low_card``, from the top)."""
    side = m & SIDE
    if not side:
        return m.bit_length() - 1
    rank = ((side | side >> 13 | side >> 26) & 0x1FFF).bit_length() - 1
    if side >> rank & 1:
        return rank
    if side >> (rank + 13) & 1:
        return rank + 13
    return rank + 26


class Hand:
    """A hand in progress with every card known (one sampled deal). ``clean`` (per seat:
    a nil bid with no trick yet) and ``missing`` (per side: tricks still short of the
    contract) change only when a trick is taken, so they are kept rather than recounted
    at every card."""

    __slots__ = (
        "best",
        "best_seat",
        "bids",
        "broken",
        "clean",
        "hands",
        "led",
        "missing",
        "played",
        "tricks",
        "turn",
    )

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
        self._tally()
        for seat, index in trick:
            self._add(seat, index)

    def _tally(self) -> None:
        bids, tricks = self.bids, self.tricks
        self.clean = [bids[s] == 0 and tricks[s] == 0 for s in range(4)]
        self.missing = [
            bids[a]
            + bids[a + 2]
            - (tricks[a] if bids[a] else 0)
            - (tricks[a + 2] if bids[a + 2] else 0)
            for a in (0, 1)
        ]

    def _add(self, seat: int, index: int) -> None:
        self.played += 1
        if self.led < 0:
            self.led, self.best, self.best_seat = index // 13, index, seat
        elif (1 << index) & BEAT[self.best]:
            self.best, self.best_seat = index, seat
        if index >= 39:
            self.broken = True

    def dealt(self, hands: list[int]) -> Hand:
        """This hand (its bids, tricks and trick in progress) with the cards ``hands``: the
        master sets up a decision's hand once and plays it out on every sampled deal."""
        new: Hand = _new(Hand)
        new.hands = hands
        new.bids = self.bids  # (never changed)
        new.tricks = list(self.tricks)
        new.clean = list(self.clean)
        new.missing = list(self.missing)
        new.broken = self.broken
        new.turn = self.turn
        new.played, new.led, new.best, new.best_seat = (
            self.played,
            self.led,
            self.best,
            self.best_seat,
        )
        return new

    def legal(self, seat: int) -> int:
        hand = self.hands[seat]
        if self.led >= 0:
            return hand & SUIT[self.led] or hand
        return hand if self.broken else (hand & SIDE or hand)

    def play(self, seat: int, index: int) -> None:
        self.hands[seat] &= ~(1 << index)
        self.played += 1  # ``_add``, inline
        if self.led < 0:
            self.led, self.best, self.best_seat = index // 13, index, seat
        elif (1 << index) & BEAT[self.best]:
            self.best, self.best_seat = index, seat
        if index >= 39:
            self.broken = True
        if self.played == 4:
            winner = self.best_seat
            self.tricks[winner] += 1
            self.clean[winner] = False  # (``_tally``, for the one trick taken)
            if self.bids[winner]:
                self.missing[winner % 2] -= 1
            self.turn = winner
            self.played, self.led, self.best, self.best_seat = 0, -1, -1, -1
        else:
            self.turn = (seat + 1) % 4

    def finish(self) -> None:
        """Plays the hand to its end, every seat by the rollout policy: ``choose`` and
        ``play`` inline, on local variables (the master's hot loop). ``rest`` holds every
        card still in a hand (the others' cards are ``rest ^ hand``), and ``nils`` whether
        any seat still keeps a nil: most hands have none, and then the three nil rules
        are passed over at once."""
        hands, bids, tricks, clean, missing = (
            self.hands,
            self.bids,
            self.tricks,
            self.clean,
            self.missing,
        )
        turn, played, led, best, best_seat = (
            self.turn,
            self.played,
            self.led,
            self.best,
            self.best_seat,
        )
        broken = self.broken
        rest = hands[0] | hands[1] | hands[2] | hands[3]
        nils = True in clean
        while hands[turn]:
            seat = turn
            hand = hands[seat]
            m = (
                (hand & SUIT[led] or hand)
                if led >= 0
                else (hand if broken else hand & SIDE or hand)
            )
            if not m & (m - 1):
                card = m.bit_length() - 1
            elif not nils:  # (the last two rules below)
                if missing[seat & 1] > 0:  # ``_take``, inline: the play of most cards
                    others = rest ^ hand
                    if led < 0:
                        card = _cash(others, m, broken)
                    elif best_seat == seat ^ 2 and not others & BEAT[best]:
                        card = low_card(m)
                    else:
                        winners = m & BEAT[best]
                        if not winners:
                            card = low_card(m)
                        elif played == 3:
                            card = (winners & -winners).bit_length() - 1
                        else:
                            high = winners.bit_length() - 1
                            if not others & ABOVE[high] and winners & SUIT[led]:
                                card = high
                            elif best_seat == seat ^ 2:
                                card = low_card(m)
                            else:
                                card = (winners & -winners).bit_length() - 1
                elif led >= 0:
                    card = _duck_high(m, best, played)
                else:
                    card = low_card(m)
            elif clean[seat]:
                card = _duck_high(m, best, played) if led >= 0 else low_card(m)
            elif clean[seat ^ 2]:
                others = rest ^ hand
                card = _cover(others, seat, m, led, best, best_seat, played, broken, missing)
            elif led >= 0 and played < 3 and clean[seat + 1 & 3]:  # an opponent's clean
                card = low_card(m)  # nil is still to play
            elif missing[seat & 1] > 0:
                card = _take(rest ^ hand, seat, m, led, best, best_seat, played, broken)
            else:
                card = _duck_high(m, best, played) if led >= 0 else low_card(m)
            bit = 1 << card
            hands[seat] = hand ^ bit
            rest ^= bit
            played += 1
            if led < 0:
                led, best, best_seat = card // 13, card, seat
            elif bit & BEAT[best]:
                best, best_seat = card, seat
            if card >= 39:
                broken = True
            if played == 4:
                tricks[best_seat] += 1
                if clean[best_seat]:
                    clean[best_seat] = False
                    nils = True in clean
                if bids[best_seat]:
                    missing[best_seat & 1] -= 1
                turn = best_seat
                played, led, best, best_seat = 0, -1, -1, -1
            else:
                turn = seat + 1 & 3
        self.turn, self.played, self.led, self.best, self.best_seat = (
            turn,
            played,
            led,
            best,
            best_seat,
        )
        self.broken = broken

    # ----- the rollout policy ------------------------------------------------------------
    def choose(self, seat: int) -> int:
        """The rollout policy's card for ``seat`` (``finish`` applies the same, inline)."""
        m = self.legal(seat)
        led, best, played, clean = self.led, self.best, self.played, self.clean
        hands = self.hands
        others = (hands[0] | hands[1] | hands[2] | hands[3]) ^ hands[seat]
        if not m & (m - 1):
            return _top(m)
        if clean[seat]:
            return _duck_high(m, best, played) if led >= 0 else low_card(m)
        if clean[(seat + 2) % 4]:
            return _cover(
                others, seat, m, led, best, self.best_seat, played, self.broken, self.missing
            )
        if led >= 0 and played < 3 and clean[(seat + 1) % 4]:
            return low_card(m)
        if self.missing[seat % 2] > 0:
            return _take(others, seat, m, led, best, self.best_seat, played, self.broken)
        return _duck_high(m, best, played) if led >= 0 else low_card(m)


_new = object.__new__


def _duck_high(m: int, best: int, played: int) -> int:
    losers = m & LOSE[best]
    if losers:
        return high_card(losers)
    return _top(m) if played == 3 else _bottom(m)


def _cover(
    others: int,
    seat: int,
    m: int,
    led: int,
    best: int,
    best_seat: int,
    played: int,
    broken: bool,
    missing: list[int],
) -> int:
    if led < 0:
        return high_card(m)
    if played >= 2 and best_seat != seat ^ 2:
        if missing[seat & 1] > 0:
            return _take(others, seat, m, led, best, best_seat, played, broken)
        return _duck_high(m, best, played)
    winners = m & BEAT[best]
    return _top(winners) if winners else low_card(m)


def _cash(others: int, m: int, broken: bool) -> int:
    """A lead for tricks: the top card of the first suit whose cards held are all above
    the others' of it (as a mask, the larger number), else the lowest card."""
    for suit in SIDE_SUITS:
        x = m & suit
        if x > others & suit:
            return x.bit_length() - 1
    if broken:
        x = m & SPADES
        if x > others & SPADES:
            return x.bit_length() - 1
    return low_card(m)


def _take(
    others: int,
    seat: int,
    m: int,
    led: int,
    best: int,
    best_seat: int,
    played: int,
    broken: bool,
) -> int:
    """``others``: the cards the other seats still hold."""
    if led < 0:
        return _cash(others, m, broken)
    if best_seat == seat ^ 2 and not others & BEAT[best]:
        return low_card(m)
    winners = m & BEAT[best]
    if not winners:
        return low_card(m)
    if played == 3:
        return (winners & -winners).bit_length() - 1
    high = winners.bit_length() - 1
    if not others & ABOVE[high] and winners & SUIT[led]:
        return high
    if best_seat == seat ^ 2:
        return low_card(m)
    return (winners & -winners).bit_length() - 1


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
