"""``tavola league …``: run a league as its host, or follow one — over the public API with
your token (docs/leagues.md has a complete example).

    tavola league create NAME GAME [--option K=V] [--preset P] [--check-in 10m] ...
    tavola league register LEAGUE [NAME ...] [--partner NAME]
    tavola league start-season LEAGUE --divisions 2 --promote 2 --relegate 2
    tavola league schedule LEAGUE --at 2026-12-05T19:00+00:00 [--every 7d --rounds 6]
    tavola league show|round|standings|export|end-season|withdraw|resume|table|list ...
"""

from __future__ import annotations

import argparse
import re
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import grpc
from google.protobuf.timestamp_pb2 import Timestamp

from tavola.cli.client import Client
from tavola.cli.errors import CliError
from tavola.v1 import league_pb2, league_pb2_grpc

_DURATION = re.compile(r"^(\d+)([smhd])$")
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_STATUS = {
    league_pb2.ROUND_STATUS_SCHEDULED: "scheduled",
    league_pb2.ROUND_STATUS_CHECK_IN: "check-in",
    league_pb2.ROUND_STATUS_PLAYING: "playing",
    league_pb2.ROUND_STATUS_ENDED: "ended",
}
_CHECK_IN = {
    league_pb2.CHECK_IN_NOT_SEATED: "not seated this round",
    league_pb2.CHECK_IN_NOT_OPEN: "your table is not open yet",
    league_pb2.CHECK_IN_OPEN: "your table is open: check in (tavola play --match, or SitDown)",
    league_pb2.CHECK_IN_DONE: "checked in",
    league_pb2.CHECK_IN_ABSENT: "absent: the round started without you (a bot plays your seat)",
    league_pb2.CHECK_IN_PLAYING: "playing",
}


def seconds(text: str) -> int:
    """``90``, ``90s``, ``10m``, ``2h``, ``7d`` -> seconds."""
    if text.isdigit():
        return int(text)
    found = _DURATION.match(text.strip())
    if not found:
        raise argparse.ArgumentTypeError(f"not a duration: {text!r} (e.g. 10m, 7d)")
    return int(found.group(1)) * _UNITS[found.group(2)]


def when(text: str, now: datetime | None = None) -> datetime:
    """An ISO 8601 time (UTC when no offset is given) or ``+10m`` from now."""
    now = now or datetime.now(UTC)
    if text.startswith("+"):
        return now + timedelta(seconds=seconds(text[1:]))
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a time: {text!r} (ISO 8601, or +10m)") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _option(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    return name, value


