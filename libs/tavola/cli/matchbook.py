"""The seats a user holds, kept on their machine so they can come back to a match.

One JSON file per user — ``$TAVOLA_STATE_DIR/matches.json``, else
``$XDG_STATE_HOME/tavola/matches.json``, else ``~/.local/state/tavola/matches.json`` —
readable by its owner only (mode 0600, its folder 0700), written atomically. Entries are
keyed by the platform's address, then by match id: the seat, its token (the seat's only
credential), the game and how the user left it (``open``, ``left`` or ``finished``).
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

FILE = "matches.json"
FORMAT = 1


@dataclass(frozen=True)
class Kept:
    """A seat of the user in one match."""

    match_id: str
    game: str
    seat: int
    seat_token: str
    table_id: str = ""
    joined: float = 0.0
    status: str = "open"  # open | left | finished


def state_dir() -> Path:
    """The CLI's per-user state folder (``client.state_dir``: ``TAVOLA_STATE_DIR``, else
    ``$XDG_STATE_HOME/tavola``, else ``~/.local/state/tavola``)."""
    from tavola.cli.client import state_dir as cli_state_dir

    return cli_state_dir()


def path() -> Path:
    return state_dir() / FILE


def _read() -> dict[str, Any]:
    try:
        data = json.loads(path().read_text())
    except FileNotFoundError:
        return {"format": FORMAT, "platforms": {}}
    except (OSError, ValueError) as error:
        raise BookError(f"cannot read {path()}: {error}") from None
    if not isinstance(data, dict) or not isinstance(data.get("platforms"), dict):
        raise BookError(f"{path()} is not a tavola match file")
    return data


def _write(data: dict[str, Any]) -> None:
    folder = state_dir()
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".matches-", suffix=".json")
    try:
        os.fchmod(handle, 0o600)
        with os.fdopen(handle, "w") as out:
            json.dump(data, out, indent=1, sort_keys=True)
        os.replace(temporary, folder / FILE)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


class BookError(Exception):
    """The match file cannot be read (its message says why)."""


def remember(address: str, kept: Kept) -> None:
    data = _read()
    entry = asdict(kept)
    entry["joined"] = kept.joined or time.time()
    data["platforms"].setdefault(address, {})[kept.match_id] = entry
    _write(data)


def mark(address: str, match_id: str, status: str) -> None:
    data = _read()
    entry = data["platforms"].get(address, {}).get(match_id)
    if entry is not None and entry.get("status") != status:
        entry["status"] = status
        _write(data)


def matches(address: str) -> list[Kept]:
    """The user's matches on a platform, the most recent first."""
    found = []
    for entry in _read()["platforms"].get(address, {}).values():
        try:
            found.append(Kept(**entry))
        except TypeError:
            continue  # an entry written by another version: skipped, not fatal
    return sorted(found, key=lambda k: k.joined, reverse=True)


def find(address: str, match_id: str) -> list[Kept]:
    """The kept seats whose match id is ``match_id`` or starts with it."""
    wanted = match_id.strip().lower()
    exact = [k for k in matches(address) if k.match_id == wanted]
    return exact or [k for k in matches(address) if k.match_id.startswith(wanted)]
