"""Table events and their fold (type names ``table.<Name>``).

A table belongs to the account that created it (its host); seats are bound to the accounts
that sat down (or are the platform's bots, always marked); an invitation names an account
and, optionally, the seat reserved for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from tavola.match.events import OptionEntry
from tavola.rules.interface import Event

OPEN = "open"
INVITE_ONLY = "invite"


@dataclass(frozen=True, slots=True)
class TableCreated(Event):
    table_id: str
    match_id: str
    game: str
    players: int
    options: tuple[OptionEntry, ...]
    house_rules: tuple[str, ...]
    seed_commitment: str
    host_account_id: str = ""
    host_name: str = ""
    access: str = OPEN
    created_at_ms: int = 0
    deal_group: str = ""  # a duplicate league's tables: one seed, no client seeds


@dataclass(frozen=True, slots=True)
class SeatTaken(Event):
    seat: int
    player_name: str
    is_bot: bool
    bot_level: str
    client_seed_hex: str
    bot_think_ms: int = 0  # a bot's thinking time per decision (0: the game's default)
    account_id: str = ""  # the account seated (empty: the platform's own bot)


@dataclass(frozen=True, slots=True)
class SeatTokenIssued(Event):
    """SHA-256 of the seat's token; seen by no seat."""

    seat: int
    token_sha256: str

    def audience(self) -> frozenset[int] | None:
        return frozenset()


@dataclass(frozen=True, slots=True)
class PlayerInvited(Event):
    """The host invited an account, to any free seat (``seat`` -1) or to one seat."""

    account_id: str
    name: str
    seat: int


@dataclass(frozen=True, slots=True)
class OptionsChanged(Event):
    options: tuple[OptionEntry, ...]
    house_rules: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MatchStarted(Event):
    match_id: str


@dataclass(frozen=True, slots=True)
class MatchFinished(Event):
    """The table's match has ended (seen on the bus)."""

    match_id: str


TABLE_EVENTS: tuple[type[Event], ...] = (
    TableCreated,
    SeatTaken,
    SeatTokenIssued,
    MatchStarted,
    PlayerInvited,
    OptionsChanged,
    MatchFinished,
)


@dataclass(frozen=True, slots=True)
class TableState:
    created: TableCreated
    seats: tuple[SeatTaken | None, ...]
    tokens: tuple[str, ...]
    started: bool = False
    version: int = 1
    invited: tuple[PlayerInvited, ...] = ()
    options: tuple[OptionEntry, ...] = ()
    house_rules: tuple[str, ...] = ()
    finished: bool = False

    def free_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s is None]

    def seat_of(self, account_id: str) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat is not None and seat.account_id == account_id:
                return index
        return None

    def invitation(self, account_id: str) -> PlayerInvited | None:
        return next((i for i in self.invited if i.account_id == account_id), None)

    def reserved(self) -> dict[int, PlayerInvited]:
        """Free seats reserved by an invitation, by seat."""
        return {
            i.seat: i
            for i in self.invited
            if i.seat >= 0 and self.seats[i.seat] is None and self.seat_of(i.account_id) is None
        }

    @property
    def host(self) -> str:
        return self.created.host_account_id

    @property
    def status(self) -> str:
        return "finished" if self.finished else "playing" if self.started else "open"


def evolve(state: TableState | None, event: Event) -> TableState:
    if isinstance(event, TableCreated):
        n = event.players
        return TableState(
            created=event,
            seats=(None,) * n,
            tokens=("",) * n,
            options=event.options,
            house_rules=event.house_rules,
        )
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
        case PlayerInvited(account_id=account_id):
            kept = tuple(i for i in state.invited if i.account_id != account_id)
            return replace(state, invited=(*kept, event))
        case OptionsChanged(options=options, house_rules=house_rules):
            return replace(state, options=options, house_rules=house_rules)
        case MatchStarted():
            return replace(state, started=True)
        case MatchFinished():
            return replace(state, finished=True)
    raise TypeError(f"not a table event: {event!r}")


def fold(events: Sequence[Event], state: TableState | None = None) -> TableState:
    for event in events:
        state = evolve(state, event)
    if state is None:
        raise ValueError("no events")
    return state
