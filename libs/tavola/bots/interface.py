"""The bot interface (pure: no I/O, no clock — time is a budget of work, not seconds)."""

from __future__ import annotations

from collections.abc import Callable, MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from tavola.rules.interface import Event, Game

LEVELS = ("easy", "medium", "hard", "master")


class Rng(Protocol):
    """The part of ``random.Random`` a bot may use: always the seeded instance it is given
    (game packages never import ``random``; the purity test checks it)."""

    def random(self) -> float: ...

    def randrange(self, stop: int, /) -> int: ...

    def shuffle(self, x: MutableSequence[Any], /) -> None: ...


@dataclass(frozen=True, slots=True)
class Knowledge:
    """Everything a seat may know: its view and the events it was shown, in order."""

    seat: int
    players: int
    options: tuple[tuple[str, str], ...]
    view: Any  # the game's view dataclass for this seat
    history: tuple[Event, ...]  # events visible to the seat (public + its own private)


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a decision may think: master samples at most ``samples`` deals (each game's
    ``MASTER_SAMPLES`` is sized for about 1 s on one core). A table scales it with its bots'
    thinking time (``registry.budget_for``); work, not seconds, so a decision recorded with
    its sample count can be re-derived exactly on any machine."""

    samples: int = 200


class Policy(Protocol):
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


class HintPolicy:
    """A level that plays its game's hint: the hard level of most games (the hint for a
    person is, by definition, the hard level's choice)."""

    def __init__(
        self, hint: Callable[[Game[Any, Any], Knowledge, Sequence[Any]], tuple[Any, Any]]
    ) -> None:
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

    def decide(
        self,
        game: Game[Any, Any],
        knowledge: Knowledge,
        legal: Sequence[Any],
        rng: Rng,
        budget: Budget,
    ) -> Any:
        return legal[rng.randrange(len(legal))]
