"""Every service's metrics, scraped as Prometheus in another container would: the services
listen on all interfaces (``TAVOLA_METRICS_ADDRESS=0.0.0.0``, as in Compose and the
manifests) and the scrape goes to this machine's own non-loopback address; each finds every
metric docs/operations.md lists for that service and for every process."""

from __future__ import annotations

import re
import socket
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from support.platform import running_platform
from tavola.cli.platform import Platform
from tavola.infra.local import LocalInfra

pytestmark = pytest.mark.e2e
OPERATIONS = Path(__file__).resolve().parents[2] / "docs" / "operations.md"
SERVICES = ("engine", "lobby", "scoring", "bots", "gateway")


def outside_address() -> str | None:
    """This machine's address on its network (not loopback), or None."""
    for target in ("10.255.255.255", "192.0.2.255", "8.8.8.8"):
        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            probe.connect((target, 9))  # no packet is sent: it only picks a route
            address = str(probe.getsockname()[0])
        except OSError:
            continue
        finally:
            probe.close()
        if not address.startswith("127.") and address != "0.0.0.0":
            return address
    return None


def documented(section: str) -> set[str]:
    """The metric names of one ``### <section>`` table of docs/operations.md."""
    text = OPERATIONS.read_text()
    start = text.index(f"### {section}")
    end = text.find("\n### ", start + 4)
    body = text[start : end if end != -1 else len(text)]
    names = re.findall(r"^\| `(tavola_\w+)`", body, re.M)
    names += re.findall(r"`((?:process|python)_\w+)`", body)  # the client's own
    return {name.removesuffix("_total") for name in names}


def exposed(address: str, port: int) -> set[str]:
    with urllib.request.urlopen(f"http://{address}:{port}/metrics", timeout=10) as reply:
        text = reply.read().decode()
    return {family.name.removesuffix("_total") for family in text_string_to_metric_families(text)}


@pytest.fixture(scope="module")
def platform_on_all_interfaces(
    infra: LocalInfra, database_url: str, nats_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Platform]:
    with running_platform(
        database_url,
        nats_url,
        tmp_path_factory.mktemp("logs"),
        infra.nats_service_urls(),
        extra_env={"TAVOLA_METRICS_ADDRESS": "0.0.0.0"},
    ) as running:
        yield running


def test_every_service_is_scraped_from_outside_with_its_documented_metrics(
    platform_on_all_interfaces: Platform,
) -> None:
    address = outside_address()
    if address is None:
        pytest.skip("this machine has no address but loopback: nothing is 'outside'")
    every_process = documented("Every process")
    for service in SERVICES:
        port = platform_on_all_interfaces.metrics_ports[service]
        wanted = documented(f"{service} (") | every_process
        missing = wanted - exposed(address, port)
        assert not missing, f"{service} at {address}:{port} lacks {sorted(missing)}"
