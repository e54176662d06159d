"""The bot interface (pure: no I/O, no clock — time is a budget of work, not seconds)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from tavola.rules.errors import Reason
from tavola.rules.interface import Event, Game, OptionValue

LEVELS = ("easy", "medium", "hard", "master")
# The arena's pairings: each level against the one below ("better/worse").
PAIRINGS = (("medium", "easy"), ("hard", "medium"), ("master", "hard"))
FIRST_POLICY_VERSION = 1


class Rng(Protocol):
    """The part of ``random.Random`` a bot may use: always the seeded instance it is given
    (game packages never import ``random``; the purity test checks it)."""

    def random(self) -> float: ...

    def randrange(self, stop: int, /) -> int: ...

    def shuffle(self, x: MutableSequence[Any], /) -> None: ...


class Knowledge:
    """Everything a seat may know: its view and the events it was shown, in order.

    Immutable. ``Knowledge.deferred`` takes a function that decodes the view instead of
    the view, and one that makes the history: each runs once, when a policy first reads
    ``view`` or ``history`` — the easy level (a uniform choice among the legal actions)
    reads neither, and the bot service then never decodes the view it was pushed nor
    copies a long match's history for each decision."""

    __slots__ = ("_decode", "_history", "_make_history", "_view", "options", "players", "seat")

    seat: int
    players: int
    options: tuple[tuple[str, str], ...]
    _history: tuple[Event, ...]
    _make_history: Callable[[], tuple[Event, ...]] | None
    _view: Any
    _decode: Callable[[], Any] | None

    def __init__(
        self,
        seat: int,
        players: int,
        options: tuple[tuple[str, str], ...],
        view: Any,  # the game's view dataclass for this seat
        history: tuple[Event, ...],
    ) -> None:
        for name, value in (
            ("seat", seat),
            ("players", players),
            ("options", options),
            ("_history", history),
            ("_make_history", None),
            ("_view", view),
            ("_decode", None),
        ):
            object.__setattr__(self, name, value)

    @classmethod
    def deferred(
        cls,
        seat: int,
        players: int,
        options: tuple[tuple[str, str], ...],
        decode_view: Callable[[], Any],
        history: tuple[Event, ...] | Callable[[], tuple[Event, ...]],
    ) -> Knowledge:
        """``history``: the events, or a function that makes them (run at most once; it
        must give what it would have given now, e.g. a prefix of a list only appended to)."""
        if callable(history):
            knowledge = cls(seat, players, options, None, ())
            object.__setattr__(knowledge, "_make_history", history)
        else:
            knowledge = cls(seat, players, options, None, history)
        object.__setattr__(knowledge, "_decode", decode_view)
        return knowledge

    @property
    def view(self) -> Any:
        """The game's view dataclass for this seat."""
        if self._decode is not None:
            object.__setattr__(self, "_view", self._decode())
            object.__setattr__(self, "_decode", None)
        return self._view

    @property
    def history(self) -> tuple[Event, ...]:
        """The events visible to the seat (public and its own private), in order."""
        if self._make_history is not None:
            object.__setattr__(self, "_history", self._make_history())
            object.__setattr__(self, "_make_history", None)
        return self._history

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Knowledge is immutable: cannot set {name}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Knowledge):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        seat, players, options, view, history = self._fields()
        return (
            f"Knowledge(seat={seat!r}, players={players!r}, options={options!r}, "
            f"view={view!r}, history={history!r})"
        )

    def _fields(self) -> tuple[int, int, tuple[tuple[str, str], ...], Any, tuple[Event, ...]]:
        return (self.seat, self.players, self.options, self.view, self.history)


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a decision may think: master samples at most ``samples`` deals (each game's
    ``GameBots.master_samples`` is sized for about 1 s on one core). A table scales it with
    its bots' thinking time (``registry.budget_for``); work, not seconds, so a decision
    recorded with its sample count can be re-derived exactly on any machine."""

    samples: int = 200


class Policy(Protocol):
    reads_view: bool
    """Whether ``decide`` ever reads ``knowledge.view``: a level that never does (a
    uniform choice among the legal actions) is pushed no view to read — the engine leaves
    the view's record out of the seat's push, the part of a move that costs it most."""

    def decide(
        self,
        game: Game[Any, Any],
        knowledge: Knowledge,
        legal: Sequence[Any],
        rng: Rng,
        budget: Budget,
    ) -> Any:
        """One of ``legal``, or ``None`` to let optional actions pass (an announcement
        while another seat is on turn). Deterministic given the same arguments and RNG
        state. A seat that must act (it is the one the game waits for) never gets None."""


Hint = Callable[[Game[Any, Any], Knowledge, Sequence[Any]], tuple[Any, Reason]]
"""A game's hint for a person: the hard level's choice among ``legal`` and why."""


class HintPolicy:
    """A level that plays its game's hint: the hard level of most games (the hint for a
    person is, by definition, the hard level's choice)."""

    reads_view = True

    def __init__(self, hint: Hint) -> None:
        self._hint = hint

    def decide(
        self,
        game: Game[Any, Any],
        knowledge: Knowledge,
        legal: Sequence[Any],
        rng: Rng,
        budget: Budget,
    ) -> Any:
        return self._hint(game, knowledge, legal)[0]


