"""Table events and their fold (type names ``table.<Name>``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from tavola.match.events import OptionEntry
from tavola.rules.interface import Event


@dataclass(frozen=True, slots=True)
class TableCreated(Event):
    table_id: str
    match_id: str
    game: str
    players: int
    options: tuple[OptionEntry, ...]
    house_rules: tuple[str, ...]
    seed_commitment: str


@dataclass(frozen=True, slots=True)
class SeatTaken(Event):
    seat: int
    player_name: str
    is_bot: bool
    bot_level: str
    client_seed_hex: str
    bot_think_ms: int = 0  # a bot's thinking time per decision (0: the game's default)


@dataclass(frozen=True, slots=True)
class SeatTokenIssued(Event):
    """SHA-256 of the seat's token; seen by no seat."""

    seat: int
    token_sha256: str

    def audience(self) -> frozenset[int] | None:
        return frozenset()


@dataclass(frozen=True, slots=True)
class MatchStarted(Event):
    match_id: str


TABLE_EVENTS: tuple[type[Event], ...] = (TableCreated, SeatTaken, SeatTokenIssued, MatchStarted)


@dataclass(frozen=True, slots=True)
class TableState:
    created: TableCreated
    seats: tuple[SeatTaken | None, ...]
    tokens: tuple[str, ...]
    started: bool = False
    version: int = 1

    def free_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s is None]


def evolve(state: TableState | None, event: Event) -> TableState:
    if isinstance(event, TableCreated):
        n = event.players
        return TableState(created=event, seats=(None,) * n, tokens=("",) * n)
    if state is None:
        raise ValueError("a table stream must begin with TableCreated")
    state = replace(state, version=state.version + 1)
    match event:
        case SeatTaken(seat=seat):
            seats = list(state.seats)
            seats[seat] = event
            return replace(state, seats=tuple(seats))
        case SeatTokenIssued(seat=seat, token_sha256=digest):
            tokens = list(state.tokens)
            tokens[seat] = digest
            return replace(state, tokens=tuple(tokens))
        case MatchStarted():
            return replace(state, started=True)
    raise TypeError(f"not a table event: {event!r}")


def fold(events: Sequence[Event]) -> TableState:
    state: TableState | None = None
    for event in events:
        state = evolve(state, event)
    if state is None:
        raise ValueError("no events")
    return state
