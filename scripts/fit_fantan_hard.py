"""Fit the weights of Fan Tan's hard level (``heuristics.WEIGHTS``) against the master.

1. Positions: hands of the arena table (4 players, one hand) played by medium and hard
   seats through the rules (``tavola.bots.arena.play``); at a share of the decisions with
   two or more playable cards, the seat's knowledge (``model.read``) is kept.
2. Values: each playable card of each position is valued by the master's evaluation
   (``master.evaluate``, ``--samples`` sampled deals, common random numbers).
3. Fit: random coordinate search on the weights, minimising the mean regret of hard's
   choice (value of the chosen card minus the best value) on two thirds of the positions;
   the regret on the other third is printed beside medium's.

    .venv/bin/python scripts/fit_fantan_hard.py --positions 6000 --samples 2000 --jobs 2

The committed weights came from 6,000 positions at 2,000 samples (about 20 min on 2 cores)
and were then checked in arenas (``make bench``); the fit is a proxy, the arena is the test.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from tavola.bots.arena import play
from tavola.bots.interface import Budget, Knowledge, Rng
from tavola.games.fantan import bots
from tavola.games.fantan.bots.heuristics import FEATURES, WEIGHTS, features, medium_key
from tavola.games.fantan.bots.master import evaluate
from tavola.games.fantan.bots.model import Seen, ends_mask, read
from tavola.rules import registry

Position = tuple[list[tuple[float, ...]], list[float], list[tuple[int, int, int]]]


class Recording:
    """A level that keeps some of the positions it decides in, then plays as ``inner``."""

    def __init__(self, inner: Any, share: float, rng: random.Random, out: list[Seen]) -> None:
        self.inner, self.share, self.rng, self.out = inner, share, rng, out

    def decide(self, game: Any, knowledge: Knowledge, legal: Sequence[Any], rng: Rng, b: Budget):
        if len(legal) > 1 and self.rng.random() < self.share:
            self.out.append(read(knowledge))
        return self.inner.decide(game, knowledge, legal, rng, b)


def positions(job: int, count: int, samples: int) -> list[Position]:
    game = registry.get("fan-tan")
    rng = random.Random(job)
    kept: list[Seen] = []
    levels = {name: Recording(bots.POLICIES[name], 0.35, rng, kept) for name in ("medium", "hard")}
    # Fan Tan's ``Game.bots()`` reads ``BOTS`` when asked, so the recording levels play.
    bots.BOTS = dataclasses.replace(bots.BOTS, policies={**bots.BOTS.policies, **levels})
    out: list[Position] = []
    deal = 0
    while len(out) < count:
        seats = ["medium", "hard"] * 2 if deal % 2 else ["hard", "medium"] * 2
        play(
            game, 4, {"hands": 1}, (job * 10**6 + deal).to_bytes(32, "big"), seats, deal, Budget(1)
        )
        deal += 1
        for seen in kept[: count - len(out)]:
            cards = [c for c in range(52) if seen.hand >> c & 1 and _playable(seen, c)]
            values = evaluate(seen, cards, samples, random.Random(rng.random()))
            out.append((features(seen, cards), values, [medium_key(seen.hand, c) for c in cards]))
        kept.clear()
    return out


def _playable(seen: Seen, card: int) -> bool:
    return bool(ends_mask(seen.rows) >> card & 1)


def regret(weights: Sequence[float], rows: Sequence[Position]) -> float:
    total = 0.0
    for feats, values, _ in rows:
        scores = [sum(w * f for w, f in zip(weights, fs, strict=True)) for fs in feats]
        top = max(scores)
        chosen = [v for s, v in zip(scores, values, strict=True) if s >= top - 1e-9]
        total += statistics.fmean(chosen) - min(values)
    return total / len(rows)


def medium_regret(rows: Sequence[Position]) -> float:
    total = 0.0
    for _, values, keys in rows:
        chosen = [v for k, v in zip(keys, values, strict=True) if k == max(keys)]
        total += statistics.fmean(chosen) - min(values)
    return total / len(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=6000)
    parser.add_argument("--samples", type=int, default=2000)
    parser.add_argument("--iterations", type=int, default=2500)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    per_job = -(-args.positions // args.jobs)
    with ProcessPoolExecutor(args.jobs) as pool:
        parts = pool.map(
            positions, range(args.jobs), [per_job] * args.jobs, [args.samples] * args.jobs
        )
        rows = [row for part in parts for row in part]
    rng = random.Random(args.seed)
    rng.shuffle(rows)
    train, test = rows[: len(rows) * 2 // 3], rows[len(rows) * 2 // 3 :]
    best, best_regret = list(WEIGHTS), regret(WEIGHTS, train)
    for _ in range(args.iterations):
        trial = list(best)
        trial[rng.randrange(len(trial))] += rng.gauss(0, 2.0)
        value = regret(trial, train)
        if value < best_regret:
            best, best_regret = trial, value
    print(f"positions {len(rows)} ({len(train)} to fit, {len(test)} to test)")
    print(
        f"regret on the test third: medium {medium_regret(test):.4f}, "
        f"committed weights {regret(WEIGHTS, test):.4f}, fitted {regret(best, test):.4f}"
    )
    for name, weight in zip(FEATURES, best, strict=True):
        print(f"  {name:>14} {weight:+7.2f}")
    print("WEIGHTS =", tuple(round(w, 2) for w in best))


if __name__ == "__main__":
    main()
