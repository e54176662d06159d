"""Entrypoint: ``python -m services.bots``."""

from services.bots.bootstrap import run
from tavola.service.entry import serve

if __name__ == "__main__":
    serve("bots", run)
