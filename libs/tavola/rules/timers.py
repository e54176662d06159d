"""Turn timers as table options, declared the same way by every game.

A game lists the kinds of decision a person may face (``Decision``: "bid", "card", …) with
a default number of seconds and a short name in English and Portuguese; ``TurnTimers``
turns that list into the table options, their catalogue texts and the parsed settings:

* ``timers`` (bool, default on): every decision the game waits for has a deadline, after
  which the engine plays the game's ``automatic_action``. Off only at casual tables that
  say so (the platform's own bots keep their watchdog either way);
* ``timer_<kind>`` (int seconds, ``MIN_SECONDS``..``MAX_SECONDS``): one per kind.

None of them is a house rule: a timer changes how long a player may think, never the rules
of the game. A game keeps the parsed ``TimerSettings`` in its options (``split``) and
answers ``Game.turn_timer`` with ``TimerSettings.seconds(kind)`` for the seat's current
``Game.decision``. Pure: no clock is read here, seconds are only numbers in the log.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tavola.rules.interface import OptionSpec, OptionValue

FLAG = "timers"
PREFIX = "timer_"
MIN_SECONDS = 5
MAX_SECONDS = 300


def option_name(kind: str) -> str:
    """The option holding the seconds of a kind of decision (``timer_card``)."""
    return PREFIX + kind


@dataclass(frozen=True, slots=True)
class Decision:
    """A kind of decision: its key, default seconds and name ("a bid" / "um lance")."""

    kind: str
    seconds: int
    en: str
    pt: str


@dataclass(frozen=True, slots=True)
class TimerSettings:
    """A table's parsed timer options: on or off, and the seconds of each kind."""

    on: bool
    per_kind: tuple[tuple[str, int], ...]

    def seconds(self, kind: str | None) -> int | None:
        """Seconds for a decision of ``kind``; ``None`` when timers are off or there is no
        decision (``kind`` None). An unknown kind is a bug of the game: ``KeyError``."""
        if kind is None or not self.on:
            return None
        return dict(self.per_kind)[kind]


@dataclass(frozen=True, slots=True)
class TurnTimers:
    """One game's kinds of decision; ``game`` prefixes its message codes (``spades``)."""

    game: str
    decisions: tuple[Decision, ...]

    def __post_init__(self) -> None:
        kinds = [d.kind for d in self.decisions]
        if not kinds or len(set(kinds)) != len(kinds):
            raise ValueError(f"{self.game}: timer kinds must be distinct and not empty")
        for decision in self.decisions:
            if not MIN_SECONDS <= decision.seconds <= MAX_SECONDS:
                raise ValueError(f"{self.game}: {decision.kind} default out of bounds")

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(d.kind for d in self.decisions)

    def options(self) -> tuple[OptionSpec, ...]:
        """The ``OptionSpec``s to add to the game's ``GameInfo.options``."""
        flag = OptionSpec(FLAG, "bool", True, self._code(FLAG), house_rule=False)
        return (
            flag,
            *(
                OptionSpec(
                    option_name(d.kind),
                    "int",
                    d.seconds,
                    self._code(option_name(d.kind)),
                    minimum=MIN_SECONDS,
                    maximum=MAX_SECONDS,
                    house_rule=False,
                )
                for d in self.decisions
            ),
        )

    def messages(self) -> dict[str, dict[str, str]]:
        """The options' descriptions in English and Portuguese (merge into the game's)."""
        out = {
            self._code(FLAG): {
                "en": "Turn timers: every decision has a deadline, then the table makes the "
                "automatic move (off only at casual tables that say so).",
                "pt": "Relógio de jogada: cada decisão tem um prazo e, esgotado, a mesa faz a "
                "jogada automática (desligado só em mesas informais que o digam).",
            }
        }
        for d in self.decisions:
            out[self._code(option_name(d.kind))] = {
                "en": f"Seconds for {d.en} before the automatic move (default {d.seconds}).",
                "pt": f"Segundos para {d.pt} antes da jogada automática (padrão: {d.seconds}).",
            }
        return out

    def defaults(self) -> TimerSettings:
        return TimerSettings(True, tuple((d.kind, d.seconds) for d in self.decisions))

    def settings(self, values: Mapping[str, OptionValue]) -> TimerSettings:
        """The timer settings of parsed options (missing values take the defaults)."""
        return TimerSettings(
            bool(values.get(FLAG, True)),
            tuple(
                (d.kind, int(values.get(option_name(d.kind), d.seconds))) for d in self.decisions
            ),
        )

    def values(self, settings: TimerSettings) -> dict[str, OptionValue]:
        """The option values of ``settings`` (the inverse of ``settings``)."""
        return {FLAG: settings.on, **{option_name(k): s for k, s in settings.per_kind}}

    def split(
        self, values: Mapping[str, OptionValue]
    ) -> tuple[dict[str, OptionValue], TimerSettings]:
        """Parsed options without the timer ones, and the timer settings."""
        own = {FLAG, *(option_name(k) for k in self.kinds)}
        rest = {name: value for name, value in values.items() if name not in own}
        return rest, self.settings(values)

    def _code(self, name: str) -> str:
        return f"{self.game}.option.{name}"


def declared_kinds(options: Sequence[OptionSpec]) -> tuple[str, ...]:
    """The kinds of decision a game times, read from its options (for clients and tests)."""
    return tuple(
        spec.name.removeprefix(PREFIX)
        for spec in options
        if spec.name.startswith(PREFIX) and spec.kind == "int"
    )
