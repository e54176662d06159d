"""Rounds run themselves: the scheduler opens a round's tables at its time, starts them,
records each table's result when its match ends, and ends the round.

It holds nothing the log cannot rebuild: on start (and on every tick) it reads the league
streams and does what ``tavola.leagues.schedule.steps`` says is due. Every step is safe to
run again (tables by command id, invitations and results only when missing). One lobby
instance leads (a Postgres advisory lock); results arrive from the bus at any instance.
A step that fails is retried with a growing delay, ``MAX_ATTEMPTS`` times at most; then
the round is halted (``league.RoundHalted``, shown to everyone) until the host resumes it.

Duplicate leagues: a division's tables of a round form one deal group (one seed, no
client seeds, the same cards everywhere); their seeds are revealed only when every table
has its result, by the END step, just before the round ends.

Check-in: a round's tables are created for the league's host, invitation only, with every
seat reserved for its player by invitation, ``check_in_seconds`` before the start. A
player checks in by ``SitDown`` (which returns the seat token). At the start, every seat
whose player has not sat down is handed to the platform's bot (its invitation is moved to
"any seat", then the table is filled), the match starts, and those players are recorded
absent (``league.RoundStarted``): they are out of that match.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

import asyncpg
import structlog

from services.lobby import metrics
from services.lobby.app import Lobby
from services.lobby.league_app import Leagues, host_principal
from tavola.eventlog.model import StoredEvent
from tavola.leagues import decide, duplicate, schedule
from tavola.leagues.events import (
    OpenedTable,
    ResultLine,
    ResultRecorded,
    RoundEnded,
    RoundOpened,
    RoundStarted,
)
from tavola.leagues.results import ended_of, summarise
from tavola.leagues.state import LeagueState, RoundState, evolve
from tavola.match import corrections
from tavola.match.events import MatchCreated
from tavola.protocol import events as codec
from tavola.rules.interface import Event
from tavola.v1 import lobby_pb2

log = structlog.get_logger(__name__)
LOCK = 0x1EA6_0001  # advisory lock of the leading scheduler
MAX_ATTEMPTS = 5
MAX_SLEEP_S = 5.0


class RoundSteps:
    """The steps of a round on the lobby's own tables, acting for the league's host."""

    def __init__(self, leagues: Leagues, lobby: Lobby, now_ms: Callable[[], int]) -> None:
        self._leagues = leagues
        self._lobby = lobby
        self._now = now_ms

    async def open(self, league_id: str, season: int, number: int) -> None:
        league = await self._leagues.load(league_id)
        round_ = _round(league, season, number)
        seed = await self._leagues.store.seed(league_id, season, number, round_.seed_commitment)
        if not round_.seated:
            league = await self._leagues.append(
                league_id,
                lambda s: (
                    [] if _round(s, season, number).seated else decide.seat_round(s, number, seed)
                ),
            )
            round_ = _round(league, season, number)
        tables = await self._create_tables(league, round_)
        starts = schedule.opened_start(league, round_.starts_at_ms, self._now())
        await self._leagues.append(
            league_id,
            lambda s: (
                []
                if _round(s, season, number).opened
                else [RoundOpened(season, number, starts, tuple(tables))]
            ),
        )
        metrics.LEAGUE_STEPS.labels(step="open").inc()
        log.info("league.round_opened", league_id=league_id, round=number, tables=len(tables))

    async def _create_tables(self, league: LeagueState, round_: RoundState) -> list[OpenedTable]:
        host = host_principal(league)
        season = league.season
        assert season is not None
        options = {o.name: o.value for o in season.started.options}
        out = []
        names = season.division_names()
        names += tuple(d for d in round_.seated if d not in names)  # a knockout across them
        for d_index, division in enumerate(names):
            seated = round_.seated.get(division)
            for index, table in enumerate(seated.tables if seated else ()):
                command = (
                    f"league/{league.league_id}/{season.number}/{round_.round}/{d_index}/{index}"
                )
                group = ""
                if league.format.duplicate:  # the division's tables deal the same cards
                    group = duplicate.deal_group(
                        league.league_id, season.number, round_.round, d_index
                    )
                created = await self._lobby.create_table(
                    lobby_pb2.CreateTableRequest(
                        game=league.game,
                        players=len(table.seats),
                        options=options,
                        access=lobby_pb2.TABLE_ACCESS_INVITE_ONLY,
                        command_id=command,
                    ),
                    host,
                    deal_group=group,
                )
                made = created.table
                for seat, account in enumerate(table.seats):
                    if account:
                        await self._lobby.invite(
                            lobby_pb2.InviteToTableRequest(
                                table_id=made.table_id,
                                account_name=league.name_of(account),
                                seat=seat,
                            ),
                            host,
                        )
                out.append(
                    OpenedTable(division, index, made.table_id, made.match_id, made.seed_commitment)
                )
        return out

    async def start(self, league_id: str, season: int, number: int) -> None:
        league = await self._leagues.load(league_id)
        round_ = _round(league, season, number)
        assert round_.opened is not None
        host = host_principal(league)
        level = league.format.fill_level
        absent: set[str] = set()
        for table in round_.opened.tables:
            state = await self._lobby.load(table.table_id)
            if not state.started:
                fill = lobby_pb2.FillWithBotsRequest(table_id=table.table_id, level=level)
                await self._lobby.fill_with_bots(fill, host)  # the seating's own bot seats
                for _seat, invitation in sorted(
                    (await self._lobby.load(table.table_id)).reserved().items()
                ):
                    await self._lobby.invite(
                        lobby_pb2.InviteToTableRequest(
                            table_id=table.table_id, account_name=invitation.name, seat=-1
                        ),
                        host,
                    )
                    await self._lobby.fill_with_bots(fill, host)
                await self._lobby.start_match(
                    lobby_pb2.StartMatchRequest(table_id=table.table_id), host
                )
                state = await self._lobby.load(table.table_id)
            seats = round_.seated[table.division].tables[table.index].seats
            absent |= {a for i, a in enumerate(seats) if a and state.seat_of(a) != i}
        await self._leagues.append(
            league_id,
            lambda s: (
                []
                if _round(s, season, number).started
                else [RoundStarted(season, number, tuple(sorted(absent)))]
            ),
        )
        metrics.LEAGUE_STEPS.labels(step="start").inc()
        log.info("league.round_started", league_id=league_id, round=number, absent=len(absent))

    async def record(self, match_id: str) -> bool:
        """Record a league table's result once its match has ended; False otherwise."""
        league_id = await self._leagues.store.league_of_match(match_id)
        if league_id is None:
            return False
        stored = await self._leagues.store.read_match(match_id)
        if not stored:
            return False
        lines = _lines(stored)
        if lines is None:
            return False
        league = await self._leagues.load(league_id)
        round_ = league.round_of_match(match_id)
        if round_ is None or match_id in round_.results:
            return False
        seed = await self._leagues.store.seed(
            league_id, round_.season, round_.round, round_.seed_commitment
        )

        def decision(state: LeagueState) -> list[Event]:
            now = state.round_of_match(match_id)
            if now is None or match_id in now.results:
                return []
            recorded = ResultRecorded(now.season, now.round, match_id, lines)
            if state.format.duplicate:  # the END step reveals the seeds, then ends it
                return [recorded]
            return [recorded, *_ending(evolve(state, recorded), now.season, now.round, seed)]

        await self._leagues.append(league_id, decision)
        metrics.LEAGUE_RESULTS.inc()
        log.info("league.result_recorded", league_id=league_id, match_id=match_id)
        return True

    async def record_correction(self, match_id: str) -> bool:
        """A referee corrected a league table's match: record its result again (the next
        revision) when the corrected lines differ from the recorded ones."""
        league_id = await self._leagues.store.league_of_match(match_id)
        if league_id is None:
            return False
        lines = _lines(await self._leagues.store.read_match(match_id))
        if lines is None:
            return False
        league = await self._leagues.load(league_id)
        round_ = league.round_of_match(match_id)
        if round_ is None:
            return False
        if match_id not in round_.results:
            return await self.record(match_id)

        def decision(state: LeagueState) -> list[Event]:
            now = state.round_of_match(match_id)
            previous = now.results.get(match_id) if now is not None else None
            if now is None or previous is None or previous.lines == lines:
                return []
            return [ResultRecorded(now.season, now.round, match_id, lines, previous.revision + 1)]

        await self._leagues.append(league_id, decision)
        log.info("league.result_corrected", league_id=league_id, match_id=match_id)
        return True

    async def end(self, league_id: str, season: int, number: int) -> None:
        league = await self._leagues.load(league_id)
        round_ = _round(league, season, number)
        seed = await self._leagues.store.seed(league_id, season, number, round_.seed_commitment)
        if league.format.duplicate and round_.complete():
            for match_id in round_.match_ids:  # every table has ended: the deals are no secret
                await self._lobby.reveal_seed(match_id)
        await self._leagues.append(league_id, lambda s: _ending(s, season, number, seed))
        metrics.LEAGUE_STEPS.labels(step="end").inc()
        log.info("league.round_ended", league_id=league_id, round=number)

    async def collect(self, league_id: str, season: int, number: int) -> int:
        """Record the results of ended matches the bus has not brought (yet)."""
        league = await self._leagues.load(league_id)
        round_ = _round(league, season, number)
        found = 0
        for match_id in round_.match_ids:
            if match_id not in round_.results and await self._leagues.store.match_ended(match_id):
                found += await self.record(match_id)
        return found


