"""What the deploy tests (tests/unit/deploy) read: the repository's YAML, its Kubernetes
manifests (the kustomization rendered here — no kustomize binary, no cluster), and the
Prometheus metrics the code declares."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
METRIC_KINDS = ("Counter", "Gauge", "Histogram", "Summary")


@dataclass(frozen=True)
class Metric:
    """A metric as the code declares it (``Counter("name", "help", ["label"...])``)."""

    name: str
    kind: str
    labels: tuple[str, ...]
    where: str

    @property
    def series(self) -> set[str]:
        """The names Prometheus stores for it (prometheus_client's exposition)."""
        if self.kind == "Counter":
            return {self.name if self.name.endswith("_total") else f"{self.name}_total"}
        if self.kind == "Histogram":
            return {f"{self.name}_{suffix}" for suffix in ("bucket", "sum", "count")}
        if self.kind == "Summary":
            return {self.name, f"{self.name}_sum", f"{self.name}_count"}
        return {self.name}


def load_yaml_documents(path: Path) -> list[dict[str, Any]]:
    with path.open() as file:
        return [doc for doc in yaml.safe_load_all(file) if doc]


def render_kustomization(folder: Path) -> list[dict[str, Any]]:
    """What ``kustomize build folder`` gives for the features this one uses: its resources,
    in order, each put in its namespace. Anything else in the file fails the test, so a new
    kustomize feature cannot go unrendered here."""
    (kustomization,) = load_yaml_documents(folder / "kustomization.yaml")
    unsupported = set(kustomization) - {"apiVersion", "kind", "namespace", "resources"}
    assert not unsupported, f"render_kustomization does not know {sorted(unsupported)}"
    objects = []
    for resource in kustomization["resources"]:
        for obj in load_yaml_documents(folder / resource):
            if kustomization.get("namespace") and obj["kind"] != "Namespace":
                obj.setdefault("metadata", {})["namespace"] = kustomization["namespace"]
            objects.append(obj)
    return objects


def code_metrics() -> dict[str, Metric]:
    """Every metric declared in services/ and libs/ (the generated code aside)."""
    found: dict[str, Metric] = {}
    for path in sorted([*(ROOT / "services").rglob("*.py"), *(ROOT / "libs").rglob("*.py")]):
        if "tavola/v1" in path.as_posix():
            continue
        tree = ast.parse(path.read_text(), filename=str(path))
        imported = _prometheus_names(tree)
        for node in ast.walk(tree):
            metric = _declared_metric(node, imported, path)
            if metric is not None:
                assert metric.name not in found, f"{metric.name} declared twice"
                found[metric.name] = metric
    return found


def _prometheus_names(tree: ast.Module) -> set[str]:
    return {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "prometheus_client"
        for alias in node.names
        if alias.name in METRIC_KINDS
    }


def _declared_metric(node: ast.AST, imported: set[str], path: Path) -> Metric | None:
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
        return None
    if node.func.id not in imported or not node.args:
        return None
    name = node.args[0]
    if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
        return None
    labels: tuple[str, ...] = ()
    label_node = node.args[2] if len(node.args) > 2 else None
    for keyword in node.keywords:
        if keyword.arg == "labelnames":
            label_node = keyword.value
    if label_node is not None:
        labels = tuple(ast.literal_eval(label_node))
    return Metric(name.value, node.func.id, labels, str(path.relative_to(ROOT)))
