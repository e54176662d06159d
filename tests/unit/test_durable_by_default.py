"""The platform's private Postgres is durable unless asked otherwise, and only the test
suite asks: its ``infra`` fixture (tests/conftest.py) — and the tests of the mode itself."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ALLOWED = {
    "libs/tavola/infra/pg_server.py",  # where the mode is defined and applied
    "tests/conftest.py",  # the one place that asks for it
    "tests/integration/test_local_infra.py",  # tests of the modes
}


def names_the_fast_mode(path: Path) -> bool:
    text = path.read_text()
    return "Durability" in text and any(
        isinstance(node, ast.Attribute)
        and node.attr == "FAST"
        and isinstance(node.value, ast.Name)
        and node.value.id == "Durability"
        for node in ast.walk(ast.parse(text, filename=str(path)))
    )


def test_only_the_test_suite_asks_for_the_fast_postgres() -> None:
    asking = {
        str(path.relative_to(ROOT))
        for folder in ("libs", "services", "scripts", "tests")
        for path in (ROOT / folder).rglob("*.py")
        if "tavola/v1/" not in path.as_posix() and names_the_fast_mode(path)
    }
    assert asking <= ALLOWED, f"asking for a non-durable Postgres: {sorted(asking - ALLOWED)}"
    assert "tests/conftest.py" in asking
