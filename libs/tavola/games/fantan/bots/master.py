"""The master level: sampled deals played forward (determinized Monte Carlo).

For each of ``Budget.samples`` deals of the unseen cards consistent with the hard level's
knowledge (``deals.deal``), every playable card is played and the rest of the hand is rolled
out by fast playout policies: the deciding seat plays on as hard does (the part of hard's
score a playout can count: reach, runs, held ends, sevens, distance — ``choose_as_hard``),
the other seats by medium's key; the card with the lowest mean of "this seat's penalty minus
the others' mean penalty" wins (ties: the earlier legal action) — if the samples show it
beats hard's own choice clearly (``choose``: a paired test over the common samples),
otherwise hard's card stands. Modelling its own later
play as the hard level it improves on is what lets master beat hard (a one-step rollout
improvement of hard); modelling the others as hard too measured worse.
All candidates are scored on the same deals and the same playout random stream (common
random numbers), so the comparison is sharper than the sample count suggests.

The playout works on bit masks (``model``): one int per hand and the mask of playable cards;
it follows the rules exactly (must play when able, forced passes, a hand ends when someone
goes out or, with cards set aside, when nobody can move). It is the master's inner loop
(``_play_out``): each card is scored once per deal (``playout_scores``), the choosers and
the generator are written out inline, and ``test_fantan_master_paths`` checks it against
the plain choosers.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cache, reduce
from operator import or_

from tavola.bots.interface import Rng
from tavola.games.fantan.bots.deals import Dealer
from tavola.games.fantan.bots.heuristics import FEATURES, WEIGHTS
from tavola.games.fantan.bots.model import (
    BEYOND,
    DISTANCE,
    END_CARDS,
    NEXT,
    SEVENS,
    Seen,
    bits,
    ends_mask,
    run_behind,
    with_card,
)

_MASK = (1 << 64) - 1
_MUL = 6364136223846793005
_INC = 1442695040888963407


class Playout:
    """A tiny seeded generator for playouts (an LCG): playouts are seeded from the
    decision's RNG, so a decision stays a pure function of its inputs."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def below(self, n: int) -> int:
        self.state = (self.state * _MUL + _INC) & _MASK
        return (self.state >> 33) % n


_PLACE = tuple(DISTANCE[c] * 2 + (0 if (1 << c) & SEVENS else 1) for c in range(52))
"""The part of the playout policy's score that depends on the card alone."""


def choose_in_playout(hand: int, playable: int, rng: Playout) -> int:
    """The playout policy (medium's): the card with most of your cards further out, then not
    a seven, then the farthest from its seven; ties at random."""
    best = -1
    best_score = -1
    ties = 0
    mask = playable
    while mask:
        low = mask & -mask
        mask ^= low
        card = low.bit_length() - 1
        score = (BEYOND[card] & hand).bit_count() * 16 + _PLACE[card]
        if score > best_score:
            best, best_score, ties = card, score, 1
        elif score == best_score:
            ties += 1
            if rng.below(ties) == 0:
                best = card
    return best


_W = dict(zip(FEATURES, WEIGHTS, strict=True))
_REACH, _RUN, _END, _DIST, _SEVEN = (
    _W[name] for name in ("reach", "run", "own_end", "distance", "seven")
)
_DISTANCE_SCORE = tuple(_DIST * DISTANCE[c] for c in range(52))
_SEVEN_SCORE = tuple(_SEVEN if (1 << c) & SEVENS else 0.0 for c in range(52))


def choose_as_hard(hand: int, playable: int, rng: Playout) -> int:
    """The deciding seat's own playout policy: hard's score restricted to what a playout can
    count (reach, run, own end, seven, distance); ties at random."""
    best = -1
    best_score = -1e18
    ties = 0
    mask = playable
    while mask:
        low = mask & -mask
        mask ^= low
        card = low.bit_length() - 1
        score = (
            _REACH * (BEYOND[card] & hand).bit_count()
            + _RUN * run_behind(hand, card)
            + _END * (END_CARDS[card] & hand).bit_count()
            + _DISTANCE_SCORE[card]
            + _SEVEN_SCORE[card]
        )
        if score > best_score:
            best, best_score, ties = card, score, 1
        elif score == best_score:
            ties += 1
            if rng.below(ties) == 0:
                best = card
    return best


def scores_as_hard(hand: int) -> list[float]:
    """``choose_as_hard``'s score of every card of ``hand``, by card (0.0 for the others):
    the same sum in the same order, so that ties stay ties."""
    scores = [0.0] * 52
    for card in bits(hand):
        scores[card] = (
            _REACH * (BEYOND[card] & hand).bit_count()
            + _RUN * run_behind(hand, card)
            + _END * (END_CARDS[card] & hand).bit_count()
            + _DISTANCE_SCORE[card]
            + _SEVEN_SCORE[card]
        )
    return scores


