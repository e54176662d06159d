"""The medium and hard evaluations of a move, and the hint's reason.

* **medium** — the heaviest playable tile (most pips, then the higher number); when it fits
  both ends, the end after which more of its own tiles still fit (left on a tie).
* **hard** — scores every placement with what :mod:`.inference` knows: shed pips and
  doubles; keep a tile that follows the new ends and keep many numbers in hand; make the
  next opponent pass (probability from the unseen tiles it may hold, zero when it is known
  to lack both ends); keep the ends open for the partner; block the hand only when the
  count favours its side; go out whenever it can.
"""

from __future__ import annotations

from dataclasses import dataclass

from tavola.games.dominoes.bots.inference import DOUBLE, HIGH, MASK, PIPS, Inference
from tavola.games.dominoes.bots.sim import Ends, Move, after

# Weights of the hard evaluation (tuned in arenas against medium; see the bots page).
W_PIPS = 1.0
W_DOUBLE = 4.0
W_FOLLOW = 5.0  # some own tile still fits the new ends
W_STUCK = 6.0  # nothing of ours fits the new ends
W_NUMBERS = 0.7  # per distinct number kept in hand
W_NEXT = 10.0  # the next opponent can play
W_PARTNER = 6.0  # the partner can play
W_THIRD = 3.0  # the other opponent can play
DOMINO = 1000.0


def medium_choice(hand: list[int], ends: Ends | None, legal: list[Move]) -> Move:
    def key(move: Move) -> tuple[int, int, int, int]:
        rest = [t for t in hand if t != move[0]]
        new = after(ends, move)
        mask = (1 << new[0]) | (1 << new[1])
        follow = sum(1 for t in rest if MASK[t] & mask)
        return (PIPS[move[0]], HIGH[move[0]], follow, -move[1])

    return max(legal, key=key)


def play_chance(info: Inference, seat: int, ends: Ends, share: dict[int, float]) -> float:
    """Probability that ``seat`` holds a tile for ``ends`` (0 when it surely lacks both)."""
    mask = (1 << ends[0]) | (1 << ends[1])
    miss = 1.0
    for tile in info.unseen:
        if MASK[tile] & mask and info.can_hold(seat, tile):
            miss *= 1.0 - info.counts[seat] / share[tile]
    return 1.0 - miss


def shares(info: Inference) -> dict[int, float]:
    """For each unseen tile, the room of every place that may hold it (boneyard included)."""
    out = {}
    for tile in info.unseen:
        room = sum(info.counts[s] for s in info.others() if info.can_hold(s, tile))
        out[tile] = float(room + info.boneyard) or 1.0
    return out


@dataclass(frozen=True)
class Assessment:
    move: Move
    score: float
    goes_out: bool
    blocks: bool
    next_chance: float
    follow: int


def assess(info: Inference, move: Move, share: dict[int, float]) -> Assessment:
    tile = move[0]
    rest = [t for t in info.hand if t != tile]
    new = after(info.ends, move)
    if not rest:
        return Assessment(move, DOMINO + PIPS[tile], True, False, 0.0, 0)
    mask = (1 << new[0]) | (1 << new[1])
    follow = sum(1 for t in rest if MASK[t] & mask)
    score = W_PIPS * PIPS[tile] + (W_DOUBLE if DOUBLE[tile] else 0.0)
    score += W_FOLLOW if follow else -W_STUCK
    score += W_NUMBERS * bin(_numbers(rest)).count("1")
    blocks = not follow and not any(MASK[t] & mask for t in info.unseen)
    if blocks and (info.mode != "draw" or info.boneyard <= 2):
        return Assessment(move, score + _block_value(info, rest), False, True, 0.0, 0)
    order = info.others()
    chance = play_chance(info, order[0], new, share)
    score -= W_NEXT * chance
    partner = info.partner()
    if partner is not None:
        score += W_PARTNER * play_chance(info, partner, new, share)
        score -= W_THIRD * play_chance(info, order[2], new, share)
    return Assessment(move, score, False, False, chance, follow)


def _numbers(tiles: list[int]) -> int:
    mask = 0
    for t in tiles:
        mask |= MASK[t]
    return mask


def _block_value(info: Inference, rest: list[int]) -> float:
    """Expected points for our side of blocking now (the unseen pips split by counts)."""
    held = sum(info.counts[s] for s in info.others()) + info.boneyard
    mean = sum(PIPS[t] for t in info.unseen) / held if held else 0.0
    partner = info.partner()
    ours = sum(PIPS[t] for t in rest) + (info.counts[partner] * mean if partner is not None else 0)
    theirs = sum(info.counts[s] for s in info.others() if s != partner) * mean
    if ours < theirs - 2:
        return theirs
    return -ours - 10.0


def hard_choice(info: Inference, legal: list[Move]) -> Assessment:
    share = shares(info)
    scored = [assess(info, move, share) for move in legal]
    return max(scored, key=lambda a: (a.score, -legal.index(a.move)))


def numbers_text(ends: Ends) -> str:
    return str(ends[0]) if ends[0] == ends[1] else f"{ends[0]}, {ends[1]}"
