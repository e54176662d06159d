"""Local infrastructure: a private Postgres and NATS (JetStream) for tests and ``tavola up``."""

from tavola.infra.databases import create_database, drop_database
from tavola.infra.errors import InfraError
from tavola.infra.local import LocalInfra
from tavola.infra.pg_server import Durability

__all__ = ["Durability", "InfraError", "LocalInfra", "create_database", "drop_database"]
