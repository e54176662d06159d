"""The league aggregate's state and its fold (one fold per event, pure)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace

from tavola.leagues import formats
from tavola.leagues.events import (
    LeagueCreated,
    Move,
    Registered,
    ResultRecorded,
    RoundEnded,
    RoundHalted,
    RoundOpened,
    RoundResumed,
    RoundScheduled,
    RoundSeated,
    RoundStarted,
    SeasonEnded,
    SeasonStarted,
    Withdrawn,
)
from tavola.rules.interface import Event

TEAM = "team:"


def team_key(a: str, b: str) -> str:
    """A fixed partnership's entrant key (the same whoever registered first)."""
    return TEAM + "+".join(sorted((a, b)))


def members(entrant: str) -> tuple[str, ...]:
    """The accounts of an entrant (one, or a team's two)."""
    if entrant.startswith(TEAM):
        first, second = entrant.removeprefix(TEAM).split("+")
        return (first, second)
    return (entrant,)


@dataclass(frozen=True, slots=True)
class RoundState:
    season: int
    round: int
    starts_at_ms: int
    seed_commitment: str
    seated: Mapping[str, RoundSeated] = field(default_factory=dict)  # by division
    opened: RoundOpened | None = None
    started: RoundStarted | None = None
    results: Mapping[str, ResultRecorded] = field(default_factory=dict)  # by match id
    ended: RoundEnded | None = None
    halted: RoundHalted | None = None
    playoff: bool = False

    @property
    def status(self) -> str:
        if self.ended:
            return "ended"
        if self.started:
            return "playing"
        if self.opened:
            return "check_in"
        return "scheduled"

    @property
    def match_ids(self) -> tuple[str, ...]:
        return tuple(t.match_id for t in self.opened.tables) if self.opened else ()

    def complete(self) -> bool:
        """Every opened table has its result."""
        return self.opened is not None and all(m in self.results for m in self.match_ids)


@dataclass(frozen=True, slots=True)
class SeasonState:
    started: SeasonStarted
    joined: Mapping[str, str] = field(default_factory=dict)  # late entrants -> division
    rounds: Mapping[int, RoundState] = field(default_factory=dict)
    ended: SeasonEnded | None = None

    @property
    def number(self) -> int:
        return self.started.season

    def division_names(self) -> tuple[str, ...]:
        return tuple(d.name for d in self.started.divisions)

    def division_of(self, entrant: str) -> str | None:
        for division in self.started.divisions:
            if entrant in division.entrants:
                return division.name
        return self.joined.get(entrant)

    def entrants_of(self, division: str) -> tuple[str, ...]:
        """Every entrant the division has had this season (withdrawn ones included)."""
        listed = next((d.entrants for d in self.started.divisions if d.name == division), ())
        late = tuple(e for e, d in self.joined.items() if d == division and e not in listed)
        return (*listed, *late)

    def ordered_rounds(self) -> list[RoundState]:
        return [self.rounds[n] for n in sorted(self.rounds)]


@dataclass(frozen=True, slots=True)
class LeagueState:
    created: LeagueCreated
    version: int = 1
    registrations: Mapping[str, Registered] = field(default_factory=dict)
    withdrawn: frozenset[str] = frozenset()  # accounts
    seasons: tuple[SeasonState, ...] = ()

    @property
    def league_id(self) -> str:
        return self.created.league_id

    @property
    def game(self) -> str:
        return self.created.game

    @property
    def format(self) -> formats.Format:
        return self.created.format

    @property
    def season(self) -> SeasonState | None:
        """The running season (started, not ended), if any."""
        last = self.seasons[-1] if self.seasons else None
        return last if last is not None and last.ended is None else None

    def season_of(self, number: int) -> SeasonState | None:
        return next((s for s in self.seasons if s.number == number), None)

    def name_of(self, account_id: str) -> str:
        found = self.registrations.get(account_id)
        return found.name if found else ""

    def entrant_name(self, entrant: str) -> str:
        return " & ".join(self.name_of(a) or a for a in members(entrant))

    def entrant_of(self, account_id: str) -> str | None:
        """The account's entrant: itself, or its complete team."""
        if not formats.by_teams(self.format):
            return account_id if account_id in self.registrations else None
        mine = self.registrations.get(account_id)
        if mine is None or not mine.partner_id:
            return None
        theirs = self.registrations.get(mine.partner_id)
        if theirs is None or theirs.partner_id != account_id:
            return None
        return team_key(account_id, mine.partner_id)

    def active_entrants(self) -> tuple[str, ...]:
        """Entrants registered now (complete teams), none of whose accounts withdrew; in
        registration order."""
        seen: list[str] = []
        for account in self.registrations:
            entrant = self.entrant_of(account)
            if entrant is None or entrant in seen:
                continue
            if any(m in self.withdrawn for m in members(entrant)):
                continue
            seen.append(entrant)
        return tuple(seen)

    def is_withdrawn(self, entrant: str) -> bool:
        return any(m in self.withdrawn for m in members(entrant))

    def round_of_match(self, match_id: str) -> RoundState | None:
        for season in self.seasons:
            for state in season.rounds.values():
                if match_id in state.match_ids:
                    return state
        return None


