"""Run a coroutine to completion from synchronous code, even inside a running event loop.

``LocalInfra`` is a synchronous context manager that async tests may enter while their loop
runs; its readiness checks use asyncpg and nats-py, so they run on a private loop in a
short-lived worker thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run_blocking(make_coroutine: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Create the coroutine in a worker thread, run it there on a fresh loop, return its result."""
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="tavola-infra") as pool:
        return pool.submit(lambda: asyncio.run(make_coroutine())).result()
