"""The two ways ``tavola play`` talks to a person.

In a terminal: one live screen (``rich.live.Live``) redrawn in place — the countdown ticks
while the prompt waits, hints and errors appear under the table — with keys read one at a
time (cbreak mode) so typing and the stream never block each other. Through pipes (tests,
scripts, a dumb terminal): the table is printed when it is the seat's turn and a line is
read; every event is one printed line.

Both return how the session ended: ``finished``, ``left`` or ``paused``.

Why rich and not textual: the screen must be a pure function of the view (``screen``),
testable offline at 80 columns for every game, and the same text must serve a live
terminal, a pipe and the committed screenshots. rich gives styled text, in-place redraws
(``Live``) and progress bars over plain stdout/stderr and nothing more; textual would own
the terminal through its own app loop and widget tree (rendering inside its event loop,
harder to test as a function, no pipe mode), and bring a larger dependency for a screen
that is one table and one prompt.
"""

from __future__ import annotations

import dataclasses
import os
import re
import select
import sys
import termios
import time
import tty
from collections.abc import Callable

from rich.console import Console
from rich.live import Live

from tavola.cli.happenings import describe
from tavola.cli.screen import plain, render
from tavola.cli.session import Session
from tavola.cli.texts import t

FRAME = 0.25
ESCAPES = re.compile(r"\x1b(\[[0-9;?]*[ -/]*[@-~]|O.|.)?")


def interactive() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def run_live(session: Session, console: Console) -> str:
    """The live screen until the match ends or the player goes."""
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    typed = ""
    try:
        tty.setcbreak(fd)
        console.clear()
        with Live(
            console=console,
            auto_refresh=False,
            redirect_stdout=False,
            redirect_stderr=False,
            vertical_overflow="crop",
        ) as live:
            drawn = 0.0
            while True:
                changed = session.pump(0.0)
                keys = _keys(fd, FRAME)
                for key in keys:
                    outcome, typed = _key(session, key, typed)
                    if outcome:
                        _draw(live, session, console, typed)
                        return outcome
                if session.finished or session.lost:
                    _draw(live, session, console, typed)
                    return "finished" if session.finished else "lost"
                if changed or keys or time.monotonic() - drawn >= FRAME:
                    _draw(live, session, console, typed)
                    drawn = time.monotonic()
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def _draw(live: Live, session: Session, console: Console, typed: str) -> None:
    width, height = console.size
    live.update(render(session.screen(typed=typed), width, max(10, height - 1)), refresh=True)


def _keys(fd: int, timeout: float) -> str:
    ready, _, _ = select.select([fd], [], [], timeout)
    if not ready:
        return ""
    data = os.read(fd, 1024).decode("utf-8", errors="ignore")
    return ESCAPES.sub("", data)


def _key(session: Session, key: str, typed: str) -> tuple[str, str]:
    """One key: returns (outcome, what is typed so far)."""
    if key == "\x04":  # Ctrl-D: pause, as at the end of input
        return "paused", typed
    if session.asking == "quit":
        if key in ("\r", "\n"):
            return session.handle(""), ""
        return session.handle(key), ""
    if key in ("\r", "\n"):
        return session.handle(typed), ""
    if key in ("\x7f", "\x08"):
        return "", typed[:-1]
    if key == "\x15":  # Ctrl-U
        return "", ""
    if key.isprintable():
        return "", typed + key
    return "", typed


def run_lines(
    session: Session,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> str:
    """Pipes: events as lines, the table and a prompt on each of the seat's turns (after
    a hint or an error only the prompt again, not the table)."""
    shown_at = asked_at = -1
    again = False
    session.min_interval = 5.0  # nothing is drawn between turns: views only when needed
    while True:
        session.pump(0.5)
        for envelope in session.fresh:
            line = describe(envelope, session.view.game, session.kept.seat, session.locale)
            if line is not None:
                write(f"{envelope.version:>5}  {line.plain}")
        session.fresh.clear()
        if session.finished:
            return "finished"
        if session.lost:
            return "lost"
        turn = session.my_turn and (again or session.view.version != asked_at)
        if not turn and not session.asking:
            continue
        if session.view.version != shown_at:
            shown = dataclasses.replace(session.screen(prompt=False), events=())
            write(plain(shown).rstrip())  # the events were printed as they came
            shown_at = session.view.version
        key = "prompt.quit_line" if session.asking else "prompt.line"
        try:
            answer = read(t(key, session.locale))
        except EOFError:
            return "paused"
        asked_at = session.view.version
        outcome = session.handle(answer)
        for notice in session.notices:
            write(notice.text.plain)
        session.notices = []
        if outcome:
            return outcome
        again = bool(answer.strip()) and session.view.version == asked_at
