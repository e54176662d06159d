"""Determinizations and fast playouts of the rest of a hand (the master's simulator).

A *determinization* deals the unseen tiles to the other seats and the boneyard, respecting
every count and every inference (a seat never gets a tile it is known to lack). Tiles are
placed most-constrained first, each at a random location weighted by its free room, among
the locations that keep the rest placeable (Hall's condition over the ≤ 4 locations).
A :class:`Dealer` holds what every deal of one decision shares, so a deal costs only its
random draws.

A *playout* finishes the hand with the rule book's mechanics on tiles as bits (playing,
drawing until a tile fits while more than two remain, passing, domino, blocked) and scores
it with the rules' own scoring functions, so the points are the rules' points (the master's
:func:`playout_value` counts a domino's points as ``score_domino`` does, without building
its result). Each seat plays :func:`playout_choice`, a quick greedy rule, from tables.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

from tavola.bots.interface import Rng
from tavola.games.dominoes.bots.inference import DOUBLE, HIGH, LOW, MASK, PIPS, TILES, Inference
from tavola.games.dominoes.events import Bonus
from tavola.games.dominoes.scoring import (
    HandResult,
    last_tile_bonus,
    mask_pips,
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


# ----- determinization -----------------------------------------------------------------------
def _bits(tiles: list[int]) -> int:
    mask = 0
    for t in tiles:
        mask |= 1 << t
    return mask


@dataclass
class Deal:
    """A full position: every seat's tiles and the boneyard in drawing order.

    Derived for the playouts (``__post_init__``): ``tiles``, each seat's tiles as bits, and
    ``bias``, each tile's part of the greedy key that does not change during a playout —
    its weight, and its place in its hand (the first of equal moves wins, so the order of
    the lists is part of the deal; a drawn tile goes after the tiles dealt).
    """

    held: list[list[int]]
    boneyard: list[int]
    tiles: tuple[int, ...] = field(init=False, repr=False, compare=False)
    bias: list[int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.tiles = tuple(map(_bits, self.held))
        bias = list(_WEIGHT_KEY)
        for hand in self.held:
            for place, t in enumerate(hand):
                bias[t] -= _PLACE * place
        for place, t in enumerate(self.boneyard, len(TILES)):
            bias[t] -= _PLACE * place
        self.bias = bias


class Dealer:
    """The determinizations of one decision: the locations (the other seats in playing
    order, then the boneyard), their room, where each unseen tile may go and the Hall
    slacks before any tile is placed are worked out once; :meth:`deal` only draws.

    Hall's condition is kept as a *slack* per set of locations: its free room minus the
    tiles still to place that can go nowhere else; it holds while no slack is negative.
    The slacks are packed in one int, a byte per set (bits ``8 * set`` on), each holding
    ``slack + _SLACK_ZERO`` (a slack lies within ±28, so a byte never over- or underflows
    into the next): releasing a tile adds one to the bytes of the sets that contain all its
    locations, placing it takes one from those of the sets with its location, and "no
    slack of these sets below ``n``" is one addition and one mask.
    """

    def __init__(self, info: Inference) -> None:
        seats = info.others()
        self.info = info
        self.seats = seats
        self.room = room = [info.counts[s] for s in seats] + [info.boneyard]
        spare = 1 << len(seats) if info.boneyard else 0  # the boneyard takes anything
        self.tiles = list(info.unseen)
        self.allowed = allowed = [
            sum(1 << i for i, s in enumerate(seats) if info.can_hold(s, t)) | spare
            for t in info.unseen
        ]
        full = (1 << len(room)) - 1
        self.free_for_all = all(mask == full for mask in allowed)
        self.freedom = [bin(mask).count("1") for mask in allowed]
        self.sets = sets = _sets(len(room))
        # each set's room, less the tiles that can go nowhere else
        self.slacks = (
            _SLACK_ZERO * sets.every
            + sum(map(operator.mul, room, sets.take))
            - sum(map(sets.release.__getitem__, allowed))
        )
        # every slack at least 0 from the start: Hall's condition holds, and so it will after
        # each tile (placed where it still holds, or at the one place left, which then must)
        self.consistent = _at_least(self.slacks, sets.every, 0)

    def deal(self, rng: Rng) -> Deal:
        info = self.info
        placed = self._place(rng)
        held: list[list[int]] = [[] for _ in range(info.players)]
        held[info.seat] = list(info.hand)
        for i, s in enumerate(self.seats):
            held[s] = placed[i]
        boneyard = placed[-1]
        rng.shuffle(boneyard)  # the draws of a Fisher-Yates shuffle by ``randrange``
        return Deal(held, boneyard)

    def _place(self, rng: Rng) -> list[list[int]]:
        tiles, allowed, room = self.tiles, self.allowed, self.room
        order = list(range(len(tiles)))
        rng.shuffle(order)
        if self.free_for_all:
            out: list[list[int]] = []
            start = 0
            for n in room:
                out.append([tiles[i] for i in order[start : start + n]])
                start += n
            return out
        order.sort(key=self.freedom.__getitem__)
        out = [[] for _ in room]
        free = list(room)
        slacks = self.slacks
        sets = self.sets
        places, release, take, others = sets.places, sets.release, sets.take, sets.others
        consistent = self.consistent
        for i in order:
            mask = allowed[i]
            slacks += release[mask]  # the tile is no longer to place
            options = [loc for loc in places[mask] if free[loc]]
            while len(options) > 1:
                # a place weighted by its free room, kept if Hall's condition still holds
                # once the sets holding it lose one
                pick = rng.randrange(sum([free[loc] for loc in options]))
                for loc in options:
                    pick -= free[loc]
                    if pick < 0:
                        break
                if _at_least(slacks, take[loc], 1) and (
                    consistent or _at_least(slacks, others[loc], 0)
                ):
                    break
                options.remove(loc)
            else:
                loc = options[0] if options else _any_room(free)
            free[loc] -= 1
            slacks -= take[loc]
            out[loc].append(tiles[i])
        return out


_SLACK_ZERO = 64  # a slack's byte holds slack + 64, below 128
_SIGN = 128  # a byte's top bit


def _at_least(slacks: int, sets: int, n: int) -> bool:
    """Whether every set marked in ``sets`` (a one in its byte) has a slack of ``n`` or more
    (shifted up by ``64 - n``, each such byte reaches 128)."""
    signs = _SIGN * sets
    return (slacks + (_SLACK_ZERO - n) * sets) & signs == signs


@dataclass(frozen=True)
class _Sets:
    """The sets of ``n`` locations (bit ``loc`` per location), as bytes of a packed int."""

    places: list[list[int]]  # by set: its locations
    every: int  # a one in every set's byte
    release: list[int]  # by set of a tile's locations: the sets holding all of them
    take: list[int]  # by location: the sets holding it
    others: list[int]  # by location: the other sets


@cache
def _sets(n: int) -> _Sets:
    every = range(1, 1 << n)
    return _Sets(
        places=[[loc for loc in range(n) if s >> loc & 1] for s in range(1 << n)],
        every=_bytes(every),
        release=[_bytes(s for s in every if mask & ~s == 0) for mask in range(1 << n)],
        take=[_bytes(s for s in every if s >> loc & 1) for loc in range(n)],
        others=[_bytes(s for s in every if not s >> loc & 1) for loc in range(n)],
    )


def _bytes(sets: Iterable[int]) -> int:
    """One in the byte of each set (see :class:`Dealer`)."""
    return sum(1 << 8 * s for s in sets)


def determinize(info: Inference, rng: Rng) -> Deal:
    """One deal of the unseen tiles (``Dealer(info).deal``: a decision reuses its dealer)."""
    return Dealer(info).deal(rng)


def _any_room(free: list[int]) -> int:
    """Only reached when the knowledge is contradictory; keeps the counts right."""
    return next(loc for loc, n in enumerate(free) if n > 0)


# ----- playouts ----------------------------------------------------------------------------
SHOWN_BY = tuple(sum(1 << t for t in range(len(TILES)) if MASK[t] >> n & 1) for n in range(7))
"""``SHOWN_BY[n]``: the tiles (as bits) that show number ``n``."""


def playout_choice(hand: list[int], ends: Ends | None, rival: int, partner: int) -> Move:
    """Greedy, seeing the sampled hands: shed weight and doubles, keep a tile for the next
    turn, leave ends the next player (a rival) cannot match and the partner can.
    ``rival`` and ``partner`` are the masks of numbers those seats hold. The first of
    equally good moves wins (:func:`moves` order). :func:`playout` plays this rule from
    tables."""
    tiles = _bits(hand)
    best: Move | None = None
    best_key = -100
    for move in moves(hand, ends):
        tile = move[0]
        left, right = after(ends, move)
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


# The greedy key of a move, scaled so that ties break in the order of ``moves``: a key
# counts _POINT per point of ``playout_choice``, minus _PLACE per place of the tile in its
# hand, minus one for the left end (the right end comes first). A place is below 42 (the
# boneyard's tiles come after the 28 places of a hand), so the tie-break stays below a point.
_POINT = 128
_PLACE = 2
_WEIGHT_KEY = tuple(_POINT * (PIPS[t] + (6 if DOUBLE[t] else 0)) for t in range(len(TILES)))
_FOLLOW_KEY = tuple(_POINT * 3 * min(max(n - 1, 0), 2) for n in range(len(TILES) + 1))
"""By the count of the hand's tiles showing a new end, the played tile among them."""
_RIVAL_KEY = _POINT * 8
_PARTNER_KEY = _POINT * 4

