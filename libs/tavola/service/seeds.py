"""Match seeds: drawn from a cryptographic source, kept in ``match_secrets``."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

import asyncpg

from tavola.eventlog.match_secrets import load_match_secret, store_match_secret
from tavola.protocol.errors import not_found
from tavola.rules import fairness


def new_seed() -> bytes:
    return secrets.token_bytes(fairness.SEED_BYTES)


class PostgresSeedVault:
    """Reads seeds for the engine (cached: a seed never changes)."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool
        self._cache: dict[str, bytes] = {}

    async def seed(self, match_id: str) -> bytes:
        if match_id not in self._cache:
            secret = await load_match_secret(self._pool, match_id)
            if secret is None:
                raise not_found("match.not_found", match_id=match_id)
            self._cache[match_id] = secret.seed
        return self._cache[match_id]

    async def create(self, match_id: str) -> str:
        """Draw and store a new seed; returns its commitment."""
        seed = new_seed()
        commitment = fairness.commitment(seed)
        await store_match_secret(self._pool, match_id, seed, commitment, datetime.now(UTC))
        return commitment
