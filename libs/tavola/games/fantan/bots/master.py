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
goes out or, with cards set aside, when nobody can move).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

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


def _score_in_playout(beyond: int, card: int) -> int:
    """``choose_in_playout``'s score of ``card`` from the hand's cards beyond it."""
    return beyond.bit_count() * 16 + _PLACE[card]


def _score_as_hard(beyond: int, card: int) -> float:
    """``choose_as_hard``'s score of ``card`` from the hand's cards beyond it (its run and
    its end card lie beyond it too), summed in the same order, so ties stay ties."""
    return (
        _REACH * beyond.bit_count()
        + _RUN * run_behind(beyond, card)
        + _END * (END_CARDS[card] & beyond).bit_count()
        + _DISTANCE_SCORE[card]
        + _SEVEN_SCORE[card]
    )


ScoreCache = tuple[dict[int, float], ...]
"""Per card, its playout score by the hand's cards beyond it (``hand & BEYOND[card]``), as
scored so far. A card has at most 2**12 such patterns (a seven), 17,000-odd in all, so the
caches stay small while most lookups hit after a few decisions."""

Scorer = tuple[ScoreCache, Callable[[int, int], float]]

_IN_PLAYOUT_SCORES: Scorer = (tuple({} for _ in range(52)), _score_in_playout)
_AS_HARD_SCORES: Scorer = (tuple({} for _ in range(52)), _score_as_hard)


def play_out(hands: list[int], ends: int, turn: int, rng: Playout, me: int = -1) -> list[int]:
    """Plays the hand to its end from ``turn``; returns the hands left (mutates ``hands``).
    Seat ``me`` plays by ``choose_as_hard``, the others by ``choose_in_playout``.

    This is the master's inner loop, so both choosers and the generator are written out
    here (same scores, same ties, same draws: the test suite steps the rules with the
    choosers and compares), the scores looked up in ``_IN_PLAYOUT_SCORES`` and
    ``_AS_HARD_SCORES``."""
    players = len(hands)
    state = rng.state
    passes = 0
    seat = turn
    while True:
        hand = hands[seat]
        playable = hand & ends
        if playable:
            if playable & (playable - 1):  # several cards: the best score, ties at random
                cache, score_of = _AS_HARD_SCORES if seat == me else _IN_PLAYOUT_SCORES
                card = -1
                best_score = -1e18
                ties = 0
                mask = playable
                while mask:
                    low = mask & -mask
                    mask ^= low
                    candidate = low.bit_length() - 1
                    beyond = hand & BEYOND[candidate]
                    scores = cache[candidate]
                    score = scores.get(beyond)
                    if score is None:
                        score = scores[beyond] = score_of(beyond, candidate)
                    if score > best_score:
                        card, best_score, ties = candidate, score, 1
                    elif score == best_score:
                        ties += 1
                        state = (state * _MUL + _INC) & _MASK  # ``Playout.below``
                        if (state >> 33) % ties == 0:
                            card = candidate
                flag = 1 << card
            else:
                flag = playable
                card = playable.bit_length() - 1
            hand ^= flag
            hands[seat] = hand
            if not hand:
                break
            ends = (ends ^ flag) | NEXT[card]
            passes = 0
        else:
            passes += 1
            if passes >= players:
                break
        seat += 1
        if seat == players:
            seat = 0
    rng.state = state
    return hands


def penalty_of(seen: Seen, hand: int) -> int:
    total = 0
    while hand:
        low = hand & -hand
        total += seen.penalty[low.bit_length() - 1]
        hand ^= low
    return total


def outcomes(seen: Seen, candidates: Sequence[int], samples: int, rng: Rng) -> list[list[float]]:
    """Per candidate card, its standing cost on each of ``samples`` sampled deals: this
    seat's penalty minus the mean penalty of the others (lowest total wins, so what counts
    is the gap to the table, not the penalty alone). Same deals and playout streams for
    every candidate (common random numbers)."""
    samples = max(1, samples)
    values = [[0.0] * samples for _ in candidates]
    after = [ends_mask(with_card(seen.rows, c)) for c in candidates]
    nxt = (seen.seat + 1) % seen.players
    others = seen.players - 1
    dealer = Dealer(seen)
    for k in range(samples):
        hands = dealer.deal(rng)
        seed = int(rng.random() * (1 << 53))
        for i, card in enumerate(candidates):
            left = list(hands)
            left[seen.seat] &= ~(1 << card)
            if left[seen.seat]:
                left = play_out(left, after[i], nxt, Playout(seed), seen.seat)
            pens = [penalty_of(seen, h) for h in left]
            mine = pens[seen.seat]
            values[i][k] = mine - (sum(pens) - mine) / others
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
