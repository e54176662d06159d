"""Leagues, answered by the lobby: every league is a stream ``league-<id>`` in the log.

The account that creates a league is its host: only the host (or an admin) starts and
ends seasons and schedules rounds; an account registers and withdraws itself (the host
anyone). A round's tables are the lobby's own tables, created for the league's host by
the scheduler (``league_scheduler``) with every seat reserved by invitation; players check
in by ``SitDown`` (their seat token comes back as usual).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import structlog

from services.lobby.league_store import LeagueRow, LeagueStore
from tavola.accounts.directory import AccountDirectory
from tavola.accounts.model import ADMIN, BOT, HOST, PLAY, AccountState, Kind, Principal
from tavola.eventlog.errors import ConcurrencyConflict
from tavola.leagues import decide, duplicate, formats
from tavola.leagues.events import LeagueCreated, RoundHalted, RoundResumed
from tavola.leagues.formats import Format
from tavola.leagues.state import LeagueState, RoundState, SeasonState
from tavola.match.events import OptionEntry, option_entries
from tavola.protocol import errors
from tavola.protocol.errors import ServiceError, from_rules_error
from tavola.rules import fairness, registry
from tavola.rules.errors import RulesError
from tavola.rules.interface import Event
from tavola.rules.registry import UnknownGame

log = structlog.get_logger(__name__)
LEAGUE_IDS = uuid.UUID("8b1f3c2e-4d5a-4e6f-9a7b-1c2d3e4f5a6b")  # namespace of derived ids
APPEND_ATTEMPTS = 5
_PRINTABLE = frozenset(chr(c) for c in range(0x21, 0x7F))


@dataclass
class LeaguePorts:
    store: LeagueStore
    accounts: AccountDirectory
    new_id: Callable[[], UUID]
    new_seed: Callable[[], bytes]
    now_ms: Callable[[], int]
    wake: Callable[[], None] = lambda: None  # the scheduler: something changed


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A season's ruleset as the host gave it (table options as text) and what it means
    at the league's preferred table size (every option, house rules)."""

    given: tuple[OptionEntry, ...]
    shown: tuple[OptionEntry, ...]
    house_rules: tuple[str, ...]


def ruleset(game_name: str, fmt: Format, given: Mapping[str, str]) -> Ruleset:
    """Check the options at every table size the league seats; raises INVALID_ARGUMENT."""
    game = _game(game_name)
    shown: dict[str, object] = {}
    for index, players in enumerate(fmt.table_sizes):
        try:
            options = game.parse_options(dict(given), players)
            game.initial_state(players, options)
        except RulesError as error:
            raise errors.invalid(error.reason.code, **dict(error.reason.params)) from None
        if index == 0:
            shown = dict(options)
            house = game.house_rules(options)
    length = duplicate.FIXED_LENGTH.get(game_name) if fmt.duplicate else None
    if length is not None and not shown.get(length):
        raise errors.invalid("league.bad_format", field=length, detail="> 0 when duplicate")
    return Ruleset(option_entries(given), option_entries(shown), house)


def _game(name: str) -> Any:
    try:
        return registry.get(name)
    except UnknownGame as error:
        raise errors.invalid(error.reason.code, **dict(error.reason.params)) from None


def refused(error: RulesError) -> ServiceError:
    return from_rules_error(error)


