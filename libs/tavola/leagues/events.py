"""League events (facts, past tense); type names ``league.<Name>``, stream ``league-<id>``.

A league is one game under one ruleset per season. Seasons have divisions; accounts
register (pairs register as teams in fixed-partnership leagues); rounds are scheduled
with a committed seed, seated from it, opened (tables created for the league's host, every
seat reserved by invitation), started (absent players' seats filled by the platform's
bots) and ended when every table's result is recorded (the seed revealed). Every field is
an int, a str, a bool or a tuple/record of them, so the generic record mapper encodes it.
"""

from __future__ import annotations

from dataclasses import dataclass

from tavola.leagues.formats import Format
from tavola.match.events import OptionEntry
from tavola.rules.interface import Event


@dataclass(frozen=True, slots=True)
class LeagueCreated(Event):
    """A league of ``game`` hosted by an account; ``options`` are the first season's
    ruleset (preset, house rules, timers, match length) as recorded table options."""

    league_id: str
    name: str
    game: str
    host_account_id: str
    host_name: str
    format: Format
    options: tuple[OptionEntry, ...]
    house_rules: tuple[str, ...]
    created_at_ms: int


@dataclass(frozen=True, slots=True)
class Registered(Event):
    """An account joined the league. In a fixed-partnership league it names its partner:
    the team exists once both have registered naming each other. ``division``: where a
    player (or the team completed now) joins a running season (empty: none is running)."""

    account_id: str
    name: str
    is_bot: bool
    partner_id: str = ""
    partner_name: str = ""
    division: str = ""


@dataclass(frozen=True, slots=True)
class Withdrawn(Event):
    """An account left the league: it (and its team) is seated in no later round; results
    so far stay in the standings, marked withdrawn."""

    account_id: str


@dataclass(frozen=True, slots=True)
class Division:
    name: str
    entrants: tuple[str, ...]  # entrant keys (accounts, or teams "team:<a>+<b>")


@dataclass(frozen=True, slots=True)
class SeasonStarted(Event):
    """A season under a ruleset (fixed for the season), its divisions, top first, and how
    many entrants move between neighbouring divisions at its end."""

    season: int
    options: tuple[OptionEntry, ...]
    house_rules: tuple[str, ...]
    divisions: tuple[Division, ...]
    promote: int
    relegate: int


@dataclass(frozen=True, slots=True)
class RoundScheduled(Event):
    """Round ``round`` of the season starts at ``starts_at_ms`` (Unix ms). The seat draw's
    seed is drawn now and only its SHA-256 shown; it is revealed when the round ends.
    Scheduling a round again (before it opens) moves it. ``playoff``: a round of the
    knockout after the regular rounds (``tavola.leagues.playoff``)."""

    season: int
    round: int
    starts_at_ms: int
    seed_commitment: str
    playoff: bool = False


@dataclass(frozen=True, slots=True)
class SeatedTable:
    seats: tuple[str, ...]  # account ids by seat; "" is a seat for the platform's bot


@dataclass(frozen=True, slots=True)
class RoundSeated(Event):
    """A division's seating, derived from the round's seed and the league so far
    (``tavola.leagues.seating`` / ``pairing``): re-derivable once the seed is revealed.
    ``entrants`` is the roster it was drawn for; ``byes`` sit the round out."""

    season: int
    round: int
    division: str
    entrants: tuple[str, ...]
    tables: tuple[SeatedTable, ...]
    byes: tuple[str, ...]
    cost: int  # the seating's cost (repeated meetings squared; Swiss: gaps and rematches)


@dataclass(frozen=True, slots=True)
class OpenedTable:
    division: str
    index: int  # the table's index in its division's seating
    table_id: str
    match_id: str
    seed_commitment: str  # the match seed's commitment (the deals)


@dataclass(frozen=True, slots=True)
class RoundOpened(Event):
    """The round's tables exist (hosted by the league's host, invitation only, every seat
    reserved for its player): check-in by ``SitDown`` until ``starts_at_ms``."""

    season: int
    round: int
    starts_at_ms: int
    tables: tuple[OpenedTable, ...]


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    """The round's matches started; ``absent`` players had not checked in (their seats
    were filled by the platform's bots, marked, never rated): they are out of this round."""

    season: int
    round: int
    absent: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ResultLine:
    seat: int
    account_id: str  # "" for the platform's bot
    score: int
    rank: int
    hands_won: int
    hands_played: int


@dataclass(frozen=True, slots=True)
class ResultRecorded(Event):
    """A table's final result, from its match's ``match.MatchEnded``. ``revision`` 0 is the
    match's own result; a referee's correction of the match would record the corrected
    result again with the next revision, and every projection takes the latest."""

    season: int
    round: int
    match_id: str
    lines: tuple[ResultLine, ...]
    revision: int = 0


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """Every table of the round has its result; the seat draw's seed is revealed."""

    season: int
    round: int
    seed_hex: str


@dataclass(frozen=True, slots=True)
class RoundHalted(Event):
    """The scheduler gave up on a step of the round after its bounded retries; the host
    resumes it (``RoundResumed``) once the cause is gone."""

    season: int
    round: int
    step: str
    reason: str


@dataclass(frozen=True, slots=True)
class RoundResumed(Event):
    season: int
    round: int


@dataclass(frozen=True, slots=True)
class Move:
    entrant: str
    from_division: str
    to_division: str


@dataclass(frozen=True, slots=True)
class SeasonEnded(Event):
    """The season's final standings stand; ``moves`` are its promotions and relegations."""

    season: int
    moves: tuple[Move, ...]


LEAGUE_EVENTS: tuple[type[Event], ...] = (
    LeagueCreated,
    Registered,
    Withdrawn,
    SeasonStarted,
    RoundScheduled,
    RoundSeated,
    RoundOpened,
    RoundStarted,
    ResultRecorded,
    RoundEnded,
    RoundHalted,
    RoundResumed,
    SeasonEnded,
)
