"""Bugs the suite found in code it does not own, reported and not yet fixed.

A violation matching one of these (its check, and its signature in the detail) is printed
as a known issue rather than failing the run, so that the suite keeps proving everything
else meanwhile; ``--strict`` fails on them too. Remove an entry when its bug is fixed: a
signature that no longer matches anything simply stops being shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tavola.faults.checks import Violation


@dataclass(frozen=True, slots=True)
class KnownIssue:
    name: str
    check: str
    signature: str  # a piece of the violation's detail
    description: str

    def matches(self, violation: Violation) -> bool:
        return violation.check == self.check and self.signature in violation.detail


KNOWN_ISSUES: tuple[KnownIssue, ...] = (
    KnownIssue(
        name="asyncpg-state-after-admin-shutdown",
        check="statuses",
        signature="cannot switch to state",
        description=(
            "when Postgres terminates the engine's connections (a fast shutdown: 'terminating "
            "connection due to administrator command'), the next statement on such a "
            "connection fails with asyncpg's InternalClientError ('cannot switch to state "
            "12; another operation (2) is in progress'), which the engine does not take for "
            "a database outage: a SubmitAction then answers INTERNAL instead of UNAVAILABLE "
            "(eventlog/group_commit.py), and the relay's read_all raises it and the engine "
            "exits (bus/relay.py). A retry with the same command id is answered correctly. "
            "Since mitigated (failures.py takes InternalClientError for an outage; the group "
            "commit terminates a connection whose statement failed): remove this entry once "
            "a long run shows it no more."
        ),
    ),
)


def split(
    violations: Iterable[Violation], known: Sequence[KnownIssue] = KNOWN_ISSUES
) -> tuple[list[Violation], list[tuple[KnownIssue, Violation]]]:
    """The violations that fail the run, and those of known issues."""
    failing: list[Violation] = []
    matched: list[tuple[KnownIssue, Violation]] = []
    for violation in violations:
        issue = next((k for k in known if k.matches(violation)), None)
        if issue is None:
            failing.append(violation)
        else:
            matched.append((issue, violation))
    return failing, matched
