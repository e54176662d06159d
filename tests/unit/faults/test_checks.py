"""The fault suite's checkers, on made-up logs: what passes, and every kind of violation
they must report (a lost or twice-appended command, a refused command appended, a gap, a
stuck table, a projection that differs from its fold, an event the bus never got)."""

from __future__ import annotations

from tavola.faults.checks import (
    Mark,
    MatchFacts,
    TableFacts,
    Violation,
    check_commands,
    check_table,
    check_versions,
    compare_bus,
    compare_rows,
    runs_of,
)
from tavola.faults.known import KNOWN_ISSUES, split
from tavola.faults.ledger import Ledger

STREAM = "match-m1"


def acked(ledger: Ledger, seat: int, command_id: str, first: int, last: int, retry: bool = False):
    command = ledger.sent("m1", seat, command_id, "7D", first - 1)
    ledger.acked(command, last, first, retry)
    return command


def test_consecutive_events_of_one_command_form_one_run_and_a_repeat_a_second() -> None:
    marks = [Mark(1, ""), Mark(2, "c/0/a"), Mark(3, "c/0/a"), Mark(4, ""), Mark(5, "c/0/a")]
    assert runs_of(marks) == {"c/0/a": [(2, 3), (5, 5)]}


def test_gap_free_versions_pass_and_a_gap_or_a_repeat_is_reported() -> None:
    assert check_versions("s", [1, 2, 3]) is None
    gap = check_versions("s", [1, 2, 4])
    assert gap is not None and "missing [3]" in gap.detail
    repeat = check_versions("s", [1, 2, 2])
    assert repeat is not None and "repeated [2]" in repeat.detail


def test_an_acknowledged_command_in_the_log_once_at_its_versions_passes() -> None:
    ledger = Ledger()
    acked(ledger, 0, "a", 5, 7)
    tally, violations = check_commands(
        ledger.snapshot(), {STREAM: {"c/0/a": [(5, 6)]}}, {(STREAM, "c/0/a"): (5, 7)}
    )
    assert violations == []
    assert (tally.acknowledged, tally.lost, tally.duplicated) == (1, 0, 0)


def test_an_acknowledged_command_missing_from_the_log_is_lost() -> None:
    ledger = Ledger()
    acked(ledger, 0, "a", 5, 7)
    tally, violations = check_commands(ledger.snapshot(), {STREAM: {}}, {})
    assert tally.lost == 1
    assert [v.check for v in violations] == ["lost"]


def test_a_command_appended_twice_is_duplicated_whoever_sent_it() -> None:
    ledger = Ledger()
    acked(ledger, 0, "a", 5, 5)
    runs = {STREAM: {"c/0/a": [(5, 5), (9, 9)], "b/1/bot:x": [(6, 6), (8, 8)]}}
    recorded = {(STREAM, "c/0/a"): (5, 9), (STREAM, "b/1/bot:x"): (6, 8)}
    tally, violations = check_commands(ledger.snapshot(), runs, recorded)
    assert tally.duplicated == 2
    assert sorted(v.check for v in violations) == ["acknowledged", "duplicates", "duplicates"]


def test_a_retry_answered_with_other_versions_than_recorded_is_reported() -> None:
    ledger = Ledger()
    acked(ledger, 2, "a", 5, 6, retry=True)
    _, violations = check_commands(
        ledger.snapshot(), {STREAM: {"c/2/a": [(5, 6)]}}, {(STREAM, "c/2/a"): (5, 8)}
    )
    assert [v.check for v in violations] == ["acknowledged"]
    assert "a retry" in violations[0].detail


def test_a_refused_command_found_in_the_log_is_reported() -> None:
    ledger = Ledger()
    command = ledger.sent("m1", 0, "a", "7D", 4)
    ledger.rejected(command, "ABORTED stale")
    tally, violations = check_commands(
        ledger.snapshot(), {STREAM: {"c/0/a": [(5, 5)]}}, {(STREAM, "c/0/a"): (5, 5)}
    )
    assert tally.rejected_in_log == 1
    assert [v.check for v in violations] == ["rejected"]


