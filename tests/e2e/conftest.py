"""End-to-end fixtures: the four services as separate OS processes over real Postgres/NATS."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from support.platform import running_platform
from tavola.cli.client import Client
from tavola.cli.platform import Platform


@pytest.fixture(scope="module")
def platform(
    database_url: str, nats_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Platform]:
    with running_platform(database_url, nats_url, tmp_path_factory.mktemp("logs")) as running:
        yield running


@pytest.fixture
def client(platform: Platform) -> Iterator[Client]:
    connected = Client.connect(platform.address)
    yield connected
    connected.close()
