"""The master's rollouts: ``Sim.rollout(rollout_choice)`` with the medium policy inlined,
one loop per kind of contract (negative, Trumps, Domino).

Every rollout of the master goes through here, so the per-card work is kept to a few list
operations: medium's sort keys are precomputed per contract as ranks of the 52 cards
(``_ranking``), each seat's cards are also kept per suit in order (within a suit medium
chooses by value: a duck or a cheap winner is a bisect away), the winning card and the
trick's penalties are kept as the cards fall, and Domino keeps each row as low..high and
each seat's playable cards. Between suits medium takes the first best card in the hand's
order (``max``/``min`` over the legal cards), so the hands stay lists in that order and
settle those ties. A test plays both on random positions and compares the whole
simulator afterwards.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable

from tavola.games.barbu.bots.cardplay import NL2_CARELESS_TRICKS, _danger, rollout_choice
from tavola.games.barbu.bots.sim import HEARTS, SEATS, Sim, penalty_points
from tavola.games.barbu.contracts import DOMINO_PLACE_POINTS, HEART_LEAD_RESTRICTED, Contract

CARDS = range(52)
TRICKS = 13
ACE = 12


def _ranking(key: Callable[[int], tuple[int, ...]]) -> tuple[int, ...]:
    """Each card's place among the distinct values of ``key`` (equal keys, equal places), so
    ``min``/``max`` with the place as key pick the card ``key`` would, ties included."""
    places = {k: i for i, k in enumerate(sorted({key(c) for c in CARDS}))}
    return tuple(places[key(c)] for c in CARDS)


def _lead_low(contract: Contract) -> tuple[int, ...]:
    return _ranking(lambda card: (card % 13, -_danger(contract, card)[0], card))


def _discard(contract: Contract) -> tuple[int, ...]:
    return _ranking(lambda card: _danger(contract, card))


def _play_low(trump: int) -> tuple[int, ...]:
    return _ranking(lambda card: (card // 13 == trump, card % 13))


NEGATIVE = tuple(c for c in Contract if not c.positive)
PENALTY = {c: tuple(penalty_points(c, card) for card in CARDS) for c in NEGATIVE}
# medium's sort keys (cardplay._negative, _trumps_medium) as card ranks
LEAD_LOW = {c: _lead_low(c) for c in NEGATIVE}
DISCARD = {c: _discard(c) for c in NEGATIVE}
DUMP_HIGH = _ranking(lambda card: (card % 13, -card))
PLAY_LOW = tuple(_play_low(t) for t in range(4))
BIT = tuple(1 << card for card in CARDS)
SUIT_BITS = (1 << 13) - 1
AFTER = tuple(tuple((seat + step) % SEATS for step in range(1, SEATS + 1)) for seat in range(SEATS))


def rollout(sim: Sim) -> None:
    """Play ``sim`` to the end of the deal exactly as ``sim.rollout(rollout_choice)``."""
    if sim.over:
        return
    if sim.contract == Contract.DOMINO and sim.start is not None:
        _domino(sim, sim.start)
    elif sim.contract == Contract.TRUMPS and sim.trump is not None:
        _trumps(sim, sim.trump)
    elif sim.contract in PENALTY:
        _negative(sim)
    else:  # no trump suit or no starting rank: no real deal, the plain simulator
        sim.rollout(rollout_choice)


def _negative(sim: Sim) -> None:
    contract = sim.contract
    hands, points = sim.hands, sim.points
    values, lead_low, discard = PENALTY[contract], LEAD_LOW[contract], DISCARD[contract]
    restricted = contract in HEART_LEAD_RESTRICTED
    careless = NL2_CARELESS_TRICKS if contract == Contract.NO_LAST_TWO else 0
    turn, played, left = sim.turn, sim.tricks_played, sim.penalties_left
    suits = _by_suit(hands)
    # the trick so far: its suit, winning card and seat, and penalty cards
    led = best = winner = -1
    size = taken = captured = 0
    for seat, card in sim.trick:
        if not size:
            led, best, winner = card // 13, card, seat
        elif card // 13 == led and card > best:
            best, winner = card, seat
        size += 1
        if values[card]:
            taken += values[card]
            captured += 1
    over = False
    while not over:
        hand = hands[turn]
        if not size:  # rank first in both keys: each suit's highest or lowest card
            mine = suits[turn]
            if played < careless:
                card = max([s[-1] for s in mine if s], key=DUMP_HIGH.__getitem__)
            else:
                lows = [s[0] for s in mine if s]
                if restricted and 0 < len(mine[HEARTS]) < len(hand):
                    lows = [c for c in lows if c // 13 != HEARTS]
                card = min(lows, key=lead_low.__getitem__)
            led, best, winner = card // 13, card, turn
        else:
            follow = suits[turn][led]
            if not follow:
                card = max(hand, key=discard.__getitem__)
            else:
                if len(follow) == 1:
                    card = follow[0]
                elif played < careless:
                    card = follow[-1]
                else:
                    under = bisect_left(follow, best)  # follow[:under] lose to the best card
                    if under:
                        card = follow[under - 1]
                    elif size == SEATS - 1:  # take it with the highest non-penalty card
                        card = next((c for c in reversed(follow) if not values[c]), follow[-1])
                    else:
                        card = follow[0]
                if card > best:
                    best, winner = card, turn
        hand.remove(card)
        suits[turn][card // 13].remove(card)
        if values[card]:
            taken += values[card]
            captured += 1
        size += 1
        if size < SEATS:
            turn = (turn + 1) % SEATS
            continue
        played += 1
        if contract == Contract.NO_TRICKS:
            points[winner] -= 2
        elif contract == Contract.NO_LAST_TWO:
            points[winner] -= 10 if played == 12 else 20 if played == 13 else 0
        else:
            points[winner] += taken
            left -= captured
            over = left <= 0
        size = taken = captured = 0
        turn = winner
        over = over or played == TRICKS
    sim.trick = []
    sim.turn, sim.tricks_played, sim.penalties_left, sim.over = turn, played, left, True


def _trumps(sim: Sim, trump: int) -> None:
    hands, points = sim.hands, sim.points
    play_low = PLAY_LOW[trump]
    trump_ace = trump * 13 + ACE
    turn, played = sim.turn, sim.tricks_played
    suits = _by_suit(hands)
    led = best = winner = -1
    size = 0
    for seat, card in sim.trick:
        if not size:
            led, best, winner = card // 13, card, seat
        elif card // 13 == best // 13:
            if card > best:
                best, winner = card, seat
        elif card // 13 == trump:
            best, winner = card, seat
        size += 1
    while played < TRICKS:
        hand = hands[turn]
        if not size:
            if len(hand) == 1:
                card = hand[0]
            else:
                aces = [s[-1] for s in suits[turn] if s and s[-1] % 13 == ACE]
                if aces:  # the trump ace, else the first in the hand
                    card = trump_ace if trump_ace in aces else min(aces, key=hand.index)
                else:
                    card = _short_side_lead(hand, suits[turn], trump)
            led, best, winner = card // 13, card, turn
        else:
            # the cheapest card that wins the trick, else the lowest (non-trump first):
            # medium's choice among the legal cards, folded into one case analysis
            follow = suits[turn][led]
            if follow:
                above = bisect_right(follow, best) if best // 13 == led else len(follow)
                card = follow[above] if above < len(follow) else follow[0]
            elif led == trump:
                card = min(hand, key=play_low.__getitem__)
            else:
                top = best if best // 13 == trump else -1
                trumps = suits[turn][trump]
                above = bisect_right(trumps, top)
                if above < len(trumps):
                    card = trumps[above]
                elif trumps and sim.void_must_trump:
                    card = trumps[0]
                else:
                    card = min(hand, key=play_low.__getitem__)
            if card // 13 == best // 13:
                if card > best:
                    best, winner = card, turn
            elif card // 13 == trump:
                best, winner = card, turn
        hand.remove(card)
        suits[turn][card // 13].remove(card)
        size += 1
        if size < SEATS:
            turn = (turn + 1) % SEATS
            continue
        played += 1
        points[winner] += 5
        size = 0
        turn = winner
    sim.trick = []
    sim.turn, sim.tricks_played, sim.over = turn, played, True


def _by_suit(hands: list[list[int]]) -> list[list[list[int]]]:
    """Each seat's cards per suit in order: following suit reads one list (within a suit
    medium's choices are by value, the hand's order only breaks ties between suits)."""
    suits = []
    for hand in hands:
        cards = sorted(hand)
        one, two, three = bisect_left(cards, 13), bisect_left(cards, 26), bisect_left(cards, 39)
        suits.append([cards[:one], cards[one:two], cards[two:three], cards[three:]])
    return suits


def _short_side_lead(hand: list[int], suits: list[list[int]], trump: int) -> int:
    """cardplay._short_side_lead: the lowest card of the shortest side suit (among equals
    the first in the hand); only trumps: the lowest trump."""
    lead, best = suits[trump][0] if suits[trump] else -1, 1 << 30
    for suit, cards in enumerate(suits):
        if cards and suit != trump:
            card = cards[0]
            key = len(cards) * 13 + card % 13
            if key < best or (key == best and hand.index(card) < hand.index(lead)):
                lead, best = card, key
    return lead


def _domino(sim: Sim, start: int) -> None:
    hands, points, finished = sim.hands, sim.points, sim.finished
    # each row as the ranks low..high, a row not started as the empty low = start + 1,
    # high = start - 1: the cards playable on a row are then always low - 1 and high + 1
    low = [start + 1 if row is None else row[0] for row in sim.rows]
    high = [start - 1 if row is None else row[1] for row in sim.rows]
    # who holds each card (SEATS: nobody), each seat's cards as bits (1 << card) and the
    # playable cards each seat holds
    owner = [SEATS] * 52
    for seat, hand in enumerate(hands):
        for c in hand:
            owner[c] = seat
    held = [sum(map(BIT.__getitem__, hand)) for hand in hands]
    ready: list[list[int]] = [[] for _ in range(SEATS + 1)]
    for suit in range(4):
        ends = {rank for rank in (low[suit] - 1, high[suit] + 1) if 0 <= rank < 13}
        for rank in ends:
            ready[owner[suit * 13 + rank]].append(suit * 13 + rank)
    turn = sim.turn
    if not ready[turn]:
        turn = next((s for s in AFTER[turn] if ready[s]), turn)
    while ready[turn]:  # nobody able to play: cannot happen in a real deal
        legal = ready[turn]
        hand = hands[turn]
        if len(legal) == 1:
            card = legal[0]
        else:
            card = _domino_choice(legal, hand, low, high, held[turn], start)
        legal.remove(card)
        hand.remove(card)
        held[turn] ^= BIT[card]
        suit, rank = card // 13, card % 13
        if rank < low[suit]:  # the row now goes down to it
            low[suit] = rank
            if rank > 0:
                ready[owner[card - 1]].append(card - 1)
        if rank > high[suit]:  # up to it
            high[suit] = rank
            if rank < 12:
                ready[owner[card + 1]].append(card + 1)
        if not hand:
            place = len(finished)
            finished.append(turn)
            points[turn] += DOMINO_PLACE_POINTS[place]
            if place == SEATS - 2:
                last = next(s for s in range(SEATS) if s not in finished)
                points[last] += DOMINO_PLACE_POINTS[SEATS - 1]
                break
        for seat in AFTER[turn]:  # the next seat holding a playable card
            if ready[seat]:
                turn = seat
                break
    sim.rows = [None if lo > hi else (lo, hi) for lo, hi in zip(low, high, strict=True)]
    sim.turn, sim.over = turn, True


def _domino_choice(
    legal: list[int], hand: list[int], low: list[int], high: list[int], mine: int, start: int
) -> int:
    """cardplay.domino without knowledge: the best card (own cards freed minus 1.5 per gift,
    distance from the starting rank, as one integer), the first in the hand among equals."""
    chosen, best = legal[0], -(1 << 30)
    for card in legal:
        suit, rank = card // 13, card % 13
        held = mine >> 13 * suit & SUIT_BITS  # the seat's ranks in the suit
        value = 0
        if rank > high[suit]:  # the row grows upwards from here
            value += 2 * (held >> rank + 1).bit_count()
            if rank < 12 and not held >> rank + 1 & 1:
                value -= 3
        if rank < low[suit]:  # downwards
            value += 2 * (held & (1 << rank) - 1).bit_count()
            if rank > 0 and not held >> rank - 1 & 1:
                value -= 3
        value = value * 13 + abs(rank - start)
        if value > best or (value == best and hand.index(card) < hand.index(chosen)):
            chosen, best = card, value
    return chosen
