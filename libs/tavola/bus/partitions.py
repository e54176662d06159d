"""Tables are sharded over engine processes by partition: ``partition_of(match_id)``.

``PARTITIONS`` is a property of an installation — every engine and the bot service must
agree on it, so it is a constant here, not a setting. 64 partitions let up to 64 engines
share the tables and keep a partition's handover small (1/64 of the tables at a time);
the function is SHA-256 of the match id, so tables spread evenly whatever their ids.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

PARTITIONS = 64
REMEMBERED = 1 << 15  # match ids whose partition is kept (an engine asks on every request)


@lru_cache(maxsize=REMEMBERED)
def partition_of(match_id: str) -> int:
    digest = hashlib.sha256(match_id.encode()).digest()
    return int.from_bytes(digest[:4], "big") % PARTITIONS
