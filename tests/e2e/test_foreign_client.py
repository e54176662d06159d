"""A client in another language (Node's gRPC stack) plays a whole match from the proto
files alone, taking a move back once. Skipped when Node or its gRPC packages cannot be had
on this machine."""

from __future__ import annotations

import json
import pathlib
import shutil
import subprocess

import pytest

pytestmark = pytest.mark.e2e
HERE = pathlib.Path(__file__).resolve().parent / "clients"
PROTO = pathlib.Path(__file__).resolve().parents[2] / "proto"


@pytest.fixture(scope="module")
def node_modules(tmp_path_factory) -> pathlib.Path:
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node is not installed")
    folder = tmp_path_factory.mktemp("node")
    try:
        done = subprocess.run(
            [
                "npm",
                "install",
                "--silent",
                "--no-audit",
                "--no-fund",
                "@grpc/grpc-js@1",
                "@grpc/proto-loader@0.7",
            ],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=300,
        )
    except subprocess.TimeoutExpired:
        pytest.skip("npm did not answer in time")
    if done.returncode != 0:
        pytest.skip(f"npm could not install the gRPC packages: {done.stderr[-300:]}")
    return folder / "node_modules"


def test_a_node_client_plays_a_match_and_gets_reasons_in_portuguese(platform, node_modules):
    node = shutil.which("node")
    assert node is not None
    done = subprocess.run(
        [node, str(HERE / "node_client.js"), platform.address, str(PROTO), platform.token],
        env={"NODE_PATH": str(node_modules)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["finished"] and seen["moves"] > 0 and seen["reasons"] > 0
    assert seen["taken"] > 0  # TakeBack from another stack: back to before its third move
    assert seen["illegal"]["code"] == 9  # FAILED_PRECONDITION
    details = seen["illegal"]["details"].lower()
    assert any(word in details for word in ("ouros", "fila", "sete", "ponta"))  # Portuguese
