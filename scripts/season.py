"""``make season``: a simulated season of each game through the real services, with figures.

The long form of ``tests/e2e/test_league_season.py``: 200 bot accounts (third-party
clients of the public API with a seeded legal-move policy) in two divisions, 6 scheduled
rounds with a few players absent each round, short matches, timers on. Prints per game
each round's tables, moves and time, the seating's evenness per division, projection lag,
the promotions and relegations, a referee's correction of one finished match and whether
it changed exactly what it should (``tavola.leagues.simulation.correction``), and whether
a rebuild of every projection gives the very same rows. Figures only, never assertions
(except the corrections' checks and the rebuild's equality).
"""

from __future__ import annotations

import argparse
import asyncio
import time

from tavola.accounts.model import Kind
from tavola.cli.platform import Platform
from tavola.leagues.simulation import figures
from tavola.leagues.simulation.correction import correct_one
from tavola.leagues.simulation.harness import Harness
from tavola.leagues.simulation.platform import simulated_platform
from tavola.leagues.simulation.season import SHORT, TEAM_GAMES, run_season

GAMES = ("fan-tan", "spades", "dominoes", "doppelkopf", "barbu")


async def play(platform: Platform, args: argparse.Namespace) -> int:
    """Every game's season; the corrections that did not change exactly what they should."""
    harness = Harness(platform.address, platform.token)
    failed = 0
    try:
        (host,) = await harness.make_accounts(1, "host", Kind.HOST)
        (referee,) = await harness.make_accounts(1, "referee", Kind.REFEREE)
        players = await harness.make_accounts(args.accounts, "sim", Kind.BOT)
        print(
            f"{len(players)} bot accounts, {args.divisions} divisions, {args.rounds} rounds",
            flush=True,
        )
        for game in args.games.split(","):
            failed += await one_game(platform, harness, host, referee, players, game, args)
    finally:
        await harness.close()
    return failed


async def one_game(platform, harness, host, referee, players, game, args) -> int:  # type: ignore[no-untyped-def]
    print(f"\n== {game}: options {SHORT[game]}, timers on ==", flush=True)
    started = time.perf_counter()
    report = await run_season(
        harness,
        host,
        players,
        game,
        divisions=args.divisions,
        rounds=args.rounds,
        absent_per_round=args.absent,
        check_in_seconds=args.check_in,
        promote=args.promote,
        relegate=args.relegate,
    )
    for r in report.rounds:
        print(
            f"round {r.number}: {r.tables} tables, {r.moves} moves by the clients,"
            f" {r.absent} seats of absent players played by the platform's bots,"
            f" {r.seconds:.1f} s from scheduling to the round's end",
            flush=True,
        )
    total = time.perf_counter() - started
    print(f"season: {report.tables} matches in {total:.0f} s")
    database = platform.database_url
    await figures.caught_up(database)
    state = await figures.league(database, report.league_id)
    if game not in TEAM_GAMES:
        for division, measure in figures.division_evenness(state).items():
            print(
                f"evenness, division {division}: max {measure.max_meetings} (lambda"
                f" {measure.expected:.2f}), {measure.repeated_pairs} repeated pairs,"
                f" variance {measure.variance:.3f}, fewest opponents"
                f" {measure.fewest_opponents}: {'pass' if measure.passes else 'FAIL'}"
            )
    else:
        for division, (rematches, byes) in figures.team_pairings(state).items():
            print(
                f"Swiss pairing, division {division}: {rematches} rematches,"
                f" at most {byes} bye(s) a team"
            )
    matches = [f"match-{m}" for r in report.rounds for m in r.match_ids]
    league_stream = [f"league-{report.league_id}"]
    for name, streams in (
        ("statistics", matches),
        ("ratings", matches),
        ("league_standings", league_stream),
    ):
        lag = await figures.projection_lag(database, name, streams)
        print(f"projection lag, {name}: {lag.line()}")
    print(f"promotions and relegations: {len(report.moves)}")
    match_ids = [m for r in report.rounds for m in r.match_ids]
    outcome = await correct_one(harness, referee, database, report.league_id, match_ids)
    print(outcome.line(), flush=True)
    own = await figures.projection_lag(database, "ratings", [f"match-{outcome.plan.match_id}"])
    print(f"projection lag, ratings, of that match's end and correction: {own.line()}")
    return int(bool(outcome.problems))


async def verify_rebuild(platform: Platform) -> None:
    await figures.caught_up(platform.database_url)
    live = await figures.snapshot(platform.database_url)
    seconds = figures.rebuild(platform.env("scoring"))
    same = await figures.snapshot(platform.database_url) == live
    rows = sum(len(v) for v in live.values())
    print(
        f"\nrebuild of every projection from the log: {seconds:.1f} s, {rows} rows,"
        f" {'identical' if same else 'DIFFERENT'} to the live ones"
    )
    if not same:
        raise SystemExit(1)


def main() -> None:
    parser = argparse.ArgumentParser(prog="make season")
    parser.add_argument("--accounts", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--divisions", type=int, default=2)
    parser.add_argument("--absent", type=int, default=3, help="absent players a round")
    parser.add_argument("--check-in", type=int, default=10, help="seconds")
    parser.add_argument("--promote", type=int, default=4)
    parser.add_argument("--relegate", type=int, default=4)
    parser.add_argument("--games", default=",".join(GAMES))
    args = parser.parse_args()
    with simulated_platform("season-infra", "season") as platform:
        failed = asyncio.run(play(platform, args))
        asyncio.run(verify_rebuild(platform))
    if failed:
        print(f"{failed} correction(s) did not change exactly what they should")
        raise SystemExit(1)


if __name__ == "__main__":
    main()
