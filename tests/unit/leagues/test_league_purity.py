"""The league's seating, pairing, standings and statistics are pure: no I/O, no clock, no
global randomness (the codec, the exporter and the simulation are its edges)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[3] / "libs/tavola/leagues"
EDGES = {"codec.py", "export.py"}
FORBIDDEN = {
    "grpc",
    "nats",
    "asyncpg",
    "structlog",
    "prometheus_client",
    "time",
    "datetime",
    "uuid",
    "random",
    "os",
    "socket",
    "io",
    "google",
}


@pytest.mark.parametrize(
    "path", sorted(p for p in PACKAGE.glob("*.py") if p.name not in EDGES), ids=lambda p: p.name
)
def test_the_league_module_imports_nothing_impure(path: Path) -> None:
    for node in ast.walk(ast.parse(path.read_text())):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        bad = {n.split(".")[0] for n in names} & FORBIDDEN
        assert not bad, f"{path.name} imports {bad}"
        assert not any(n.startswith("tavola.v1") or n.startswith("tavola.protocol") for n in names)