def test_an_unanswered_command_may_be_in_the_log_once() -> None:
    ledger = Ledger()
    ledger.sent("m1", 0, "a", "7D", 4)
    ledger.sent("m1", 0, "b", "8D", 5)
    tally, violations = check_commands(
        ledger.snapshot(), {STREAM: {"c/0/a": [(5, 5)]}}, {(STREAM, "c/0/a"): (5, 5)}
    )
    assert violations == []
    assert (tally.unanswered, tally.unanswered_in_log) == (2, 1)


def test_events_of_a_command_without_its_record_are_reported() -> None:
    _, violations = check_commands([], {STREAM: {"b/0/x": [(3, 4)]}}, {})
    assert [v.check for v in violations] == ["commands"]


def facts(**changes: object) -> MatchFacts:
    values: dict[str, object] = dict(
        match_id="m1",
        ended=False,
        revealed=False,
        to_act=(1,),
        deadlines=0,
        paused=False,
        version=40,
        version_when_faults_stopped=30,
    )
    values.update(changes)
    return MatchFacts(**values)  # type: ignore[arg-type]


TABLE = TableFacts(3, "t1", "playing", "", False)


def test_a_finished_match_at_a_finished_table_passes() -> None:
    done = TableFacts(3, "t1", "finished", "", True)
    assert check_table(done, facts(ended=True, revealed=True, to_act=())) == []


def test_a_match_that_ended_while_its_table_did_not_is_reported() -> None:
    [violation] = check_table(TABLE, facts(ended=True, revealed=True, to_act=()))
    assert violation.check == "finished"


def test_an_unfinished_match_that_went_on_after_the_faults_is_resumable() -> None:
    assert check_table(TABLE, facts()) == []
    assert check_table(TABLE, facts(to_act=(), deadlines=1)) == []


def test_a_match_with_nobody_to_act_and_no_deadline_is_stuck() -> None:
    [violation] = check_table(TABLE, facts(to_act=()))
    assert violation.check == "resumable" and "stuck" in violation.detail


def test_a_match_that_did_not_go_on_after_the_faults_is_reported() -> None:
    [violation] = check_table(TABLE, facts(version=30))
    assert violation.check == "resumable"


def test_a_table_never_set_up_or_never_started_is_reported() -> None:
    refused = TableFacts(4, "", "refused", "INVALID_ARGUMENT bad", False)
    assert [v.check for v in check_table(refused, None)] == ["tables"]
    assert [v.check for v in check_table(TABLE, None)] == ["tables"]


def test_equal_projections_pass_and_missing_extra_or_different_rows_are_reported() -> None:
    fold = [("m1", 0, 10), ("m1", 1, 20), ("m2", 0, 5)]
    assert compare_rows("standings", list(fold), fold, key=2) == []
    live = [("m1", 0, 10), ("m1", 1, 21), ("m3", 0, 1)]
    details = sorted(v.detail.split(":")[0] for v in compare_rows("standings", live, fold, key=2))
    assert details == [
        "live ('m1', 1, 21) != fold ('m1', 1, 20)",
        "missing from the live projection",
        "not in a fresh fold",
    ]


def test_the_bus_must_carry_every_committed_event_and_duplicates_are_counted() -> None:
    logged = {"match-a": {"e1", "e2"}, "table-b": {"e3"}}
    tally, violations = compare_bus(
        logged, [("match-a", "e1"), ("match-a", "e1"), ("table-b", "e3")]
    )
    assert (tally.published, tally.missing, tally.duplicates) == (3, 1, 1)
    assert [v.subject for v in violations] == ["match-a"]


def test_a_known_issue_is_set_apart_and_anything_else_still_fails() -> None:
    known = Violation(
        "statuses", "SubmitAction", "INTERNAL: cannot switch to state 12; another operation …"
    )
    other = Violation("verifier", "match-y", "version 3: recorded CardPlayed, the rules give …")
    failing, matched = split([known, other], KNOWN_ISSUES)
    assert failing == [other]
    assert [v for _, v in matched] == [known]