class RandomPolicy:
    """Any legal action, uniformly (the easy level of every game)."""

    reads_view = False

    def decide(
        self,
        game: Game[Any, Any],
        knowledge: Knowledge,
        legal: Sequence[Any],
        rng: Rng,
        budget: Budget,
    ) -> Any:
        return legal[rng.randrange(len(legal))]


@dataclass(frozen=True, slots=True)
class ArenaSettings:
    """The table a game's levels meet on in the bench's arena (``tavola.bench``, each level
    against the one below, ``PAIRINGS``, on duplicate deals)."""

    players: int
    """Seats at the table."""
    options: Mapping[str, OptionValue]
    """Table options (usually a short match: one hand, one game)."""
    deals: int | Mapping[str, int]
    """Deals per pairing: one number for every pairing, or one per ``"better/worse"``
    pairing (``{"hard/medium": 2000, ...}``, every pairing of ``PAIRINGS`` named)."""
    master_samples: int = 40
    """The master's sampled deals per decision in the arena (fewer than the game's
    ``GameBots.master_samples``, so that an arena run stays short)."""

    def __post_init__(self) -> None:
        if not isinstance(self.deals, int):
            missing = {f"{b}/{w}" for b, w in PAIRINGS} - set(self.deals)
            if missing:
                raise ValueError(f"arena deals name no count for {sorted(missing)}")

    def deals_for(self, better: str, worse: str) -> int:
        """The deals the pairing ``better`` against ``worse`` plays."""
        if isinstance(self.deals, int):
            return self.deals
        return self.deals[f"{better}/{worse}"]


@dataclass(frozen=True, slots=True)
class GameBots:
    """Everything the platform needs from one game's bots: the one object a game's bots
    package declares (``BOTS`` in ``tavola.games.<game>.bots``, returned by the game's
    ``Game.bots()``), read by ``tavola.bots.registry``."""

    policies: Mapping[str, Policy]
    """Level (one of ``LEVELS``) -> its policy. A level missing here plays uniformly at
    random (``RandomPolicy``; ``registry.policy_for``)."""
    hint: Hint | None
    """The hint for a person (the hard level's choice with a reason in the game's own
    ``<game>.hint.*`` codes), or None: then the hard level's choice with the generic
    ``hint.hard_choice`` reason."""
    master_samples: int
    """The master's default ``Budget.samples``: sized for about 1 s per decision on one
    core; a table scales it with its bots' thinking time (``registry.budget_for``)."""
    policy_version: int
    """The version of this game's bots, recorded with each decision
    (``BotDecision.policy_version``): bump it whenever any level would decide differently
    from the same knowledge, seed and budget (``tavola.bots.audit`` skips the decisions of
    other versions)."""
    arena: ArenaSettings | None
    """The bench arena's table for this game, or None: the bench has no arena for it."""

    @classmethod
    def none(cls) -> GameBots:
        """A game without bots of its own: every level plays uniformly at random, the hint
        is the (random) hard level's choice, version 1, no arena."""
        return cls(
            policies={},
            hint=None,
            master_samples=Budget().samples,
            policy_version=FIRST_POLICY_VERSION,
            arena=None,
        )
