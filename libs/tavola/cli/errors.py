"""One clear line for everything that can go wrong in a command, never a traceback.

A command raises :class:`CliError` with the line to show; ``main`` prints it on stderr as
``tavola <command>: <line>`` and exits with its code. gRPC errors become such lines through
``rpc_line``: the server's message in the CLI's locale (its ``ErrorInfo`` parameters put
cards and tiles in the one notation), or what to do when the platform does not answer.
"""

from __future__ import annotations

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from tavola.cli.notation import with_notation
from tavola.cli.texts import t


class CliError(Exception):
    """A command failed; ``str(error)`` is the one line to print."""

    def __init__(self, line: str, code: int = 1) -> None:
        super().__init__(line)
        self.code = code


def reason_of(error: grpc.RpcError) -> tuple[str, dict[str, str]]:
    """The stable reason code and its parameters of a platform error ("" if none)."""
    try:
        status = rpc_status.from_call(error)
    except (ValueError, AttributeError):
        return "", {}
    if status is None:
        return "", {}
    for detail in status.details:
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return info.reason, dict(info.metadata)
    return "", {}


def code_of(error: grpc.RpcError) -> grpc.StatusCode | None:
    try:
        code: grpc.StatusCode = error.code()
        return code
    except AttributeError:
        return None


def details(error: grpc.RpcError) -> str:
    try:
        return str(error.details() or "")
    except AttributeError:
        return str(error)


def rpc_line(error: grpc.RpcError, locale: str, address: str = "") -> str:
    """The error as one readable line."""
    code = code_of(error)
    if code == grpc.StatusCode.UNAVAILABLE:
        return t("error.unavailable", locale, address=address or "?")
    if code == grpc.StatusCode.DEADLINE_EXCEEDED:
        return t("error.timeout", locale, address=address or "?")
    if code == grpc.StatusCode.UNAUTHENTICATED:
        return t("error.unauthenticated", locale, detail=details(error))
    _, params = reason_of(error)
    return with_notation(details(error), params).plain or (code.name if code else str(error))
