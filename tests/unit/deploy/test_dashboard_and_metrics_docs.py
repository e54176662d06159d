"""The Grafana dashboard is valid JSON whose every query names metrics the code declares,
it covers what an operator watches, and docs/operations.md lists every declared metric with
its labels."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from support.deploy import DEPLOY, ROOT, Metric

DASHBOARD = DEPLOY / "grafana" / "dashboards" / "tavola.json"
OPERATIONS = ROOT / "docs" / "operations.md"
PROMETHEUS_OWN = {"up"}  # series Prometheus itself records for every target
METRIC_NAME = re.compile(r"\b([a-z_][a-z0-9_]*)\s*(?=\{|\[|\))")
GROUPING = r"\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)"
PROMQL_WORDS = {
    "sum", "max", "min", "avg", "count", "rate", "irate", "increase", "histogram_quantile",
    "and", "or", "unless", "abs", "clamp_min", "time",
}  # fmt: skip


@pytest.fixture(scope="module")
def dashboard() -> dict[str, Any]:
    return json.loads(DASHBOARD.read_text())


def queries(dashboard: dict[str, Any]) -> list[str]:
    return [
        target["expr"]
        for panel in dashboard["panels"]
        for target in panel.get("targets", [])
        if "expr" in target
    ]


def queried_metrics(expression: str) -> set[str]:
    """Metric names of a PromQL expression: identifiers before a selector, a range or the
    closing parenthesis of a function, less PromQL's own words."""
    plain = re.sub(r"\{[^}]*\}", "{}", expression)  # label matchers
    plain = re.sub(GROUPING, "", plain)  # by (game), on (method)…
    return {name for name in METRIC_NAME.findall(plain) if name not in PROMQL_WORDS}


def test_the_dashboard_is_a_grafana_dashboard_of_prometheus_panels(
    dashboard: dict[str, Any],
) -> None:
    assert dashboard["uid"] and dashboard["title"] and dashboard["schemaVersion"] >= 30
    panels = [panel for panel in dashboard["panels"] if panel["type"] != "row"]
    assert panels
    ids = [panel["id"] for panel in dashboard["panels"]]
    assert len(ids) == len(set(ids))
    variables = {variable["name"] for variable in dashboard["templating"]["list"]}
    for panel in panels:
        assert panel["targets"], panel["title"]
        assert panel["datasource"]["type"] == "prometheus"
        assert panel["datasource"]["uid"].strip("${}") in variables
        assert {"h", "w", "x", "y"} <= panel["gridPos"].keys()


def test_every_metric_the_dashboard_queries_is_declared_in_the_code(
    dashboard: dict[str, Any], metrics: dict[str, Metric]
) -> None:
    series = set().union(*(metric.series for metric in metrics.values()))
    for expression in queries(dashboard):
        names = queried_metrics(expression)
        assert names, f"no metric found in {expression!r}"
        unknown = names - series - PROMETHEUS_OWN
        assert not unknown, f"{expression!r} queries {sorted(unknown)}, which no code declares"


def test_the_labels_the_dashboard_groups_by_exist_on_its_metrics(
    dashboard: dict[str, Any], metrics: dict[str, Metric]
) -> None:
    by_series = {name: metric for metric in metrics.values() for name in metric.series}
    for expression in queries(dashboard):
        grouped = {
            label.strip()
            for group in re.findall(r"by \(([^)]*)\)", expression)
            for label in group.split(",")
        } - {"le", "job"}
        for name in queried_metrics(expression) - PROMETHEUS_OWN:
            assert grouped <= set(by_series[name].labels), (expression, name)


@pytest.mark.parametrize(
    "needed",
    [
        "tavola_engine_commands_total",  # moves by game, command outcomes
        "tavola_grpc_server_handling_seconds_bucket",  # RPC latency p50/p99
        "tavola_grpc_server_handled_total",  # RPC error rates
        "tavola_engine_event_streams_open",
        "tavola_relay_published_total",
        "tavola_consumer_pending_events",  # consumer lag
        "tavola_engine_timer_expiries_total",
        "tavola_bots_decisions_total",
    ],
)
def test_the_dashboard_shows_what_an_operator_watches(
    dashboard: dict[str, Any], needed: str
) -> None:
    assert any(needed in queried_metrics(expression) for expression in queries(dashboard))


def test_the_operations_page_lists_every_metric_with_its_labels(
    metrics: dict[str, Metric],
) -> None:
    rows = [line for line in OPERATIONS.read_text().splitlines() if line.startswith("| `")]
    for metric in metrics.values():
        documented = [row for row in rows if row.startswith(f"| `{metric.name}` |")]
        assert documented, f"docs/operations.md does not list {metric.name} ({metric.where})"
        for row in documented:
            cells = [cell.strip() for cell in row.strip("|").split("|")]
            labels = set(re.findall(r"`([a-z_]+)`", cells[2]))
            assert labels == set(metric.labels), f"{metric.name}: labels {cells[2]!r}"
            assert cells[1] == metric.kind.lower(), f"{metric.name}: type {cells[1]!r}"
