"""Entrypoint: ``python -m services.scoring`` (``rebuild`` rebuilds from the log)."""

from __future__ import annotations

import asyncio
import sys

from tavola.service.config import ServiceConfig
from tavola.service.logging import configure
from tavola.service.runtime import stop_on_signals

from services.scoring.bootstrap import rebuild, run


async def main() -> None:
    config = ServiceConfig.from_env()
    configure("scoring", json=config.json_logs, level=config.log_level)
    if sys.argv[1:] == ["rebuild"]:
        print(f"rebuilt standings of {await rebuild(config)} matches")
        return
    async with stop_on_signals() as stop:
        await run(config, stop)


if __name__ == "__main__":
    asyncio.run(main())
