"""End-to-end fixtures: the four services as separate OS processes over real Postgres/NATS."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from support.platform import running_platform
from tavola.cli.client import Client
from tavola.cli.platform import Platform
from tavola.infra.local import LocalInfra


@pytest.fixture(scope="module")
def platform(
    infra: LocalInfra, database_url: str, nats_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Platform]:
    with running_platform(
        database_url, nats_url, tmp_path_factory.mktemp("logs"), infra.nats_service_urls()
    ) as running:
        yield running


@pytest.fixture
def client(platform: Platform) -> Iterator[Client]:
    """A client of the platform's admin account (it may host, sit and play)."""
    connected = Client.connect(platform.address, platform.token)
    yield connected
    connected.close()
