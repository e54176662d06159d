"""The data folder: one running instance at a time holds it, through a lock file.

The lock is an ``flock`` on ``<folder>/.lock``, released by the kernel when its holder dies, so
a killed run never blocks the next one. When the folder is held by a live run (tests in
parallel processes), the next free ``<folder>/parallel-N`` is used instead — each of those is
initialised once and reused as well.
"""

from __future__ import annotations

import fcntl
import os
from dataclasses import dataclass
from pathlib import Path

from tavola.infra.errors import InfraError

MAX_PARALLEL = 16


@dataclass
class FolderLease:
    """A data folder this process holds until ``release``."""

    path: Path
    _fd: int

    def release(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)  # closing the only descriptor drops the flock
            self._fd = -1


def lease_folder(data_dir: Path) -> FolderLease:
    for index in range(MAX_PARALLEL):
        candidate = data_dir if index == 0 else data_dir / f"parallel-{index}"
        lease = _try_lease(candidate)
        if lease is not None:
            return lease
    raise InfraError(f"{data_dir} and its {MAX_PARALLEL - 1} parallel folders are all in use")


def _try_lease(folder: Path) -> FolderLease | None:
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder / ".lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return FolderLease(path=folder, _fd=fd)
