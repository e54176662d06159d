"""Determinizations and fast playouts of the rest of a hand (the master's simulator).

A *determinization* deals the unseen tiles to the other seats and the boneyard, respecting
every count and every inference (a seat never gets a tile it is known to lack). Tiles are
placed most-constrained first, each at a random location weighted by its free room, among
the locations that keep the rest placeable (Hall's condition over the ≤ 4 locations).

A *playout* finishes the hand with the rule book's mechanics on plain integer lists
(playing, drawing until a tile fits while more than two remain, passing, domino, blocked)
and scores it with the rules' own scoring functions, so the points are the rules' points.
Each seat plays :func:`playout_choice`, a quick greedy rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from tavola.bots.interface import Rng
from tavola.games.dominoes.bots.inference import DOUBLE, HIGH, LOW, MASK, PIPS, TILES, Inference
from tavola.games.dominoes.events import Bonus
from tavola.games.dominoes.scoring import (
    HandResult,
    last_tile_bonus,
    score_blocked,
    score_domino,
)
from tavola.games.dominoes.state import BONEYARD_KEPT, DominoesOptions

Ends = tuple[int, int]
Move = tuple[int, int]  # (tile, end): end 0 = left, 1 = right (the opening uses 1)


# ----- moves on integer tiles ----------------------------------------------------------------
def other(tile: int, number: int) -> int:
    return LOW[tile] if HIGH[tile] == number else HIGH[tile]


def after(ends: Ends | None, move: Move) -> Ends:
    """The ends once ``move`` is laid (the opening shows high on the left)."""
    tile, end = move
    if ends is None:
        return (HIGH[tile], LOW[tile])
    if end == 0:
        return (other(tile, ends[0]), ends[1])
    return (ends[0], other(tile, ends[1]))


def moves(hand: list[int], ends: Ends | None) -> list[Move]:
    """Every distinct placement (both ends only when they give different lines)."""
    if ends is None:
        return [(t, 1) for t in hand]
    a, b = ends
    out: list[Move] = []
    for t in hand:
        m = MASK[t]
        if m >> b & 1:
            out.append((t, 1))
            if a != b and m >> a & 1:
                out.append((t, 0))
        elif m >> a & 1:
            out.append((t, 0))
    return out


def fits_any(hand: list[int], ends: Ends) -> bool:
    mask = (1 << ends[0]) | (1 << ends[1])
    return any(MASK[t] & mask for t in hand)


# ----- determinization -----------------------------------------------------------------------
@dataclass
class Deal:
    """A full position: every seat's tiles and the boneyard in drawing order."""

    held: list[list[int]]
    boneyard: list[int]


def determinize(info: Inference, rng: Rng) -> Deal:
    seats = info.others()
    room = [info.counts[s] for s in seats] + [info.boneyard]
    allowed = (
        [
            sum(1 << i for i, s in enumerate(seats) if info.can_hold(s, t)) | 1 << len(seats)
            for t in info.unseen
        ]
        if info.boneyard
        else [sum(1 << i for i, s in enumerate(seats) if info.can_hold(s, t)) for t in info.unseen]
    )
    placed = _place(list(info.unseen), allowed, room, rng)
    held: list[list[int]] = [[] for _ in range(info.players)]
    held[info.seat] = list(info.hand)
    for i, s in enumerate(seats):
        held[s] = placed[i]
    boneyard = placed[len(seats)]
    _shuffle(boneyard, rng)
    return Deal(held, boneyard)


def _place(tiles: list[int], allowed: list[int], room: list[int], rng: Rng) -> list[list[int]]:
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
    left: dict[int, int] = {}  # tiles still to place, by allowed-location mask
    for mask in allowed:
        left[mask] = left.get(mask, 0) + 1
    free = list(room)
    for i in order:
        mask = allowed[i]
        left[mask] -= 1
        options = [loc for loc in range(len(room)) if mask >> loc & 1 and free[loc] > 0]
        while len(options) > 1:
            loc = _weighted(options, free, rng)
            free[loc] -= 1
            if _feasible(left, free):
                break
            free[loc] += 1
            options.remove(loc)
        else:
            loc = options[0] if options else _any_room(free)
            free[loc] -= 1
        out[loc].append(tiles[i])
    return out


def _any_room(free: list[int]) -> int:
    """Only reached when the knowledge is contradictory; keeps the counts right."""
    return next(loc for loc, n in enumerate(free) if n > 0)


def _feasible(left: dict[int, int], free: list[int]) -> bool:
    """Hall's condition: every set of locations has room for the tiles still to place
    that can go nowhere else."""
    for subset in range(1, 1 << len(free)):
        need = 0
        for mask, n in left.items():
            if n and mask & ~subset == 0:
                need += n
        if need:
            room = 0
            for j, r in enumerate(free):
                if subset >> j & 1:
                    room += r
            if need > room:
                return False
    return True


