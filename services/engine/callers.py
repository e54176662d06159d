"""Who calls the engine: an account (through the public gRPC edge) or a platform service
(over NATS, known from the subject it published on — never from the message).

Command ids live in their caller's namespace: a client's id becomes ``c/<seat>/<id>``, the
bot service's ``b/<seat>/<id>``, and the engine's own (timeouts, leaving, resuming after a
pause, creation) ``p/...`` — a client can never produce another namespace's key, so no id
it picks can block, alter or reveal a command of anyone else.
"""

from __future__ import annotations

import enum

from tavola.accounts.model import Principal


class Service(enum.Enum):
    BOTS = "bots"  # the platform's bot service, acting for the platform's bot seats
    LOBBY = "lobby"  # creating matches


Caller = Principal | Service

_PRINTABLE = frozenset(chr(c) for c in range(0x21, 0x7F))


def client_id_problem(command_id: str) -> str | None:
    """Why a client's command id is refused (a message code), or None."""
    if not set(command_id) <= _PRINTABLE:
        return "command.bad_id"
    return None


def command_key(caller: Caller, seat: int, command_id: str) -> str:
    """The stored key of a caller's command id at a seat (see the module's docstring)."""
    if caller is Service.BOTS:
        return f"b/{seat}/{command_id}"
    return f"c/{seat}/{command_id}"


def platform_key(*parts: object) -> str:
    """A command id of the engine itself, e.g. ``platform_key("timeout", seat, deadline)``."""
    return "p/" + "/".join(str(p) for p in parts)
