"""Typed rule errors. Every player-facing text is a stable code with parameters.

A ``Reason`` is rendered by the message catalogue (``tavola.rules.messages``) in the
language a client asks for; third-party clients may localise the code themselves.
"""

from __future__ import annotations

from dataclasses import dataclass

ParamValue = str | int


@dataclass(frozen=True, slots=True)
class Reason:
    """A stable message code with parameters, e.g. ``Reason("fantan.not_adjacent", ...)``."""

    code: str
    params: tuple[tuple[str, ParamValue], ...] = ()

    @staticmethod
    def of(code: str, /, **params: ParamValue) -> Reason:
        return Reason(code, tuple(sorted(params.items())))

    def param_dict(self) -> dict[str, ParamValue]:
        return dict(self.params)


class RulesError(Exception):
    """Base of every error raised by the rules; the state is never changed."""

    def __init__(self, reason: Reason) -> None:
        super().__init__(reason.code)
        self.reason = reason


class IllegalAction(RulesError):
    """The action is well formed but the rules forbid it now."""


class NotYourTurn(IllegalAction):
    """The seat is not one that may act now."""


class GameOver(IllegalAction):
    """The match has ended; no action is accepted."""


class MalformedAction(RulesError):
    """The action text does not name an action of this game."""
