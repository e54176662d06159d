"""The checkers' verdicts, as pure functions of what was read (unit-tested on their own).

Each returns the ``Violation``s it finds; an empty list is a pass. What they hold the log to:

- ``check_commands``: every command a player had acknowledged is in its match's stream
  exactly once (one run of consecutive versions carrying its namespaced id ``c/<seat>/<id>``),
  at the versions its acknowledgement named; no refused command is in it; no command of
  anyone (players, bots, the platform) appears in two runs; every command id in a stream has
  its command record.
- ``check_versions``: a stream's versions are 1, 2, 3… without a gap.
- ``check_table``: a table's match ended (seed revealed, table marked finished), or can go on
  (someone to act, or a deadline or pause running) and went on after the faults stopped.
- ``compare_rows``: a projection's rows equal those of a fresh fold.
- ``compare_bus``: every committed event is on the bus, once.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from tavola.faults.ledger import Command, Outcome

Run = tuple[int, int]  # first and last version of consecutive events of one command


@dataclass(frozen=True, slots=True)
class Violation:
    check: str
    subject: str
    detail: str

    def line(self) -> str:
        return f"VIOLATION [{self.check}] {self.subject}: {self.detail}"


@dataclass(frozen=True, slots=True)
class Mark:
    """What the command checks need of one stored event."""

    version: int
    command_id: str  # as stored (namespaced); "" for events no command caused


def runs_of(marks: Sequence[Mark]) -> dict[str, list[Run]]:
    """Each command id's maximal runs of consecutive versions, in order."""
    runs: dict[str, list[Run]] = defaultdict(list)
    for mark in sorted(marks, key=lambda m: m.version):
        if not mark.command_id:
            continue
        found = runs[mark.command_id]
        if found and found[-1][1] == mark.version - 1:
            found[-1] = (found[-1][0], mark.version)
        else:
            found.append((mark.version, mark.version))
    return dict(runs)


def check_versions(stream_id: str, versions: Sequence[int]) -> Violation | None:
    expected = list(range(1, len(versions) + 1))
    if list(versions) == expected:
        return None
    missing = sorted(set(expected) - set(versions))[:5]
    counts = Counter(versions)
    repeated = sorted(v for v, n in counts.items() if n > 1)[:5]
    return Violation(
        "versions",
        stream_id,
        f"{len(versions)} events, versions {min(versions, default=0)}..{max(versions, default=0)}"
        f"; missing {missing}, repeated {repeated}",
    )


@dataclass
class CommandTally:
    acknowledged: int = 0
    lost: int = 0  # acknowledged, not in the log
    duplicated: int = 0  # any command appended in two runs or more
    rejected: int = 0
    rejected_in_log: int = 0
    unanswered: int = 0
    unanswered_in_log: int = 0  # committed, though the answer never came: fine, once
    commands_in_log: int = 0  # distinct command ids in the streams (players, bots, platform)


def check_commands(
    commands: Sequence[Command],
    runs: Mapping[str, Mapping[str, Sequence[Run]]],
    recorded: Mapping[tuple[str, str], Run],
) -> tuple[CommandTally, list[Violation]]:
    """``runs``: per stream, each command id's runs (``runs_of``); ``recorded``: the command
    records, (stream, command id) -> (first version, last version)."""
    tally = CommandTally()
    violations: list[Violation] = []
    for stream_id, by_command in runs.items():
        for command_id, found in by_command.items():
            tally.commands_in_log += 1
            if len(found) > 1:
                tally.duplicated += 1
                violations.append(
                    Violation("duplicates", f"{stream_id} {command_id}", f"appended at {found}")
                )
            record = recorded.get((stream_id, command_id))
            if record is None or not all(record[0] <= a and b <= record[1] for a, b in found):
                violations.append(
                    Violation(
                        "commands",
                        f"{stream_id} {command_id}",
                        f"events at {list(found)} but the command record says {record}",
                    )
                )
    for command in commands:
        found = runs.get(command.stream_id, {}).get(command.key, ())
        violations += _check_one(command, found, recorded.get((command.stream_id, command.key)))
        _count(tally, command, found)
    return tally, violations


def _count(tally: CommandTally, command: Command, found: Sequence[Run]) -> None:
    if command.outcome is Outcome.ACKED:
        tally.acknowledged += 1
        tally.lost += not found
    elif command.outcome is Outcome.REJECTED:
        tally.rejected += 1
        tally.rejected_in_log += bool(found)
    else:
        tally.unanswered += 1
        tally.unanswered_in_log += bool(found)


