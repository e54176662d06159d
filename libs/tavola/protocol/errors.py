"""Service errors: a gRPC status code, a readable message and the stable reason.

Raised by handlers (engine, lobby, scoring) whichever way they are reached — gRPC or the
NATS request/reply bus — and mapped once at each edge.
"""

from __future__ import annotations

import grpc

from tavola.rules.errors import (
    GameOver,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    Reason,
    RulesError,
)
from tavola.rules.messages import render


class ServiceError(Exception):
    """A documented failure: its status, stable reason and readable message. ``retry_after``
    (seconds) tells a client when trying again may succeed (rate limits, outages)."""

    def __init__(
        self,
        code: grpc.StatusCode,
        reason: Reason,
        locale: str = "en",
        retry_after: float | None = None,
    ) -> None:
        self.code = code
        self.reason = reason
        self.message = render(reason, locale)
        self.retry_after = retry_after
        super().__init__(f"{code.name}: {self.message}")

    def localised(self, locale: str) -> ServiceError:
        """The same error with its message in ``locale``."""
        return ServiceError(self.code, self.reason, locale, self.retry_after)


def from_rules_error(error: RulesError, locale: str = "en") -> ServiceError:
    """Map a rules error to its status: malformed -> INVALID_ARGUMENT, the rest
    (illegal, not your turn, game over) -> FAILED_PRECONDITION."""
    if isinstance(error, MalformedAction):
        return ServiceError(grpc.StatusCode.INVALID_ARGUMENT, error.reason, locale)
    if isinstance(error, NotYourTurn | GameOver | IllegalAction):
        return ServiceError(grpc.StatusCode.FAILED_PRECONDITION, error.reason, locale)
    return ServiceError(grpc.StatusCode.FAILED_PRECONDITION, error.reason, locale)


def invalid(code: str, locale: str = "en", /, **params: str | int) -> ServiceError:
    return ServiceError(grpc.StatusCode.INVALID_ARGUMENT, Reason.of(code, **params), locale)


def not_found(code: str, locale: str = "en", /, **params: str | int) -> ServiceError:
    return ServiceError(grpc.StatusCode.NOT_FOUND, Reason.of(code, **params), locale)


def denied(code: str, locale: str = "en", /, **params: str | int) -> ServiceError:
    return ServiceError(grpc.StatusCode.PERMISSION_DENIED, Reason.of(code, **params), locale)


def aborted(code: str, locale: str = "en", /, **params: str | int) -> ServiceError:
    return ServiceError(grpc.StatusCode.ABORTED, Reason.of(code, **params), locale)


def precondition(code: str, locale: str = "en", /, **params: str | int) -> ServiceError:
    return ServiceError(grpc.StatusCode.FAILED_PRECONDITION, Reason.of(code, **params), locale)


def exists(code: str, locale: str = "en", /, **params: str | int) -> ServiceError:
    return ServiceError(grpc.StatusCode.ALREADY_EXISTS, Reason.of(code, **params), locale)


def unauthenticated(code: str, locale: str = "en", /, **params: str | int) -> ServiceError:
    return ServiceError(grpc.StatusCode.UNAUTHENTICATED, Reason.of(code, **params), locale)


def exhausted(
    retry_after: float, code: str = "rate.limited", /, **params: str | int
) -> ServiceError:
    return ServiceError(
        grpc.StatusCode.RESOURCE_EXHAUSTED, Reason.of(code, **params), retry_after=retry_after
    )


def unavailable(
    code: str = "service.unavailable", retry_after: float = 1.0, /, **params: str | int
) -> ServiceError:
    return ServiceError(
        grpc.StatusCode.UNAVAILABLE, Reason.of(code, **params), retry_after=retry_after
    )


def internal(incident: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.INTERNAL, Reason.of("internal.error", incident=incident))