def _weighted(options: list[int], free: list[int], rng: Rng) -> int:
    total = sum(free[loc] for loc in options)
    pick = rng.randrange(total) if total > 0 else 0
    for loc in options:
        pick -= free[loc]
        if pick < 0:
            return loc
    return options[-1]


def _shuffle(items: list[int], rng: Rng) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = rng.randrange(i + 1)
        items[i], items[j] = items[j], items[i]


# ----- playouts ----------------------------------------------------------------------------
SHOWN_BY = tuple(sum(1 << t for t in range(len(TILES)) if MASK[t] >> n & 1) for n in range(7))
"""``SHOWN_BY[n]``: the tiles (as bits) that show number ``n``."""


def playout_choice(hand: list[int], ends: Ends | None, rival: int, partner: int) -> Move:
    """Greedy, seeing the sampled hands: shed weight and doubles, keep a tile for the next
    turn, leave ends the next player (a rival) cannot match and the partner can.
    ``rival`` and ``partner`` are the masks of numbers those seats hold."""
    tiles = 0
    for t in hand:
        tiles |= 1 << t
    return _choice(hand, tiles, ends, rival, partner)


def _choice(hand: list[int], tiles: int, ends: Ends | None, rival: int, partner: int) -> Move:
    """``playout_choice`` given the hand also as bits (``tiles``)."""
    best: Move | None = None
    best_key = -100
    for move in moves(hand, ends):
        tile, end = move
        if ends is None:  # ``after``, inline
            left, right = HIGH[tile], LOW[tile]
        elif end == 0:
            left, right = LOW[tile] if HIGH[tile] == ends[0] else HIGH[tile], ends[1]
        else:
            left, right = ends[0], LOW[tile] if HIGH[tile] == ends[1] else HIGH[tile]
        mask = (1 << left) | (1 << right)
        # the other tiles of the hand that show a number of the new ends
        follow = (tiles & ~(1 << tile) & (SHOWN_BY[left] | SHOWN_BY[right])).bit_count()
        key = PIPS[tile] + (6 if DOUBLE[tile] else 0) + 3 * min(follow, 2)
        if rival & mask:
            key -= 8
        if partner & mask:
            key += 4
        if key > best_key:
            best, best_key = move, key
    assert best is not None
    return best


def _numbers(hand: list[int]) -> int:
    mask = 0
    for t in hand:
        mask |= MASK[t]
    return mask


def playout(
    deal: Deal, options: DominoesOptions, ends: Ends | None, seat: int, move: Move
) -> HandResult:
    """``seat`` lays ``move``; everyone then plays :func:`playout_choice` to the end. Each
    seat's tiles are kept as a list (their order decides ties) and as bits, with the
    numbers they show (``numbers``), so fitting the line is a bit test."""
    held = [list(h) for h in deal.held]
    tiles = [sum(1 << t for t in h) for h in held]
    numbers = [_numbers(h) for h in held]
    boneyard = list(deal.boneyard)
    players = len(held)
    draw = options.mode == "draw"
    while True:
        tile = move[0]
        before = ends
        held[seat].remove(tile)
        tiles[seat] &= ~(1 << tile)
        numbers[seat] = _numbers(held[seat])
        ends = after(ends, move)
        last = seat
        if not held[seat]:
            bonus = Bonus.NONE if before is None else last_tile_bonus(TILES[tile], before)
            return score_domino(options, seat, bonus, _pips(held))
        seat = (seat - 1) % players
        showing = (1 << ends[0]) | (1 << ends[1])
        while not numbers[seat] & showing:
            if not (draw and len(boneyard) > BONEYARD_KEPT):
                if not any(n & showing for n in numbers):
                    return score_blocked(options, last, _pips(held))
                seat = (seat - 1) % players
                continue
            drawn = boneyard.pop(0)
            held[seat].append(drawn)
            tiles[seat] |= 1 << drawn
            numbers[seat] |= MASK[drawn]
        partner = numbers[(seat + 2) % players] if players == 4 else 0
        move = _choice(held[seat], tiles[seat], ends, numbers[(seat - 1) % players], partner)


def _pips(held: list[list[int]]) -> tuple[int, ...]:
    return tuple(sum(PIPS[t] for t in h) for h in held)


def value(result: HandResult, seat: int) -> float:
    """Points of the hand for ``seat``'s side, minus those for the other side."""
    if result.winner_side is None:
        return 0.0
    return float(result.points if result.winner_side == seat % 2 else -result.points)
