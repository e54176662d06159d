"""The thin entrypoint every service shares: parse config, configure logs, run until a
signal asks to stop."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from tavola.service.config import ServiceConfig
from tavola.service.logging import configure
from tavola.service.runtime import load_games, stop_on_signals, tune_gc
from tavola.service.runtime import run as run_service


def serve(name: str, run: Callable[[ServiceConfig, asyncio.Event], Awaitable[None]]) -> None:
    async def main() -> None:
        config = ServiceConfig.from_env()
        configure(name, json=config.json_logs, level=config.log_level, log_file=config.log_file)
        async with stop_on_signals() as stop:
            await run(config, stop)

    load_games()
    tune_gc()
    run_service(main())
