"""Entrypoint: ``python -m services.scoring`` (``rebuild`` rebuilds standings from the log)."""

import asyncio
import sys

from services.scoring.bootstrap import rebuild, run
from tavola.service.config import ServiceConfig
from tavola.service.entry import serve

if __name__ == "__main__":
    if sys.argv[1:] == ["rebuild"]:
        print(f"rebuilt standings of {asyncio.run(rebuild(ServiceConfig.from_env()))} matches")
    else:
        serve("scoring", run)