def register(sub: Any) -> None:
    """Add ``tavola league`` and its subcommands to the ``tavola`` parser."""
    league = sub.add_parser("league", help="leagues: seasons, rounds, standings (hosts, players)")
    actions = league.add_subparsers(dest="league_command", required=True)
    create = actions.add_parser("create", help="create a league (you host it)")
    create.add_argument("name")
    create.add_argument("game")
    create.add_argument("--option", action="append", default=[], type=_option, metavar="K=V")
    create.add_argument("--preset", default="")
    create.add_argument("--partners", default="", choices=("", "fixed", "rotating", "single"))
    create.add_argument("--pairing", default="", choices=("", "swiss", "round_robin"))
    create.add_argument("--remainder", default="", choices=("", "bots", "byes"))
    create.add_argument("--table-sizes", default="", metavar="4,5")
    create.add_argument("--scoring", default="")
    create.add_argument("--average", action="store_true", help="rank by points per round played")
    create.add_argument("--check-in", type=seconds, default=0, help="e.g. 10m (the default)")
    create.add_argument("--bot-accounts", action="store_true", help="let bot accounts register")
    create.add_argument(
        "--fill-level", default="", choices=("", "easy", "medium", "hard", "master")
    )
    create.add_argument(
        "--seating", default="", choices=("", "even", "standings"), help="individual games"
    )
    create.add_argument(
        "--band", type=int, default=0, help="seating by standings: points apart (0: default)"
    )
    create.add_argument(
        "--duplicate",
        action="store_true",
        help="Barbu, Spades: a round's tables share the deals; matchpoints per seat",
    )
    create.add_argument(
        "--playoff",
        type=int,
        default=0,
        choices=(0, 2, 4, 8, 16),
        help="head-to-head formats: a knockout of N qualifiers after the regular rounds",
    )
    create.add_argument(
        "--playoff-mode",
        default="",
        choices=("", "division", "across"),
        help="a bracket per division (default), or across them (group stage + knockout)",
    )
    for name, text in (
        ("list", "leagues"),
        ("show", "a league: ruleset, format, seasons, rounds"),
        ("end-season", "end the running season (promotion and relegation)"),
        ("table", "your table in the current round"),
    ):
        command = actions.add_parser(name, help=text)
        if name == "list":
            command.add_argument("--game", default="")
        else:
            command.add_argument("league")
    reg = actions.add_parser("register", help="register yourself, or (host) accounts by name")
    reg.add_argument("league")
    reg.add_argument("names", nargs="*", help="accounts to register (host); none: yourself")
    reg.add_argument("--partner", default="", help="fixed pairs: your partner's name")
    out = actions.add_parser("withdraw", help="withdraw yourself, or (host) an account")
    out.add_argument("league")
    out.add_argument("name", nargs="?", default="")
    season = actions.add_parser("start-season", help="start a season (host)")
    season.add_argument("league")
    season.add_argument("--divisions", type=int, default=1)
    season.add_argument("--names", default="", help="division names, top first: Gold,Silver")
    season.add_argument("--promote", type=int, default=0)
    season.add_argument("--relegate", type=int, default=0)
    season.add_argument("--option", action="append", default=[], type=_option, metavar="K=V")
    plan = actions.add_parser("schedule", help="schedule the next round(s) (host)")
    plan.add_argument("league")
    plan.add_argument("--at", required=True, type=when, help="ISO 8601 time, or +10m")
    plan.add_argument("--every", type=seconds, default=0, help="with --rounds: e.g. 7d")
    plan.add_argument("--rounds", type=int, default=1)
    plan.add_argument(
        "--playoff", action="store_true", help="the knockout's next round (after the regular)"
    )
    resume = actions.add_parser("resume", help="resume a halted round (host)")
    resume.add_argument("league")
    resume.add_argument("round", type=int)
    show_round = actions.add_parser("round", help="a round's tables, seats and results")
    show_round.add_argument("league")
    show_round.add_argument("round", nargs="?", type=int, default=0)
    show_round.add_argument("--season", type=int, default=0)
    table = actions.add_parser("standings", help="a division's standings")
    table.add_argument("league")
    table.add_argument("--season", type=int, default=0)
    table.add_argument("--division", default="")
    table.add_argument("--after-round", type=int, default=0)
    export = actions.add_parser("export", help="a season's final table as CSV or JSON")
    export.add_argument("league")
    export.add_argument("--season", type=int, default=0)
    export.add_argument("--format", default="csv", choices=("csv", "json"))
    export.add_argument("-o", "--output", default="-", metavar="PATH")
    for command in actions.choices.values():
        command.add_argument("--address", default=None, help="platform address (host:port)")
        command.add_argument("--token", default=None, help="API token (default: yours)")


def run(args: argparse.Namespace) -> int:
    client = Client.connect(args.address, args.token)
    try:
        stub = league_pb2_grpc.LeagueServiceStub(client.channel)
        return _COMMANDS[args.league_command](stub, args)
    except grpc.RpcError as error:
        raise CliError(error.details() or str(error.code()), 1) from None
    finally:
        client.close()


def _format(args: argparse.Namespace) -> league_pb2.LeagueFormat:
    sizes = [int(s) for s in args.table_sizes.split(",") if s.strip()]
    return league_pb2.LeagueFormat(
        partners=args.partners,
        pairing=args.pairing,
        remainder=args.remainder,
        table_sizes=sizes,
        scoring=args.scoring,
        average=args.average,
        check_in_seconds=args.check_in,
        bot_accounts=args.bot_accounts,
        fill_level=args.fill_level,
        seating=args.seating,
        band=args.band,
        duplicate=args.duplicate,
        playoff=args.playoff,
        playoff_mode=args.playoff_mode,
    )


def _create(stub: Any, args: argparse.Namespace) -> int:
    options = dict(args.option)
    if args.preset:
        options["preset"] = args.preset
    made = stub.CreateLeague(
        league_pb2.CreateLeagueRequest(
            name=args.name, game=args.game, options=options, format=_format(args)
        ),
        timeout=30,
    )
    _print_league(made.league)
    return 0


def _list(stub: Any, args: argparse.Namespace) -> int:
    listed = stub.ListLeagues(league_pb2.ListLeaguesRequest(game=args.game), timeout=30)
    for item in listed.leagues:
        print(f"{item.league_id}  {item.game:<10} {item.name}  (host {item.host})")
    if not listed.leagues:
        print("no leagues")
    return 0


