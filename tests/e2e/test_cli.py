"""The README's promise: `tavola up` in one terminal, `tavola demo` / `play` / `replay` /
`verify` in another — the real commands as separate processes."""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from tavola.cli.platform import free_port

pytestmark = pytest.mark.e2e
TAVOLA = [sys.executable, "-m", "tavola.cli.main"]


@pytest.fixture(scope="module")
def up(database_url: str, nats_url: str, tmp_path_factory) -> Iterator[tuple[str, dict[str, str]]]:
    """`tavola up` on a free port, with the test session's Postgres server and NATS."""
    import asyncio

    from tavola.infra.databases import create_database, drop_database

    name = f"tavola_cli_{secrets.token_hex(4)}"
    db = asyncio.run(create_database(database_url, name))
    port = free_port()
    workdir = tmp_path_factory.mktemp("up")
    env = dict(
        os.environ,
        TAVOLA_DATABASE_URL=db,
        TAVOLA_NATS_URL=nats_url,
        TAVOLA_NAMESPACE=name.replace("_", "-"),
        PYTHONUNBUFFERED="1",
        # the CLI's per-user state (the platform's token, the seats kept by `play`) stays
        # in the test's folder, never in the user's own
        TAVOLA_STATE_DIR=str(workdir / "state"),
        # the web table on a free port too: a platform the user runs keeps 8080
        TAVOLA_WEB_ADDRESS=f"127.0.0.1:{free_port()}",
    )
    process = subprocess.Popen(
        [*TAVOLA, "up", "--port", str(port), "--data", str(workdir)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=workdir,
    )
    try:
        _wait_for_line(process, "tavola is up", 90)
        yield f"127.0.0.1:{port}", env
    finally:
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=60)
        assert "tavola: stopped." in out
        asyncio.run(drop_database(database_url, name))


def _wait_for_line(process: subprocess.Popen[str], text: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    assert process.stdout is not None
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if text in line:
            return
        if not line and process.poll() is not None:
            raise AssertionError(f"tavola up exited with {process.returncode}")
    raise AssertionError(f"no {text!r} within {timeout} s")


def run(
    args: list[str], env: dict[str, str], stdin: str = "", timeout: float = 180
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*TAVOLA, *args], env=env, input=stdin, capture_output=True, text=True, timeout=timeout
    )


def final_lines(output: str) -> list[str]:
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("final standings"))
    return [
        line.strip() for line in lines[start + 1 :] if line.strip().startswith(tuple("123456789"))
    ]


def test_demo_then_replay_print_the_same_final_scores_and_the_match_verifies(up):
    address, env = up
    demo = run(["demo", "fan-tan", "--address", address], env)
    assert demo.returncode == 0, demo.stderr
    match_id = demo.stdout.strip().splitlines()[-1]
    shown = [
        line.strip()
        for line in demo.stdout.splitlines()
        if line.strip()[:1].isdigit() and "seat" in line
    ]
    replay = run(["replay", match_id], env)
    assert replay.returncode == 0, replay.stderr
    assert final_lines(replay.stdout) == shown
    verify = run(["verify", match_id], env)
    assert verify.returncode == 0 and verify.stdout.startswith("OK"), verify.stdout


def test_a_person_plays_a_whole_match_in_the_terminal(up):
    address, env = up
    played = run(["play", "fan-tan", "--address", address], env, stdin="1\n" * 400)
    assert played.returncode == 0, played.stderr
    assert "final standings (lowest score wins):" in played.stdout
    assert "your hand" in played.stdout  # the table, with the playable cards numbered


def test_a_person_takes_moves_back_in_the_terminal_and_the_match_still_verifies(up):
    address, env = up
    answers = "1\n" + "1\nu\n" * 3 + "1\n" * 400  # play, then take back now and then
    played = run(["play", "fan-tan", "--address", address], env, stdin=answers)
    assert played.returncode == 0, played.stderr
    assert "taken back: the table is as it was at version" in played.stdout
    assert "you took moves back" in played.stdout  # the event, as a line
    match_id = played.stdout.strip().splitlines()[-1]
    verify = run(["verify", match_id], env)
    assert verify.returncode == 0 and verify.stdout.startswith("OK"), verify.stdout
    assert " 0 differ" in verify.stdout


def test_every_game_has_a_demo(up):
    address, env = up
    for game, extra in (
        ("spades", []),
        ("barbu", []),
        ("doppelkopf", ["--preset", "tavern"]),
        ("dominoes", ["--mode", "block"]),
    ):
        demo = run(["demo", game, "--address", address, *extra], env, timeout=300)
        assert demo.returncode == 0, (game, demo.stderr[-2000:])
        assert len(demo.stdout.strip().splitlines()[-1]) == 36  # the match id
