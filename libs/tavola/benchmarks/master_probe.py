"""The master level's sampled deals per CPU second on the seeded positions of
``tavola/bots/positions.py``, for whichever ``tavola`` comes first on ``PYTHONPATH``.

Run as a script, never imported by the platform: ``tavola.benchmarks.master`` runs it once
over the code of today and once over the code of an earlier commit (extracted from git),
giving both the same positions file, so the two rates are measured on the same decisions
in the same run. It imports only what both have (the bots' registry and budget, the rules'
registry; the positions module reads the rules' driver and the bots' redaction) and prints
one JSON object: game -> [samples per second, decisions].

    python master_probe.py POSITIONS_FILE SECONDS SAMPLES GAME[,GAME...]
"""

from __future__ import annotations

import importlib.util
import json
import random
import sys
import time

UNSAMPLED = ("Declare", "AnswerPoverty", "GiveBack")  # Doppelkopf's master asks hard for these


def main() -> None:
    path, seconds, samples, games = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    spec = importlib.util.spec_from_file_location("_bench_positions", path)
    assert spec is not None and spec.loader is not None
    positions = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = positions  # its dataclasses look their module up
    spec.loader.exec_module(positions)

    from tavola.bots.interface import Budget
    from tavola.bots.registry import policy_for
    from tavola.rules import registry

    out: dict[str, tuple[float, int]] = {}
    for name in games.split(","):
        game = registry.get(name)
        chosen = [
            p
            for table in positions.TABLES
            if table.game == name
            for p in positions.positions(table)
            if type(p.legal[0]).__name__ not in UNSAMPLED
        ]
        policy = policy_for(name, "master")
        decisions = 0
        started = time.process_time()
        while decisions < len(chosen) or time.process_time() - started < seconds:
            p = chosen[decisions % len(chosen)]
            policy.decide(game, p.knowledge, p.legal, random.Random(decisions), Budget(samples))
            decisions += 1
        out[name] = (decisions * samples / (time.process_time() - started), decisions)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
