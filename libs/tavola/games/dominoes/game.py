"""Brazilian dominoes: the ``Game`` implementation (see the package docstring)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from tavola.games.dominoes.actions import DominoesAction, Pass, Play
from tavola.games.dominoes.deal import deal_events, deal_request, weight
from tavola.games.dominoes.events import (
    BoneyardDrawn,
    BoneyardFormed,
    HandBlocked,
    HandDealt,
    HandScored,
    HandStarted,
    MatchEnded,
    Passed,
    PlayerWentOut,
    TileDrawn,
    TilePlayed,
    TilesShown,
)
from tavola.games.dominoes.line import End
from tavola.games.dominoes.messages import MESSAGES
from tavola.games.dominoes.play import legal_plays, play_events, why_illegal
from tavola.games.dominoes.state import (
    MODES,
    PLAYERS_OF_MODE,
    DominoesOptions,
    DominoesState,
    evolve,
    match_points,
    side_of,
)
from tavola.games.dominoes.timers import TIMERS, decision
from tavola.games.dominoes.views import DominoesView, view_of
from tavola.rules.errors import IllegalAction, Reason
from tavola.rules.interface import (
    ChanceRequest,
    Event,
    Game,
    GameInfo,
    OptionSpec,
    OptionValue,
    SeatScore,
)
from tavola.rules.tiles import Tile

if TYPE_CHECKING:
    from tavola.bots.interface import GameBots

BEST_OF = (1, 3, 5)  # the match: one game, or a series of 3 or 5 games
_OPTIONS = (
    OptionSpec(
        "mode", "choice", "partnership", "dominoes.option.mode", choices=MODES, house_rule=False
    ),
    OptionSpec("target", "int", 50, "dominoes.option.target", minimum=1, maximum=1000),
    OptionSpec("best_of", "int", 1, "dominoes.option.best_of", minimum=1, maximum=BEST_OF[-1]),
    OptionSpec(
        "opener",
        "choice",
        "next_counterclockwise",
        "dominoes.option.opener",
        choices=("next_counterclockwise", "winner_opens"),
    ),
    OptionSpec(
        "blocked_tie",
        "choice",
        "blocker_loses",
        "dominoes.option.blocked_tie",
        choices=("blocker_loses", "nobody_scores", "lowest_single_hand"),
    ),
    OptionSpec("carroca_bonus", "int", 0, "dominoes.option.carroca_bonus", minimum=0, maximum=100),
    OptionSpec("la_e_lo_bonus", "int", 0, "dominoes.option.la_e_lo_bonus", minimum=0, maximum=100),
    OptionSpec(
        "cruzada_bonus", "int", -1, "dominoes.option.cruzada_bonus", minimum=-1, maximum=200
    ),
    *TIMERS.options(),
)
_EVENTS = (
    HandStarted,
    HandDealt,
    BoneyardFormed,
    TilePlayed,
    TileDrawn,
    BoneyardDrawn,
    Passed,
    PlayerWentOut,
    HandBlocked,
    TilesShown,
    HandScored,
    MatchEnded,
)
_ACTION_SUFFIX = {"": None, "L": End.LEFT, "R": End.RIGHT}
_NOBODY: frozenset[int] = frozenset()
_SEAT = tuple(frozenset((seat,)) for seat in range(4))


class Dominoes(Game[DominoesState, DominoesAction]):
    info = GameInfo(
        name="dominoes",
        title="Brazilian dominoes",
        min_players=2,
        max_players=4,
        rules_version=1,
        options=_OPTIONS,
        event_types=_EVENTS,
        short={"target": 1},
        teams=True,
    )

    # ----- lifecycle -------------------------------------------------------------------
    def default_for_players(self, players: int) -> Mapping[str, OptionValue]:
        """Two players play one against one (``block``) unless the table chose ``draw``."""
        return {"mode": "block"} if players == 2 else {}

    def initial_state(self, players: int, options: Mapping[str, OptionValue]) -> DominoesState:
        """Without an explicit ``mode``, two players play ``block``; an explicit mode must
        match the player count (partnership: 4, block and draw: 2). ``best_of`` is 1, 3
        or 5 (an even number: ``dominoes.best_of``)."""
        if players not in (2, 4):
            raise IllegalAction(Reason.of("dominoes.players", players=players))
        values = self.parse_options(options)
        if "mode" not in options and players == 2:
            values["mode"] = "block"
        needed = PLAYERS_OF_MODE[str(values["mode"])]
        if needed != players:
            raise IllegalAction(
                Reason.of(
                    "dominoes.mode_players",
                    mode=str(values["mode"]),
                    needed=needed,
                    players=players,
                )
            )
        if values["best_of"] not in BEST_OF:
            raise IllegalAction(Reason.of("dominoes.best_of", best_of=values["best_of"]))
        rest, clock = TIMERS.split(values)
        opts = DominoesOptions(**rest, clock=clock)  # type: ignore[arg-type]
        return DominoesState(players=players, options=opts)

    def players(self, state: DominoesState) -> int:
        return state.players

    def chance(self, state: DominoesState) -> ChanceRequest | None:
        return deal_request(state) if state.phase == "deal" else None

    def resolve_chance(
        self, state: DominoesState, request: ChanceRequest, outcome: tuple[int, ...]
    ) -> list[Event]:
        expected = self.chance(state)
        if request is not expected and request != expected:
            raise ValueError(f"unexpected chance request {request}")
        return deal_events(state, outcome)

    def evolve(self, state: DominoesState, event: Event) -> DominoesState:
        memo = state.memo  # the rules folded this very event already (``state.advance``)
        if memo is not None and memo[0] is event:
            return memo[1]
        return evolve(state, event)

    # ----- turns and legality ----------------------------------------------------------
    def decision(self, state: DominoesState, seat: int) -> str | None:
        return decision(state, seat)

    def turn_timer(self, state: DominoesState, seat: int) -> int | None:
        """The table's tile timer (20 s by default); passes and draws are never timed."""
        return state.options.clock.seconds(decision(state, seat))

    def to_act(self, state: DominoesState) -> frozenset[int]:
        turn = state.turn
        if turn is None or state.phase != "play":
            return _NOBODY
        return _SEAT[turn]

    def legal_actions(self, state: DominoesState, seat: int) -> Sequence[DominoesAction]:
        if state.phase != "play" or seat != state.turn:
            return ()
        legal: tuple[Play, ...] | None = state.legal
        if legal is None:
            state.legal = legal = legal_plays(state, seat)
        return legal

    def why_illegal(self, state: DominoesState, seat: int, action: DominoesAction) -> Reason | None:
        return why_illegal(state, seat, action)

    def decide(self, state: DominoesState, seat: int, action: DominoesAction) -> list[Event]:
        """``Game.decide`` with a shortcut for the common command: one of the legal plays
        just listed for the seat on turn (the very object: every check then passes)."""
        legal = state.legal
        if legal is not None and seat == state.turn and state.phase == "play":
            for play in legal:
                if play is action and isinstance(play, Play):
                    return play_events(state, seat, play)
        return super().decide(state, seat, action)

    def apply(self, state: DominoesState, seat: int, action: DominoesAction) -> list[Event]:
        assert isinstance(action, Play)
        return play_events(state, seat, action)

    def automatic_action(self, state: DominoesState, seat: int) -> tuple[DominoesAction, Reason]:
        """On a timeout: the heaviest playable tile (most pips, then the higher number); if
        it may go on either end, on the left end."""
        legal = [a for a in self.legal_actions(state, seat) if isinstance(a, Play)]
        if not legal:
            return super().automatic_action(state, seat)
        best = max(legal, key=lambda a: (weight(a.tile), a.end != End.RIGHT))
        return best, Reason.of("dominoes.auto.heaviest_tile", tile=best.tile.code)

    # ----- what seats see --------------------------------------------------------------
    def view(self, state: DominoesState, seat: int | None) -> DominoesView:
        return view_of(state, seat)

    def standings(self, state: DominoesState) -> tuple[SeatScore, ...]:
        """Each seat carries its side's points in the match (partners share them; a
        series: every game's points added up); sides rank by games won, then by those
        points, so a series is won by games and the losing partners are both second.
        With ``best_of`` 1 that is the one game's score and its ranking."""
        points = match_points(state)
        keys = [(games, points[side]) for side, games in enumerate(state.games_won)]
        ranks = [1 + sum(other > key for other in keys) for key in keys]
        return tuple(
            SeatScore(seat, points[side_of(seat)], ranks[side_of(seat)])
            for seat in range(state.players)
        )

    def is_over(self, state: DominoesState) -> bool:
        return state.phase == "over"

    def ranked_by_score(self, state: DominoesState) -> bool:
        """A series (``best_of`` > 1) is ranked by games won, not by its points."""
        return state.options.best_of == 1

    # ----- encoding ----------------------------------------------------------------------
    def encode_action(self, action: DominoesAction) -> str:
        if isinstance(action, Pass):
            return "pass"
        suffix = "" if action.end is None else f" {action.end.letter}"
        return f"{action.tile.code}{suffix}"

    def decode_action(self, code: str) -> DominoesAction:
        parts = code.split()
        if len(parts) == 1 and parts[0].lower() == "pass":
            return Pass()
        if not 1 <= len(parts) <= 2:
            raise self.malformed(code)
        suffix = parts[1].upper() if len(parts) == 2 else ""
        if suffix not in _ACTION_SUFFIX or (not suffix and len(parts) == 2):
            raise self.malformed(code)
        try:
            tile = Tile.parse(parts[0])
        except ValueError:
            raise self.malformed(code) from None
        return Play(tile, _ACTION_SUFFIX[suffix])

    def describe_action(self, action: DominoesAction) -> str:
        if isinstance(action, Pass):
            return "pass"
        label = f"{action.tile.high}|{action.tile.low}"
        if action.end is None:
            return label
        return f"{label} on the {'left' if action.end is End.LEFT else 'right'} end"

    def bots(self) -> GameBots:
        from tavola.games.dominoes.bots import BOTS

        return BOTS

    def messages(self) -> Mapping[str, Mapping[str, str]]:
        return MESSAGES


GAME = Dominoes()
