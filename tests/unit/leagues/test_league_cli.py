"""``tavola league``: its arguments and times."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tavola.cli.league import seconds, when
from tavola.cli.main import parser


def test_durations_and_times_read_as_a_host_writes_them():
    assert seconds("90") == 90 and seconds("10m") == 600 and seconds("7d") == 604_800
    now = datetime(2026, 12, 1, 12, tzinfo=UTC)
    assert when("+10m", now) == datetime(2026, 12, 1, 12, 10, tzinfo=UTC)
    assert when("2026-12-05T19:00") == datetime(2026, 12, 5, 19, tzinfo=UTC)
    assert when("2026-12-05T19:00+01:00").utcoffset() is not None


def test_every_league_command_parses():
    top = parser()
    for argv in (
        ["league", "create", "Sunday Barbu", "barbu", "--option", "blocks=2", "--check-in", "10m"],
        ["league", "register", "L", "ana", "bia"],
        ["league", "register", "L", "--partner", "bia"],
        ["league", "start-season", "L", "--divisions", "2", "--promote", "2", "--relegate", "2"],
        ["league", "schedule", "L", "--at", "+1h", "--every", "7d", "--rounds", "6"],
        ["league", "schedule", "L", "--at", "+1h", "--playoff"],
        ["league", "create", "Cup", "spades", "--playoff", "4"],
        ["league", "create", "Copa", "dominoes", "--partners", "single", "--option", "mode=block"],
        ["league", "create", "Copa", "dominoes", "--playoff", "2", "--playoff-mode", "across"],
        ["league", "standings", "L", "--division", "2", "--after-round", "3"],
        ["league", "export", "L", "--format", "json", "-o", "season.json"],
        ["league", "round", "L", "2"],
        ["league", "table", "L"],
        ["league", "end-season", "L"],
    ):
        assert top.parse_args(argv).league_command == argv[1]


def test_a_bad_time_is_refused_before_any_call():
    with pytest.raises(SystemExit):
        parser().parse_args(["league", "schedule", "L", "--at", "tomorrow"])


def test_the_format_flags_reach_the_request():
    from tavola.cli.league import _format

    argv = "league create Copa dominoes --partners single --playoff 8 --playoff-mode across"
    args = parser().parse_args(argv.split())
    fmt = _format(args)
    assert (fmt.partners, fmt.playoff, fmt.playoff_mode) == ("single", 8, "across")
    with pytest.raises(SystemExit):  # a bracket is a power of two
        parser().parse_args(["league", "create", "C", "spades", "--playoff", "6"])