@cache
def _row_scores(row: int) -> tuple[int, ...]:
    """``choose_in_playout``'s score of each card of a suit by rank position (0 for cards
    not held), for a holder of ``row``, its 13 bits of that suit; at most 8,192 of them."""
    return tuple(
        (BEYOND[pos] & row).bit_count() * 16 + _PLACE[pos] if row >> pos & 1 else 0
        for pos in range(13)
    )


def scores_in_playout(hand: int) -> tuple[int, ...]:
    """``choose_in_playout``'s score of every card of ``hand``, by card (0 for the others).
    A card's score only counts cards of its own suit, so it is put together suit by suit."""
    return (
        _row_scores(hand & 8191)
        + _row_scores(hand >> 13 & 8191)
        + _row_scores(hand >> 26 & 8191)
        + _row_scores(hand >> 39)
    )


Scores = Sequence[float]
"""A seat's playout scores of its cards, by card."""


def playout_scores(hands: Sequence[int], me: int, mine: Scores | None = None) -> list[Scores]:
    """Per seat, its playout policy's score of each of its cards: ``choose_as_hard``'s for
    seat ``me`` (``mine``, if worked out already), ``choose_in_playout``'s for the others.

    A card's score stays what it is while its holder keeps it, so it can be worked out when
    the hand is dealt: both policies score a card by the holder's cards further out in its
    direction (reach, run, end card), and none of those can be played before it (a row
    grows outward from its seven one card at a time). Every candidate's playout of a deal
    shares these scores; seat ``me``'s own hand is the same in every deal."""
    return [
        (scores_as_hard(hand) if mine is None else mine) if seat == me else scores_in_playout(hand)
        for seat, hand in enumerate(hands)
    ]


_BIT = tuple(1 << card for card in range(52))

_TURNED = tuple((1 << card) | NEXT[card] for card in range(52))
"""What playing a card changes in the playable cards: it leaves them, the cards it
uncovers (never playable before it) join them."""

_FOLLOWING = tuple(tuple((seat + 1) % n for seat in range(n)) for n in range(8))
"""Per number of players, the seat after each seat."""

_CARDS_OF: dict[int, tuple[int, tuple[int, ...]]] = {}
"""The cards of a set of playable cards, the lowest and the others (lowest first), for the
sets met lately: a turn looks its cards up rather than taking the set apart bit by bit.
Cleared when it holds ``_CARDS_OF_LIMIT`` sets (about 2 MB): most turns meet a set met
before even with a quarter of that."""

_CARDS_OF_LIMIT = 1 << 14


def _cards_of(playable: int) -> tuple[int, tuple[int, ...]]:
    """The lowest card of ``playable`` and the others, lowest first, kept in ``_CARDS_OF``."""
    if len(_CARDS_OF) >= _CARDS_OF_LIMIT:
        _CARDS_OF.clear()
    lowest, *others = bits(playable)
    cards = _CARDS_OF[playable] = (lowest, tuple(others))
    return cards


def play_out(hands: list[int], ends: int, turn: int, rng: Playout, me: int = -1) -> list[int]:
    """Plays the hand to its end from ``turn``; returns the hands left (mutates ``hands``).
    Seat ``me`` plays by ``choose_as_hard``, the others by ``choose_in_playout``."""
    rng.state = _play_out(hands, ends, turn, rng.state, playout_scores(hands, me))
    return hands


def _play_out(
    hands: list[int], ends: int, seat: int, state: int, seat_scores: Sequence[Scores]
) -> int:
    """``play_out`` with the generator's state as an int and every held card's score worked
    out (``playout_scores``); returns the generator's state after.

    This is the master's inner loop, so the choosers and the generator are written out here
    (same scores, same ties, same draws: the test suite steps the rules with the choosers
    and compares)."""
    following = _FOLLOWING[len(hands)]
    last = (seat - 1) % len(hands)  # the seat that played last: as if the one before had
    cards_of = _CARDS_OF
    while True:
        hand = hands[seat]
        playable = hand & ends
        if playable:
            card, others = cards_of.get(playable) or _cards_of(playable)
            if others:  # several cards: the best score, ties at random
                scores = seat_scores[seat]
                best_score = scores[card]
                ties = 1
                for candidate in others:
                    score = scores[candidate]
                    if score > best_score:
                        card, best_score, ties = candidate, score, 1
                    elif score == best_score:
                        ties += 1
                        state = (state * _MUL + _INC) & _MASK  # ``Playout.below``
                        if (state >> 33) % ties == 0:
                            card = candidate
            hand ^= _BIT[card]
            hands[seat] = hand
            if not hand:
                return state
            ends ^= _TURNED[card]
            last = seat
        elif seat == last:  # everyone passed since its card: nobody can move
            return state
        seat = following[seat]


