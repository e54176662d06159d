"""Entrypoint: ``python -m services.lobby``."""

from tavola.service.entry import serve

from services.lobby.bootstrap import run

if __name__ == "__main__":
    serve("lobby", run)