def _show(stub: Any, args: argparse.Namespace) -> int:
    got = stub.GetLeague(league_pb2.GetLeagueRequest(league_id=args.league), timeout=30)
    _print_league(got.league)
    return 0


def _print_league(league: league_pb2.League) -> None:
    fmt = league.format
    print(f"league {league.name} ({league.game}), host {league.host}: {league.league_id}")
    rules = ", ".join(f"{k}={v}" for k, v in sorted(league.options.items())) or "defaults"
    print(f"  ruleset: {rules}")
    if league.house_rules:
        print(f"  house rules: {', '.join(league.house_rules)}")
    partners = f"partners {fmt.partners}" + (f" ({fmt.pairing})" if fmt.pairing else "")
    if fmt.playoff:
        partners += f"; playoff of {fmt.playoff} ({fmt.playoff_mode})"
    if fmt.seating == "standings":
        partners += f"; seated by standings (band {fmt.band})"
    print(
        f"  format: {partners}; tables of {','.join(map(str, fmt.table_sizes))};"
        f" remainder: {fmt.remainder}; scoring: {fmt.scoring}"
        f"{' per round played' if fmt.average else ''}; check-in {fmt.check_in_seconds} s"
        " before the start"
    )
    print(f"  tie-breaks: {', '.join(fmt.tie_breaks)}")
    print(f"  entrants: {len(league.entrants)}")
    for season in league.seasons:
        state = "ended" if season.ended else "running"
        counts = f"promote {season.promote}, relegate {season.relegate}"
        print(f"  season {season.season} ({state}): {counts}")
        for division in season.divisions:
            print(f"    division {division.name}: {len(division.entrants)} entrants")
        for r in season.rounds:
            start = r.starts_at.ToDatetime(tzinfo=UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
            halted = f"  HALTED {r.halted}" if r.halted else ""
            print(
                f"    round {r.round}: {start}  {_STATUS.get(r.status, '?'):<9}"
                f" {r.results}/{r.tables} results  seed sha256 {r.seed_commitment[:16]}…"
                f"{'  seed ' + r.seed[:16] + '…' if r.seed else ''}{halted}"
            )
        for move in season.moves:
            print(f"    {move.name}: {move.from_division} -> {move.to_division}")
        for bracket in season.playoffs:
            _print_bracket(bracket)


def _print_bracket(bracket: league_pb2.PlayoffBracket) -> None:
    where = "across the divisions" if bracket.group == "knockout" else f"division {bracket.group}"
    print(f"    playoff {where}")
    for r in bracket.rounds:
        left = len(r.ties) * 2
        stage = {2: "final", 4: "semi-finals", 8: "quarter-finals"}.get(left, f"last {left}")
        print(f"      round {r.round} ({stage}):")
        for tie in r.ties:
            if not tie.second:
                print(f"        {tie.first_name}: walkover")
                continue
            shown = f"{tie.first_name} v {tie.second_name}"
            won = next(
                (
                    n
                    for e, n in ((tie.first, tie.first_name), (tie.second, tie.second_name))
                    if e == tie.winner
                ),
                "",
            )
            print(f"        {shown}" + (f"  -> {won}" if won else "  (playing)"))
    if bracket.champion:
        print(f"      champion: {bracket.champion_name}")


def _register(stub: Any, args: argparse.Namespace) -> int:
    for name in args.names or [""]:
        stub.Register(
            league_pb2.RegisterRequest(
                league_id=args.league, account_name=name, partner_name=args.partner
            ),
            timeout=30,
        )
        print(f"registered {name or 'you'}")
    return 0


def _withdraw(stub: Any, args: argparse.Namespace) -> int:
    stub.Withdraw(
        league_pb2.WithdrawRequest(league_id=args.league, account_name=args.name), timeout=30
    )
    print(f"withdrew {args.name or 'you'}")
    return 0


def _start_season(stub: Any, args: argparse.Namespace) -> int:
    names = [n.strip() for n in args.names.split(",") if n.strip()]
    started = stub.StartSeason(
        league_pb2.StartSeasonRequest(
            league_id=args.league,
            divisions=args.divisions,
            division_names=names,
            promote=args.promote,
            relegate=args.relegate,
            options=dict(args.option),
        ),
        timeout=30,
    )
    _print_league(started.league)
    return 0


def _schedule(stub: Any, args: argparse.Namespace) -> int:
    if args.rounds > 1 and not args.every:
        raise CliError("--rounds needs --every (e.g. --every 7d)", 2)
    for index in range(max(1, args.rounds)):
        start = Timestamp()
        start.FromDatetime(args.at + timedelta(seconds=args.every * index))
        done = stub.ScheduleRound(
            league_pb2.ScheduleRoundRequest(
                league_id=args.league, starts_at=start, playoff=args.playoff
            ),
            timeout=30,
        )
        r = done.round
        moment = r.starts_at.ToDatetime(tzinfo=UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
        kind = "playoff round" if r.playoff else "round"
        print(f"{kind} {r.round} at {moment}; seating seed sha256 {r.seed_commitment}")
    return 0


def _resume(stub: Any, args: argparse.Namespace) -> int:
    stub.ResumeRound(league_pb2.ResumeRoundRequest(league_id=args.league, round=args.round))
    print(f"round {args.round} resumed")
    return 0


def _end_season(stub: Any, args: argparse.Namespace) -> int:
    ended = stub.EndSeason(league_pb2.EndSeasonRequest(league_id=args.league), timeout=30)
    for move in ended.moves:
        print(f"{move.name}: division {move.from_division} -> {move.to_division}")
    print(f"season ended; {len(ended.moves)} moves")
    return 0


def _table(stub: Any, args: argparse.Namespace) -> int:
    mine = stub.GetMyTable(league_pb2.GetMyTableRequest(league_id=args.league), timeout=30)
    if not mine.round:
        print("no round yet")
        return 0
    moment = mine.starts_at.ToDatetime(tzinfo=UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    print(f"season {mine.season}, round {mine.round} at {moment}, division {mine.division}")
    if mine.bye:
        print("you have a bye this round")
    elif mine.table_id:
        print(f"table {mine.table_id}, seat {mine.seat}, match {mine.match_id}")
    print(_CHECK_IN.get(mine.check_in, "?"))
    return 0


def _round(stub: Any, args: argparse.Namespace) -> int:
    got = stub.GetRound(
        league_pb2.GetRoundRequest(league_id=args.league, season=args.season, round=args.round),
        timeout=30,
    )
    r = got.round
    print(f"season {got.season}, round {r.round}: {_STATUS.get(r.status, '?')}")
    print(f"  seating seed sha256 {r.seed_commitment}" + (f", seed {r.seed}" if r.seed else ""))
    for seating in got.seatings:
        byes = f", byes: {len(seating.byes)}" if seating.byes else ""
        print(f"  division {seating.division}: cost {seating.cost}{byes}")
    for table in got.tables:
        seats = ", ".join(f"{s.name}{' (absent)' if s.absent else ''}" for s in table.seats)
        result = " ".join(f"{line.score}({line.rank})" for line in table.result)
        print(f"  {table.division}/{table.index + 1} {table.match_id or '-'}: {seats}  {result}")
    return 0


def _standings(stub: Any, args: argparse.Namespace) -> int:
    got = stub.GetStandings(
        league_pb2.GetStandingsRequest(
            league_id=args.league,
            season=args.season,
            division=args.division,
            after_round=args.after_round,
        ),
        timeout=30,
    )
    when_ = f"after round {got.after_round}" if got.after_round else "now"
    flag = " (provisional)" if got.provisional else ""
    print(f"season {got.season}, division {got.division}, {when_}{flag}")
    header = ["#", "name", "points", *got.tie_breaks, "played", "rounds"]
    print("  " + " | ".join(header))
    for line in got.lines:
        columns = [f"{c.value:g}" for c in line.columns]
        rounds = " ".join(r or "-" for r in line.rounds)
        gone = " (withdrawn)" if line.withdrawn else ""
        print(
            f"  {line.rank} | {line.name}{gone} | {line.points:g} | {' | '.join(columns)}"
            f" | {line.played} | {rounds}"
        )
    return 0


def _export(stub: Any, args: argparse.Namespace) -> int:
    kind = league_pb2.EXPORT_FORMAT_JSON if args.format == "json" else league_pb2.EXPORT_FORMAT_CSV
    got = stub.ExportSeason(
        league_pb2.ExportSeasonRequest(league_id=args.league, season=args.season, format=kind),
        timeout=30,
    )
    if args.output == "-":
        sys.stdout.write(got.content)
    else:
        Path(args.output).write_text(got.content)
        note = " (provisional: the season has not ended)" if got.provisional else ""
        print(f"wrote {args.output}{note}")
    return 0


_COMMANDS = {
    "create": _create,
    "list": _list,
    "show": _show,
    "register": _register,
    "withdraw": _withdraw,
    "start-season": _start_season,
    "schedule": _schedule,
    "resume": _resume,
    "end-season": _end_season,
    "table": _table,
    "round": _round,
    "standings": _standings,
    "export": _export,
}
