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
SINGLE = "single"  # dominoes one against one (block or draw): single players, paired
SWISS = "swiss"
ROUND_ROBIN = "round_robin"
BOTS = "bots"
BYES = "byes"
DEFAULT_CHECK_IN_SECONDS = 600  # the round's tables open 10 minutes before its start
MAX_CHECK_IN_SECONDS = 86_400
LEVELS = ("easy", "medium", "hard", "master")
EVEN = "even"  # seating: pairs meet as evenly as possible (leagues.md)
STANDINGS = "standings"  # seating: by standings, swaps within a score band
MAX_BAND = 10_000
# seating by standings: the band per (game, scoring), in standings points; about one
# place's worth of a table (placement: one place step; normalised: first against last)
DEFAULT_BANDS = {
    ("doppelkopf", "game_points"): 20,
    ("doppelkopf", "placement"): 2,
    ("barbu", "placement"): 2,
    ("barbu", "raw"): 50,
    ("fan-tan", "normalised"): 1,
    ("fan-tan", "raw"): 10,
}


@dataclass(frozen=True, slots=True)
class Format:
    """A league's format (fixed for the league; shown to everyone).

    ``partners``: ``individual``, or for partnership games ``fixed`` (pairs register as
    teams) or ``rotating``; dominoes also ``single`` (one against one, tables of two).
    ``pairing`` (fixed pairs and single players): ``swiss`` or ``round_robin`` (Berger).
    ``remainder`` (Barbu and rotating partners, strictly four a table): numbers that do
    not divide are filled by the platform's ``bots`` or get ``byes``.
    ``table_sizes`` (Fan Tan): the sizes a division is split into, preferred first.
    ``scoring``: the game's standings points (``POINTS``). ``average``: rank by points per
    round played (the DDV ranking list, when absences are common). ``check_in_seconds``:
    how long before a round's start its tables open. ``bot_accounts``: whether bot
    accounts may register. ``fill_level``: the platform bots' level for empty seats.
    ``playoff`` (head-to-head formats): a knockout of that many qualifiers (2, 4, 8, 16)
    after the regular rounds, per division (``playoff_mode`` ``division``) or across the
    divisions as groups (``across``: group stage plus knockout); ``tavola.leagues.playoff``.
    ``seating`` (individual games): ``even`` (everyone meets everyone as evenly as
    possible) or ``standings`` (players of similar standings points meet); ``band``: how
    far apart in standings points two swapped players (and a table) may be (0: the
    scoring's ``DEFAULT_BANDS``; ``checked`` fills it in).
    ``duplicate`` (Barbu, Spades): every table of a division's round deals the same cards
    and each seat (Spades: each side, N/S or E/W) is scored by matchpoints against the
    same seat at the other tables (``MATCHPOINTS``; ``tavola.leagues.duplicate``).
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
    playoff: int = 0
    playoff_mode: str = ""
    seating: str = EVEN
    band: int = 0
    duplicate: bool = False


@dataclass(frozen=True, slots=True)
class GameRules:
    """What a game's league format allows (``RULES``)."""

    team_game: bool
    sizes: tuple[int, ...]  # table sizes the game can seat (partnership play)
    default_sizes: tuple[int, ...]
    scorings: tuple[str, ...]  # the first is the default
    tie_breaks: dict[str, tuple[str, ...]]  # per scoring: tie-break columns, in order
    single: bool = False  # also played one against one (``SINGLE``: tables of two)


