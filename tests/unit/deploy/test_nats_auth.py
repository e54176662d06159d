"""The bus of every deployment requires its users: Compose and Kubernetes carry the same
users and permissions as the private NATS of `make run` (one table, rendered)."""

from __future__ import annotations

from typing import Any

from support.deploy import ROOT
from tavola.infra.nats_auth import PERMISSIONS, SERVICE_USERS, deployed_config, password_variable


def test_the_committed_nats_users_are_the_rendered_table():
    assert (ROOT / "deploy/nats/auth.conf").read_text() == deployed_config()


def test_the_kubernetes_nats_config_includes_the_same_users(manifests: list[dict[str, Any]]):
    (config,) = [
        m for m in manifests if m["kind"] == "ConfigMap" and m["metadata"]["name"] == "nats-config"
    ]
    assert "include auth.conf" in config["data"]["nats.conf"]
    assert config["data"]["auth.conf"] == deployed_config()
    (server,) = [
        m for m in manifests if m["kind"] == "StatefulSet" and m["metadata"]["name"] == "nats"
    ]
    env = {e["name"]: e for e in server["spec"]["template"]["spec"]["containers"][0]["env"]}
    for user in PERMISSIONS:
        assert env[password_variable(user)]["valueFrom"]["secretKeyRef"] == {
            "name": "tavola-nats",
            "key": user,
        }


def test_every_kubernetes_service_logs_in_as_its_own_nats_user(manifests: list[dict[str, Any]]):
    for service in SERVICE_USERS:
        (deployment,) = [
            m
            for m in manifests
            if m["kind"] == "Deployment" and m["metadata"]["name"] == f"tavola-{service}"
        ]
        env = {e["name"]: e for e in deployment["spec"]["template"]["spec"]["containers"][0]["env"]}
        assert env["NATS_PASSWORD"]["valueFrom"]["secretKeyRef"]["key"] == service
        assert env["TAVOLA_NATS_URL"]["value"] == f"nats://{service}:$(NATS_PASSWORD)@nats:4222"
    shared = [
        m for m in manifests if m["kind"] == "ConfigMap" and m["metadata"]["name"] == "tavola-env"
    ]
    assert "TAVOLA_NATS_URL" not in shared[0]["data"]  # never one URL for everybody


def test_every_compose_service_logs_in_as_its_own_nats_user(compose: dict[str, Any]):
    nats = compose["services"]["nats"]
    assert nats["command"] == ["-c", "/etc/nats/compose.conf"]
    assert "include auth.conf" in (ROOT / "deploy/nats/compose.conf").read_text()
    for user in PERMISSIONS:
        assert password_variable(user) in nats["environment"]
    for service in SERVICE_USERS:
        url = compose["services"][service]["environment"]["TAVOLA_NATS_URL"]
        assert url.startswith(f"nats://{service}:${{{password_variable(service)}:?")