def _check_one(command: Command, found: Sequence[Run], record: Run | None) -> list[Violation]:
    subject = f"{command.stream_id} {command.key} ({command.action})"
    if command.outcome is Outcome.ACKED:
        if not found:
            return [Violation("lost", subject, "acknowledged but not in the log")]
        named = (command.first_version, command.version)
        if record != named:
            return [
                Violation(
                    "acknowledged",
                    subject,
                    f"acknowledged as versions {named}"
                    f"{' (a retry)' if command.duplicate else ''}, recorded as {record}",
                )
            ]
    elif command.outcome is Outcome.REJECTED and found:
        return [
            Violation("rejected", subject, f"refused ({command.rejection}) but appended {found}")
        ]
    return []


@dataclass(frozen=True, slots=True)
class MatchFacts:
    """A match's state as folded from the log at the end, and its version when the faults
    stopped."""

    match_id: str
    ended: bool
    revealed: bool
    to_act: tuple[int, ...]
    deadlines: int
    paused: bool
    version: int
    version_when_faults_stopped: int


@dataclass(frozen=True, slots=True)
class TableFacts:
    number: int
    table_id: str
    status: str  # the harness's: playing, finished, refused, abandoned, setting up
    error: str
    table_finished: bool  # the table's stream records MatchFinished


def check_table(table: TableFacts, match: MatchFacts | None) -> list[Violation]:
    subject = f"table {table.number} {table.table_id or '(not created)'}"
    if table.status in ("refused", "abandoned"):
        return [Violation("tables", subject, f"{table.status}: {table.error}")]
    if match is None:
        return [Violation("tables", subject, "its match was never started")]
    subject += f" match {match.match_id}"
    if match.ended:
        problems = []
        if not match.revealed:
            problems.append(Violation("finished", subject, "ended but the seed is not revealed"))
        if not table.table_finished:
            problems.append(
                Violation("finished", subject, "the match ended but the table is not finished")
            )
        return problems
    if not (match.to_act or match.deadlines or match.paused):
        return [Violation("resumable", subject, f"stuck at version {match.version}: nobody to act")]
    if match.version <= match.version_when_faults_stopped:
        return [
            Violation(
                "resumable",
                subject,
                f"did not go on after the faults (version {match.version},"
                f" to act {list(match.to_act)}, {match.deadlines} deadlines)",
            )
        ]
    return []


def compare_rows(
    check: str, live: Iterable[tuple[object, ...]], rebuilt: Iterable[tuple[object, ...]], key: int
) -> list[Violation]:
    """Rows keyed by their first ``key`` values: missing, extra and differing ones."""
    ours = {row[:key]: row for row in live}
    theirs = {row[:key]: row for row in rebuilt}
    violations = []
    for k in sorted(theirs.keys() - ours.keys(), key=repr)[:20]:
        violations.append(
            Violation(check, repr(k), f"missing from the live projection: {theirs[k]}")
        )
    for k in sorted(ours.keys() - theirs.keys(), key=repr)[:20]:
        violations.append(Violation(check, repr(k), f"not in a fresh fold: {ours[k]}"))
    for k in sorted(ours.keys() & theirs.keys(), key=repr):
        if ours[k] != theirs[k]:
            violations.append(Violation(check, repr(k), f"live {ours[k]} != fold {theirs[k]}"))
    return violations[:50]


@dataclass
class BusTally:
    published: int = 0
    missing: int = 0
    duplicates: int = 0  # the same event id twice on the bus (consumers deduplicate)
    unknown: int = 0  # on the bus, not in the log


def compare_bus(
    logged: Mapping[str, set[str]], published: Iterable[tuple[str, str]]
) -> tuple[BusTally, list[Violation]]:
    """``logged``: stream id -> event ids in the log; ``published``: (stream id, event id)
    of every message on the bus."""
    tally = BusTally()
    seen: Counter[tuple[str, str]] = Counter(published)
    tally.published = sum(seen.values())
    tally.duplicates = sum(n - 1 for n in seen.values() if n > 1)
    violations = []
    on_bus: dict[str, set[str]] = defaultdict(set)
    for stream_id, event_id in seen:
        on_bus[stream_id].add(event_id)
    for stream_id, ids in sorted(logged.items()):
        missing = ids - on_bus.get(stream_id, set())
        tally.missing += len(missing)
        if missing:
            violations.append(
                Violation("bus", stream_id, f"{len(missing)} committed events never published")
            )
    for stream_id, ids in on_bus.items():
        tally.unknown += len(ids - logged.get(stream_id, set()))
    if tally.unknown:
        violations.append(Violation("bus", "events", f"{tally.unknown} on the bus, not in the log"))
    return tally, violations[:50]
