"""The Kubernetes manifests render, validate against the Kubernetes schemas (offline, with
kubernetes-validate's bundled schemas), and keep the platform's invariants: resources and
separate probes for every workload, a disruption budget per Deployment, version tags,
scrapeable metrics, a NATS cluster whose peers find each other, an R3 events stream, and a
replicated Postgres whose secret the services read."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import kubernetes_validate
import pytest

from support.deploy import K8S, load_yaml_documents
from tavola.service.config import EventStreamLimits, metrics_address

KUBERNETES_VERSIONS = ("1.30", kubernetes_validate.latest_version())
WORKLOADS = ("Deployment", "StatefulSet")
CNPG_API = "postgresql.cnpg.io/v1"
ALTERNATIVES = sorted((K8S / "alternatives").glob("*.yaml"))


def alternative_objects() -> list[dict[str, Any]]:
    return [obj for path in ALTERNATIVES for obj in load_yaml_documents(path)]


def of_kind(objects: list[dict[str, Any]], *kinds: str) -> list[dict[str, Any]]:
    return [obj for obj in objects if obj["kind"] in kinds]


def named(objects: list[dict[str, Any]], kind: str, name: str) -> dict[str, Any]:
    (found,) = [o for o in objects if o["kind"] == kind and o["metadata"]["name"] == name]
    return found


def containers(workload: dict[str, Any]) -> list[dict[str, Any]]:
    spec = workload["spec"]["template"]["spec"]
    return [*spec.get("initContainers", []), *spec["containers"]]


def environment(container: dict[str, Any], objects: list[dict[str, Any]]) -> dict[str, str]:
    """The container's plain environment, ConfigMaps of ``envFrom`` included."""
    env: dict[str, str] = {}
    for source in container.get("envFrom", []):
        config_map = named(objects, "ConfigMap", source["configMapRef"]["name"])
        env.update(config_map["data"])
    env.update({e["name"]: e["value"] for e in container.get("env", []) if "value" in e})
    return env


def tavola_containers(objects: list[dict[str, Any]]) -> Iterator[tuple[dict, dict]]:
    for workload in of_kind(objects, *WORKLOADS):
        for container in containers(workload):
            if container["image"].split(":")[0] == "tavola":
                yield workload, container


def test_the_kustomization_renders_its_resources_into_one_namespace(
    manifests: list[dict[str, Any]],
) -> None:
    kinds = {obj["kind"] for obj in manifests}
    assert {"Namespace", "Deployment", "StatefulSet", "PodDisruptionBudget", "Cluster"} <= kinds
    assert {
        obj["metadata"].get("namespace") for obj in manifests if obj["kind"] != "Namespace"
    } == {"tavola"}
    keys = [(obj["kind"], obj["metadata"]["name"]) for obj in manifests]
    assert len(keys) == len(set(keys)), "two objects of one kind share a name"


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
def test_every_object_validates_against_the_kubernetes_schema(
    manifests: list[dict[str, Any]], version: str
) -> None:
    for obj in [*manifests, *alternative_objects()]:
        if obj["apiVersion"] == CNPG_API:
            continue  # a custom resource: checked below, its schema is the operator's
        try:
            kubernetes_validate.validate(obj, version, strict=True)
        except kubernetes_validate.ValidationError as error:
            path = ".".join(str(part) for part in error.path)
            pytest.fail(f"{obj['kind']}/{obj['metadata']['name']}: {path}: {error.message}")


def test_every_container_has_cpu_and_memory_requests_and_limits(
    manifests: list[dict[str, Any]],
) -> None:
    workloads = of_kind([*manifests, *alternative_objects()], *WORKLOADS)
    assert workloads
    for workload in workloads:
        for container in containers(workload):
            resources = container.get("resources", {})
            for bound in ("requests", "limits"):
                assert set(resources.get(bound, {})) >= {"cpu", "memory"}, (
                    f"{workload['metadata']['name']}/{container['name']} lacks {bound}"
                )
    (cluster,) = of_kind(manifests, "Cluster")
    assert set(cluster["spec"]["resources"]["requests"]) >= {"cpu", "memory"}
    assert set(cluster["spec"]["resources"]["limits"]) >= {"cpu", "memory"}


