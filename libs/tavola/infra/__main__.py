"""``python -m tavola.infra``: run a private Postgres and NATS until Ctrl-C or SIGTERM.

Prints ``TAVOLA_DATABASE_URL=...`` and ``TAVOLA_NATS_URL=...`` lines, ready for ``export``.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import time
from collections.abc import Sequence
from types import FrameType

from tavola.infra.errors import InfraError
from tavola.infra.local import DATABASE_URL_VARIABLE, NATS_URL_VARIABLE, LocalInfra

DEFAULT_DATA_DIR = os.path.join(".tavola", "local-infra")


class _StopRequest:
    """Set by SIGINT/SIGTERM; the main loop polls it."""

    def __init__(self) -> None:
        self.signal_name: str | None = None

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        self.signal_name = signal.Signals(signum).name


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    stop = _StopRequest()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, stop)
    try:
        with LocalInfra.from_env_or_start(args.data_dir) as infra:
            print(f"{DATABASE_URL_VARIABLE}={infra.database_url}", flush=True)
            print(f"{NATS_URL_VARIABLE}={infra.nats_url}", flush=True)
            return _serve(infra, stop)
    except InfraError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1


def _serve(infra: LocalInfra, stop: _StopRequest) -> int:
    while stop.signal_name is None:
        dead = infra.dead_services()
        if dead:
            print(f"error: {', '.join(dead)} exited unexpectedly", file=sys.stderr)
            return 1
        time.sleep(0.2)
    print(f"{stop.signal_name}: stopping", file=sys.stderr, flush=True)
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tavola.infra",
        description="Run a private Postgres and NATS (JetStream) on free loopback ports.",
    )
    parser.add_argument(
        "--data-dir",
        default=DEFAULT_DATA_DIR,
        help=f"folder holding their data, reused between runs (default: {DEFAULT_DATA_DIR})",
    )
    return parser


if __name__ == "__main__":
    sys.exit(main())
