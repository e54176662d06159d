"""Provably fair chance: every shuffle and draw of a match derives from its seed.

The algorithm (``tavola-fair-v1``), documented for third parties in ``docs/fairness.md``:

1. The server draws a 32-byte ``server_seed`` from a cryptographic source (an adapter, not
   this module) and publishes ``commitment = SHA-256(server_seed)`` (hex) before any deal.
2. Each seat may add a client seed (bytes, possibly empty). ``entropy = SHA-256("tavola-fair-v1"
   || for each seat in order: uint32_be(len(seed)) || seed)``.
3. For each chance request, ``key = HMAC-SHA256(server_seed, "tavola-fair-v1|" || purpose ||
   "|" || hex(entropy))``; ``purpose`` is the request's name, unique within the match
   (e.g. ``"deal/1"``, ``"first-dealer"``).
4. A byte stream: block ``i`` (i = 0, 1, …) is ``HMAC-SHA256(key, uint64_be(i))``; blocks are
   concatenated and read 8 bytes at a time as big-endian unsigned integers.
5. ``uniform(n)``: read x; reject and read again while ``x >= 2**64 - (2**64 mod n)``;
   return ``x mod n``.
6. ``shuffle(size)``: ``p = [0, 1, …, size-1]``; for ``i`` from ``size-1`` down to ``1``:
   ``j = uniform(i + 1)``, swap ``p[i]`` and ``p[j]`` (Fisher–Yates). ``draw(size)`` is
   ``(uniform(size),)``.

The rules never see the seed: the engine passes outcomes to ``Game.resolve_chance``.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence

from tavola.rules.interface import ChanceRequest

ALGORITHM = "tavola-fair-v1"
SEED_BYTES = 32


def commitment(server_seed: bytes) -> str:
    """The public fingerprint of a seed: SHA-256, lowercase hex."""
    return hashlib.sha256(server_seed).hexdigest()


def client_entropy(client_seeds: Sequence[bytes]) -> bytes:
    h = hashlib.sha256(ALGORITHM.encode())
    for seed in client_seeds:
        h.update(len(seed).to_bytes(4, "big"))
        h.update(seed)
    return h.digest()


def purpose_key(server_seed: bytes, client_seeds: Sequence[bytes], purpose: str) -> bytes:
    message = f"{ALGORITHM}|{purpose}|{client_entropy(client_seeds).hex()}".encode()
    return hmac.new(server_seed, message, hashlib.sha256).digest()


class ByteStream:
    """Deterministic uniform integers from a key (steps 4 and 5 above)."""

    __slots__ = ("_buffer", "_counter", "_key")

    def __init__(self, key: bytes) -> None:
        self._key = key
        self._counter = 0
        self._buffer = b""

    def _next_u64(self) -> int:
        if len(self._buffer) < 8:
            block = hmac.new(self._key, self._counter.to_bytes(8, "big"), hashlib.sha256)
            self._buffer += block.digest()
            self._counter += 1
        value = int.from_bytes(self._buffer[:8], "big")
        self._buffer = self._buffer[8:]
        return value

    def uniform(self, n: int) -> int:
        if n <= 0:
            raise ValueError("uniform(n) needs n >= 1")
        limit = 2**64 - (2**64 % n)
        while True:
            x = self._next_u64()
            if x < limit:
                return x % n


def shuffle(key: bytes, size: int) -> tuple[int, ...]:
    stream = ByteStream(key)
    p = list(range(size))
    for i in range(size - 1, 0, -1):
        j = stream.uniform(i + 1)
        p[i], p[j] = p[j], p[i]
    return tuple(p)


def outcome(
    server_seed: bytes, client_seeds: Sequence[bytes], request: ChanceRequest
) -> tuple[int, ...]:
    """The outcome of a chance request for a match (steps 3 to 6)."""
    key = purpose_key(server_seed, client_seeds, request.purpose)
    if request.kind == "shuffle":
        return shuffle(key, request.size)
    return (ByteStream(key).uniform(request.size),)
