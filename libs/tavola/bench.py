"""``make bench``: figures, never assertions.

1. Pure engine: random playouts per second for every registered game.
2. OpenSpiel: the same driver loop over OpenSpiel's games, side by side.
3. End to end (``tavola.benchmarks``): on a durable Postgres (its settings printed), the raw
   one-row-per-commit anchor and the event log's append rate at 1/16/64, then the four
   services as processes: tables of every game played by the platform's bots and by gRPC
   clients (one account per seat) over a fixed window per point — moves/s, SubmitAction
   p50/p99, engine CPU per move, ratios to the anchors —, cold replay, reconnect-to-live
   and memory per idle table.
4. Bot arenas: each level against the one below, per game.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from tavola.benchmarks.e2e import KINDS, Options
from tavola.eventlog.model import EventStore
from tavola.rules import driver, registry


def pure(seconds: float) -> None:
    """Random playouts of every game, cold replays of long matches and the master's rate
    of sampling; every rate per CPU second of this process (one core)."""
    print("== pure engine: random playouts (one core, CPU time) ==")
    for name in registry.names():
        game = registry.get(name)
        counts = sorted(
            {
                game.info.min_players,
                4 if game.info.min_players <= 4 <= game.info.max_players else game.info.max_players,
            }
        )
        for players in counts:
            matches = actions = hands = 0
            started = time.process_time()
            while time.process_time() - started < seconds:
                out = driver.play_match(
                    game, players, {}, seed=matches.to_bytes(32, "big"), rng=random.Random(matches)
                )
                matches += 1
                actions += out.actions
                hands += _hands(out.events)
            elapsed = time.process_time() - started
            print(
                f"{name:>12} {players}p: {matches / elapsed:8.1f} matches/s "
                f"{hands / elapsed:9.1f} hands/s {actions / elapsed:10.0f} actions/s"
            )
    _cold_replays(seconds)
    _master_rates(seconds)


COLD_REPLAYS: tuple[tuple[str, str, int, dict[str, str], int], ...] = (
    # what, game, players, options, seed of the random match (chance and choices)
    ("Barbu, a full session (28 deals)", "barbu", 4, {}, 0),
    ("Doppelkopf, a 24-game match", "doppelkopf", 4, {"match": "to_30"}, 25),
    ("Spades, a match (default options)", "spades", 4, {}, 1),
    ("Fan Tan, a match (default length)", "fan-tan", 4, {}, 2),
    ("dominoes, a match (default options)", "dominoes", 4, {}, 3),
)
REPLAY_GOAL_MS = 20.0


def _cold_replays(seconds: float) -> None:
    """A recorded match folded from nothing, twice: the rules alone (``Game.fold``) and the
    platform's match stream (``match.aggregate.fold``: ``MatchCreated``, credentials, then
    every game event, at a table of bots); the median of repeated folds."""
    print(f"== cold replay (median CPU time of repeated folds; goal {REPLAY_GOAL_MS:.0f} ms) ==")
    for what, name, players, options, seed in COLD_REPLAYS:
        _cold_replay(what, name, players, options, seed, seconds)


def _cold_replay(
    what: str, name: str, players: int, options: dict[str, str], seed: int, seconds: float
) -> None:
    from tavola.match import aggregate

    game = registry.get(name)
    out = driver.play_match(
        game, players, options, seed=seed.to_bytes(32, "big"), rng=random.Random(seed)
    )
    stream = _match_stream(name, players, options, out.events)
    initial = game.initial_state(players, options)
    rules = _median_ms(lambda: game.fold(initial, out.events), seconds)
    platform = _median_ms(lambda: aggregate.fold(stream), seconds)
    games = sum(1 for e in out.events if type(e).__name__ in ("GameScored", "DealScored"))
    print(
        f"{what} ({len(out.events)} events, {games} scored): Game.fold {rules:6.1f} ms, "
        f"aggregate.fold {platform:6.1f} ms ({len(stream)} events)"
    )


def _match_stream(name: str, players: int, options: dict[str, str], events: list[Any]) -> list[Any]:
    from tavola.match.events import MatchCreated, SeatCredentials, SeatInfo, option_entries
    from tavola.rules import fairness

    game = registry.get(name)
    parsed = game.parse_options(options, players)
    created = MatchCreated(
        match_id="bench",
        table_id="bench",
        game=name,
        rules_version=game.info.rules_version,
        options=option_entries(parsed),
        house_rules=game.house_rules(parsed),
        seats=tuple(SeatInfo(s, f"Bot {s}", True, "master", "") for s in range(players)),
        seed_commitment=fairness.commitment(bytes(32)),
        fairness=fairness.ALGORITHM,
    )
    return [created, SeatCredentials(("0" * 64,) * players), *events]


def _median_ms(work: Callable[[], object], seconds: float) -> float:
    times: list[float] = []
    started = time.process_time()
    while len(times) < 5 or (time.process_time() - started < seconds / 4 and len(times) < 200):
        begun = time.process_time()
        work()
        times.append(time.process_time() - begun)
    return statistics.median(times) * 1000


def _master_rates(seconds: float) -> None:
    """The master level's rate of sampling deals, against issue #13's baseline in this run
    (``tavola.benchmarks.master``)."""
    from tavola.benchmarks.master import master_rates

    master_rates(seconds, list(registry.names()))


def _hands(events: Sequence[object]) -> int:
    names = {"HandStarted", "DealStarted", "GameStarted", "HandDealt"}
    started = [e for e in events if type(e).__name__ in names and type(e).__name__ != "HandDealt"]
    return max(1, len(started))


def e2e(options: Options) -> None:
    """The platform on a durable Postgres, with its anchors (``tavola.benchmarks``)."""
    from tavola.benchmarks import e2e as platform_bench

    platform_bench.run(options, _engine_store)


def anchors_only(options: Options) -> None:
    from tavola.benchmarks import e2e as platform_bench

    platform_bench.run(replace(options, platform=False), _engine_store)


def _engine_store(pool: Any) -> EventStore:
    """The event store as the engine builds it."""
    from datetime import UTC, datetime

    from tavola.eventlog.postgres import PostgresEventStore

    return PostgresEventStore(pool, clock=lambda: datetime.now(UTC))


OPENSPIEL: tuple[tuple[str, int, dict[str, str], str, float], ...] = (
    # ours, players, options, OpenSpiel's game, the target ratio (issue #13)
    ("spades", 4, {}, "spades", 1.0),
    ("dominoes", 4, {"mode": "partnership"}, "python_team_dominoes", 3.0),
    ("dominoes", 2, {"mode": "block"}, "python_block_dominoes", 3.0),
)
SLICE_SECONDS = 0.25  # the two sides take turns in slices, so drifts of the machine hit both


class _Rate:
    """Hands played and CPU seconds spent by one side of a comparison."""

    def __init__(self) -> None:
        self.hands = 0
        self.seconds = 0.0

    def run(self, play: Callable[[], int], seconds: float) -> None:
        started = time.process_time()
        while (elapsed := time.process_time() - started) < seconds:
            self.hands += play()
        self.seconds += elapsed

    @property
    def per_second(self) -> float:
        return self.hands / self.seconds if self.seconds else 0.0


def _our_hands(game_name: str, players: int, options: dict[str, str]) -> Callable[[], int]:
    """One match with the driver's loop per call (chance from the seed, then a uniformly
    random legal action, until the end); returns the hands it played."""
    game = registry.get(game_name)
    matches = 0

    def play() -> int:
        nonlocal matches
        out = driver.play_match(
            game, players, options, seed=matches.to_bytes(32, "big"), rng=random.Random(matches)
        )
        matches += 1
        return _hands(out.events)

    return play


def _openspiel_hands(name: str) -> Callable[[], int]:
    """OpenSpiel's game (one hand per game) with the same loop: chance sampled, then a
    uniformly random legal action, until the end."""
    import pyspiel  # dev-only tool (make bench installs it)

    if name.startswith("python_"):
        import open_spiel.python.games  # noqa: F401  registers the Python games

    game = pyspiel.load_game(name)
    rng = random.Random(0)

    def play() -> int:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
            state.apply_action(action)
        return 1

    return play


def openspiel(seconds: float) -> None:
    print("== compared with OpenSpiel (random playouts, hands per CPU second, one core) ==")
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("OpenSpiel is not installed: `make bench` installs it (pip install -e '.[bench]')")
        return
    for ours, players, options, theirs, target in OPENSPIEL:
        mine, other = _Rate(), _Rate()
        play_ours, play_theirs = _our_hands(ours, players, options), _openspiel_hands(theirs)
        while mine.seconds < seconds or other.seconds < seconds:
            mine.run(play_ours, SLICE_SECONDS)
            other.run(play_theirs, SLICE_SECONDS)
        ratio = mine.per_second / other.per_second
        print(
            f"{ours:>9} {options or ''!s:<24} tavola {mine.per_second:8.1f} hands/s | OpenSpiel "
            f"{theirs:<22} {other.per_second:8.1f} hands/s | ratio tavola/OpenSpiel "
            f"{ratio:5.2f} (target {target:.1f})"
        )


def arenas(deals: int, samples: int, games: list[str], jobs: int = 1) -> None:
    """Each bot level against the one below, per game (duplicate deals, rotated seats)."""
    from tavola.bots.arena import DecisionTimes, pairing
    from tavola.bots.interface import PAIRINGS, Budget

    print(
        f"== bot arenas: {deals or 'per-game'} deals x 2 rotations per pairing, master budget "
        f"{samples or 'per-game'} samples =="
    )
    times = DecisionTimes()
    for name in games:
        game = registry.get(name)
        table = game.bots().arena
        if table is None:
            print(f"{name:>11}: no arena table (no bots of its own)")
            continue
        budget = Budget(samples=samples or table.master_samples)
        for better, worse in PAIRINGS:
            count = deals or table.deals_for(better, worse)
            result = pairing(
                game,
                table.players,
                table.options,
                better,
                worse,
                count,
                budget,
                clock=time.perf_counter,
                times=times,
                jobs=jobs,
            )
            note = f"  (master: {budget.samples} deals)" if better == "master" else ""
            print(result.line() + note, flush=True)
    for level, samples_ in sorted(times.by_level.items()):
        q = statistics.quantiles(samples_, n=100) if len(samples_) > 1 else [samples_[0]] * 99
        print(
            f"decision time {level:>6}: p50 {q[49] * 1000:8.2f} ms  p99 {q[98] * 1000:8.2f} ms"
            f"  (n={len(samples_)})"
        )


def league_round(accounts: int = 200, game: str = "fan-tan") -> None:
    """Leagues: a round of 50 tables (200 bot accounts, clients of the public API, in one
    division of a league) played and scored through the services as processes, and the
    lag of every projection, from an event's commit to its projection's transaction."""
    from tavola.leagues.simulation.bench import run
    from tavola.leagues.simulation.platform import simulated_platform

    print(f"== leagues: a round of {accounts // 4} tables ({game}, short matches) ==")
    with simulated_platform("bench-infra", "bench") as platform:
        got = run(platform, accounts, game)
    print(
        f"{got.tables} tables, {got.moves} moves: played in {got.play_seconds:.1f} s from the"
        f" round's start to its last result, scored (standings rewritten) in"
        f" {got.scored_seconds:.1f} s"
    )
    for name, lag in got.lags.items():
        print(f"projection lag {name:>16}: {lag.line()}")


def main() -> None:
    parser = argparse.ArgumentParser(prog="tavola.bench")
    parser.add_argument("--seconds", type=float, default=3.0, help="per pure benchmark")
    parser.add_argument("--tables", default="1,16,64", help="concurrency of every e2e point")
    parser.add_argument("--window", type=float, default=10.0, help="seconds per e2e point")
    parser.add_argument("--anchor-seconds", type=float, default=3.0, help="per anchor point")
    parser.add_argument("--idle-tables", type=int, default=10_000, help="0: skip")
    parser.add_argument("--reconnects", type=int, default=40)
    parser.add_argument("--no-long-matches", action="store_true", help="skip cold replay")
    parser.add_argument("--no-scale-out", action="store_true", help="skip the two-engine point")
    parser.add_argument(
        "--id-log-events",
        type=int,
        default=2_000_000,
        help="the log the event-ids point appends to (0: skip that point)",
    )
    parser.add_argument("--skip-e2e", action="store_true")
    parser.add_argument(
        "--kinds",
        default=",".join(KINDS),
        help="which e2e tables: bots,clients,streams (default all)",
    )
    parser.add_argument(
        "--arena-deals",
        type=int,
        default=0,
        help="deals per pairing (default: each game's GameBots.arena.deals)",
    )
    parser.add_argument(
        "--master-samples",
        type=int,
        default=0,
        help="master's sampled deals per decision (default: each game's arena, else 40)",
    )
    parser.add_argument("--arena-games", default=",".join(registry.names()))
    parser.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="processes per arena pairing (deals are split; results are the same)",
    )
    parser.add_argument(
        "--only",
        default="",
        help="pure,openspiel,anchors,e2e,arena (default all but anchors, which e2e includes)",
    )
    args = parser.parse_args()
    parts = set(args.only.split(",")) if args.only else {"pure", "openspiel", "e2e", "arena"}
    options = Options(
        window=args.window,
        anchor_seconds=args.anchor_seconds,
        concurrency=tuple(int(t) for t in args.tables.split(",")),
        idle_tables=args.idle_tables,
        reconnects=args.reconnects,
        long_matches=not args.no_long_matches,
        scale_out=not args.no_scale_out,
        kinds=tuple(k for k in args.kinds.split(",") if k),
        id_log_events=args.id_log_events,
    )
    unknown = set(options.kinds) - set(KINDS)
    if unknown:
        parser.error(f"--kinds: unknown {', '.join(sorted(unknown))} (of {', '.join(KINDS)})")
    if "pure" in parts:
        pure(args.seconds)
    if "openspiel" in parts:
        openspiel(args.seconds)
    if "e2e" in parts and not args.skip_e2e:
        e2e(options)
    elif "anchors" in parts:
        anchors_only(options)
    if "arena" in parts:
        arenas(args.arena_deals, args.master_samples, args.arena_games.split(","), args.jobs)
    if not args.only or "league" in parts:
        league_round()


if __name__ == "__main__":
    main()
