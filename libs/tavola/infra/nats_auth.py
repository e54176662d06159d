"""The platform's NATS users and what each may publish and subscribe to.

Nobody outside the platform may connect: the server has no anonymous user. Each service
has its own user, allowed only the subjects of the calls it makes and the messages it
must read (docs/security.md explains each line); ``admin`` (every subject) is for the
operator's tools and the tests. Subjects begin with the platform's namespace, written
``*`` here so several platforms (CI's test runs) can share one server.

The same table renders the private server's configuration (``tavola up`` and the tests)
and is what ``deploy/nats`` writes out for Compose and Kubernetes.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping
from dataclasses import dataclass

# JetStream API calls a consumer service makes: find the stream, create or look up its
# durable consumer, acknowledge and answer flow control. No service but the engine may
# create, change or delete a stream.
_CONSUMER_API = (
    "$JS.API.INFO",
    "$JS.API.STREAM.INFO.*",
    "$JS.API.STREAM.NAMES",
    "$JS.API.CONSUMER.CREATE.*",
    "$JS.API.CONSUMER.CREATE.*.>",
    "$JS.API.CONSUMER.DURABLE.CREATE.*.*",
    "$JS.API.CONSUMER.INFO.*.*",
    "$JS.ACK.>",
    "$JS.FC.>",
)


@dataclass(frozen=True, slots=True)
class Permissions:
    publish: tuple[str, ...]
    subscribe: tuple[str, ...]
    responses: bool  # may answer requests sent to it (reply subjects)


PERMISSIONS: dict[str, Permissions] = {
    "engine": Permissions(
        publish=(
            "*.rpc.lobby.>",  # forwards LobbyService calls with the caller's account
            "*.rpc.account.>",  # forwards AccountService calls
            "*.rpc.league.>",  # forwards LeagueService's management calls
            "*.rpc.scoring.>",  # forwards ScoringService calls (and LeagueService's reads)
            "*.rpc.engine.shard.>",  # forwards a table's calls to its writer (another engine)
            "*.events.>",  # the relay publishes committed events (redacted)
            "*.bots.>",  # pushes each platform bot seat its own events and view
            "$JS.API.>",  # creates and updates the events stream
        ),
        subscribe=(
            "*.rpc.engine.>",  # calls from the lobby and the bot service
            "*.events.>",  # wakes its streams; drops changed accounts from its cache
            "*.bots.hello",  # a bot service (re)connected: tell it the turns that wait
            "_INBOX_engine.>",
        ),
        responses=True,
    ),
    "lobby": Permissions(
        publish=("*.rpc.engine.lobby.>", *_CONSUMER_API),  # creates matches
        subscribe=("*.rpc.lobby.>", "*.rpc.account.>", "*.rpc.league.>", "_INBOX_lobby.>"),
        responses=True,
    ),
    "scoring": Permissions(
        publish=_CONSUMER_API,
        subscribe=("*.rpc.scoring.>", "_INBOX_scoring.>"),
        responses=True,
    ),
    "bots": Permissions(
        # acts only for the bot seats; says when it (re)connects. No JetStream: it hears
        # of nothing but its seats' turns (no match's events pass through it)
        publish=("*.rpc.engine.bots.>", "*.bots.hello"),
        subscribe=("*.bots.>", "_INBOX_bots.>"),  # its seats' pushes and turns; replies
        responses=False,
    ),
    "admin": Permissions(publish=(">",), subscribe=(">",), responses=True),
}

SERVICE_USERS = ("engine", "lobby", "scoring", "bots")


@dataclass(frozen=True, slots=True)
class Credentials:
    passwords: Mapping[str, str]

    @staticmethod
    def generate() -> Credentials:
        return Credentials({user: secrets.token_urlsafe(24) for user in PERMISSIONS})

    def url(self, user: str, host: str, port: int) -> str:
        return f"nats://{user}:{self.passwords[user]}@{host}:{port}"

    def to_json(self) -> str:
        return json.dumps(dict(self.passwords), indent=2)


def server_config(credentials: Credentials) -> str:
    """The ``authorization`` block of a NATS server configuration."""
    users = []
    for user, allowed in PERMISSIONS.items():
        permissions = {
            "publish": {"allow": list(allowed.publish)},
            "subscribe": {"allow": list(allowed.subscribe)},
        }
        if allowed.responses:
            permissions["allow_responses"] = True  # type: ignore[assignment]
        users.append(
            {"user": user, "password": credentials.passwords[user], "permissions": permissions}
        )
    # NATS configuration accepts JSON syntax for its values.
    return "authorization {\n  users = " + json.dumps(users, indent=2) + "\n}\n"


def redact(url: str) -> str:
    """A NATS URL without its password, for logs."""
    scheme, sep, rest = url.partition("://")
    if "@" not in rest:
        return url
    userinfo, _, host = rest.rpartition("@")
    user = userinfo.split(":", 1)[0]
    return f"{scheme}{sep}{user}:***@{host}"


def password_variable(user: str) -> str:
    """The environment variable holding ``user``'s password in deployments."""
    return f"TAVOLA_NATS_{user.upper()}_PASSWORD"


def deployed_config() -> str:
    """The ``authorization`` block for Compose and Kubernetes: the same users and
    permissions, each password read by the NATS server from its environment
    (``password_variable``), so no secret is written in the repository."""
    lines = [
        "# Generated by `python -m tavola.infra.nats_auth config` from",
        "# libs/tavola/infra/nats_auth.py (tests/unit/deploy check it is current): the",
        "# platform's NATS users, one per service, and what each may publish and read.",
        "# No anonymous user: a client without one of these passwords is refused.",
        "authorization {",
        "  users = [",
    ]
    for user, allowed in PERMISSIONS.items():
        publish = ", ".join(json.dumps(s) for s in allowed.publish)
        subscribe = ", ".join(json.dumps(s) for s in allowed.subscribe)
        lines += [
            "    {",
            f"      user: {user}",
            f"      password: ${password_variable(user)}",
            "      permissions: {",
            f"        publish: {{ allow: [{publish}] }}",
            f"        subscribe: {{ allow: [{subscribe}] }}",
        ]
        if allowed.responses:
            lines.append("        allow_responses: true")
        lines += ["      }", "    }"]
    lines += ["  ]", "}", ""]
    return "\n".join(lines)


def new_passwords_env() -> str:
    """``NAME=value`` lines with a fresh password per user (a ``.env`` for Compose)."""
    return "".join(f"{password_variable(u)}={secrets.token_urlsafe(24)}\n" for u in PERMISSIONS)


def main(argv: list[str]) -> int:
    if argv == ["config"]:
        print(deployed_config(), end="")
        return 0
    if argv == ["passwords"]:
        print(new_passwords_env(), end="")
        return 0
    print("usage: python -m tavola.infra.nats_auth config|passwords")
    return 2


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