def test_every_container_has_its_own_liveness_and_readiness_probes(
    manifests: list[dict[str, Any]],
) -> None:
    for workload in of_kind([*manifests, *alternative_objects()], *WORKLOADS):
        for container in workload["spec"]["template"]["spec"]["containers"]:
            where = f"{workload['metadata']['name']}/{container['name']}"
            liveness, readiness = container.get("livenessProbe"), container.get("readinessProbe")
            assert liveness and readiness, f"{where} needs both probes"
            assert liveness != readiness, f"{where}: liveness and readiness are one probe"
            # liveness is the slower to act: a slow moment takes a pod out, it does not kill it
            period = "periodSeconds"
            assert liveness.get(period, 10) * liveness.get("failureThreshold", 3) > readiness.get(
                period, 10
            ) * readiness.get("failureThreshold", 3), where


def test_every_deployment_has_a_disruption_budget_that_lets_a_node_drain(
    manifests: list[dict[str, Any]],
) -> None:
    budgets = of_kind(manifests, "PodDisruptionBudget")
    for workload in of_kind(manifests, *WORKLOADS):
        labels = workload["spec"]["template"]["metadata"]["labels"]
        matching = [
            budget
            for budget in budgets
            if budget["spec"]["selector"]["matchLabels"].items() <= labels.items()
        ]
        name = workload["metadata"]["name"]
        if workload["kind"] == "Deployment":
            assert len(matching) == 1, f"Deployment {name} needs one PodDisruptionBudget"
        for budget in matching:
            spec = budget["spec"]
            replicas = workload["spec"].get("replicas", 1)
            assert spec.get("maxUnavailable", 0) >= 1 or spec["minAvailable"] < replicas, (
                f"the budget of {name} would block every eviction"
            )


def test_images_are_tagged_by_version_never_latest(
    manifests: list[dict[str, Any]], version: str
) -> None:
    images = [c["image"] for w in of_kind(manifests, *WORKLOADS) for c in containers(w)]
    images += [c["spec"]["imageName"] for c in of_kind(manifests, "Cluster")]
    images += [
        c["image"] for w in of_kind(alternative_objects(), *WORKLOADS) for c in containers(w)
    ]
    for image in images:
        name, _, tag = image.rpartition(":")
        assert name and tag and tag != "latest" and "/" not in tag, f"{image}: no version tag"
    tavola = {c["image"] for _, c in tavola_containers(manifests)}
    assert tavola == {f"tavola:{version}"}