ENDS: tuple[Ends, ...] = tuple((a, b) for a in range(7) for b in range(7))
"""The line's ends by index ``7 * left + right``."""
SHOWING = tuple(SHOWN_BY[a] | SHOWN_BY[b] for a, b in ENDS)
"""By ends index: the tiles (as bits) that fit the line."""
PLACES = tuple(
    tuple(
        tuple(
            (7 * left + right, SHOWING[7 * left + right], end - 1)
            for tile, end in moves([t], ends)
            for left, right in (after(ends, (tile, end)),)
        )
        for t in range(len(TILES))
    )
    for ends in ENDS
)
"""``PLACES[ends][tile]``: each placement of the tile, in ``moves`` order, as the ends index
after it, the tiles fitting those ends and its tie-break term (-1 on the left end)."""


def playout(
    deal: Deal, options: DominoesOptions, ends: Ends | None, seat: int, move: Move
) -> HandResult:
    """``seat`` lays ``move``; everyone then plays :func:`playout_choice` to the end, which
    the rules score."""
    out, bonus, tiles = _play_out(deal, options, ends, seat, move)
    if bonus is None:
        return score_blocked(options, out, tuple(map(mask_pips, tiles)))
    return score_domino(options, out, bonus, tuple(map(mask_pips, tiles)))


