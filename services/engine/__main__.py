"""Entrypoint: ``python -m services.engine``."""

from __future__ import annotations

from services.engine.bootstrap import run
from services.engine.config import EngineConfig
from tavola.service.logging import configure
from tavola.service.runtime import load_games, stop_on_signals, tune_gc
from tavola.service.runtime import run as run_service


async def main() -> None:
    config = EngineConfig.from_env()
    configure("engine", json=config.service.json_logs, level=config.service.log_level)
    async with stop_on_signals() as stop:
        await run(config, stop)


if __name__ == "__main__":
    load_games()
    tune_gc()
    run_service(main())
