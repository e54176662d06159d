"""The pure rules core: one interface for every game, shared kits and fair dealing.

Nothing under ``tavola.rules`` or ``tavola.games`` performs I/O, reads a clock, or uses
global randomness; a test imports each game in a fresh interpreter and proves it.
"""

from tavola.rules.errors import (
    GameOver,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    Reason,
    RulesError,
)
from tavola.rules.interface import (
    Action,
    ChanceRequest,
    Deferral,
    Event,
    Game,
    GameInfo,
    MatchResult,
    OptionSpec,
    SeatScore,
    TrickGame,
)

__all__ = [
    "Action",
    "ChanceRequest",
    "Deferral",
    "Event",
    "Game",
    "GameInfo",
    "GameOver",
    "IllegalAction",
    "MalformedAction",
    "MatchResult",
    "NotYourTurn",
    "OptionSpec",
    "Reason",
    "RulesError",
    "SeatScore",
    "TrickGame",
]
