"""Who runs Postgres: ourselves, or — when we are root — a dedicated system user.

Postgres refuses to run as root, so as root we create (once) the system user ``tavola-pg``
and run ``initdb``/``postgres`` as it. That user must be able to reach the data folder and
the binaries, so missing search (``x``) permission on their parent folders is added for
others — never read permission.
"""

from __future__ import annotations

import logging
import os
import pwd
import shutil
import stat
import subprocess
from dataclasses import dataclass
from pathlib import Path

from tavola.infra.errors import InfraError

POSTGRES_SYSTEM_USER = "tavola-pg"
_USERADD_NAME_IN_USE = 9

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ServiceUser:
    """A system account that a child process switches to before it executes."""

    name: str
    uid: int
    gid: int


def postgres_service_user() -> ServiceUser | None:
    """``None`` when not root (Postgres runs as us); as root ``tavola-pg``, created once."""
    if os.geteuid() != 0:
        return None
    return ensure_system_user(POSTGRES_SYSTEM_USER)


def ensure_system_user(name: str) -> ServiceUser:
    entry = _lookup(name)
    if entry is None:
        _create_system_user(name)
        entry = _lookup(name)
    if entry is None:
        raise InfraError(f"system user {name!r} was created but cannot be looked up")
    return ServiceUser(name=name, uid=entry.pw_uid, gid=entry.pw_gid)


def _lookup(name: str) -> pwd.struct_passwd | None:
    try:
        return pwd.getpwnam(name)
    except KeyError:
        return None


def _create_system_user(name: str) -> None:
    command = _user_creation_command(name)
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode not in (0, _USERADD_NAME_IN_USE):
        raise InfraError(
            f"could not create system user {name!r} to run Postgres as (it refuses root): "
            f"{' '.join(command)} exited {result.returncode}: {result.stderr.strip()}"
        )
    _log.info("created system user %s to run Postgres", name)


def _user_creation_command(name: str) -> list[str]:
    useradd = shutil.which("useradd") or _existing("/usr/sbin/useradd", "/sbin/useradd")
    if useradd is not None:
        return [
            useradd,
            "--system",
            "--user-group",
            "--no-create-home",
            "--home-dir",
            "/nonexistent",
            "--shell",
            "/usr/sbin/nologin",
            name,
        ]
    adduser = shutil.which("adduser") or _existing("/usr/sbin/adduser", "/sbin/adduser")
    if adduser is not None:  # busybox (Alpine)
        return [adduser, "-S", "-D", "-H", "-s", "/sbin/nologin", name]
    raise InfraError(
        f"running as root, Postgres needs a non-root system user {name!r} but neither "
        "useradd nor adduser is available; create the user, or run as a normal user, "
        "or set TAVOLA_DATABASE_URL"
    )


def _existing(*paths: str) -> str | None:
    return next((path for path in paths if os.access(path, os.X_OK)), None)


def ensure_traversable(path: Path, user: ServiceUser) -> None:
    """Let ``user`` reach ``path``: add ``o+x`` to every ancestor folder it cannot search."""
    for folder in reversed(path.resolve().parents):
        info = folder.stat()
        if not _can_search(info, user):
            _log.warning("adding o+x to %s so that %s can reach %s", folder, user.name, path)
            folder.chmod(stat.S_IMODE(info.st_mode) | stat.S_IXOTH)


def _can_search(info: os.stat_result, user: ServiceUser) -> bool:
    if info.st_uid == user.uid:
        return bool(info.st_mode & stat.S_IXUSR)
    if info.st_gid == user.gid:
        return bool(info.st_mode & stat.S_IXGRP)
    return bool(info.st_mode & stat.S_IXOTH)


def chown_tree(path: Path, user: ServiceUser) -> None:
    """Give ``path`` and everything below it to ``user`` (a folder copied from another machine)."""
    os.chown(path, user.uid, user.gid)
    for root, folders, files in os.walk(path):
        for name in (*folders, *files):
            os.chown(os.path.join(root, name), user.uid, user.gid, follow_symlinks=False)
