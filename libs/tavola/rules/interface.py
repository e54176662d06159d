"""The one interface every game implements.

A game is a pure, deterministic library (after OpenSpiel and boardgame.io):

* ``initial_state(players, options)`` — the state before anything has happened;
* ``chance(state)`` — what randomness the state needs next (a shuffle for a deal, a draw
  for the first dealer), or ``None``; the adapter derives the outcome from the match seed
  (``tavola.rules.fairness``) and passes it to ``resolve_chance``, which returns events;
* ``decide(state, seat, action)`` — validates a seat's action and returns the events it
  causes (forced passes and other automatic consequences included, as explicit events);
* ``evolve(state, event)`` — folds one event into the state;
* ``to_act``, ``legal_actions``, ``why_illegal`` — who may act, with what, and why not;
* ``view(state, seat)`` — what one seat (or a spectator, ``seat=None``) may see;
* ``standings`` / ``is_over`` — scores so far and whether the match has ended;
* ``decision``, ``turn_timer``, ``automatic_action`` — what the game waits for from a seat,
  how long it may take (table options, ``tavola.rules.timers``) and the move made when the
  time runs out; ``pause_before_chance`` / ``pause_before_end`` — pauses between games;
* ``bots()`` — the game's bots (``tavola.bots.interface.GameBots``, its ``bots`` package's
  ``BOTS``), imported when first asked for (bots import the bot layer, which imports the
  registry of games).

The base class implements ``decide``'s checks once ("game over", "not your turn",
"illegal action"), so a game module writes only its rules in ``apply``. Errors never change
the state; states are immutable values.

Events are frozen dataclasses deriving from :class:`Event`. An event is public unless its
``audience()`` names the seats allowed to see it (a dealt hand is seen by its owner only).
Fields use a closed set of types so one generic mapper turns every event into protobuf:
``int``, ``str``, ``bool``, ``Card``, ``Tile``, ``IntEnum``, ``None`` unions, nested frozen
dataclasses and tuples of these.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, TypeVar

from tavola.rules.errors import GameOver, IllegalAction, MalformedAction, NotYourTurn, Reason

if TYPE_CHECKING:
    from tavola.bots.interface import GameBots

OptionValue = int | bool | str
Options = Mapping[str, OptionValue]


class Event:
    """Base of every domain event (a fact, named in the past tense)."""

    __slots__ = ()

    def audience(self) -> frozenset[int] | None:
        """Seats allowed to see this event; ``None`` means everyone (public)."""
        return None


class Action:
    """Base of every action a seat can take (a command, named imperatively)."""

    __slots__ = ()


class Deferral(Action):
    """An action that only lets a seat's optional decisions pass for now (Doppelkopf's
    ``wait``: no announcement while another seat is to play). It moves nothing else on, so
    it is never the automatic move of a seat the game waits for, and a uniformly random
    player (``driver.random_choice``) never picks it."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class ChanceRequest:
    """Randomness a state needs. ``purpose`` is unique within a match ("deal/3").

    ``kind == "shuffle"``: the outcome is a permutation of ``range(size)``;
    ``kind == "draw"``: the outcome is a 1-tuple with an int in ``range(size)``.
    """

    purpose: str
    kind: Literal["shuffle", "draw"]
    size: int


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """A table option: its name, type, default and (for choices) allowed values.

    ``house_rule`` marks options whose non-default value is a house rule (flagged in
    history); ``description`` is a message code of the catalogue.
    """

    name: str
    kind: Literal["int", "bool", "choice"]
    default: OptionValue
    description: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    house_rule: bool = True