def evolve(state: LeagueState | None, event: Event) -> LeagueState:
    if isinstance(event, LeagueCreated):
        return LeagueState(created=event)
    if state is None:
        raise ValueError("a league stream must begin with LeagueCreated")
    state = replace(state, version=state.version + 1)
    match event:
        case Registered():
            return _registered(state, event)
        case Withdrawn(account_id=account):
            return replace(state, withdrawn=state.withdrawn | {account})
        case SeasonStarted():
            return replace(state, seasons=(*state.seasons, SeasonState(event)))
        case SeasonEnded():
            return _season(state, event.season, lambda s: replace(s, ended=event))
        case RoundScheduled():
            return _scheduled(state, event)
    return _round_event(state, event)


def _registered(state: LeagueState, event: Registered) -> LeagueState:
    registrations = {k: v for k, v in state.registrations.items() if k != event.account_id}
    registrations[event.account_id] = event
    after = replace(
        state, registrations=registrations, withdrawn=state.withdrawn - {event.account_id}
    )
    season = after.season
    entrant = after.entrant_of(event.account_id)
    if season is None or entrant is None or not event.division:
        return after
    if season.division_of(entrant) is not None:
        return after
    return _season(
        after, season.number, lambda s: replace(s, joined={**s.joined, entrant: event.division})
    )


def _scheduled(state: LeagueState, event: RoundScheduled) -> LeagueState:
    def update(season: SeasonState) -> SeasonState:
        rounds = dict(season.rounds)
        previous = rounds.get(event.round)
        rounds[event.round] = (
            replace(
                previous, starts_at_ms=event.starts_at_ms, seed_commitment=event.seed_commitment
            )
            if previous is not None
            else RoundState(
                event.season,
                event.round,
                event.starts_at_ms,
                event.seed_commitment,
                playoff=event.playoff,
            )
        )
        return replace(season, rounds=rounds)

    return _season(state, event.season, update)


def _round_event(state: LeagueState, event: Event) -> LeagueState:
    if not isinstance(
        event,
        RoundSeated
        | RoundOpened
        | RoundStarted
        | ResultRecorded
        | RoundEnded
        | RoundHalted
        | RoundResumed,
    ):
        raise TypeError(f"not a league event: {event!r}")

    def update(round_: RoundState) -> RoundState:
        match event:
            case RoundSeated(division=division):
                return replace(round_, seated={**round_.seated, division: event})
            case RoundOpened(starts_at_ms=starts):
                return replace(round_, opened=event, starts_at_ms=starts, halted=None)
            case RoundStarted():
                return replace(round_, started=event, halted=None)
            case ResultRecorded(match_id=match_id):
                return replace(round_, results={**round_.results, match_id: event})
            case RoundEnded():
                return replace(round_, ended=event, halted=None)
            case RoundHalted():
                return replace(round_, halted=event)
        return replace(round_, halted=None)  # RoundResumed

    def in_season(season: SeasonState) -> SeasonState:
        rounds = dict(season.rounds)
        rounds[event.round] = update(rounds[event.round])
        return replace(season, rounds=rounds)

    return _season(state, event.season, in_season)


def _season(
    state: LeagueState, number: int, change: Callable[[SeasonState], SeasonState]
) -> LeagueState:
    seasons = tuple(change(s) if s.number == number else s for s in state.seasons)
    return replace(state, seasons=seasons)


def fold(events: Iterable[Event], state: LeagueState | None = None) -> LeagueState:
    for event in events:
        state = evolve(state, event)
    if state is None:
        raise ValueError("no events")
    return state


def moves_of(ended: SeasonEnded | None) -> tuple[Move, ...]:
    return ended.moves if ended else ()
