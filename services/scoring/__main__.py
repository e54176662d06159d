"""Entrypoint: ``python -m services.scoring`` (``rebuild``: every projection, from the log)."""

import asyncio
import sys

from services.scoring.bootstrap import rebuild, run
from tavola.service.config import ServiceConfig
from tavola.service.entry import serve

if __name__ == "__main__":
    if sys.argv[1:] == ["rebuild"]:
        count = asyncio.run(rebuild(ServiceConfig.from_env()))
        print(f"rebuilt ratings, statistics, league standings and the standings of {count} matches")
    else:
        serve("scoring", run)
