"""Entrypoint: ``python -m services.lobby``."""

from __future__ import annotations

import asyncio

from tavola.service.config import ServiceConfig
from tavola.service.logging import configure
from tavola.service.runtime import stop_on_signals

from services.lobby.bootstrap import run


async def main() -> None:
    config = ServiceConfig.from_env()
    configure("lobby", json=config.json_logs, level=config.log_level)
    async with stop_on_signals() as stop:
        await run(config, stop)


if __name__ == "__main__":
    asyncio.run(main())
