"""Platform events of a match stream (type names ``match.<Name>``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from tavola.rules.interface import Event, SeatScore


@dataclass(frozen=True, slots=True)
class OptionEntry:
    name: str
    value: str


def option_entries(options: Mapping[str, object]) -> tuple[OptionEntry, ...]:
    """Table options as recorded facts: sorted by name, values as text ("true"/"false")."""
    return tuple(OptionEntry(name, option_text(value)) for name, value in sorted(options.items()))


def option_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def option_texts(options: Mapping[str, object]) -> dict[str, str]:
    """Typed options (``GameInfo.short``, a preset) as a request's options map of text."""
    return {name: option_text(value) for name, value in options.items()}


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    player_name: str
    is_bot: bool
    bot_level: str
    client_seed_hex: str
    bot_think_ms: int = 0  # a bot's thinking time per decision (0: the game's default)
    account_id: str = ""  # the account seated (empty: the platform's own bot)


@dataclass(frozen=True, slots=True)
class MatchCreated(Event):
    """The match's first event: the game, its rules, the seats and the seed commitment."""

    match_id: str
    table_id: str
    game: str
    rules_version: int
    options: tuple[OptionEntry, ...]
    house_rules: tuple[str, ...]
    seats: tuple[SeatInfo, ...]
    seed_commitment: str
    fairness: str
    # A duplicate league's deal group (empty otherwise): its matches share one seed and use
    # no client seeds, so all deal the same cards; the seed is revealed (``SeedRevealed``,
    # its own batch) once every match of the group has ended, not with ``MatchEnded``.
    deal_group: str = ""


@dataclass(frozen=True, slots=True)
class SeatCredentials(Event):
    """SHA-256 of each seat's token; seen by no seat (the engine checks tokens with it)."""

    token_sha256: tuple[str, ...]

    def audience(self) -> frozenset[int] | None:
        return frozenset()


@dataclass(frozen=True, slots=True)
class DeadlineSet(Event):
    """A seat must act by ``deadline_ms`` (Unix ms) or the engine acts for it."""

    seat: int
    deadline_ms: int
    seconds: int


@dataclass(frozen=True, slots=True)
class PauseStarted(Event):
    """The table pauses (e.g. between games) until ``until_ms`` (Unix ms); then the next
    chance (``purpose``) is resolved."""

    purpose: str
    until_ms: int
    seconds: int


@dataclass(frozen=True, slots=True)
class SeatLeft(Event):
    """A player left for good; ``replaced_by`` is the bot level now playing the seat (always
    marked as a bot), or empty when the game's rules took the seat out instead. ``away``:
    the platform applied the table's leaver rule to a player who stopped playing (their
    moves were made automatically too many times in a row); such a player may come back
    and take the seat back from the bot (``SeatReclaimed``)."""

    seat: int
    replaced_by: str
    away: bool = False


@dataclass(frozen=True, slots=True)
class SeatAway(Event):
    """The seat's client has been gone (no open stream, no call) for the grace period;
    shown to everyone at the table. A presence fact: recorded, never derived."""

    seat: int


@dataclass(frozen=True, slots=True)
class SeatBack(Event):
    """The seat's client is back (it called or opened a stream)."""

    seat: int


@dataclass(frozen=True, slots=True)
class SeatReclaimed(Event):
    """A player the leaver rule had replaced by a bot came back and plays the seat again."""

    seat: int


@dataclass(frozen=True, slots=True)
class MovesTakenBack(Event):
    """The one person at a practice table (every other seat played by the platform's bots)
    took back their last move: the match is again as it was at ``to_version``, just before
    that move; the bots' moves since are taken back with it. Events after ``to_version`` up
    to this one are no longer part of the match's history (``effective``)."""

    seat: int
    to_version: int


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    standings: tuple[SeatScore, ...]


@dataclass(frozen=True, slots=True)
class SeedRevealed(Event):
    """The match seed, revealed after the match has ended (``SHA-256(seed) == commitment``)."""

    seed_hex: str


VOID_GAME = "void_game"
VOID_HAND = "void_hand"
ADJUST_SCORE = "adjust_score"
CORRECTION_KINDS = (VOID_GAME, VOID_HAND, ADJUST_SCORE)


@dataclass(frozen=True, slots=True)
class Correction(Event):
    """A referee's correction of a finished match, appended after its end (nothing is ever
    edited): ``void_game`` (the match counts for nothing), ``void_hand`` (hand ``hand``'s
    points are removed), or ``adjust_score`` (``amount`` added to each of ``seats``).
    ``references``: the version of the event it corrects (the ``MatchEnded``, or the first
    event of the voided hand); ``referee``: the account that filed it."""

    kind: str
    seats: tuple[int, ...]
    amount: int
    hand: int
    reason: str
    referee: str
    references: int


PLATFORM_EVENTS: tuple[type[Event], ...] = (
    MatchCreated,
    SeatCredentials,
    DeadlineSet,
    PauseStarted,
    SeatLeft,
    SeatAway,
    SeatBack,
    SeatReclaimed,
    MovesTakenBack,
    MatchEnded,
    SeedRevealed,
    Correction,
)
