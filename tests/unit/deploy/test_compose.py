"""docker-compose.yml runs the services of one image tagged by version, after healthy NATS
and Postgres, with scrapeable metrics, and with Prometheus and Grafana fed by the files in
deploy/. (Rendered from the YAML alone: no Docker engine is needed.)"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from support.deploy import ROOT, load_yaml_documents
from tavola.service.config import EventStreamLimits, metrics_address

INFRASTRUCTURE = {"postgres", "nats"}


def platform_services(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The services that run tavola's own image."""
    return {
        name: service
        for name, service in compose["services"].items()
        if service.get("image", "").split(":")[0] == "tavola"
    }


def mounts(service: dict[str, Any]) -> dict[str, Path]:
    """Container path -> file or folder of this repository, for the bind mounts."""
    found = {}
    for volume in service.get("volumes", []):
        source, target, *_ = volume.split(":")
        if source.startswith("./"):
            found[target] = ROOT / source
    return found


def test_the_platform_is_the_five_services_of_one_image_tagged_by_version(
    compose: dict[str, Any], version: str
) -> None:
    services = platform_services(compose)
    assert set(services) == {"engine", "lobby", "scoring", "bots", "gateway"}
    assert {service["image"] for service in services.values()} == {f"tavola:{version}"}
    assert all(
        service["build"]["dockerfile"] == "deploy/Dockerfile" for service in services.values()
    )


def test_no_image_is_untagged_or_latest(compose: dict[str, Any]) -> None:
    for name, service in compose["services"].items():
        image = service["image"]
        repository, _, tag = image.rpartition(":")
        assert repository and tag and tag != "latest" and "/" not in tag, f"{name}: {image}"


def test_the_services_wait_for_healthy_nats_and_postgres(compose: dict[str, Any]) -> None:
    for name in INFRASTRUCTURE:
        assert compose["services"][name]["healthcheck"]["test"], f"{name} has no health check"
    for name, service in platform_services(compose).items():
        assert service["depends_on"] == {
            "postgres": {"condition": "service_healthy"},
            "nats": {"condition": "service_healthy"},
        }, name


def test_the_nats_health_check_asks_its_monitoring_port(compose: dict[str, Any]) -> None:
    nats = compose["services"]["nats"]
    command = nats["command"]
    config = (ROOT / "deploy/nats/compose.conf").read_text()  # mounted as -c
    assert command[command.index("-c") + 1] == "/etc/nats/compose.conf"
    port = re.search(r"^http: (\d+)$", config, re.MULTILINE).group(1)  # type: ignore[union-attr]
    assert "jetstream" in config
    probe = " ".join(nats["healthcheck"]["test"])
    assert f"127.0.0.1:{port}/healthz" in probe


def test_metrics_listen_on_every_interface_of_the_container(
    compose: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, service in platform_services(compose).items():
        env = service["environment"]
        assert env["TAVOLA_METRICS_PORT"] == "9100", name
        assert env["GRPC_VERBOSITY"] == "ERROR", name
        monkeypatch.setenv("TAVOLA_METRICS_ADDRESS", env["TAVOLA_METRICS_ADDRESS"])
        assert metrics_address() == "0.0.0.0"
        for key in ("TAVOLA_JS_REPLICAS", "TAVOLA_JS_MAX_AGE_SECONDS"):
            monkeypatch.setenv(key, env[key])
        assert EventStreamLimits.from_env().replicas == 1  # one NATS server


def test_prometheus_scrapes_every_service_on_its_metrics_port(compose: dict[str, Any]) -> None:
    prometheus = compose["services"]["prometheus"]
    config_path = mounts(prometheus)["/etc/prometheus/prometheus.yml"]
    (config,) = load_yaml_documents(config_path)
    targets: set[str] = set()
    for job in config["scrape_configs"]:
        for dns in job.get("dns_sd_configs", []):
            targets |= {f"{name}:{dns['port']}" for name in dns["names"]}
        for static in job.get("static_configs", []):
            targets |= set(static["targets"])
    for name, service in platform_services(compose).items():
        assert f"{name}:{service['environment']['TAVOLA_METRICS_PORT']}" in targets
        assert name in prometheus["depends_on"]


def test_grafana_is_provisioned_with_the_prometheus_and_the_dashboard(
    compose: dict[str, Any],
) -> None:
    grafana = compose["services"]["grafana"]
    mounted = mounts(grafana)
    provisioning = mounted["/etc/grafana/provisioning"]
    (datasources,) = load_yaml_documents(provisioning / "datasources" / "prometheus.yml")
    (source,) = datasources["datasources"]
    assert (source["type"], source["url"]) == ("prometheus", "http://prometheus:9090")
    (providers,) = load_yaml_documents(provisioning / "dashboards" / "tavola.yml")
    (provider,) = providers["providers"]
    dashboards = mounted[provider["options"]["path"]]
    assert (dashboards / "tavola.json").is_file()
    home = grafana["environment"]["GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH"]
    assert home == f"{provider['options']['path']}/tavola.json"


def test_every_file_compose_mounts_is_in_the_repository(compose: dict[str, Any]) -> None:
    for service in compose["services"].values():
        for target, source in mounts(service).items():
            assert source.exists(), f"{source} (mounted at {target}) is missing"


def test_the_docker_build_context_leaves_local_state_out() -> None:
    ignored = {
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    assert {".git", ".venv", ".tavola", "**/__pycache__", ".pytest_cache", "build", "dist"} <= (
        ignored
    )
