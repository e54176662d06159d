"""Match seeds: drawn from a cryptographic source, kept in ``match_secrets`` (a deal group's
one seed in ``deal_groups`` too)."""

from __future__ import annotations

import secrets
from collections import OrderedDict
from datetime import UTC, datetime

import asyncpg

from tavola.eventlog.match_secrets import load_match_secret, store_match_secret
from tavola.protocol.errors import not_found
from tavola.rules import fairness


def new_seed() -> bytes:
    return secrets.token_bytes(fairness.SEED_BYTES)


SEEDS = 16_384  # seeds kept in memory (LRU), as many as the engine caches matches


class PostgresSeedVault:
    """Reads seeds for the engine, caching the ``capacity`` most recently used (a seed never
    changes, so a cached one is always right; a forgotten one is read again)."""

    def __init__(self, pool: asyncpg.Pool, capacity: int = SEEDS) -> None:
        if capacity < 1:
            raise ValueError("the seed cache needs room for one seed")
        self._pool = pool
        self._capacity = capacity
        self._cache: OrderedDict[str, bytes] = OrderedDict()

    def __len__(self) -> int:
        return len(self._cache)

    async def seed(self, match_id: str) -> bytes:
        cached = self._cache.get(match_id)
        if cached is not None:
            self._cache.move_to_end(match_id)
            return cached
        secret = await load_match_secret(self._pool, match_id)
        if secret is None:
            raise not_found("match.not_found", match_id=match_id)
        self._cache[match_id] = secret.seed
        while len(self._cache) > self._capacity:
            self._cache.popitem(last=False)
        return secret.seed

    def forget(self, match_id: str) -> None:
        """The match ended (its seed is revealed in its stream): no need to keep it."""
        self._cache.pop(match_id, None)

    async def create(self, match_id: str) -> str:
        """Draw and store a new seed; returns its commitment."""
        seed = new_seed()
        commitment = fairness.commitment(seed)
        await store_match_secret(self._pool, match_id, seed, commitment, datetime.now(UTC))
        return commitment

    async def create_grouped(self, match_id: str, group: str) -> str:
        """Store the seed of ``group`` (drawn by its first match) as the match's; returns its
        commitment, the same for every match of the group."""
        seed = new_seed()
        row = await self._pool.fetchrow(
            "INSERT INTO deal_groups (group_id, seed, commitment, created_at) "
            "VALUES ($1, $2, $3, $4) ON CONFLICT (group_id) DO UPDATE SET group_id = $1 "
            "RETURNING seed, commitment",
            group,
            seed,
            fairness.commitment(seed),
            datetime.now(UTC),
        )
        assert row is not None
        await store_match_secret(
            self._pool, match_id, row["seed"], row["commitment"], datetime.now(UTC)
        )
        return str(row["commitment"])
