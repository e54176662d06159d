"""The figures of a run and its verdict, as printed at the end."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from tavola.faults.checks import BusTally, Violation
from tavola.faults.examine import LogFindings
from tavola.faults.known import KnownIssue, split
from tavola.faults.ledger import Command
from tavola.faults.load import TableRecord
from tavola.faults.stage import Tally
from tavola.faults.views import ViewFindings


@dataclass
class Report:
    seed: int
    profile: str
    seconds: float = 0.0
    tally: Tally = field(default_factory=Tally)
    skipped_steps: int = 0
    tables: list[TableRecord] = field(default_factory=list)
    commands: list[Command] = field(default_factory=list)
    retried_on: Counter[str] = field(default_factory=Counter)
    surprises: list[str] = field(default_factory=list)
    statuses: Counter[str] = field(default_factory=Counter)  # what the players were answered
    log: LogFindings = field(default_factory=LogFindings)
    views: ViewFindings = field(default_factory=ViewFindings)
    bus: BusTally = field(default_factory=BusTally)
    scoring: dict[str, int] = field(default_factory=dict)
    violations: list[Violation] = field(default_factory=list)
    strict: bool = False  # known issues fail the run too

    @property
    def failing(self) -> list[Violation]:
        return list(self.violations) if self.strict else split(self.violations)[0]

    @property
    def known(self) -> list[tuple[KnownIssue, Violation]]:
        return [] if self.strict else split(self.violations)[1]

    @property
    def ok(self) -> bool:
        return not self.failing

    def failed_checks(self) -> list[str]:
        return sorted({v.check for v in self.failing})

    def lines(self) -> list[str]:
        return [
            *self._fault_lines(),
            *self._load_lines(),
            *self._check_lines(),
            *self._verdict_lines(),
        ]

    def _fault_lines(self) -> list[str]:
        t = self.tally
        return [
            f"fault suite, {self.profile} form, seed {self.seed}, {self.seconds:.0f} s",
            f"kills: {sum(t.kills.values())} ({_by(t.kills)})",
            f"pauses (SIGSTOP/SIGCONT): {sum(t.pauses.values())} ({_by(t.pauses)})",
            f"Postgres restarts: {t.postgres_restarts}, NATS restarts: {t.nats_restarts},"
            f" NATS node losses: {t.node_losses} (3-node cluster, R3 stream)",
            f"network: {sum(t.network.values())} episodes ({_by(t.network)})",
            f"services that exited on their own and were restarted:"
            f" {sum(t.unexpected_exits.values())} ({_by(t.unexpected_exits)})",
            *(f"  {n} x {reason}" for reason, n in sorted(t.exit_reasons.items())),
            f"steps skipped (target not running): {self.skipped_steps}",
        ]

    def _load_lines(self) -> list[str]:
        by_game = Counter(t.game for t in self.tables)
        by_kind = Counter(t.kind for t in self.tables)
        by_status = Counter(t.status for t in self.tables)
        c = self.log.commands
        duplicates = sum(1 for x in self.commands if x.duplicate)
        return [
            f"tables: {len(self.tables)} ({_by(by_game)}; {_by(by_kind)}; {_by(by_status)})",
            f"matches in the log: {self.log.matches}, finished {self.log.matches_finished}",
            f"player commands sent: {len(self.commands)}; acknowledged {c.acknowledged}"
            f" ({duplicates} answered to a retry), rejected {c.rejected},"
            f" unanswered {c.unanswered} ({c.unanswered_in_log} of them in the log)",
            f"commands retried on: {_by(self.retried_on) or 'nothing'}",
            f"statuses the players were answered (errors): {_by(self.statuses) or 'none'}",
            f"server failures answered (INTERNAL/UNKNOWN): {len(self.surprises)}",
        ]

    def _check_lines(self) -> list[str]:
        log, c, v, b = self.log, self.log.commands, self.views, self.bus
        return [
            f"events: {log.events} in {log.streams} streams; command ids in match streams:"
            f" {c.commands_in_log}",
            f"lost: {c.lost}, duplicated: {c.duplicated}, refused but appended:"
            f" {c.rejected_in_log}",
            f"chains intact: {log.chains_intact}/{log.streams}; versions gap-free:"
            f" {log.streams - self._count('versions')}/{log.streams}",
            f"matches through the offline verifier: {log.matches_verified}/"
            f"{log.matches_finished} ({log.bot_decisions} bot decisions re-derived)",
            f"projections equal: lobby index {log.lobby_rows} rows"
            f" ({_verdict(self._count('lobby index'))}), scoring {self._scoring_figures()}"
            f" ({_verdict(self._count('standings', 'ratings', 'scored matches'))})",
            f"client views equal: {v.views_compared} views at versions,"
            f" {v.streams_compared} seat streams ({v.events_streamed} events,"
            f" {v.reconnects} reconnections)"
            f" ({_verdict(self._count('views', 'streams'))})",
            f"bus: {b.published} messages; committed events missing {b.missing},"
            f" duplicates {b.duplicates} (dropped by consumers)",
        ]

    def _scoring_figures(self) -> str:
        return ", ".join(f"{k} {n}" for k, n in sorted(self.scoring.items())) or "not compared"

    def _verdict_lines(self) -> list[str]:
        lines = self._known_lines()
        if self.ok:
            return [*lines, f"OK: no violation (seed {self.seed})"]
        failing = self.failing
        shown = [v.line() for v in failing[:40]]
        more = len(failing) - len(shown)
        return [
            *lines,
            *shown,
            *([f"... and {more} more"] if more > 0 else []),
            f"FAILED: {len(failing)} violations in {', '.join(self.failed_checks())}"
            f" (re-run with --seed {self.seed})",
        ]

    def _known_lines(self) -> list[str]:
        by_issue: dict[str, list[Violation]] = {}
        issues: dict[str, KnownIssue] = {}
        for issue, violation in self.known:
            by_issue.setdefault(issue.name, []).append(violation)
            issues[issue.name] = issue
        lines = []
        for name, found in sorted(by_issue.items()):
            lines.append(
                f"KNOWN ISSUE {name} ({len(found)} violations, not failing the run;"
                f" --strict fails on it): {issues[name].description}"
            )
            lines += [f"  {v.line()}" for v in found[:3]]
        return lines

    def _count(self, *checks: str) -> int:
        return sum(1 for v in self.violations if v.check in checks)


def _by(counter: Counter[str]) -> str:
    return ", ".join(f"{key} {n}" for key, n in sorted(counter.items()))


def _verdict(violations: int) -> str:
    return "equal" if not violations else f"DIFFER: {violations} violations"
