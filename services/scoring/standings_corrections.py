"""The match standings follow a referee's corrections: a projection of the log that, for
each ``match.Correction``, rewrites the corrected match's rows (``Scoring.correct``) — in
the same transaction as its cursor. The rows themselves belong to the standings
(``Scoring``): a rebuild of them counts every correction in the log.
"""

from __future__ import annotations

from typing import Any

from services.scoring.app import Scoring
from services.scoring.corrected import CORRECTION
from services.scoring.projection import Projection
from tavola.eventlog.model import StoredEvent

NAME = "standings_corrections"
LOCK = 0x7A71_0004


class StandingsCorrections(Projection):
    NAME = NAME
    LOCK = LOCK

    READS = frozenset({CORRECTION})

    async def reset(self, conn: Any) -> None:
        """Nothing of its own to throw away (the standings' rebuild rewrites the rows)."""

    async def apply(self, conn: Any, event: StoredEvent) -> None:
        await Scoring(self._pool, self._store).correct(conn, event.stream_id)
