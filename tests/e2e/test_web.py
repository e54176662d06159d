"""The web table in a real browser: Debian's Chromium driven by playwright-core
(``tests/e2e/web/*.test.mjs``, Node's test runner) against the platform's gateway.

Each script is one scenario of issue #18: a whole Spades match and a whole dominoes match
by keyboard (with a timer running out, a reload mid-hand, a lost network), a Barbu deal
with doubling, a Doppelkopf game with a reservation and an announcement and a Fan Tan hand
with the mouse (then the fairness check, the replay and the statistics), and the language
switch. Screenshots of every table are saved under ``.tavola/artifacts/web/``. Without a
Chromium (``make test`` installs Debian's where it can) the scripts are skipped, saying so.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tavola.cli.platform import Platform

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web"
SCRIPTS = ROOT / "tests" / "e2e" / "web"
ARTIFACTS = ROOT / ".tavola" / "artifacts" / "web"
SCENARIOS = ["spades", "dominoes", "barbu", "doppelkopf", "fantan", "language"]
NO_BROWSER = "no Chromium here: `make test` installs Debian's chromium package (as root)"


def chromium() -> str | None:
    found = os.environ.get("TAVOLA_CHROMIUM") or shutil.which("chromium")
    if not found and Path("/usr/bin/chromium").exists():
        found = "/usr/bin/chromium"
    return found


@pytest.fixture(scope="module")
def node() -> str:
    found = shutil.which("node")
    if found is None or not (WEB / "node_modules" / "playwright-core").is_dir():
        pytest.fail("the web tests need Node and web/node_modules: run `make web-test-deps`")
    return found


@pytest.fixture(scope="module")
def browser_tools(node: str) -> tuple[str, str]:
    browser = chromium()
    if browser is None:
        pytest.skip(NO_BROWSER)
    return node, browser


def run_node(node: str, args: list[str], env: dict[str, str], timeout: float) -> None:
    done = subprocess.run(
        [node, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
    )
    print(done.stdout[-20000:])
    assert done.returncode == 0, done.stdout[-8000:] + done.stderr[-4000:]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_a_person_plays_the_scenario_in_chromium(
    scenario: str, platform: Platform, browser_tools: tuple[str, str]
) -> None:
    node, browser = browser_tools
    env = {
        **os.environ,
        "TAVOLA_WEB_URL": platform.web_url,
        "TAVOLA_TOKEN": platform.token,
        "TAVOLA_CHROMIUM": browser,
        "TAVOLA_ARTIFACTS": str(ARTIFACTS),
        "TAVOLA_WEB_DIR": str(WEB),
    }
    script = SCRIPTS / f"{scenario}.test.mjs"
    run_node(node, ["--test", "--test-reporter=spec", str(script)], env, timeout=420)


def test_the_web_clients_unit_tests_pass(node: str) -> None:
    vitest = WEB / "node_modules" / "vitest" / "vitest.mjs"
    run_node(node, [str(vitest), "run", "--root", str(WEB)], dict(os.environ), timeout=300)
