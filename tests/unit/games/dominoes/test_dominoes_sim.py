"""The master's simulator against plain statements of the same rules.

``sim.py`` deals through a :class:`~tavola.games.dominoes.bots.sim.Dealer` (Hall's condition
kept as slacks, ``rng.shuffle``) and plays out on bits and tables; the references below
are the straightforward versions it replaced (Hall's condition checked over every subset,
a hand-written shuffle, lists of tiles and :func:`playout_choice`). On random positions —
voids and exclusions, contradictory ones included, every mode and scoring house rule, hands
in any order — both must give the same deals, consume the same random draws and score
every playout alike.
"""

from __future__ import annotations

import random

import pytest

from tavola.games.dominoes.bots.inference import MASK, PIPS, TILES, Inference
from tavola.games.dominoes.bots.sim import (
    Deal,
    Dealer,
    Ends,
    Move,
    after,
    determinize,
    moves,
    playout,
    playout_choice,
    playout_value,
    value,
)
from tavola.games.dominoes.events import Bonus
from tavola.games.dominoes.scoring import (
    HandResult,
    last_tile_bonus,
    score_blocked,
    score_domino,
)
from tavola.games.dominoes.state import BONEYARD_KEPT, DominoesOptions

OPTIONS = (
    DominoesOptions(mode="partnership"),
    DominoesOptions(mode="partnership", blocked_tie="lowest_single_hand", carroca_bonus=5),
    DominoesOptions(mode="block", blocked_tie="nobody_scores", la_e_lo_bonus=3),
    DominoesOptions(mode="draw", carroca_bonus=2, la_e_lo_bonus=1, cruzada_bonus=7),
)


# ----- the references ---------------------------------------------------------------------
def reference_determinize(info: Inference, rng: random.Random) -> Deal:
    seats = info.others()
    room = [info.counts[s] for s in seats] + [info.boneyard]
    spare = 1 << len(seats) if info.boneyard else 0
    allowed = [
        sum(1 << i for i, s in enumerate(seats) if info.can_hold(s, t)) | spare for t in info.unseen
    ]
    placed = _place(list(info.unseen), allowed, room, rng)
    held: list[list[int]] = [[] for _ in range(info.players)]
    held[info.seat] = list(info.hand)
    for i, s in enumerate(seats):
        held[s] = placed[i]
    boneyard = placed[len(seats)]
    _shuffle(boneyard, rng)
    return Deal(held, boneyard)


def _place(
    tiles: list[int], allowed: list[int], room: list[int], rng: random.Random
) -> list[list[int]]:
    order = list(range(len(tiles)))
    _shuffle(order, rng)
    out: list[list[int]] = [[] for _ in room]
    full = (1 << len(room)) - 1
    if all(mask == full for mask in allowed):
        start = 0
        for loc, n in enumerate(room):
            out[loc] = [tiles[i] for i in order[start : start + n]]
            start += n
        return out
    order.sort(key=lambda i: bin(allowed[i]).count("1"))
    left: dict[int, int] = {}
    for mask in allowed:
        left[mask] = left.get(mask, 0) + 1
    free = list(room)
    for i in order:
        mask = allowed[i]
        left[mask] -= 1
        options = [loc for loc in range(len(room)) if mask >> loc & 1 and free[loc] > 0]
        while len(options) > 1:
            total = sum(free[loc] for loc in options)
            pick = rng.randrange(total)
            loc = next(loc for loc in options if (pick := pick - free[loc]) < 0)
            free[loc] -= 1
            if _feasible(left, free):
                break
            free[loc] += 1
            options.remove(loc)
        else:
            loc = options[0] if options else next(j for j, n in enumerate(free) if n > 0)
            free[loc] -= 1
        out[loc].append(tiles[i])
    return out


def _feasible(left: dict[int, int], free: list[int]) -> bool:
    for subset in range(1, 1 << len(free)):
        need = sum(n for mask, n in left.items() if mask & ~subset == 0)
        if need > sum(r for j, r in enumerate(free) if subset >> j & 1):
            return False
    return True


def _shuffle(items: list[int], rng: random.Random) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = rng.randrange(i + 1)
        items[i], items[j] = items[j], items[i]


