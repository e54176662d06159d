"""The scoring service's projections against a fresh fold of the log.

Once the services have stopped, the platform's database is copied (``CREATE DATABASE …
TEMPLATE``), ``python -m services.scoring rebuild`` throws the copy's standings and ratings
away and rebuilds them from the log, and the live tables must equal the rebuilt ones: the
standings of every match, every rating (the same numbers: ratings depend on the order of
matches, and both follow the log's global order), the ended matches recorded.

``caught_up`` tells, while the services run, whether the projections have consumed every
match that ended (the settle phase waits for it before anything is compared).
"""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Any

import asyncpg

from tavola.faults.checks import Violation, compare_rows
from tavola.infra.databases import database_url, drop_database, quote_identifier

STANDINGS = (
    "SELECT match_id, seat, game, player_name, is_bot, score, rank, house_rules, account_id"
    " FROM match_standings"
)
RATINGS = "SELECT player, game, mu, sigma, matches, name FROM ratings"
PROCESSED = "SELECT event_id FROM scoring_processed"
_CAUGHT_UP = """
SELECT
  (SELECT count(*) FROM events WHERE type = 'match.MatchEnded') AS ended,
  (SELECT count(DISTINCT match_id) FROM match_standings) AS scored,
  (SELECT count(*) FROM events e WHERE e.type = 'match.MatchEnded' AND NOT EXISTS
     (SELECT 1 FROM tracking t WHERE t.name = 'ratings'
        AND (t.tx, t.position) >= (e.tx, e.position))) AS unrated,
  (SELECT count(*) FROM events WHERE type = 'table.MatchFinished') AS tables_finished
"""


async def caught_up(url: str) -> dict[str, int]:
    """Ended matches, and how many the standings, ratings and tables have taken in."""
    connection = await asyncpg.connect(url)
    try:
        row = await connection.fetchrow(_CAUGHT_UP)
    finally:
        await connection.close()
    assert row is not None
    return dict(row.items())


async def check_scoring(
    server_url: str, name: str, timeout: float = 600.0
) -> tuple[dict[str, int], list[Violation]]:
    """Compare the live projections of database ``name`` with a rebuild on a copy."""
    live = await _read(database_url(server_url, name))
    copy = f"{name}_rebuilt"
    await drop_database(server_url, copy)
    connection = await asyncpg.connect(server_url)
    try:
        await connection.execute(
            f"CREATE DATABASE {quote_identifier(copy)} TEMPLATE {quote_identifier(name)}"
        )
    finally:
        await connection.close()
    try:
        await _rebuild(database_url(server_url, copy), timeout)
        rebuilt = await _read(database_url(server_url, copy))
    finally:
        await drop_database(server_url, copy)
    violations = [
        *compare_rows("standings", live["standings"], rebuilt["standings"], key=2),
        *compare_rows("ratings", live["ratings"], rebuilt["ratings"], key=2),
        *compare_rows("scored matches", live["processed"], rebuilt["processed"], key=1),
    ]
    figures = {f"{table} rows": len(rows) for table, rows in live.items()}
    return figures, violations


async def _read(url: str) -> dict[str, list[tuple[Any, ...]]]:
    connection = await asyncpg.connect(url)
    try:
        return {
            "standings": [tuple(r.values()) for r in await connection.fetch(STANDINGS)],
            "ratings": [tuple(r.values()) for r in await connection.fetch(RATINGS)],
            "processed": [(str(r["event_id"]),) for r in await connection.fetch(PROCESSED)],
        }
    finally:
        await connection.close()


async def _rebuild(url: str, timeout: float) -> None:
    env = dict(os.environ)
    # the rebuild reads and writes the database only; the variable must merely be set
    env.update({"TAVOLA_DATABASE_URL": url, "TAVOLA_NATS_URL": "nats://127.0.0.1:1"})
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "services.scoring",
        "rebuild",
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await asyncio.wait_for(process.communicate(), timeout)
    if process.returncode != 0:
        tail = output.decode(errors="replace")[-2000:]
        raise RuntimeError(f"services.scoring rebuild exited {process.returncode}:\n{tail}")
