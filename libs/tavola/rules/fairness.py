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
import struct
from collections.abc import Iterator, Sequence
from itertools import chain, count

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
    return hmac.digest(server_seed, message, "sha256")


_U64 = 2**64
_WORDS = struct.Struct(">4Q")  # a 32-byte block as four big-endian 8-byte words
_LIMITS = tuple(_U64 - (_U64 % n) if n else 0 for n in range(65))  # step 5 for small n


_BLOCK_SIZE = 64  # SHA-256's block, for HMAC's pads (RFC 2104)
_IPAD = bytes(i ^ 0x36 for i in range(256))  # translation tables: each byte xor the pad
_OPAD = bytes(i ^ 0x5C for i in range(256))


def _u64s(key: bytes) -> Iterator[int]:
    """The byte stream of a key read 8 bytes at a time (step 4), without end. Each block is
    ``HMAC-SHA256(key, uint64_be(i))``, computed from the two padded key hashes once
    (RFC 2104; ``hmac.digest`` would hash the pads again for every block)."""
    if len(key) > _BLOCK_SIZE:
        key = hashlib.sha256(key).digest()
    padded = key.ljust(_BLOCK_SIZE, b"\0")
    inner = hashlib.sha256(padded.translate(_IPAD))
    outer = hashlib.sha256(padded.translate(_OPAD))

    def block(counter: int) -> bytes:
        first = inner.copy()
        first.update(counter.to_bytes(8, "big"))
        second = outer.copy()
        second.update(first.digest())
        return second.digest()

    return chain.from_iterable(map(_WORDS.unpack, map(block, count())))


def _limit(n: int) -> int:
    return _LIMITS[n] if n < len(_LIMITS) else _U64 - (_U64 % n)


class ByteStream:
    """Deterministic uniform integers from a key (steps 4 and 5 above)."""

    __slots__ = ("_words",)

    def __init__(self, key: bytes) -> None:
        self._words = _u64s(key)

    def _next_u64(self) -> int:
        return next(self._words)

    def uniform(self, n: int) -> int:
        if n <= 0:
            raise ValueError("uniform(n) needs n >= 1")
        limit = _limit(n)
        words = self._words
        while True:
            x = next(words)
            if x < limit:
                return x % n


def _steps(size: int) -> tuple[tuple[int, int, int], ...]:
    """Step 6's swaps for a size: (i, i + 1, step 5's limit for i + 1), i from size-1 to 1."""
    return tuple((i, i + 1, _limit(i + 1)) for i in range(size - 1, 0, -1))


_STEPS = tuple(_steps(size) for size in range(65))


def shuffle(key: bytes, size: int) -> tuple[int, ...]:
    """Step 6, with step 5 inlined (the hot loop of every deal)."""
    words = _u64s(key)
    p = list(range(size))
    for i, n, limit in _STEPS[size] if size < len(_STEPS) else _steps(size):
        x = next(words)
        while x >= limit:
            x = next(words)
        j = x % n
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
