"""Fixtures of the deploy tests: the Compose file, the rendered Kubernetes manifests, the
metrics the code declares, the version in pyproject.toml. No network, no database."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest

from support.deploy import (
    K8S,
    ROOT,
    Metric,
    code_metrics,
    load_yaml_documents,
    render_kustomization,
)


@pytest.fixture(scope="session")
def version() -> str:
    with (ROOT / "pyproject.toml").open("rb") as file:
        return str(tomllib.load(file)["project"]["version"])


@pytest.fixture(scope="session")
def compose() -> dict[str, Any]:
    (document,) = load_yaml_documents(ROOT / "docker-compose.yml")
    return document


@pytest.fixture(scope="session")
def manifests() -> list[dict[str, Any]]:
    return render_kustomization(K8S)


@pytest.fixture(scope="session")
def metrics() -> dict[str, Metric]:
    return code_metrics()
