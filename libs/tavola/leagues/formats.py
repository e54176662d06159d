"""How a league of each game is run: who an entrant is, table sizes, scoring, tie-breaks.

The table follows ``leagues.md`` (the specification): a round gives every entrant one
table; standings points and the tie-break columns, in order, are fixed per game and
published with the season. A host may pick a documented variant (``Format.scoring``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tavola.rules.errors import IllegalAction, Reason

INDIVIDUAL = "individual"  # Barbu, Fan Tan, Doppelkopf: every player for themselves
FIXED = "fixed"  # Spades, dominoes: registered pairs play as teams
ROTATING = "rotating"  # Spades, dominoes: partners change every round
SWISS = "swiss"
ROUND_ROBIN = "round_robin"
BOTS = "bots"
BYES = "byes"
DEFAULT_CHECK_IN_SECONDS = 600  # the round's tables open 10 minutes before its start
MAX_CHECK_IN_SECONDS = 86_400
LEVELS = ("easy", "medium", "hard", "master")


@dataclass(frozen=True, slots=True)
class Format:
    """A league's format (fixed for the league; shown to everyone).

    ``partners``: ``individual``, or for partnership games ``fixed`` (pairs register as
    teams) or ``rotating``. ``pairing`` (fixed pairs): ``swiss`` or ``round_robin``
    (Berger). ``remainder`` (Barbu and rotating partners, strictly four a table): numbers
    that do not divide are filled by the platform's ``bots`` or get ``byes``.
    ``table_sizes`` (Fan Tan): the sizes a division is split into, preferred first.
    ``scoring``: the game's standings points (``POINTS``). ``average``: rank by points per
    round played (the DDV ranking list, when absences are common). ``check_in_seconds``:
    how long before a round's start its tables open. ``bot_accounts``: whether bot
    accounts may register. ``fill_level``: the platform bots' level for empty seats.
    """

    partners: str = INDIVIDUAL
    pairing: str = ""
    remainder: str = BOTS
    table_sizes: tuple[int, ...] = ()
    scoring: str = ""
    average: bool = False
    check_in_seconds: int = DEFAULT_CHECK_IN_SECONDS
    bot_accounts: bool = False
    fill_level: str = "medium"


@dataclass(frozen=True, slots=True)
class GameRules:
    """What a game's league format allows (``RULES``)."""

    team_game: bool
    sizes: tuple[int, ...]  # table sizes the game can seat
    default_sizes: tuple[int, ...]
    scorings: tuple[str, ...]  # the first is the default
    tie_breaks: dict[str, tuple[str, ...]]  # per scoring: tie-break columns, in order


_TEAM_TIES = {
    "spades": ("point_difference", "opponents_wins", "head_to_head", "lot"),
    "dominoes": ("point_balance", "points_for", "head_to_head", "lot"),
}
RULES: dict[str, GameRules] = {
    "doppelkopf": GameRules(
        False,
        (4, 5),
        (4, 5),
        ("game_points", "placement"),
        {
            "game_points": ("best_round", "table_wins", "lot"),
            "placement": ("game_points", "best_round", "table_wins", "lot"),
        },
    ),
    "barbu": GameRules(
        False,
        (4,),
        (4,),
        ("placement", "raw"),
        {
            "placement": ("session_total", "table_wins", "best_session", "lot"),
            "raw": ("table_wins", "best_session", "lot"),
        },
    ),
    "fan-tan": GameRules(
        False,
        (3, 4, 5, 6, 7),
        (4, 5),
        ("normalised", "raw"),
        {
            "normalised": ("penalty_per_hand", "hands_won", "lot"),
            "raw": ("penalty_per_hand", "hands_won", "lot"),
        },
    ),
    "spades": GameRules(True, (4,), (4,), ("wins",), {"wins": _TEAM_TIES["spades"]}),
    "dominoes": GameRules(True, (4,), (4,), ("wins",), {"wins": _TEAM_TIES["dominoes"]}),
}

COLUMN_TITLES = {
    "points": "points",
    "best_round": "best single round",
    "table_wins": "rounds won at the table",
    "game_points": "sum of game points",
    "session_total": "sum of session scores",
    "best_session": "best session",
    "penalty_per_hand": "penalty points per hand (fewer first)",
    "hands_won": "hands won",
    "point_difference": "point difference",
    "opponents_wins": "sum of opponents' wins",
    "point_balance": "point balance (for - against)",
    "points_for": "points for",
    "head_to_head": "head-to-head",
    "lot": "seed lot",
}


def invalid(field: str, detail: str) -> IllegalAction:
    return IllegalAction(Reason.of("league.bad_format", field=field, detail=detail))


def rules_of(game: str) -> GameRules:
    rules = RULES.get(game)
    if rules is None:
        raise IllegalAction(Reason.of("game.unknown", game=game))
    return rules


def checked(game: str, given: Format) -> Format:
    """The format with the game's defaults filled in; raises ``league.bad_format``."""
    rules = rules_of(game)
    fmt = given
    if rules.team_game:
        partners = fmt.partners if fmt.partners != INDIVIDUAL else FIXED
        if partners not in (FIXED, ROTATING):
            raise invalid("partners", "fixed or rotating")
        pairing = fmt.pairing or (SWISS if partners == FIXED else "")
        if partners == FIXED and pairing not in (SWISS, ROUND_ROBIN):
            raise invalid("pairing", "swiss or round_robin")
        fmt = replace(fmt, partners=partners, pairing=pairing if partners == FIXED else "")
    elif fmt.partners != INDIVIDUAL:
        raise invalid("partners", f"{game} is played by individuals")
    sizes = fmt.table_sizes or rules.default_sizes
    if any(s not in rules.sizes for s in sizes) or len(set(sizes)) != len(sizes):
        raise invalid("table_sizes", ",".join(map(str, rules.sizes)))
    scoring = fmt.scoring or rules.scorings[0]
    if scoring not in rules.scorings:
        raise invalid("scoring", ",".join(rules.scorings))
    if fmt.remainder not in (BOTS, BYES):
        raise invalid("remainder", "bots or byes")
    if not 0 <= fmt.check_in_seconds <= MAX_CHECK_IN_SECONDS:
        raise invalid("check_in_seconds", f"0 to {MAX_CHECK_IN_SECONDS}")
    if fmt.fill_level not in LEVELS:
        raise invalid("fill_level", ",".join(LEVELS))
    return replace(fmt, table_sizes=tuple(sizes), scoring=scoring)


def tie_breaks(game: str, fmt: Format) -> tuple[str, ...]:
    """The tie-break columns of a league, in order (after ``points``)."""
    return rules_of(game).tie_breaks[fmt.scoring]


def by_teams(fmt: Format) -> bool:
    """Whether entrants are registered pairs (fixed partnerships)."""
    return fmt.partners == FIXED


def seat_partners(fmt: Format) -> bool:
    """Whether seats 0/2 and 1/3 are partners (every partnership game)."""
    return fmt.partners in (FIXED, ROTATING)