@dataclass(frozen=True, slots=True)
class GameInfo:
    """Metadata constant of a game (one per game module)."""

    name: str
    title: str
    min_players: int
    max_players: int
    rules_version: int
    options: tuple[OptionSpec, ...]
    event_types: tuple[type[Event], ...]
    presets: Mapping[str, Mapping[str, OptionValue]] = field(default_factory=dict)
    # The options of the shortest full match of the game (one hand, game or block), typed
    # as ``presets`` are: what tests, the bench and demos play. Every key is one of the
    # game's options and every value valid for it (``tests/unit/rules/test_short.py``).
    short: Mapping[str, OptionValue] = field(default_factory=dict)
    lower_score_wins: bool = False
    teams: bool = False


@dataclass(frozen=True, slots=True)
class SeatScore:
    seat: int
    score: int
    rank: int  # 1 = best; ties share a rank


@dataclass(frozen=True, slots=True)
class MatchResult:
    finished: bool
    standings: tuple[SeatScore, ...]


S = TypeVar("S")
A = TypeVar("A", bound=Action)


def rank_scores(scores: Sequence[int], lower_wins: bool = False) -> tuple[SeatScore, ...]:
    """Standings from per-seat scores; equal scores share a rank (1 = best)."""
    key = [(-s if not lower_wins else s) for s in scores]
    out = []
    for seat, score in enumerate(scores):
        better = sum(1 for k in key if k < key[seat])
        out.append(SeatScore(seat=seat, score=score, rank=better + 1))
    return tuple(out)