def test_metrics_are_annotated_on_the_port_they_listen_on_and_on_every_interface(
    manifests: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = 0
    for workload, container in tavola_containers(manifests):
        seen += 1
        annotations = workload["spec"]["template"]["metadata"]["annotations"]
        env = environment(container, manifests)
        ports = {port.get("name"): port["containerPort"] for port in container["ports"]}
        assert annotations["prometheus.io/scrape"] == "true"
        assert annotations["prometheus.io/port"] == env["TAVOLA_METRICS_PORT"]
        assert ports["metrics"] == int(env["TAVOLA_METRICS_PORT"])
        monkeypatch.setenv("TAVOLA_METRICS_ADDRESS", env["TAVOLA_METRICS_ADDRESS"])
        assert metrics_address() == "0.0.0.0"
        assert env["GRPC_VERBOSITY"] == "ERROR"
    assert seen == 5


def test_the_probes_ask_the_port_each_service_serves_health_on(
    manifests: list[dict[str, Any]],
) -> None:
    for _, container in tavola_containers(manifests):
        env = environment(container, manifests)
        serving = env.get("TAVOLA_GRPC_ADDRESS") or env["TAVOLA_HEALTH_ADDRESS"]
        port = int(serving.rsplit(":", 1)[1])
        for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
            assert container[probe]["grpc"]["port"] == port, f"{container['name']} {probe}"


def test_the_nats_peers_find_each_other_before_they_are_ready(
    manifests: list[dict[str, Any]],
) -> None:
    nats = named(manifests, "StatefulSet", "nats")
    service = named(manifests, "Service", nats["spec"]["serviceName"])
    assert service["spec"]["clusterIP"] == "None"
    assert service["spec"]["publishNotReadyAddresses"] is True
    config = named(manifests, "ConfigMap", "nats-config")["data"]["nats.conf"]
    for index in range(nats["spec"]["replicas"]):
        assert f"nats://nats-{index}.nats:6222" in config
    assert "include auth.conf" in config  # the platform's users (test_nats_auth.py)


def test_the_events_stream_is_replicated_on_three_servers_and_bounded(
    manifests: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    (config_map,) = [
        cm for cm in of_kind(manifests, "ConfigMap") if "TAVOLA_JS_REPLICAS" in cm["data"]
    ]
    for name, value in config_map["data"].items():
        monkeypatch.setenv(name, value)
    limits = EventStreamLimits.from_env()  # the services' own parser accepts them
    nats = named(manifests, "StatefulSet", "nats")
    assert limits.replicas == 3 <= nats["spec"]["replicas"]
    assert limits.max_age_seconds <= 7 * 24 * 3600
    store = named(manifests, "ConfigMap", "nats-config")["data"]["nats.conf"]
    assert "max_file_store: 10G" in store and 0 < limits.max_bytes < 10 * 1024**3


def test_postgres_is_a_replicated_cloudnativepg_cluster_whose_secret_the_services_read(
    manifests: list[dict[str, Any]],
) -> None:
    (cluster,) = of_kind(manifests, "Cluster")
    spec = cluster["spec"]
    assert cluster["apiVersion"] == CNPG_API
    assert spec["instances"] >= 2, "a primary and at least one replica"
    assert spec["storage"]["size"]
    assert spec["bootstrap"]["initdb"] == {"database": "tavola", "owner": "tavola"}
    assert spec["postgresql"]["synchronous"]["number"] >= 1
    app_secret = f"{cluster['metadata']['name']}-app"  # made by the operator
    for _, container in tavola_containers(manifests):
        urls = [e for e in container["env"] if e["name"] == "TAVOLA_DATABASE_URL"]
        if container["name"] == "gateway":  # it only relays to the engine: no database
            assert not urls
            continue
        (database_url,) = urls
        assert database_url["valueFrom"]["secretKeyRef"] == {"name": app_secret, "key": "uri"}


def test_the_plain_postgres_alternative_offers_the_same_names(
    manifests: list[dict[str, Any]],
) -> None:
    objects = alternative_objects()
    (cluster,) = of_kind(manifests, "Cluster")
    name = cluster["metadata"]["name"]
    secret = named(objects, "Secret", f"{name}-app")
    assert secret["stringData"]["uri"].startswith(f"postgresql://tavola:tavola@{name}-rw:5432/")
    assert named(objects, "Service", f"{name}-rw")
    assert named(objects, "StatefulSet", name)


# the NATS passwords and the web gateway's token: deploy/k8s/README.md
OPERATOR_SECRETS = {("Secret", "tavola-nats"), ("Secret", "tavola-gateway")}


def test_the_secrets_the_operator_creates_are_documented() -> None:
    readme = (K8S / "README.md").read_text()
    for _, name in OPERATOR_SECRETS:
        assert f"kubectl create secret generic {name}" in readme


def test_every_config_map_and_secret_a_pod_names_exists(
    manifests: list[dict[str, Any]],
) -> None:
    provided = {(o["kind"], o["metadata"]["name"]) for o in manifests}
    provided |= {("Secret", f"{c['metadata']['name']}-app") for c in of_kind(manifests, "Cluster")}
    provided |= OPERATOR_SECRETS
    for workload in of_kind(manifests, *WORKLOADS):
        spec = workload["spec"]["template"]["spec"]
        for volume in spec.get("volumes", []):
            if "configMap" in volume:
                assert ("ConfigMap", volume["configMap"]["name"]) in provided
        for container in containers(workload):
            for source in container.get("envFrom", []):
                assert ("ConfigMap", source["configMapRef"]["name"]) in provided
            for env in container.get("env", []):
                reference = env.get("valueFrom", {}).get("secretKeyRef")
                if reference:
                    assert ("Secret", reference["name"]) in provided