def _lines(stored: list[StoredEvent]) -> tuple[ResultLine, ...] | None:
    """A finished match's result lines, its corrections applied (None: not ended)."""
    if not stored:
        return None
    records = codec.decode_recorded(stored)
    created = records[0].event
    assert isinstance(created, MatchCreated)
    events = [r.event for r in records]
    result = corrections.corrected(created.game, records)
    if result is None or ended_of(events) is None:
        return None
    return summarise(created, events, result.standings, result.voided)


def _round(league: LeagueState, season: int, number: int) -> RoundState:
    state = league.season_of(season)
    assert state is not None
    return state.rounds[number]


def _ending(league: LeagueState, season: int, number: int, seed: bytes) -> list[Event]:
    round_ = _round(league, season, number)
    if round_.started is None or round_.ended is not None or not round_.complete():
        return []
    return [RoundEnded(season, number, seed.hex())]


class Scheduler:
    """The loop: lead (advisory lock), then do what is due, sleeping until the next due
    time or a wake-up (a round scheduled, a match ended)."""

    def __init__(
        self,
        leagues: Leagues,
        steps: RoundSteps,
        pool: asyncpg.Pool,
        now_ms: Callable[[], int],
    ) -> None:
        self._leagues = leagues
        self._steps = steps
        self._pool = pool
        self._now = now_ms
        self._wakeup = asyncio.Event()
        self._failures: dict[tuple[str, int, int, str], tuple[int, int]] = {}
        self._collected: dict[tuple[str, int, int], int] = {}
        self.leading = False

    def wake(self) -> None:
        self._wakeup.set()

    async def match_ended(self, match_id: str) -> None:
        """From the bus (any instance): record the result, then let the leader look."""
        if await self._steps.record(match_id):
            self.wake()

    async def match_corrected(self, match_id: str) -> bool:
        """From the bus: a referee corrected a match; a league table's result follows."""
        return await self._steps.record_correction(match_id)

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                async with self._pool.acquire() as conn:
                    while not stop.is_set():
                        if await conn.fetchval("SELECT pg_try_advisory_lock($1)", LOCK):
                            self.leading = True
                            try:
                                await self._lead(stop)
                            finally:
                                self.leading = False
                                with contextlib.suppress(Exception):
                                    await conn.execute("SELECT pg_advisory_unlock($1)", LOCK)
                            return
                        await self._sleep(stop, MAX_SLEEP_S)
            except Exception as error:  # the database went away: look again shortly
                log.warning("league.scheduler_unavailable", error=type(error).__name__)
                await self._sleep(stop, MAX_SLEEP_S)

    async def _lead(self, stop: asyncio.Event) -> None:
        log.info("league.scheduler_leading")
        while not stop.is_set():
            self._wakeup.clear()
            delay = await self.tick()
            await self._sleep(stop, delay)

    async def tick(self) -> float:
        """Do every due step once; seconds until the next one may be due."""
        now = self._now()
        soonest = now + int(MAX_SLEEP_S * 1000)
        for league_id in await self._leagues.store.league_ids():
            league = await self._leagues.store.load(league_id)
            if league is None:
                continue
            for step in schedule.steps(league):
                due = max(step.at_ms, self._retry_at(league_id, step))
                if step.kind == schedule.COLLECT:
                    due = max(due, self._collected.get((league_id, step.season, step.round), 0))
                if due > now:
                    soonest = min(soonest, due)
                    continue
                await self._run(league_id, step)
        return max(0.05, (soonest - self._now()) / 1000)

    def _retry_at(self, league_id: str, step: schedule.Step) -> int:
        failed = self._failures.get((league_id, step.season, step.round, step.kind))
        return failed[1] if failed else 0

    async def _run(self, league_id: str, step: schedule.Step) -> None:
        key = (league_id, step.season, step.round, step.kind)
        try:
            if step.kind == schedule.OPEN:
                await self._steps.open(league_id, step.season, step.round)
            elif step.kind == schedule.START:
                await self._steps.start(league_id, step.season, step.round)
            elif step.kind == schedule.END:
                await self._steps.end(league_id, step.season, step.round)
            else:
                self._collected[(league_id, step.season, step.round)] = (
                    self._now() + schedule.COLLECT_EVERY_MS
                )
                await self._steps.collect(league_id, step.season, step.round)
            self._failures.pop(key, None)
        except Exception as error:
            await self._failed(key, step, error)

    async def _failed(
        self, key: tuple[str, int, int, str], step: schedule.Step, error: Any
    ) -> None:
        attempts = self._failures.get(key, (0, 0))[0] + 1
        metrics.LEAGUE_STEP_FAILURES.labels(step=step.kind).inc()
        log.warning(
            "league.step_failed",
            league_id=key[0],
            round=step.round,
            step=step.kind,
            attempt=attempts,
            error=type(error).__name__,
        )
        if attempts < MAX_ATTEMPTS:
            self._failures[key] = (attempts, self._now() + 1000 * 2**attempts)
            return
        self._failures.pop(key, None)
        reason = getattr(getattr(error, "reason", None), "code", "") or type(error).__name__
        with contextlib.suppress(Exception):
            await self._leagues.halt(key[0], step.season, step.round, step.kind, reason)

    async def _sleep(self, stop: asyncio.Event, seconds: float) -> None:
        waiters = [asyncio.ensure_future(stop.wait()), asyncio.ensure_future(self._wakeup.wait())]
        try:
            await asyncio.wait(waiters, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiter in waiters:
                waiter.cancel()
