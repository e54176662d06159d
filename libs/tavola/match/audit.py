"""Re-simulation: would the rules this installation runs now record a finished match as
it was recorded?

``audit`` re-runs the match's records through the current rules and the revealed seed
(the verifier, ``tavola.match.verify``) and reports the first difference: its version,
the recorded event's type, the first field that differs, the recorded value and the
re-derived one. Clean records give no difference. The rules version the match was played
with (``MatchCreated.rules_version``) is reported beside the current one; the re-run is
under the current one (the verifier, by contrast, checks a match under its own).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from tavola.match.events import MatchCreated
from tavola.match.verify import Discrepancy, Recorded, verify
from tavola.rules import registry
from tavola.rules.interface import Event


@dataclass(frozen=True, slots=True)
class Difference:
    version: int
    event_type: str  # the recorded event's type name ("" when one is missing)
    field: str  # "" when the whole event differs
    recorded: str
    rederived: str
    message: str


@dataclass(frozen=True, slots=True)
class Audit:
    match_id: str
    game: str
    recorded_rules_version: int
    current_rules_version: int
    difference: Difference | None

    @property
    def differs(self) -> bool:
        return self.difference is not None


def _type_name(game: str, event: Event | None) -> str:
    if event is None:
        return ""
    from tavola.protocol import events as codec  # the codec builds on the match package

    return codec.type_name(game, event)


def first_field(recorded: Event | None, rederived: Event | None) -> tuple[str, str, str]:
    """The first differing field of two events of one type, with both values as text
    (the whole events when their types differ or one is missing)."""
    if recorded is None or rederived is None or type(recorded) is not type(rederived):
        return "", repr(recorded) if recorded else "", repr(rederived) if rederived else ""
    for field in dataclasses.fields(recorded):  # type: ignore[arg-type]
        a, b = getattr(recorded, field.name), getattr(rederived, field.name)
        if a != b:
            return field.name, _text(a), _text(b)
    return "", repr(recorded), repr(rederived)


def _text(value: object) -> str:
    if isinstance(value, tuple):
        return " ".join(_text(v) for v in value)
    code = getattr(value, "code", None)
    if isinstance(code, str):
        return code
    return str(value)


def audit(records: Sequence[Recorded]) -> Audit:
    """Re-run a finished match's records through the current rules."""
    created = records[0].event if records else None
    if not isinstance(created, MatchCreated):
        return Audit("", "", 0, 0, Difference(1, "", "", "", "", "no MatchCreated"))
    current = registry.get(created.game).info.rules_version
    under_current = dataclasses.replace(created, rules_version=current)
    rerun = [dataclasses.replace(records[0], event=under_current), *records[1:]]
    try:
        verify(rerun)
    except Discrepancy as found:
        name = _type_name(created.game, found.recorded)
        field, was, now = first_field(found.recorded, found.rederived)
        difference = Difference(found.version, name, field, was, now, str(found))
        return Audit(created.match_id, created.game, created.rules_version, current, difference)
    return Audit(created.match_id, created.game, created.rules_version, current, None)


__all__ = ["Audit", "Difference", "audit", "first_field"]
