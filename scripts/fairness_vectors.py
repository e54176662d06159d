"""Regenerate docs/fairness-vectors.json: seeds in, outcomes out (``tavola-fair-v1``)."""

from __future__ import annotations

import hashlib
import json
import pathlib

from tavola.rules import fairness
from tavola.rules.cards import standard_deck
from tavola.rules.interface import ChanceRequest

OUT = pathlib.Path(__file__).resolve().parent.parent / "docs" / "fairness-vectors.json"


def vectors() -> list[dict[str, object]]:
    cases: list[dict[str, object]] = []
    seeds = [bytes(32), bytes(range(32)), hashlib.sha256(b"tavola").digest()]
    client_sets: list[list[bytes]] = [
        [],
        [b"", b"", b"", b""],
        [b"alice", b"", b"bob", b"\x00\xff"],
    ]
    requests = [
        ChanceRequest("first-dealer", "draw", 4),
        ChanceRequest("deal/1", "shuffle", 52),
        ChanceRequest("deal/2", "shuffle", 28),
        ChanceRequest("deal/1", "shuffle", 48),
    ]
    deck = standard_deck()
    for seed in seeds:
        for clients in client_sets:
            for request in requests:
                outcome = fairness.outcome(seed, clients, request)
                case: dict[str, object] = {
                    "server_seed_hex": seed.hex(),
                    "commitment": fairness.commitment(seed),
                    "client_seeds_hex": [c.hex() for c in clients],
                    "purpose": request.purpose,
                    "kind": request.kind,
                    "size": request.size,
                    "key_hex": fairness.purpose_key(seed, clients, request.purpose).hex(),
                    "outcome": list(outcome),
                }
                if request.kind == "shuffle" and request.size == 52:
                    case["deck_order"] = [deck[i].code for i in outcome]
                cases.append(case)
    return cases


def main() -> None:
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(
        json.dumps({"algorithm": fairness.ALGORITHM, "vectors": vectors()}, indent=1) + "\n"
    )
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
