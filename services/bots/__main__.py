"""Entrypoint: ``python -m services.bots``."""

from tavola.service.entry import serve

from services.bots.bootstrap import run

if __name__ == "__main__":
    serve("bots", run)
