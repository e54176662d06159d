"""Entrypoint: ``python -m services.lobby``."""

from services.lobby.bootstrap import run
from tavola.service.entry import serve

if __name__ == "__main__":
    serve("lobby", run)
