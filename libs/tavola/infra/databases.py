"""Databases under a Postgres server: create and drop them, and tell whether it accepts work."""

from __future__ import annotations

import re
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from tavola.infra.errors import InfraError

_MAX_IDENTIFIER = 63  # NAMEDATALEN - 1
_PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_$-]*")


def database_url(server_url: str, name: str) -> str:
    """``server_url`` pointing at database ``name`` instead (credentials and options kept)."""
    parts = urlsplit(server_url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))


def quote_identifier(name: str) -> str:
    if not _PLAIN_NAME.fullmatch(name) or len(name.encode()) > _MAX_IDENTIFIER:
        raise InfraError(f"unsuitable database name {name!r}")
    return '"' + name + '"'


async def create_database(server_url: str, name: str) -> str:
    """``CREATE DATABASE name`` on the server; returns the new database's URL."""
    statement = f"CREATE DATABASE {quote_identifier(name)}"
    connection = await asyncpg.connect(server_url)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()
    return database_url(server_url, name)


async def drop_database(server_url: str, name: str) -> None:
    """``DROP DATABASE IF EXISTS name WITH (FORCE)``: open sessions are terminated."""
    statement = f"DROP DATABASE IF EXISTS {quote_identifier(name)} WITH (FORCE)"
    connection = await asyncpg.connect(server_url)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


async def accepts_queries(url: str) -> bool:
    """Whether a session can be opened and a query answered right now."""
    try:
        connection = await asyncpg.connect(url, timeout=2)
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError):
        return False
    try:
        return bool(await connection.fetchval("SELECT 1") == 1)
    finally:
        await connection.close()