MATCHPOINTS = "matchpoints"  # duplicate leagues' scoring (``Format.duplicate``)
_DUPLICATE_TIES = {
    "barbu": ("matchpoint_percent", "session_total", "lot"),
    "spades": ("matchpoint_percent", "point_difference", "lot"),
}
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
            MATCHPOINTS: _DUPLICATE_TIES["barbu"],
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
    "spades": GameRules(
        True,
        (4,),
        (4,),
        ("wins",),
        {"wins": _TEAM_TIES["spades"], MATCHPOINTS: _DUPLICATE_TIES["spades"]},
    ),
    "dominoes": GameRules(
        True, (4,), (4,), ("wins",), {"wins": _TEAM_TIES["dominoes"]}, single=True
    ),
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
    "matchpoint_percent": "matchpoints in percent of the most possible",
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
        allowed = (FIXED, ROTATING, SINGLE) if rules.single else (FIXED, ROTATING)
        if partners not in allowed:
            raise invalid("partners", " or ".join(allowed))
        pairs = partners in (FIXED, SINGLE)
        pairing = fmt.pairing or (SWISS if pairs else "")
        if pairs and pairing not in (SWISS, ROUND_ROBIN):
            raise invalid("pairing", "swiss or round_robin")
        fmt = replace(fmt, partners=partners, pairing=pairing if pairs else "")
    elif fmt.partners != INDIVIDUAL:
        raise invalid("partners", f"{game} is played by individuals")
    if fmt.partners == SINGLE:  # one against one: tables of two
        if fmt.table_sizes not in ((), (2,)):
            raise invalid("table_sizes", "2")
        sizes: tuple[int, ...] = (2,)
    else:
        sizes = fmt.table_sizes or rules.default_sizes
        if any(s not in rules.sizes for s in sizes) or len(set(sizes)) != len(sizes):
            raise invalid("table_sizes", ",".join(map(str, rules.sizes)))
    scoring = _scoring(rules, fmt)
    if fmt.remainder not in (BOTS, BYES):
        raise invalid("remainder", "bots or byes")
    if not 0 <= fmt.check_in_seconds <= MAX_CHECK_IN_SECONDS:
        raise invalid("check_in_seconds", f"0 to {MAX_CHECK_IN_SECONDS}")
    if fmt.fill_level not in LEVELS:
        raise invalid("fill_level", ",".join(LEVELS))
    fmt = _checked_playoff(fmt)
    band = _band(game, rules, fmt, scoring)
    return replace(fmt, table_sizes=tuple(sizes), scoring=scoring, band=band)


def _band(game: str, rules: GameRules, fmt: Format, scoring: str) -> int:
    """The band of seating by standings (the scoring's default for 0); 0 when even."""
    if fmt.seating not in (EVEN, STANDINGS):
        raise invalid("seating", f"{EVEN} or {STANDINGS}")
    if not 0 <= fmt.band <= MAX_BAND:
        raise invalid("band", f"0 to {MAX_BAND}")
    if fmt.seating == EVEN:
        if fmt.band:
            raise invalid("band", f"only with seating {STANDINGS}")
        return 0
    if rules.team_game:
        raise invalid("seating", f"{game} is not an individual game: {EVEN} only")
    return fmt.band or DEFAULT_BANDS.get((game, scoring), 2)


def _scoring(rules: GameRules, fmt: Format) -> str:
    """The standings points: a duplicate league's are matchpoints, and only its are."""
    if fmt.duplicate:
        if MATCHPOINTS not in rules.tie_breaks:
            raise invalid("duplicate", "barbu or spades")
        if fmt.scoring not in ("", MATCHPOINTS):
            raise invalid("scoring", MATCHPOINTS)
        if fmt.partners == ROTATING:
            raise invalid("duplicate", "fixed partners")
        return MATCHPOINTS
    scoring = fmt.scoring or rules.scorings[0]
    if scoring not in rules.scorings:
        raise invalid("scoring", ",".join(rules.scorings))
    return scoring


PLAYOFF_SIZES = (2, 4, 8, 16)
PLAYOFF_MODES = ("division", "across")


def _checked_playoff(fmt: Format) -> Format:
    if not fmt.playoff:
        if fmt.playoff_mode:
            raise invalid("playoff_mode", "only with a playoff")
        return fmt
    if fmt.playoff not in PLAYOFF_SIZES:
        raise invalid("playoff", ",".join(map(str, PLAYOFF_SIZES)))
    if not paired(fmt):
        raise invalid("playoff", "only where a table is one side against another")
    mode = fmt.playoff_mode or PLAYOFF_MODES[0]
    if mode not in PLAYOFF_MODES:
        raise invalid("playoff_mode", " or ".join(PLAYOFF_MODES))
    return replace(fmt, playoff_mode=mode)


def tie_breaks(game: str, fmt: Format) -> tuple[str, ...]:
    """The tie-break columns of a league, in order (after ``points``)."""
    return rules_of(game).tie_breaks[fmt.scoring]


def by_teams(fmt: Format) -> bool:
    """Whether entrants are registered pairs (fixed partnerships)."""
    return fmt.partners == FIXED


def paired(fmt: Format) -> bool:
    """Whether each table is one entrant against another, drawn by Swiss or round robin
    (fixed pairs, or single players one against one)."""
    return fmt.partners in (FIXED, SINGLE)


def head_to_head(fmt: Format) -> bool:
    """Whether a table is a match between two sides, scored win 1, loss 0, a bye a win
    (every partnership game, and one against one)."""
    return fmt.partners in (FIXED, ROTATING, SINGLE)


def seat_partners(fmt: Format) -> bool:
    """Whether seats 0/2 and 1/3 are partners (every partnership game)."""
    return fmt.partners in (FIXED, ROTATING)
