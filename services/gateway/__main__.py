"""Entrypoint: ``python -m services.gateway``."""

from __future__ import annotations

from services.gateway.bootstrap import run
from services.gateway.config import GatewayConfig
from tavola.service.logging import configure
from tavola.service.runtime import run as run_service
from tavola.service.runtime import stop_on_signals, tune_gc


async def main() -> None:
    config = GatewayConfig.from_env()
    configure("gateway", json=config.json_logs, level=config.log_level, log_file=config.log_file)
    async with stop_on_signals() as stop:
        await run(config, stop)


if __name__ == "__main__":
    tune_gc()
    run_service(main())