def penalty_of(seen: Seen, hand: int) -> int:
    """What the cards of ``hand`` cost (``hand_penalty`` is the fast form)."""
    total = 0
    while hand:
        low = hand & -hand
        total += seen.penalty[low.bit_length() - 1]
        hand ^= low
    return total


@cache
def _penalties_by_suit(penalty: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Per suit, the penalty of each of the 8,192 sets of its cards (by their 13 bits).
    One table per penalty scheme (an option set), built once: a few milliseconds."""
    tables = []
    for suit in range(4):
        table = [0] * 8192
        for cards in range(1, 8192):
            low = cards & -cards
            table[cards] = table[cards ^ low] + penalty[suit * 13 + low.bit_length() - 1]
        tables.append(tuple(table))
    return tuple(tables)


def hand_penalty(seen: Seen) -> Callable[[int], int]:
    """``penalty_of`` for this knowledge's penalties as a function of the hand alone: a
    count of cards when each costs 1, else four table lookups."""
    if all(p == 1 for p in seen.penalty):
        return int.bit_count
    clubs, diamonds, hearts, spades = _penalties_by_suit(seen.penalty)
    return lambda hand: (
        clubs[hand & 8191]
        + diamonds[hand >> 13 & 8191]
        + hearts[hand >> 26 & 8191]
        + spades[hand >> 39]
    )


def outcomes(seen: Seen, candidates: Sequence[int], samples: int, rng: Rng) -> list[list[float]]:
    """Per candidate card, its standing cost on each of ``samples`` sampled deals: this
    seat's penalty minus the mean penalty of the others (lowest total wins, so what counts
    is the gap to the table, not the penalty alone). Same deals and playout streams for
    every candidate (common random numbers)."""
    samples = max(1, samples)
    values = [[0.0] * samples for _ in candidates]
    me = seen.seat
    # Per candidate: the ends once it is played, and this seat's hand without it.
    starts = [(ends_mask(with_card(seen.rows, c)), seen.hand & ~(1 << c)) for c in candidates]
    nxt = (me + 1) % seen.players
    others = seen.players - 1
    dealer = Dealer(seen)
    penalty = hand_penalty(seen)
    my_scores = scores_as_hard(seen.hand)
    for k in range(samples):
        hands = dealer.deal(rng)
        seed = int(rng.random() * (1 << 53))  # ``Playout(seed)``: below 2**53, as it stands
        scores = playout_scores(hands, me, my_scores)
        for i, (ends, mine) in enumerate(starts):
            left = list(hands)
            left[me] = mine
            if mine:
                _play_out(left, ends, nxt, seed, scores)
            own = penalty(left[me])
            table = penalty(reduce(or_, left))  # the seats' hands are disjoint
            values[i][k] = own - (table - own) / others
    return values


def evaluate(seen: Seen, candidates: Sequence[int], samples: int, rng: Rng) -> list[float]:
    """Mean standing cost after each candidate card (``outcomes``, averaged)."""
    return [sum(v) / len(v) for v in outcomes(seen, candidates, samples, rng)]


EVIDENCE_Z = 1.5
"""How sure master must be to overrule hard: the sampled mean advantage of its best card
over hard's card must exceed this many standard errors of the paired differences."""


def choose(seen: Seen, candidates: Sequence[int], prior: int, samples: int, rng: Rng) -> int:
    """The index of the card to play: the best sampled mean, but hard's card (``prior``)
    unless the samples show the best one is better by more than ``EVIDENCE_Z`` standard
    errors. With few samples and near-equal cards, the noise of the means would otherwise
    overrule a well-fitted heuristic at random (on the 1-per-card table that made master
    merely level with hard); the paired test keeps what the samples do show."""
    values = outcomes(seen, candidates, samples, rng)
    n = len(values[0])
    means = [sum(v) / n for v in values]
    best = min(range(len(candidates)), key=lambda i: (means[i], i))
    if best == prior or n < 2:
        return best
    diffs = [b - p for b, p in zip(values[best], values[prior], strict=True)]
    mean = sum(diffs) / n
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return best if mean < -EVIDENCE_Z * math.sqrt(variance / n) else prior