def playout_value(
    deal: Deal, options: DominoesOptions, ends: Ends | None, seat: int, move: Move
) -> float:
    """``value(playout(...), seat)``, the master's measure of a move. A domino is not built
    into a result: it scores the pips left on the other side plus the bonus of the last
    tile, as :func:`~tavola.games.dominoes.scoring.score_domino` counts them."""
    out, bonus, tiles = _play_out(deal, options, ends, seat, move)
    if bonus is None:
        return value(score_blocked(options, out, tuple(map(mask_pips, tiles))), seat)
    side = out % 2
    points = sum(map(mask_pips, tiles[1 - side :: 2])) + options.bonus_points(bonus)
    return float(points if side == seat % 2 else -points)


def _play_out(
    deal: Deal, options: DominoesOptions, ends: Ends | None, seat: int, move: Move
) -> tuple[int, Bonus | None, list[int]]:
    """The end of :func:`playout`: the seat that went out and its bonus, or the blocker and
    ``None``; and every seat's tiles left. Each seat's tiles are bits; the line is its ends
    index, so fitting and the greedy key's parts are a table look-up and a bit test (and a
    lone fitting tile with one placement, nearly half the turns, is played without its
    key)."""
    tiles = list(deal.tiles)
    bias = deal.bias
    boneyard = deal.boneyard
    drawable = len(boneyard) - BONEYARD_KEPT if options.mode == "draw" else 0
    drawn = 0
    players = len(tiles)
    following = _NEXT_SEAT[players]
    partners = players == 4
    tile = move[0]
    left, right = after(ends, move)
    at = 7 * left + right
    while True:  # ``seat`` lays ``tile``, which leaves the ends ``at``
        mine = tiles[seat] ^ (1 << tile)
        tiles[seat] = mine
        if not mine:
            return seat, Bonus.NONE if ends is None else last_tile_bonus(TILES[tile], ends), tiles
        last = seat
        showing = SHOWING[at]
        seat = following[seat]
        passed = 0
        while not tiles[seat] & showing:
            if drawn < drawable:
                tiles[seat] |= 1 << boneyard[drawn]
                drawn += 1
                continue
            passed += 1
            if passed == players:  # a round of passes without a draw: nobody fits
                return last, None, tiles
            seat = following[seat]
        mine = tiles[seat]
        places = PLACES[at]
        ends = ENDS[at]
        fitting = mine & showing
        if not fitting & (fitting - 1):  # one tile fits
            tile = fitting.bit_length() - 1
            if len(places[tile]) == 1:
                at = places[tile][0][0]
                continue
        rival = tiles[following[seat]]
        partner = tiles[seat ^ 2] if partners else 0  # seats 0 and 2, 1 and 3
        best = -(1 << 20)
        while fitting:  # ``playout_choice``, from the tables
            low = fitting & -fitting
            fitting ^= low
            t = low.bit_length() - 1
            for new, shows, tie in places[t]:
                key = bias[t] + tie + _FOLLOW_KEY[(mine & shows).bit_count()]
                if rival & shows:
                    key -= _RIVAL_KEY
                if partner & shows:
                    key += _PARTNER_KEY
                if key > best:
                    best, tile, at = key, t, new


_NEXT_SEAT = tuple(tuple((seat - 1) % players for seat in range(players)) for players in range(5))
"""By the number of players: the seat after each (play is counter-clockwise)."""


def value(result: HandResult, seat: int) -> float:
    """Points of the hand for ``seat``'s side, minus those for the other side."""
    if result.winner_side is None:
        return 0.0
    return float(result.points if result.winner_side == seat % 2 else -result.points)
