"""Every table stays alive: random matches of every registered game, at tables where every
seat is a person, driven the way the engine drives them (``tavola.match.aggregate``:
``settle`` with a clock, ``deadlines_due`` after each change, ``decide_timeout`` when a
deadline passes), with random timers running out at every kind of decision mixed with
random legal moves. Every match must reach its end within a bounded number of steps, and
its record must verify offline, and the record folded at once (``aggregate.fold``, which
folds runs of rules events by the game alone) must be the match evolved event by event,
from the start and from any version.

At every position, for every seat to act: the automatic move exists and ``decide``
accepts it, its reason has English and Portuguese texts, a seat the game waits for has a
running deadline of exactly ``turn_timer`` seconds (none when the table switched timers
off) and its automatic move is never a ``Deferral``; a seat that may act only optionally
gets a ``Deferral``, which takes it out of ``to_act`` (no loop of optional moves).
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from tavola.match import aggregate
from tavola.match.aggregate import Batch, MatchState
from tavola.match.events import (
    DeadlineSet,
    MatchCreated,
    SeatCredentials,
    SeatInfo,
    option_entries,
)
from tavola.match.verify import Recorded, verify
from tavola.rules import fairness, registry
from tavola.rules.errors import RulesError
from tavola.rules.interface import Deferral, Game, OptionValue
from tavola.rules.messages import catalogue
from tavola.rules.timers import FLAG, MAX_SECONDS, MIN_SECONDS, declared_kinds, option_name

GAMES = registry.names()
MAX_STEPS = 60_000  # far above the longest match (a 28-deal Barbu session: ~1,600 moves)
TIMEOUT_SHARE = 0.3  # how often a running deadline is let pass instead of a legal move


def tables(
    game: Game[Any, Any], rng: random.Random, thorough: bool
) -> Iterator[tuple[int, dict[str, Any]]]:
    """Every player count with no options and with each preset; then every bool option on,
    random choices of the bool and choice options (timer seconds random too) and timers
    off — at the smallest table, or (``thorough``) at every table. Combinations the game
    refuses (``initial_state`` raises) are skipped."""
    info = game.info
    every_bool = {s.name: True for s in info.options if s.kind == "bool" and s.name != FLAG}
    for players in range(info.min_players, info.max_players + 1):
        candidates = [{}, *({"preset": p} for p in info.presets)]
        if thorough or players == info.min_players:
            candidates += [every_bool, random_options(game, rng), {FLAG: False}]
        for options in [o for i, o in enumerate(candidates) if o not in candidates[:i]]:
            try:
                game.initial_state(players, game.parse_options(options, players))
            except RulesError:
                continue
            yield players, options


def random_options(game: Game[Any, Any], rng: random.Random) -> dict[str, OptionValue]:
    chosen: dict[str, OptionValue] = {}
    kinds = set(declared_kinds(game.info.options))
    for spec in game.info.options:
        if spec.name == FLAG:
            continue
        if spec.kind == "bool":
            chosen[spec.name] = rng.random() < 0.5
        elif spec.kind == "choice":
            chosen[spec.name] = spec.choices[rng.randrange(len(spec.choices))]
        elif spec.name.removeprefix("timer_") in kinds:
            chosen[spec.name] = rng.randint(MIN_SECONDS, MAX_SECONDS)
    return chosen


@dataclass
class Table:
    """A match as the engine keeps it: the state, the records of the log, a clock."""

    game: Game[Any, Any]
    seed: bytes
    state: MatchState
    now: int = 1_800_000_000_000
    records: list[Recorded] = field(default_factory=list)
    appends: int = 0

    def append(self, batches: list[Batch], acted: int | None = None) -> None:
        """Record the batches, then the deadlines the new position starts (as the engine)."""
        after = self.state
        for batch in batches:
            after = aggregate.fold(batch.events, after)
        due = aggregate.deadlines_due(after, self.now, acted)
        for index, batch in enumerate([*batches, *([due] if due else [])]):
            for event in batch.events:
                before, self.state = self.state, aggregate.evolve(self.state, event)
                if before.deadlines and not isinstance(event, aggregate.PLATFORM_EVENTS):
                    # A rules event keeps the deadlines of the seats still awaited only.
                    awaited = self.state.awaited()
                    kept = tuple(d for d in before.deadlines if d.seat in awaited)
                    assert self.state.deadlines == kept, (event, kept)
                self.records.append(
                    Recorded(
                        version=self.state.version,
                        event=event,
                        kind=batch.kind,
                        seat=batch.seat,
                        action=batch.action,
                        chance_purpose=batch.chance_purpose,
                        command_id=f"{self.appends}/{index}",
                    )
                )
        self.appends += 1

    def settle(self) -> list[Batch]:
        return aggregate.settle(self.state, self.seed, self.now)


def open_table(
    name: str, players: int, options: dict[str, Any], seed: bytes, legacy: bool = False
) -> Table:
    """A match of people only; ``legacy``: recorded as before the timer options existed
    (no ``timers`` / ``timer_*`` entries in ``MatchCreated``)."""
    game = registry.get(name)
    parsed = game.parse_options(options, players)
    if legacy:
        parsed = {k: v for k, v in parsed.items() if k != FLAG and not k.startswith("timer_")}
    created = MatchCreated(
        match_id="m",
        table_id="t",
        game=name,
        rules_version=game.info.rules_version,
        options=option_entries(parsed),
        house_rules=game.house_rules(parsed),
        seats=tuple(SeatInfo(s, f"P{s}", False, "", "") for s in range(players)),
        seed_commitment=fairness.commitment(seed),
        fairness=fairness.ALGORITHM,
    )
    opening = (created, SeatCredentials(("",) * players))
    table = Table(game, seed, aggregate.fold(opening))
    table.records = [
        Recorded(v, e, "system", command_id="create") for v, e in enumerate(opening, 1)
    ]
    table.append(table.settle())
    return table


@dataclass
class Stats:
    """What the random matches of a game went through."""

    faced: set[str] = field(default_factory=set)  # kinds of decision awaited at some point
    timed: Counter[str] = field(default_factory=Counter)  # timeouts by kind ("None": optional)
    chosen: Counter[str] = field(default_factory=Counter)  # random moves by action code


def check_position(table: Table, stats: Stats) -> None:
    state, game = table.state, table.game
    running = {d.seat: d for d in state.deadlines}
    timed = state.options().get(FLAG, "true") == "true"
    for seat in sorted(state.to_act()):
        kind = game.decision(state.game_state, seat)
        seconds = game.turn_timer(state.game_state, seat)
        if kind is None or not timed:
            # No deadline starts for it; one it had may still run: the aggregate keeps the
            # deadline of a seat that acted and is still in ``to_act`` (a Doppelkopf seat
            # that may announce after its card). Its automatic move then defers (``play``).
            assert seconds is None, (seat, kind)
            assert seat not in running or kind is None, (seat, kind)
        else:
            stats.faced.add(kind)
            default = next(o.default for o in game.info.options if o.name == option_name(kind))
            expected = int(state.options().get(option_name(kind), default))
            assert seconds == expected, (seat, kind, seconds)
            assert seat in running and running[seat].seconds == seconds, (seat, kind)
        action, reason = game.automatic_action(state.game_state, seat)
        game.decide(state.game_state, seat, action)  # raises if the rules refuse it
        assert reason.code in catalogue(), reason.code
        assert (kind is None) == isinstance(action, Deferral), (seat, kind, action)
    assert set(running) <= state.to_act()


def play(
    name: str,
    players: int,
    options: dict[str, Any],
    number: int,
    stats: Stats,
    legacy: bool = False,
) -> int:
    """One match to its end, verified offline; returns the steps it took."""
    rng = random.Random(f"{name}/{players}/{number}")
    seed = hashlib.sha256(f"{name}/{players}/{number}".encode()).digest()
    table = open_table(name, players, options, seed, legacy)
    game = table.game
    for steps in range(MAX_STEPS):
        state = table.state
        if state.ended is not None:
            verify(table.records)
            check_fold(table, rng)
            return steps
        if not state.to_act():  # a pause: let it pass
            assert state.pause is not None, "nobody to act, no chance, no pause: a deadlock"
            table.now = max(table.now, state.pause.until_ms)
            table.append(table.settle())
            continue
        check_position(table, stats)
        due = expiring(table, stats, rng)
        if due is not None:
            table.now = max(table.now, due.deadline_ms)
            kind = game.decision(state.game_state, due.seat)
            stats.timed[str(kind)] += 1
            batch = aggregate.decide_timeout(state, due.seat)
            acted = due.seat
            if kind is None:  # an optional seat defers: out of to_act, so no loop
                assert due.seat not in aggregate.fold(batch.events, state).to_act()
        else:
            acted = rng.choice(sorted(state.to_act()))
            action = random_move(game, state.game_state, acted, stats.chosen, rng)
            table.now += rng.randrange(1, 4000)
            batch = aggregate.decide_action(state, acted, game.encode_action(action))
        after = aggregate.fold(batch.events, state)
        table.append([batch, *aggregate.settle(after, seed, table.now)], acted)
    raise AssertionError(f"{name}: no end after {MAX_STEPS} steps")


def check_fold(table: Table, rng: random.Random) -> None:
    """The whole record folded at once, and folded on from a few random versions, is the
    state the match reached event by event."""
    events = [r.event for r in table.records]
    assert aggregate.fold(events) == table.state
    for cut in sorted(rng.sample(range(1, len(events)), min(5, len(events) - 1))):
        assert aggregate.fold(events[cut:], aggregate.fold(events[:cut])) == table.state, cut


def expiring(table: Table, stats: Stats, rng: random.Random) -> DeadlineSet | None:
    """The first running deadline, if this step lets it pass: most of the time when its
    kind of decision has never timed out yet, else now and then."""
    deadlines = sorted(table.state.deadlines, key=lambda d: (d.deadline_ms, d.seat))
    if not deadlines:
        return None
    first = deadlines[0]
    kind = str(table.game.decision(table.state.game_state, first.seat))
    share = TIMEOUT_SHARE if kind in stats.timed else 0.9
    return first if rng.random() < share else None


def random_move(
    game: Game[Any, Any], state: Any, seat: int, chosen: Counter[str], rng: random.Random
) -> Any:
    """A legal move, the rarer its code has been so far the likelier (``chosen`` counts
    them), so that rare decisions (an Armut, its answer) come up in a few matches."""
    legal = game.legal_actions(state, seat)
    codes = [game.encode_action(a) for a in legal]
    weights = [1 / (1 + chosen[code]) ** 2 for code in codes]
    index = rng.choices(range(len(legal)), weights)[0]
    chosen[codes[index]] += 1
    return legal[index]


def run(name: str, matches: int) -> Stats:
    game = registry.get(name)
    rng = random.Random(name)
    stats = Stats()
    for number in range(matches):
        for players, options in tables(game, rng, thorough=matches > 1):
            play(name, players, options, number, stats)
    assert stats.faced <= set(stats.timed), stats.timed  # every kind that came up timed out
    return stats


@pytest.mark.parametrize("name", GAMES)
def test_random_timeouts_at_every_kind_of_decision_still_end_every_match(name: str) -> None:
    run(name, matches=1)


@pytest.mark.parametrize("name", GAMES)
def test_a_match_recorded_without_timer_options_gets_the_defaults_and_verifies(name: str) -> None:
    game = registry.get(name)
    stats = Stats()
    play(name, game.info.min_players, {}, 0, stats, legacy=True)
    assert stats.timed


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_many_random_matches_with_timeouts_end_and_time_every_kind_of_decision(
    name: str,
) -> None:
    stats = run(name, matches=12)
    assert set(declared_kinds(registry.get(name).info.options)) <= stats.faced, stats.timed
