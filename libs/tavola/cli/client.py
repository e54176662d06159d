"""A small gRPC client of the public API, for the CLI (any client could do the same).

Which platform and which token: ``--address`` / ``--token`` when given, else
``TAVOLA_GRPC_ADDRESS`` / ``TAVOLA_TOKEN``, else the platform ``tavola up`` last started
for this user (its state file, ``platform.json`` in ``TAVOLA_STATE_DIR`` — by default
``$XDG_STATE_HOME/tavola`` or ``~/.local/state/tavola``), else ``127.0.0.1:50051`` without a
token. Every command says which platform it talks to when it is not the default.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc

from tavola.v1 import account_pb2_grpc, game_pb2_grpc, lobby_pb2_grpc, scoring_pb2_grpc

DEFAULT_ADDRESS = "127.0.0.1:50051"
STATE_VARIABLE = "TAVOLA_STATE_DIR"
PLATFORM_FILE = "platform.json"
RUN_FILE = "run.json"  # in the data folder of a running `tavola up`


def state_dir() -> Path:
    """The per-user folder of the CLI's state (platform, kept seat credentials)."""
    forced = os.environ.get(STATE_VARIABLE, "").strip()
    if forced:
        return Path(forced)
    base = os.environ.get("XDG_STATE_HOME", "").strip()
    return (Path(base) if base else Path.home() / ".local" / "state") / "tavola"


def write_private(path: Path, text: str) -> None:
    """Write a file only its owner may read (it holds a token)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(path.suffix + ".tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as out:
        out.write(text)
    temporary.replace(path)


def write_platform_info(info: dict[str, Any]) -> Path:
    path = state_dir() / PLATFORM_FILE
    write_private(path, json.dumps(info, indent=2))
    return path


def platform_info() -> dict[str, Any]:
    """What ``tavola up`` recorded of the platform it runs (empty when none)."""
    try:
        data: dict[str, Any] = json.loads((state_dir() / PLATFORM_FILE).read_text())
        return data
    except (OSError, ValueError):
        return {}


def forget_platform_info(pid: int) -> None:
    """Remove the state file if it still describes the platform of ``pid``."""
    path = state_dir() / PLATFORM_FILE
    if platform_info().get("pid") == pid:
        path.unlink(missing_ok=True)


@dataclass(frozen=True)
class Target:
    address: str
    token: str
    source: str  # where the address came from: "option", "environment", "state", "default"


def resolve(address: str | None = None, token: str | None = None) -> Target:
    """The platform and token a command should use (see the module's docstring)."""
    info = platform_info()
    if address:
        chosen, source = address, "option"
    elif os.environ.get("TAVOLA_GRPC_ADDRESS", "").strip():
        chosen, source = os.environ["TAVOLA_GRPC_ADDRESS"].strip(), "environment"
    elif info.get("address"):
        chosen, source = str(info["address"]), "state"
    else:
        chosen, source = DEFAULT_ADDRESS, "default"
    secret = token or os.environ.get("TAVOLA_TOKEN", "").strip()
    if not secret and info.get("address") == chosen:
        secret = str(info.get("token", ""))
    return Target(chosen, secret, source)


def default_address() -> str:
    return resolve().address


PATIENT_RETRIES = 5
PATIENT_MAX_WAIT_S = 5.0


class _Patient(grpc.UnaryUnaryClientInterceptor):  # type: ignore[misc]
    """Waits out the platform's rate limits: a call answered RESOURCE_EXHAUSTED with a
    ``retry-after-ms`` trailer (a limit, refused before any work, so trying again changes
    nothing) is tried again after that wait (at most ``PATIENT_MAX_WAIT_S``), up to
    ``PATIENT_RETRIES`` times; any other answer is the caller's at once."""

    def intercept_unary_unary(
        self, continuation: Callable[..., Any], details: Any, request: Any
    ) -> Any:
        for attempt in range(PATIENT_RETRIES + 1):
            outcome = continuation(details, request)
            if outcome.exception() is None or attempt == PATIENT_RETRIES:
                return outcome
            wait = limited_wait(outcome)
            if wait is None:
                return outcome  # not a rate limit (a message too large, say): no retry
            time.sleep(wait)
        return outcome  # pragma: no cover - the loop returns


def limited_wait(call: Any) -> float | None:
    """How long to wait before trying ``call`` again if a rate limit refused it
    (RESOURCE_EXHAUSTED with a ``retry-after-ms`` trailer: a unary call, or a stream at its
    open); None for any other outcome."""
    if call.code() != grpc.StatusCode.RESOURCE_EXHAUSTED:
        return None
    return _retry_after(call)


def _retry_after(call: Any) -> float | None:
    """The platform's ``retry-after-ms`` trailer in seconds (bounded), or None: how long a
    call (or a stream refused at its open) that a rate limit refused should wait."""
    for key, value in call.trailing_metadata() or ():
        if key == "retry-after-ms":
            try:
                return min(PATIENT_MAX_WAIT_S, max(0.05, int(value) / 1000))
            except ValueError:
                return None
    return None


class _Bearer(grpc.UnaryUnaryClientInterceptor, grpc.UnaryStreamClientInterceptor):  # type: ignore[misc]
    """Adds ``authorization: Bearer <token>`` to every call."""

    def __init__(self, token: str) -> None:
        self._metadata = ("authorization", f"Bearer {token}")

    def _details(self, details: Any) -> Any:
        metadata = [*(details.metadata or ()), self._metadata]
        return _CallDetails(
            details.method,
            details.timeout,
            metadata,
            details.credentials,
            getattr(details, "wait_for_ready", None),
            getattr(details, "compression", None),
        )

    def intercept_unary_unary(
        self, continuation: Callable[..., Any], details: Any, request: Any
    ) -> Any:
        return continuation(self._details(details), request)

    def intercept_unary_stream(
        self, continuation: Callable[..., Any], details: Any, request: Any
    ) -> Any:
        return continuation(self._details(details), request)


@dataclass(frozen=True)
class _CallDetails(grpc.ClientCallDetails):  # type: ignore[misc]
    method: str
    timeout: float | None
    metadata: Any
    credentials: Any
    wait_for_ready: Any
    compression: Any


@dataclass
class Client:
    channel: grpc.Channel
    lobby: lobby_pb2_grpc.LobbyServiceStub
    game: game_pb2_grpc.GameServiceStub
    scoring: scoring_pb2_grpc.ScoringServiceStub
    accounts: account_pb2_grpc.AccountServiceStub
    address: str = ""

    @staticmethod
    def connect(
        address: str | None = None, token: str | None = None, patient: bool = True
    ) -> Client:
        """A client of the platform at ``address`` with ``token`` (both found as the module
        says when not given). ``patient``: wait out the platform's rate limits (``_Patient``)
        rather than fail on them."""
        target = resolve(address, token)
        raw = grpc.insecure_channel(target.address)
        waits = [_Patient()] if patient else []
        channel = (
            grpc.intercept_channel(raw, _Bearer(target.token), *waits)
            if target.token
            else grpc.intercept_channel(raw, *waits)
        )
        return Client(
            channel,
            lobby_pb2_grpc.LobbyServiceStub(channel),
            game_pb2_grpc.GameServiceStub(channel),
            scoring_pb2_grpc.ScoringServiceStub(channel),
            account_pb2_grpc.AccountServiceStub(channel),
            target.address,
        )

    def close(self) -> None:
        self.channel.close()


def default_database_url() -> str | None:
    """The platform's database, for operator commands that read it directly."""
    url = os.environ.get("TAVOLA_DATABASE_URL", "").strip()
    return url or platform_info().get("database_url") or None
