"""Structured logging: JSON lines in services, readable lines on a terminal.

structlog's own events and every standard-library logger (asyncio, grpc's Python side,
asyncpg, nats, warnings) go through one handler whose ``ProcessorFormatter`` renders them
alike, so with ``TAVOLA_LOG_FORMAT=json`` each line a service logs is one JSON object. The
lines go to stderr, or — ``TAVOLA_LOG_FILE`` — to that file, rotated by size. What is
written before logging is configured (a traceback at import time) and what gRPC's C core
prints itself (``GRPC_VERBOSITY``) stay plain text on stderr.
"""

from __future__ import annotations

import contextlib
import logging
import logging.handlers
import sys
from collections.abc import Iterator
from typing import Any

import structlog

from tavola.service import tracing
from tavola.service.config import LogFile

HANDLER_NAME = "tavola"


def configure(
    service: str, json: bool = True, level: str = "INFO", log_file: LogFile | None = None
) -> None:
    """Configure logging once per process; every line carries the service name. Tracing
    too, when the OTEL variables ask for it (``tavola.service.tracing``).

    ``log_file`` ``None``: the one ``TAVOLA_LOG_FILE`` names, else stderr.
    """
    target = log_file or LogFile.from_env()
    shared: list[structlog.types.Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        structlog.processors.StackInfoRenderer(),
        tracing.log_ids,
    ]
    handler = _handler(target)
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            foreign_pre_chain=[*shared, structlog.stdlib.ExtraAdder()],
            processors=[
                structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                structlog.processors.format_exc_info,
                _renderer(json, colors=target is None and sys.stderr.isatty()),
            ],
        )
    )
    _install(handler, level)
    structlog.configure(
        processors=[*shared, structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
        wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelName(level)),
        logger_factory=structlog.stdlib.LoggerFactory(),
        cache_logger_on_first_use=True,
    )
    structlog.contextvars.bind_contextvars(service=service)
    tracing.configure(service)


def _handler(target: LogFile | None) -> logging.Handler:
    if target is None:
        return logging.StreamHandler(sys.stderr)
    return logging.handlers.RotatingFileHandler(
        target.path, maxBytes=target.max_bytes, backupCount=target.backups, encoding="utf-8"
    )


def _renderer(json: bool, colors: bool) -> structlog.types.Processor:
    if json:
        return structlog.processors.JSONRenderer()
    return structlog.dev.ConsoleRenderer(colors=colors)


def _install(handler: logging.Handler, level: str) -> None:
    """Make ``handler`` the root logger's (replacing one a previous call installed)."""
    handler.set_name(HANDLER_NAME)
    root = logging.getLogger()
    for previous in [h for h in root.handlers if h.get_name() == HANDLER_NAME]:
        root.removeHandler(previous)
        previous.close()
    root.addHandler(handler)
    root.setLevel(level)
    logging.captureWarnings(True)


@contextlib.contextmanager
def bound(**ids: Any) -> Iterator[None]:
    """``ids`` on every log line within (a request's table, match and seat ids), the values
    they had restored after: what ``structlog.contextvars.bound_contextvars`` does, by its
    tokens — without reading the whole context first and binding twice (every move comes
    this way, and that cost more than the ids' own work)."""
    tokens = structlog.contextvars.bind_contextvars(**ids)
    try:
        yield
    finally:
        structlog.contextvars.reset_contextvars(**tokens)
