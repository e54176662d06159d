"""The master's rollouts: ``Sim.rollout(rollout_choice)`` with the medium policy inlined,
one loop per kind of contract (negative, Trumps, Domino).

Every rollout of the master goes through here, so the per-card work is kept to a few list
operations: the medium heuristics' sort keys are precomputed per contract as ranks of the
52 cards (``_ranking``), the winning card and the trick's penalties are kept as the cards
fall, and Domino keeps the set of playable cards and each seat's ranks per suit as bits.
The choices are exactly medium's, ties included: medium takes the first best card of the
hand order (``max``/``min`` over the legal cards), so the hands stay lists in that order.
A test plays both on random positions and compares the whole simulator afterwards.
"""

from __future__ import annotations

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
        if not size:
            legal = hand
            if restricted and 0 < len(suits[turn][HEARTS]) < len(hand):
                legal = [c for c in hand if c // 13 != HEARTS]
            if len(legal) == 1:
                card = legal[0]
            elif played < careless:
                card = max(legal, key=DUMP_HIGH.__getitem__)
            else:
                card = min(legal, key=lead_low.__getitem__)
            led, best, winner = card // 13, card, turn
        else:
            follow = suits[turn][led]
            if not follow:
                card = max(hand, key=discard.__getitem__)
            else:
                if len(follow) == 1:
                    card = follow[0]
                elif played < careless:
                    card = max(follow)
                else:
                    under = [c for c in follow if c < best]
                    if under:
                        card = max(under)
                    elif size == SEATS - 1:
                        card = max([c for c in follow if not values[c]] or follow)
                    else:
                        card = min(follow)
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
                aces = [c for c in hand if c % 13 == ACE]
                if aces:
                    card = trump_ace if trump_ace in aces else aces[0]
                else:
                    card = _short_side_lead(hand, suits[turn], trump)
            led, best, winner = card // 13, card, turn
        else:
            # the cheapest card that wins the trick, else the lowest (non-trump first):
            # medium's choice among the legal cards, folded into one case analysis
            follow = suits[turn][led]
            if follow:
                higher = [c for c in follow if c > best] if best // 13 == led else None
                card = min(higher or follow)
            elif led == trump:
                card = min(hand, key=play_low.__getitem__)
            else:
                top = best if best // 13 == trump else -1
                trumps = suits[turn][trump]
                winning = [c for c in trumps if c > top]
                if winning:
                    card = min(winning)
                elif trumps and sim.void_must_trump:
                    card = min(trumps)
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
    """Each seat's cards per suit, in hand order (following suit reads one list)."""
    suits: list[list[list[int]]] = [[[], [], [], []] for _ in hands]
    for seat, hand in enumerate(hands):
        mine = suits[seat]
        for c in hand:
            mine[c // 13].append(c)
    return suits


def _short_side_lead(hand: list[int], suits: list[list[int]], trump: int) -> int:
    """cardplay._short_side_lead: the lowest card of the shortest side suit."""
    length = [len(cards) for cards in suits]
    side = [c for c in hand if c // 13 != trump] or hand
    return min(side, key=lambda c: length[c // 13] * 13 + c % 13)


def _domino(sim: Sim, start: int) -> None:
    hands, points, rows, finished = sim.hands, sim.points, sim.rows, sim.finished
    # who holds each card (SEATS: nobody), each seat's ranks per suit as bits, the cards
    # playable now (at most two per suit) and how many of them each seat holds
    owner = [SEATS] * 52
    ranks = [[0] * 4 for _ in range(SEATS)]
    for seat, hand in enumerate(hands):
        for c in hand:
            owner[c] = seat
            ranks[seat][c // 13] |= 1 << c % 13
    playable: set[int] = set()
    for suit, row in enumerate(rows):
        if row is None:
            playable.add(suit * 13 + start)
        else:
            if row[0] > 0:
                playable.add(suit * 13 + row[0] - 1)
            if row[1] < 12:
                playable.add(suit * 13 + row[1] + 1)
    can = [0] * (SEATS + 1)
    for c in playable:
        can[owner[c]] += 1
    turn = sim.turn
    if not can[turn]:
        turn = _domino_next(can, turn)
    while can[turn]:  # nobody able to play: cannot happen in a real deal
        hand = hands[turn]
        legal = [c for c in hand if c in playable]
        mine = ranks[turn]
        card = legal[0] if len(legal) == 1 else _domino_choice(legal, rows, mine, start)
        suit, rank = card // 13, card % 13
        hand.remove(card)
        mine[suit] ^= 1 << rank
        playable.remove(card)
        can[turn] -= 1
        row = rows[suit]
        if (row is None or rank < row[0]) and rank > 0:  # the row now goes down to it
            playable.add(card - 1)
            can[owner[card - 1]] += 1
        if (row is None or rank > row[1]) and rank < 12:  # up to it
            playable.add(card + 1)
            can[owner[card + 1]] += 1
        rows[suit] = (rank, rank) if row is None else (min(row[0], rank), max(row[1], rank))
        if not hand:
            place = len(finished)
            finished.append(turn)
            points[turn] += DOMINO_PLACE_POINTS[place]
            if place == SEATS - 2:
                last = next(s for s in range(SEATS) if s not in finished)
                points[last] += DOMINO_PLACE_POINTS[SEATS - 1]
                break
        for seat in AFTER[turn]:  # the next seat holding a playable card
            if can[seat]:
                turn = seat
                break
    sim.turn, sim.over = turn, True


def _domino_next(can: list[int], seat: int) -> int:
    """The next seat holding a playable card (Sim._domino_next), else ``seat``."""
    return next((s for s in AFTER[seat] if can[s]), seat)


def _domino_choice(
    legal: list[int], rows: list[tuple[int, int] | None], mine: list[int], start: int
) -> int:
    """cardplay.domino without knowledge: the first card of the best (own cards freed minus
    1.5 per gift, distance from the starting rank), as one integer per card."""
    chosen, best = legal[0], -(1 << 30)
    for card in legal:
        suit, rank = card // 13, card % 13
        row = rows[suit]
        held = mine[suit]
        value = 0
        if row is None or rank > row[1]:  # the row grows upwards from here
            value += 2 * (held >> rank + 1).bit_count()
            if rank < 12 and not held >> rank + 1 & 1:
                value -= 3
        if row is None or rank < row[0]:  # downwards
            value += 2 * (held & (1 << rank) - 1).bit_count()
            if rank > 0 and not held >> rank - 1 & 1:
                value -= 3
        value = value * 13 + abs(rank - start)
        if value > best:
            chosen, best = card, value
    return chosen
