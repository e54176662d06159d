"""Brazilian dominoes (dominó de mesa) — ``../shared/rules/dominoes.md``.

Variants (table option ``mode``): ``partnership`` (4 players, sides {0, 2} and {1, 3}, all
28 tiles dealt, 7 each), ``block`` and ``draw`` (one against one, 7 each, 14 in the
boneyard; ``draw`` draws until a tile fits while more than two remain). Without ``mode``,
4 players play partnership and 2 play block. Play is counter-clockwise: seats are numbered
clockwise, so the next player is ``seat - 1``.

Phases: ``deal`` (chance ``deal/n``: a shuffle of the 28 tiles) → ``play`` → ``deal`` …
→ ``over`` (a side reached ``target`` after a hand). First hand: partnership opens with the
6-6; one against one with the highest double dealt, else the heaviest tile. Later hands:
the next player counter-clockwise after the previous opener (``opener=winner_opens``: the
previous hand's winner), any tile.

A series (``best_of`` 3 or 5; default 1, one game): each game is played to ``target``;
the side that first wins ``best_of // 2 + 1`` games wins the match. Scores restart at 0 for
each game (the game-winning ``HandScored`` still shows the game's final score; no event of
its own marks a game's end), hands go on being numbered across games, and the first hand
of a later game is opened like any later hand (it is not a first hand: no 6-6 or highest
double rule). ``MatchEnded.scores`` is then the games won; the standings carry each side's
points of the whole series and rank by games won first.

Action encoding (stable): ``"6-4"`` lays tile 6-4 (high number first) where it fits;
``"6-4 L"`` / ``"6-4 R"`` lay it on the left / right end and are the only legal codes when
the tile shows both ends and they differ (the two placements give different lines). With
equal ends, or a tile fitting one end, only the bare code is legal (with equal ends it goes
on the right end). The opening tile is laid high number on the left. ``"pass"`` decodes but
is never legal: passes and draws are automatic, explicit events.

Options: ``mode``, ``target`` (50), ``best_of`` (1 | 3 | 5; an even number is refused with
``dominoes.best_of``, one out of 1..5 with ``options.invalid``), and the house rules ``opener``
(``next_counterclockwise`` | ``winner_opens``), ``blocked_tie`` (``blocker_loses`` |
``nobody_scores`` | ``lowest_single_hand``), ``carroca_bonus``, ``la_e_lo_bonus`` and
``cruzada_bonus`` (-1: the sum of the other two); turn timers ``timers`` and
``timer_tile`` (20 s; the one decision is a tile and its end — see ``timers``).
"""

from tavola.games.dominoes.actions import DominoesAction, Pass, Play
from tavola.games.dominoes.events import (
    BoneyardDrawn,
    BoneyardFormed,
    Bonus,
    Ending,
    HandBlocked,
    HandDealt,
    HandScored,
    HandStarted,
    MatchEnded,
    OpeningRule,
    Passed,
    PlayerWentOut,
    TileDrawn,
    TilePlayed,
    TilesShown,
)
from tavola.games.dominoes.game import GAME, Dominoes
from tavola.games.dominoes.line import End, PlacedTile
from tavola.games.dominoes.state import DominoesOptions, DominoesState, PassRecord
from tavola.games.dominoes.views import DominoesView

__all__ = [
    "GAME",
    "BoneyardDrawn",
    "BoneyardFormed",
    "Bonus",
    "Dominoes",
    "DominoesAction",
    "DominoesOptions",
    "DominoesState",
    "DominoesView",
    "End",
    "Ending",
    "HandBlocked",
    "HandDealt",
    "HandScored",
    "HandStarted",
    "MatchEnded",
    "OpeningRule",
    "Pass",
    "PassRecord",
    "Passed",
    "PlacedTile",
    "Play",
    "PlayerWentOut",
    "TileDrawn",
    "TilePlayed",
    "TilesShown",
]
