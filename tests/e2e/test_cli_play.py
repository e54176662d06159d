"""`tavola play` as a person meets it: in a real terminal (a pty of 80×24), against a
running `tavola up`, for every game — a few moves, a hint, then leaving with `q`, pausing
and coming back with `--match`, or Ctrl-C (one line, no traceback, exit code 130)."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time

import pytest
from e2e.test_cli import TAVOLA, up  # noqa: F401 (the fixture `tavola up` runs under)

from tavola.rules import registry

pytestmark = pytest.mark.e2e
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[()][0-9A-Za-z]|\x1b[=>78]")
VERSION = re.compile(r"\bv(\d+)\b")
MATCH_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def visible(raw: str) -> str:
    return ANSI.sub("", raw).replace("\r", "")


def _default_interrupt() -> None:
    """In a child before its command: Ctrl-C as a person's shell leaves it. A suite started
    in the background (`&` without job control) ignores SIGINT, and its children would
    inherit that."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Terminal:
    """A command in a pseudo-terminal of ``rows`` × ``cols``; what it shows, without escapes."""

    def __init__(self, args: list[str], env: dict[str, str], rows: int = 24, cols: int = 80):
        pid, fd = pty.fork()
        if pid == 0:  # the child: a terminal of the given size, then the command
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
            _default_interrupt()
            os.execvpe(TAVOLA[0], [*TAVOLA, *args], env)
        self.pid, self.fd = pid, fd
        self.raw = ""
        self.mark = 0
        self.status: int | None = None

    def pump(self, timeout: float) -> None:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # the child has exited
            data = b""
        self.raw += data.decode("utf-8", errors="replace")

    @property
    def text(self) -> str:
        return visible(self.raw)

    def since_mark(self) -> str:
        return visible(self.raw[self.mark :])

    def expect(self, pattern: str, timeout: float = 60.0) -> re.Match[str]:
        """Wait until ``pattern`` shows after the mark; the mark moves past it."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = re.search(pattern, self.since_mark())
            if found:
                self.mark = len(self.raw)
                return found
            self.pump(0.2)
            if self.exited() and not re.search(pattern, self.since_mark()):
                self.pump(0.2)
                break
        raise AssertionError(f"no {pattern!r} within {timeout} s; the screen:\n{self.tail()}")

    def send(self, keys: str) -> None:
        self.mark = len(self.raw)
        os.write(self.fd, keys.encode())

    def interrupt(self) -> None:
        self.mark = len(self.raw)
        os.kill(self.pid, signal.SIGINT)

    def exited(self) -> bool:
        if self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
        return self.status is not None

    def wait(self, timeout: float = 30.0) -> int:
        deadline = time.monotonic() + timeout
        while not self.exited() and time.monotonic() < deadline:
            self.pump(0.2)
        for _ in range(5):
            self.pump(0.05)
        assert self.status is not None, f"still running; the screen:\n{self.tail()}"
        return self.status

    def tail(self, lines: int = 30) -> str:
        return "\n".join(self.text.splitlines()[-lines:])

    def close(self) -> None:
        if not self.exited():
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        os.close(self.fd)


@pytest.fixture(scope="module")
def env(up: tuple[str, dict[str, str]]) -> dict[str, str]:  # noqa: F811
    """The environment of `tavola up` (its private TAVOLA_STATE_DIR holds the platform's
    token and the seats `play` keeps), in a terminal."""
    address, environment = up
    assert environment.get("TAVOLA_STATE_DIR"), "the CLI's state must stay in the test"
    return dict(environment, TAVOLA_GRPC_ADDRESS=address, TERM="xterm")


def play_moves(term: Terminal, moves: int, prompt: str = "your move") -> None:
    """Take ``moves`` moves, each the first choice, when the screen asks for one."""
    for _ in range(moves):
        term.expect(prompt, 90)
        version = int(VERSION.findall(term.text)[-1])
        term.send("1\r")
        deadline = time.monotonic() + 60
        while int(VERSION.findall(term.text)[-1]) == version:
            assert time.monotonic() < deadline, term.tail()
            term.pump(0.2)
        term.mark = len(term.raw)  # the next prompt must come from a later frame


def one_line_after_the_screen(term: Terminal, needle: str) -> None:
    lines = [line for line in term.since_mark().splitlines() if line.strip()]
    tail = lines[-3:]
    assert any(needle in line for line in tail), term.tail()
    assert "Traceback" not in term.text


def start(game: str, env: dict[str, str], *extra: str) -> Terminal:
    term = Terminal(["play", game, "--level", "easy", *extra], env)
    term.expect(MATCH_ID.pattern, 90)
    return term


def test_fan_tan_moves_a_hint_then_q_leaves_the_match_for_good(env: dict[str, str]) -> None:
    term = start("fan-tan", env)
    try:
        match_id = MATCH_ID.findall(term.text)[0]
        play_moves(term, 3)
        term.expect("your move", 90)
        term.send("h\r")
        term.expect(r"hint: \d+ ")
        term.send("q\r")
        term.expect("leave for good")
        term.send("l")
        term.expect("You left match")
        assert term.wait() == 0
        assert match_id in term.since_mark() or match_id in term.text
    finally:
        term.close()
    listed = subprocess.run([*TAVOLA, "matches"], env=env, capture_output=True, text=True)
    assert re.search(rf"left\s+fan-tan\s+{match_id}", listed.stdout), listed.stdout


def test_spades_pause_then_come_back_with_match_and_ctrl_c(env: dict[str, str]) -> None:
    term = start("spades", env)
    try:
        match_id = MATCH_ID.findall(term.text)[0]
        play_moves(term, 2)
        term.expect("⏱ \\d+s")  # the seat's deadline, counting down
        term.send("q\r")
        term.expect("pause")
        term.send("p")
        term.expect(rf"tavola play --match {match_id}")
        assert term.wait() == 0
    finally:
        term.close()
    listed = subprocess.run([*TAVOLA, "matches"], env=env, capture_output=True, text=True)
    assert re.search(rf"open\s+spades\s+{match_id}", listed.stdout), listed.stdout
    back = Terminal(["play", "--match", match_id[:8]], env)
    try:
        back.expect(match_id, 60)
        back.expect(r"your move|waiting", 60)
        back.interrupt()
        assert back.wait() == 130
        one_line_after_the_screen(back, f"come back with: tavola play --match {match_id}")
    finally:
        back.close()


@pytest.mark.parametrize(
    ("game", "extra", "prompt"),
    [
        ("barbu", [], "your move"),
        ("dominoes", ["--locale", "pt"], "sua vez"),
        ("doppelkopf", ["--preset", "tavern"], "your move"),
    ],
)
def test_every_other_game_plays_in_the_terminal_and_ctrl_c_is_one_line(
    env: dict[str, str], game: str, extra: list[str], prompt: str
) -> None:
    term = start(game, env, *extra)
    try:
        play_moves(term, 3, prompt)
        term.expect(prompt, 90)
        term.send("h\r")
        term.expect(r"(hint|dica): ")
        term.interrupt()
        assert term.wait() == 130
        one_line_after_the_screen(term, "tavola play --match")
    finally:
        term.close()


def test_the_games_in_this_file_are_every_registered_game() -> None:
    played = {"fan-tan", "spades", "barbu", "dominoes", "doppelkopf"}
    assert played == set(registry.names())


def test_ctrl_c_in_demo_is_one_line_and_exit_130(env: dict[str, str]) -> None:
    demo = subprocess.Popen(
        [*TAVOLA, "demo", "spades", "--level", "master"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_default_interrupt,
    )
    assert demo.stdout is not None
    demo.stdout.readline()  # the table
    demo.stdout.readline()  # the match started
    time.sleep(1.0)
    demo.send_signal(signal.SIGINT)
    _, err = demo.communicate(timeout=30)
    assert demo.returncode == 130
    assert "Traceback" not in err
    assert [line for line in err.splitlines() if "interrupted" in line], err
    assert sys.executable  # the same interpreter ran every command