class Game(ABC, Generic[S, A]):
    """The interface every game implements; see the module docstring."""

    info: ClassVar[GameInfo]
    defers: ClassVar[bool] = False
    """Whether ``legal_actions`` may hold a ``Deferral`` (Doppelkopf's ``wait``); a game
    whose actions never defer lets drivers skip looking for one."""

    # ----- options -------------------------------------------------------------------
    def parse_options(
        self, raw: Mapping[str, str | OptionValue], players: int | None = None
    ) -> dict[str, OptionValue]:
        """Validate table options (strings from the wire or typed values); fill defaults.

        A ``preset`` key (when the game has presets) supplies defaults that explicit
        options override. ``players``, when known (a table's size), lets a game choose
        defaults that depend on it (``default_for_players``). Raises
        :class:`IllegalAction` with reason ``options.*``.
        """
        specs = {spec.name: spec for spec in self.info.options}
        values: dict[str, OptionValue] = {spec.name: spec.default for spec in self.info.options}
        raw = dict(raw)
        preset = raw.pop("preset", None)
        if preset is not None:
            if str(preset) not in self.info.presets:
                raise IllegalAction(Reason.of("options.unknown_preset", preset=str(preset)))
            values.update(self.info.presets[str(preset)])
        for name, given in raw.items():
            spec = specs.get(name)
            if spec is None:
                raise IllegalAction(Reason.of("options.unknown", option=name))
            values[name] = _coerce_option(spec, given)
        if players is not None:
            chosen = set(raw) | set(self.info.presets.get(str(preset), {}) if preset else ())
            for name, value in self.default_for_players(players).items():
                if name not in chosen:
                    values[name] = value
        return values

    def default_for_players(self, players: int) -> Mapping[str, OptionValue]:
        """Option defaults that depend on the number of players (none by default); applied
        by ``parse_options`` to options the table did not choose."""
        return {}

    def house_rules(self, options: Mapping[str, OptionValue]) -> tuple[str, ...]:
        """Names of options that differ from the official rules (flagged in history)."""
        return tuple(
            spec.name
            for spec in self.info.options
            if spec.house_rule and options.get(spec.name, spec.default) != spec.default
        )

    # ----- lifecycle -------------------------------------------------------------------
    @abstractmethod
    def initial_state(self, players: int, options: Mapping[str, OptionValue]) -> S: ...

    @abstractmethod
    def chance(self, state: S) -> ChanceRequest | None: ...

    @abstractmethod
    def resolve_chance(
        self, state: S, request: ChanceRequest, outcome: tuple[int, ...]
    ) -> list[Event]: ...

    @abstractmethod
    def evolve(self, state: S, event: Event) -> S: ...

    def fold(self, state: S, events: Iterable[Event]) -> S:
        for event in events:
            state = self.evolve(state, event)
        return state

    # ----- turns and legality ----------------------------------------------------------
    @abstractmethod
    def to_act(self, state: S) -> frozenset[int]:
        """Seats that may act now (several during simultaneous decisions)."""

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> Sequence[A]:
        """Every legal action of ``seat`` now, in a stable order; empty if it may not act."""

    @abstractmethod
    def why_illegal(self, state: S, seat: int, action: A) -> Reason | None:
        """``None`` when legal for a seat in ``to_act``; otherwise the reason why not."""

    @abstractmethod
    def apply(self, state: S, seat: int, action: A) -> list[Event]:
        """Events caused by a legal action (already validated by ``decide``)."""

    def decide(self, state: S, seat: int, action: A) -> list[Event]:
        """Validate and decide; raises a :class:`RulesError` subclass and changes nothing."""
        if self.is_over(state):
            raise GameOver(Reason.of("game.over"))
        if not 0 <= seat < self.players(state):
            raise NotYourTurn(Reason.of("game.no_such_seat", seat=seat))
        if seat not in self.to_act(state):
            on_turn = sorted(self.to_act(state))
            raise NotYourTurn(
                Reason.of("game.not_your_turn", seat=seat, on_turn=",".join(map(str, on_turn)))
            )
        reason = self.why_illegal(state, seat, action)
        if reason is not None:
            raise IllegalAction(reason)
        return self.apply(state, seat, action)

    def automatic_action(self, state: S, seat: int) -> tuple[A, Reason]:
        """The move made for a seat whose timer ran out, with why (a safe, honest choice).

        It exists for every seat in ``to_act`` and ``decide`` accepts it. For a seat the
        game waits for (``decision`` not None) it moves the game on — never a
        ``Deferral``; a seat that may act only optionally gets the game's ``Deferral``.
        Default: the first legal action. Games override with their documented choice.
        """
        legal = self.legal_actions(state, seat)
        if not legal:
            raise NotYourTurn(Reason.of("game.not_your_turn", seat=seat, on_turn=""))
        return legal[0], Reason.of("auto.first_legal")

    def decision(self, state: S, seat: int) -> str | None:
        """The kind of decision the game waits for from ``seat`` now ("bid", "card", …: a
        kind of the game's ``tavola.rules.timers.TurnTimers``), or ``None``: the seat is not
        to act, or may act only optionally (a Doppelkopf announcement while another seat is
        to play), so nothing waits for it. Default: every seat in ``to_act`` is awaited,
        kind ``"turn"`` (games declare their own kinds)."""
        return "turn" if seat in self.to_act(state) else None

    def turn_timer(self, state: S, seat: int) -> int | None:
        """Seconds a seat has for its current decision, or ``None`` (untimed).

        The engine records each deadline as a fact and, when it passes, plays
        ``automatic_action`` for the seat. Every game times every ``decision`` from its
        table options (``tavola.rules.timers``: ``timers`` and ``timer_<kind>``; Spades
        30 s a bid, 25 s a card); ``None`` when the table switched timers off or nothing
        is awaited from the seat. Default: untimed."""
        return None

    def pause_before_chance(self, state: S) -> int | None:
        """Seconds the table pauses before the next chance (e.g. between games, so everyone
        sees the result and the provisional standings), or ``None``. Applied by the engine
        only at tables with people; the rules stay timeless."""
        return None

    def pause_before_end(self, state: S) -> int | None:
        """Seconds the table pauses once the match is over, before the final standings
        (``match.MatchEnded``) — Doppelkopf: 10 s to see the last game's result — or
        ``None``. Asked only when ``is_over``; applied like ``pause_before_chance``."""
        return None

    def ranked_by_score(self, state: S) -> bool:
        """Whether the match's final ranks follow its scores, so that a referee's score
        correction (voiding a hand, adjusting a score) may rank the match again by the
        corrected scores. A match ranked otherwise (a dominoes series, won by games)
        answers False: only voiding the whole game applies to it."""
        return True

    def seat_left(self, state: S, seat: int) -> list[Event]:
        """Events when a player leaves for good. Default: none — a bot takes the seat over
        and the rules go on. A game whose rule book says otherwise (Doppelkopf: the game
        ends unscored) returns its events here."""
        return []

    # ----- what seats see --------------------------------------------------------------
    @abstractmethod
    def players(self, state: S) -> int: ...

    @abstractmethod
    def view(self, state: S, seat: int | None) -> Any:
        """A frozen dataclass with what ``seat`` may see (``None``: a spectator)."""

    @abstractmethod
    def standings(self, state: S) -> tuple[SeatScore, ...]: ...

    @abstractmethod
    def is_over(self, state: S) -> bool: ...

    def result(self, state: S) -> MatchResult:
        return MatchResult(finished=self.is_over(state), standings=self.standings(state))

    # ----- action encoding -------------------------------------------------------------
    @abstractmethod
    def encode_action(self, action: A) -> str:
        """The stable code of an action ("7D", "pass", "bid 4"); documented per game."""

    @abstractmethod
    def decode_action(self, code: str) -> A:
        """Parse an action code; raises :class:`MalformedAction`."""

    def action_public(self, code: str) -> bool:
        """Whether an action's code may be shown to every seat as the cause of its events.
        Default: yes (a card played, a bid). A game whose players choose in secret says no
        for those codes (Doppelkopf: a reservation, the cards given back to a poor
        player); their own events then say only what the rules reveal."""
        return True

    def describe_action(self, action: A) -> str:
        """A unique human string ("7♦"); defaults to the code."""
        return self.encode_action(action)

    def malformed(self, code: str) -> MalformedAction:
        return MalformedAction(Reason.of("action.malformed", game=self.info.name, code=code))

    # ----- rules versions -----------------------------------------------------------------
    def rules_versions(self) -> Mapping[int, Game[Any, Any]]:
        """Every rules version of this game the platform still plays and verifies, by
        number: the current one (``info.rules_version``) and any it keeps for matches
        played under an earlier one (a match is always continued and verified under the
        version its ``MatchCreated`` records; ``tavola audit`` re-runs it under the
        current one)."""
        return {self.info.rules_version: self}

    # ----- bots ----------------------------------------------------------------------------
    @abstractmethod
    def bots(self) -> GameBots:
        """This game's bots: ``BOTS`` of its ``bots`` package, imported inside the method
        (``GameBots.none()`` for a game without bots of its own)."""

    # ----- text --------------------------------------------------------------------------
    def messages(self) -> Mapping[str, Mapping[str, str]]:
        """This game's message catalogue: ``{code: {"en": ..., "pt": ...}}``."""
        return {}


def _coerce_option(spec: OptionSpec, given: str | OptionValue) -> OptionValue:
    bad = IllegalAction(Reason.of("options.invalid", option=spec.name, value=str(given)))
    if spec.kind == "bool":
        if isinstance(given, bool):
            return given
        text = str(given).strip().lower()
        if text in ("1", "true", "yes", "on"):
            return True
        if text in ("0", "false", "no", "off"):
            return False
        raise bad
    if spec.kind == "int":
        try:
            value = (
                given if isinstance(given, int) and not isinstance(given, bool) else int(str(given))
            )
        except ValueError:
            raise bad from None
        if spec.minimum is not None and value < spec.minimum:
            raise bad
        if spec.maximum is not None and value > spec.maximum:
            raise bad
        return value
    text = str(given)
    if text not in spec.choices:
        raise bad
    return text


class TrickGame(Game[S, A], ABC):
    """Marker base for trick-taking games (Spades, Barbu, Doppelkopf); helpers live in
    :mod:`tavola.rules.cards`."""
