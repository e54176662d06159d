"""Progress on stderr for long commands (``demo``, ``verify``), so none is ever silent.

On a terminal: ``rich.progress`` bars (a spinner and a count where the total is unknown),
cleared when done. Elsewhere (a pipe, CI): one line every ``every`` seconds with the same
counts. stdout is left to the command's results.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)


@dataclass
class _Count:
    description: str
    done: int
    total: int | None


class Bars:
    """Named counters shown as bars; ``update`` is cheap enough to call per event."""

    def __init__(self, every: float = 10.0, console: Console | None = None) -> None:
        self.console = console or Console(stderr=True)
        self.every = every
        self._progress: Progress | None = None
        self._tasks: dict[str, TaskID] = {}
        self._state: dict[str, _Count] = {}
        self._order: list[str] = []
        self._last = time.monotonic()

    def __enter__(self) -> Bars:
        if self.console.is_terminal:
            self._progress = Progress(
                SpinnerColumn(),
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=self.console,
                transient=True,
                redirect_stdout=False,
                redirect_stderr=False,
            )
            self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.stop()

    def add(self, key: str, description: str, total: int | None = None) -> None:
        self._order.append(key)
        self._state[key] = _Count(description, 0, total)
        if self._progress is not None:
            self._tasks[key] = self._progress.add_task(description, total=total)

    def update(
        self, key: str, completed: int, total: int | None = None, description: str | None = None
    ) -> None:
        state = self._state[key]
        state.done = completed
        if total is not None:
            state.total = total
        if description is not None:
            state.description = description
        if self._progress is not None:
            self._progress.update(
                self._tasks[key],
                completed=completed,
                total=state.total,
                description=state.description,
            )
        elif time.monotonic() - self._last >= self.every:
            self._last = time.monotonic()
            print(self.line(), file=sys.stderr, flush=True)

    def line(self) -> str:
        parts = []
        for key in self._order:
            state = self._state[key]
            total = f"/{state.total}" if state.total else ""
            parts.append(f"{state.description} {state.done}{total}")
        return "… " + " · ".join(parts)