def reference_playout(
    deal: Deal, options: DominoesOptions, ends: Ends | None, seat: int, move: Move
) -> HandResult:
    held = [list(h) for h in deal.held]
    boneyard = list(deal.boneyard)
    players = len(held)
    while True:
        tile = move[0]
        before = ends
        held[seat].remove(tile)
        ends = after(ends, move)
        last = seat
        if not held[seat]:
            bonus = Bonus.NONE if before is None else last_tile_bonus(TILES[tile], before)
            return score_domino(options, seat, bonus, _pips(held))
        seat = (seat - 1) % players
        while not _fits(held[seat], ends):
            if not (options.mode == "draw" and len(boneyard) > BONEYARD_KEPT):
                if not any(_fits(h, ends) for h in held):
                    return score_blocked(options, last, _pips(held))
                seat = (seat - 1) % players
                continue
            held[seat].append(boneyard.pop(0))
        partner = _numbers(held[(seat + 2) % players]) if players == 4 else 0
        move = playout_choice(held[seat], ends, _numbers(held[(seat - 1) % players]), partner)


def _pips(held: list[list[int]]) -> tuple[int, ...]:
    return tuple(sum(PIPS[t] for t in h) for h in held)


def _fits(hand: list[int], ends: Ends) -> bool:
    return any(MASK[t] >> ends[0] & 1 or MASK[t] >> ends[1] & 1 for t in hand)


def _numbers(hand: list[int]) -> int:
    mask = 0
    for t in hand:
        mask |= MASK[t]
    return mask


# ----- random positions ---------------------------------------------------------------------
def random_info(rng: random.Random, options: DominoesOptions) -> Inference:
    """A hand in play seen by a random seat: random counts and boneyard (the other tiles are
    on the line), random ends, random voids and exclusions (sometimes more than the unseen
    tiles allow)."""
    players = 4 if options.mode == "partnership" else 2
    tiles = list(range(len(TILES)))
    rng.shuffle(tiles)
    seat = rng.randrange(players)
    counts = tuple(rng.randrange(1, 8) for _ in range(players))
    boneyard = 0 if players == 4 else rng.randrange(15)
    hand = sorted(tiles[: counts[seat]])
    unseen = sorted(tiles[counts[seat] : sum(counts) + boneyard])
    ends = None if rng.random() < 0.1 else (rng.randrange(7), rng.randrange(7))
    void = [rng.choice((0, 0, 1 << rng.randrange(7), rng.randrange(128))) for _ in counts]
    excluded = [set(rng.sample(unseen, min(len(unseen), rng.randrange(3)))) for _ in counts]
    void[seat], excluded[seat] = 0, set()
    return Inference(
        seat=seat,
        players=players,
        mode=options.mode,
        options=options,
        hand=hand,
        ends=ends,
        counts=counts,
        boneyard=boneyard,
        unseen=unseen,
        void=void,
        excluded=excluded,
    )


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: o.mode)
def test_the_dealer_deals_and_draws_as_the_plain_determinization(
    options: DominoesOptions,
) -> None:
    for k in range(150):
        info = random_info(random.Random(f"{options}/{k}"), options)
        dealer = Dealer(info)
        ours, theirs = random.Random(k), random.Random(k)
        for _ in range(4):
            assert dealer.deal(ours) == reference_determinize(info, theirs)
        assert determinize(info, ours) == reference_determinize(info, theirs)
        assert ours.random() == theirs.random()


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: o.mode)
def test_a_playout_ends_and_scores_as_the_plain_playout(options: DominoesOptions) -> None:
    for k in range(150):
        rng = random.Random(f"{options}/play/{k}")
        info = random_info(rng, options)
        deal = determinize(info, rng)
        for hand in deal.held:  # hands in any order: the order breaks ties of the rule
            rng.shuffle(hand)
        deal = Deal(deal.held, deal.boneyard)
        for move in moves(deal.held[info.seat], info.ends):
            expected = reference_playout(deal, options, info.ends, info.seat, move)
            assert playout(deal, options, info.ends, info.seat, move) == expected
            points = playout_value(deal, options, info.ends, info.seat, move)
            assert points == value(expected, info.seat)