class Leagues:
    def __init__(self, ports: LeaguePorts) -> None:
        self._ports = ports

    def wake_scheduler(self, wake: Callable[[], None]) -> None:
        """Tell the scheduler when a round is scheduled, resumed or a player withdraws."""
        self._ports.wake = wake

    @property
    def store(self) -> LeagueStore:
        return self._ports.store

    # ----- reading -------------------------------------------------------------------------
    async def load(self, league_id: str) -> LeagueState:
        if not league_id:
            raise errors.invalid("request.missing", field="league_id")
        state = await self._ports.store.load(league_id)
        if state is None:
            raise errors.not_found("league.not_found", league_id=league_id)
        return state

    async def list(self, game: str, limit: int) -> list[LeagueRow]:
        if game:
            _game(game)
        if limit < 0:
            raise errors.invalid("request.invalid", field="limit", detail="not negative")
        return await self._ports.store.listing(game, limit or 50)

    # ----- creating ------------------------------------------------------------------------
    async def create(
        self,
        principal: Principal,
        name: str,
        game: str,
        options: Mapping[str, str],
        fmt: Format,
        command_id: str = "",
    ) -> LeagueState:
        _require(principal, HOST)
        if not name.strip():
            raise errors.invalid("request.missing", field="name")
        _game(game)
        try:
            fmt = formats.checked(game, fmt)
        except RulesError as error:
            raise refused(error) from None
        rules = ruleset(game, fmt, options)
        if command_id:
            if not set(command_id) <= _PRINTABLE:
                raise errors.invalid("command.bad_id", field="command_id")
            league_id = str(uuid.uuid5(LEAGUE_IDS, f"{principal.account_id}/{command_id}"))
            existing = await self._ports.store.load(league_id)
            if existing is not None:
                return existing
        else:
            league_id = str(self._ports.new_id())
        created = LeagueCreated(
            league_id=league_id,
            name=name.strip(),
            game=game,
            host_account_id=principal.account_id,
            host_name=principal.name,
            format=fmt,
            options=rules.given,
            house_rules=rules.house_rules,
            created_at_ms=self._ports.now_ms(),
        )
        try:
            state = await self._ports.store.append(None, [created], self._ports.new_id)
        except ConcurrencyConflict:  # the same command id, at the same moment
            state = await self.load(league_id)
        log.info("league.created", league_id=league_id, game=game)
        return state

    # ----- registration --------------------------------------------------------------------
    async def register(
        self, principal: Principal, league_id: str, account_name: str, partner_name: str
    ) -> LeagueState:
        league = await self.load(league_id)
        account = await self._whom(principal, league, account_name)
        partner_id = ""
        if partner_name:
            partner = await self._ports.accounts.by_name(partner_name)
            if partner is None:
                raise errors.not_found("account.not_found", name=partner_name)
            partner_id, partner_name = partner.account_id, partner.name
        return await self._decide(
            league_id,
            lambda state: decide.register(
                state,
                account.account_id,
                account.name,
                account.kind == Kind.BOT,
                partner_id,
                partner_name,
            ),
        )

    async def withdraw(
        self, principal: Principal, league_id: str, account_name: str
    ) -> LeagueState:
        league = await self.load(league_id)
        account = await self._whom(principal, league, account_name)
        state = await self._decide(
            league_id, lambda state: decide.withdraw(state, account.account_id)
        )
        self._ports.wake()
        return state

    async def _whom(
        self, principal: Principal, league: LeagueState, account_name: str
    ) -> AccountState:
        """The account a registration is about: the caller (a person or a bot account),
        or — for the league's host or an admin — the account named."""
        if account_name and account_name.casefold() != principal.name.casefold():
            _require_host(league, principal)
            found = await self._ports.accounts.by_name(account_name)
            if found is None:
                raise errors.not_found("account.not_found", name=account_name)
            return found
        _require(principal, PLAY, BOT)
        own = await self._ports.accounts.load(principal.account_id)
        if own is None:
            raise errors.unauthenticated("auth.invalid")
        return own

    # ----- seasons and rounds (the host) ---------------------------------------------------
    async def start_season(
        self,
        principal: Principal,
        league_id: str,
        divisions: int,
        names: Sequence[str],
        promote: int,
        relegate: int,
        options: Mapping[str, str],
    ) -> LeagueState:
        league = await self.load(league_id)
        _require_host(league, principal)
        if options:
            rules = ruleset(league.game, league.format, options)
            given, house = rules.given, rules.house_rules
        else:
            last = league.seasons[-1].started if league.seasons else None
            given = last.options if last else league.created.options
            house = last.house_rules if last else league.created.house_rules
        state = await self._decide(
            league_id,
            lambda state: [
                decide.start_season(
                    state, divisions or 1, promote, relegate, given, house, tuple(names)
                )
            ],
        )
        log.info("league.season_started", league_id=league_id)
        return state

    async def schedule_round(
        self,
        principal: Principal,
        league_id: str,
        round_: int,
        starts_at_ms: int,
        playoff: bool = False,
    ) -> tuple[LeagueState, RoundState]:
        league = await self.load(league_id)
        _require_host(league, principal)
        season = league.season
        if season is None:
            raise refused(decide.refuse("league.no_season"))
        seed = self._ports.new_seed()
        commitment = fairness.commitment(seed)
        event = _decided(
            lambda: decide.schedule_round(league, round_, starts_at_ms, commitment, playoff)
        )
        await self._ports.store.save_seed(league_id, season.number, event.round, commitment, seed)
        state = await self._decide(
            league_id,
            lambda state: [
                decide.schedule_round(state, event.round, starts_at_ms, commitment, event.playoff)
            ],
        )
        self._ports.wake()
        running = state.season
        assert running is not None
        log.info("league.round_scheduled", league_id=league_id, round=event.round)
        return state, running.rounds[event.round]

    async def resume_round(self, principal: Principal, league_id: str, round_: int) -> LeagueState:
        league = await self.load(league_id)
        _require_host(league, principal)

        def resume(state: LeagueState) -> list[Event]:
            season = state.season
            current = season.rounds.get(round_) if season else None
            if season is None or current is None or current.halted is None:
                raise decide.refuse("league.round_not_halted", round=round_)
            return [RoundResumed(season.number, round_)]

        state = await self._decide(league_id, resume)
        self._ports.wake()
        return state

    async def end_season(self, principal: Principal, league_id: str) -> LeagueState:
        league = await self.load(league_id)
        _require_host(league, principal)
        state = await self._decide(league_id, lambda state: [decide.end_season(state)])
        log.info("league.season_ended", league_id=league_id)
        return state

    async def halt(self, league_id: str, season: int, round_: int, step: str, why: str) -> None:
        await self._decide(league_id, lambda _: [RoundHalted(season, round_, step, why)])
        log.warning("league.round_halted", league_id=league_id, round=round_, step=step)

    # ----- appending ---------------------------------------------------------------------
    async def _decide(
        self,
        league_id: str,
        decision: Callable[[LeagueState], Sequence[Event]],
        command_id: str | None = None,
    ) -> LeagueState:
        """Decide on the latest state and append, again on a concurrent append (bounded)."""
        async with self._ports.store.lock(league_id):
            for _ in range(APPEND_ATTEMPTS):
                state = await self.load(league_id)
                try:
                    events = list(decision(state))
                except RulesError as error:
                    raise refused(error) from None
                try:
                    return await self._ports.store.append(
                        state, events, self._ports.new_id, command_id
                    )
                except ConcurrencyConflict:
                    continue
        raise errors.aborted("command.conflict")

    async def append(
        self, league_id: str, decision: Callable[[LeagueState], Sequence[Event]]
    ) -> LeagueState:
        """For the scheduler: decide and append like a command."""
        return await self._decide(league_id, decision)


def _decided(decision: Callable[[], Any]) -> Any:
    try:
        return decision()
    except RulesError as error:
        raise refused(error) from None


def _require(principal: Principal, *scopes: str) -> None:
    if not principal.has(*scopes):
        raise errors.denied("auth.scope_missing", scope="|".join(scopes))


def _require_host(league: LeagueState, principal: Principal) -> None:
    if principal.account_id != league.created.host_account_id and not principal.has(ADMIN):
        raise errors.denied("league.not_host", league_id=league.league_id)


def host_principal(league: LeagueState) -> Principal:
    """The league's host, as the scheduler acts for it on the lobby's tables."""
    created = league.created
    return Principal(
        created.host_account_id, created.host_name, Kind.HOST, frozenset({HOST}), "league"
    )


def current_round(season: SeasonState | None) -> RoundState | None:
    """The season's first round that has not ended (the one players care about now)."""
    if season is None:
        return None
    for state in season.ordered_rounds():
        if state.ended is None:
            return state
    rounds = season.ordered_rounds()
    return rounds[-1] if rounds else None
