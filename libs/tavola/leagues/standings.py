"""Standings by each game's own scoring, with the published tie-break columns in order.

- Doppelkopf: the sum of game points (host: placement +3/+1/-1/-3, at a 5-table
  +4/+2/0/-2/-4); then best single round, rounds won at the table, the lot.
- Barbu: placement +3/+1/-1/-3 (host: raw session totals); then the sum of session
  scores, table wins, best session, the lot.
- Fan Tan: placement normalised to the table, (k - place)/(k - 1) (host: raw penalty
  totals, negated); then penalty points per hand (fewer first), hands won, the lot.
- Spades: win 1, loss 0, a bye a win; then point difference, the sum of opponents'
  wins, head-to-head, the lot.
- Dominoes: win 1, loss 0, a bye a win; then point balance (for - against), points
  for, head-to-head, the lot.

Shared places share the average of the places' points. An absent player (a platform bot
played the seat) scores nothing that round and is shown absent; a Barbu bye scores 0 (the
average); ``Format.average`` ranks by points per round played. The lot is HMAC-SHA256 of
the entrant under the season's last revealed round seed (``chance.lot``), lower first.
Everything is exact (``Fraction``); projections store floats for display.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from tavola.leagues import duplicate, formats
from tavola.leagues.chance import lot
from tavola.leagues.events import Move, ResultLine, ResultRecorded, RoundSeated
from tavola.leagues.state import LeagueState, RoundState, SeasonState, members, team_key

ABSENT = "absent"
BYE = "bye"
LOWER_FIRST = frozenset({"penalty_per_hand"})


@dataclass
class _Tally:
    points: Fraction = Fraction(0)
    played: int = 0
    byes: int = 0
    absences: int = 0
    scores: list[int] = field(default_factory=list)
    wins: int = 0
    won: Fraction = Fraction(0)  # match points won (team games: wins, half for a tie)
    against: int = 0
    hands_won: int = 0
    hands_played: int = 0
    opponents: list[str] = field(default_factory=list)
    beaten: dict[str, Fraction] = field(default_factory=dict)  # head-to-head
    rounds: dict[int, str] = field(default_factory=dict)
    top: int = 0  # duplicate: the most matchpoints the rounds counted could have given


@dataclass(frozen=True, slots=True)
class StandingRow:
    rank: int
    entrant: str
    name: str
    points: Fraction
    columns: tuple[tuple[str, Fraction], ...]  # tie-break columns, in order
    played: int
    byes: int
    absences: int
    withdrawn: bool
    rounds: tuple[str, ...]  # per round: points earned, "bye", "absent" or "" (not seated)

    def column(self, name: str) -> Fraction:
        return dict(self.columns)[name]


def placement_points(k: int, rank: int, tied: int) -> Fraction:
    """+k-1 ... -(k-1) in steps of two (4: +3/+1/-1/-3), shared places averaged."""
    places = range(rank, rank + tied)
    return Fraction(sum(k + 1 - 2 * p for p in places), tied)


def normalised(k: int, rank: int, tied: int) -> Fraction:
    """(k - place)/(k - 1), the place averaged over the tied places."""
    place = Fraction(sum(range(rank, rank + tied)), tied)
    return (k - place) / (k - 1) if k > 1 else Fraction(0)


def entrants_at(game_by_teams: bool, table: Sequence[str]) -> list[str]:
    """The entrant of each seat (fixed pairs: the team of seats 0/2 or 1/3)."""
    if game_by_teams:
        first, second = team_key(table[0], table[2]), team_key(table[1], table[3])
        return [first, second, first, second]
    return list(table)


def standings(
    league: LeagueState, season: SeasonState, division: str, up_to: int | None = None
) -> list[StandingRow]:
    """The division's standings after round ``up_to`` (every recorded result when None)."""
    fmt = league.format
    tallies: dict[str, _Tally] = {e: _Tally() for e in season.entrants_of(division)}
    rounds = [
        r
        for r in season.ordered_rounds()
        if (up_to is None or r.round <= up_to) and not r.playoff  # the knockout is apart
    ]
    for round_ in rounds:
        _tally_round(league, round_, division, tallies)
    seed = _last_seed(rounds)
    breaks = formats.tie_breaks(league.game, fmt)
    wins = {e: t.won for e, t in tallies.items()}
    numbers = [r.round for r in rounds]
    rows = [
        (
            entrant,
            _primary(fmt, tally),
            _columns(league.game, fmt, tally, wins, breaks),
            tally,
        )
        for entrant, tally in tallies.items()
    ]
    ordered = _order(rows, breaks, tallies, seed)
    return [
        StandingRow(
            rank=place,
            entrant=entrant,
            name=league.entrant_name(entrant),
            points=primary,
            columns=tuple((c, v) for c, v in columns.items() if c not in ("lot",)),
            played=tally.played,
            byes=tally.byes,
            absences=tally.absences,
            withdrawn=league.is_withdrawn(entrant),
            rounds=tuple(tally.rounds.get(n, "") for n in numbers),
        )
        for place, (entrant, primary, columns, tally) in enumerate(ordered, start=1)
    ]


def _last_seed(rounds: Sequence[RoundState]) -> bytes:
    revealed = [r.ended.seed_hex for r in rounds if r.ended is not None]
    return bytes.fromhex(revealed[-1]) if revealed else b""


def _tally_round(
    league: LeagueState, round_: RoundState, division: str, tallies: dict[str, _Tally]
) -> None:
    seated = round_.seated.get(division)
    if seated is None:
        return
    if league.format.scoring == formats.MATCHPOINTS:  # a separate path: duplicate.py
        _tally_duplicate(league, round_, division, seated, tallies)
        return
    for bye in seated.byes:
        tally = tallies.setdefault(bye, _Tally())
        tally.byes += 1
        tally.rounds[round_.round] = BYE
        if formats.head_to_head(league.format):  # a side's bye is a win, balance 0
            tally.points += 1
            tally.won += 1
            tally.wins += 1
    absent = set(round_.started.absent) if round_.started else set()
    opened = round_.opened.tables if round_.opened else ()
    tables = {t.match_id: t.index for t in opened if t.division == division}
    for match_id, index in tables.items():
        result = round_.results.get(match_id)
        if result is not None:
            _tally_table(league, seated, index, result, absent, tallies, round_.round)
        else:
            owners = entrants_at(formats.by_teams(league.format), seated.tables[index].seats)
            for entrant in sorted(set(owners) - {""}):
                tallies.setdefault(entrant, _Tally()).rounds.setdefault(round_.round, "")


def _tally_table(
    league: LeagueState,
    seated: RoundSeated,
    index: int,
    result: ResultRecorded,
    absent: set[str],
    tallies: dict[str, _Tally],
    number: int,
) -> None:
    fmt = league.format
    seats = seated.tables[index].seats
    owners = entrants_at(formats.by_teams(fmt), seats)
    lines = sorted(result.lines, key=lambda line: line.seat)
    k = len(lines)
    done: set[str] = set()
    for line in lines:
        entrant = owners[line.seat]
        if not entrant or entrant in done:
            continue
        done.add(entrant)
        tally = tallies.setdefault(entrant, _Tally())
        if all(m in absent for m in members(entrant) if m):
            tally.absences += 1
            tally.rounds[number] = ABSENT
            continue
        tied = sum(1 for other in lines if other.rank == line.rank)
        if formats.head_to_head(fmt):
            earned = _team_line(tally, line, lines, owners)
        else:
            earned = _individual_points(league.game, fmt, k, line.rank, tied, line.score)
            tally.wins += line.rank == 1
        tally.points += earned
        tally.played += 1
        tally.scores.append(line.score)
        tally.hands_won += line.hands_won
        tally.hands_played += line.hands_played
        tally.rounds[number] = _show(earned)


def _team_line(
    tally: _Tally, line: ResultLine, lines: Sequence[ResultLine], owners: list[str]
) -> Fraction:
    """A partnership's match: win 1, loss 0 (a tie: a half), its score against theirs."""
    opponents = [o for o in lines if o.seat % 2 != line.seat % 2]
    against = opponents[0].score if opponents else 0
    best = all(line.rank <= o.rank for o in opponents)
    shared = any(line.rank == o.rank for o in opponents)
    earned = Fraction(1, 2) if best and shared else Fraction(1) if best else Fraction(0)
    tally.won += earned
    tally.wins += earned == 1
    tally.against += against
    for other in sorted({owners[o.seat] for o in opponents}):
        if other:
            tally.opponents.append(other)
            tally.beaten[other] = tally.beaten.get(other, Fraction(0)) + earned
    return earned


def _individual_points(
    game: str, fmt: formats.Format, k: int, rank: int, tied: int, score: int
) -> Fraction:
    if fmt.scoring == "placement":
        return placement_points(k, rank, tied)
    if fmt.scoring == "normalised":
        return normalised(k, rank, tied)
    if game == "fan-tan":  # raw penalty totals: fewer is better, so negated
        return Fraction(-score)
    return Fraction(score)


def _tally_duplicate(
    league: LeagueState,
    round_: RoundState,
    division: str,
    seated: RoundSeated,
    tallies: dict[str, _Tally],
) -> None:
    """A duplicate round: matchpoints per seat (Spades: per side) against the same seat at
    the division's other tables, counted once the round has ended (until then a table's
    result would tell the tables still playing something about their cards)."""
    if round_.ended is None:
        return
    fmt, number = league.format, round_.round
    sides = formats.seat_partners(fmt)
    absent = set(round_.started.absent) if round_.started else set()
    opened = round_.opened.tables if round_.opened else ()
    indices = {t.match_id: t.index for t in opened if t.division == division}
    results = {m: round_.results[m].lines for m in indices if m in round_.results}
    awards = duplicate.awards(results, sides)
    top = max((a.top for a in awards), default=0)
    for bye in seated.byes:
        tally = tallies.setdefault(bye, _Tally())
        tally.byes, tally.top = tally.byes + 1, tally.top + top
        tally.points += duplicate.bye_award(top)
        tally.rounds[number] = BYE
    for award in awards:
        lines = results[award.match_id]
        owners = entrants_at(formats.by_teams(fmt), seated.tables[indices[award.match_id]].seats)
        others = [o.score for o in lines if duplicate.direction(sides, o.seat) != award.direction]
        mine = [o for o in lines if duplicate.direction(sides, o.seat) == award.direction]
        for entrant in sorted({owners[line.seat] for line in mine} - {""}):
            tally = tallies.setdefault(entrant, _Tally())
            if all(m in absent for m in members(entrant) if m):
                tally.absences += 1
                tally.rounds[number] = ABSENT
                continue
            tally.points += award.matchpoints
            tally.top += award.top
            tally.played += 1
            tally.scores.append(award.score)
            tally.against += others[0] if sides and others else 0
            tally.hands_won += mine[0].hands_won
            tally.hands_played += mine[0].hands_played
            tally.rounds[number] = _show(Fraction(award.matchpoints))


def _show(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.2f}"


def _primary(fmt: formats.Format, tally: _Tally) -> Fraction:
    if fmt.average:
        return tally.points / tally.played if tally.played else Fraction(0)
    return tally.points


def _columns(
    game: str,
    fmt: formats.Format,
    tally: _Tally,
    wins: Mapping[str, Fraction],
    breaks: Sequence[str],
) -> dict[str, Fraction]:
    total = sum(tally.scores)
    values: dict[str, Fraction] = {
        "best_round": Fraction(max(tally.scores, default=0)),
        "best_session": Fraction(max(tally.scores, default=0)),
        "table_wins": Fraction(tally.wins),
        "game_points": Fraction(total),
        "session_total": Fraction(total),
        "penalty_per_hand": (
            Fraction(total, tally.hands_played) if tally.hands_played else Fraction(0)
        ),
        "hands_won": Fraction(tally.hands_won),
        "point_difference": Fraction(total - tally.against),
        "point_balance": Fraction(total - tally.against),
        "points_for": Fraction(total),
        "opponents_wins": sum((wins.get(o, Fraction(0)) for o in tally.opponents), Fraction(0)),
        "head_to_head": Fraction(0),
        "lot": Fraction(0),
        "matchpoint_percent": (
            Fraction(100) * tally.points / tally.top if tally.top else Fraction(0)
        ),
    }
    return {name: values[name] for name in breaks}


_Row = tuple[str, Fraction, dict[str, Fraction], _Tally]


def _order(
    rows: list[_Row], breaks: Sequence[str], tallies: Mapping[str, _Tally], seed: bytes
) -> list[_Row]:
    """Sort by points, then each tie-break in order; head-to-head is computed within each
    group still tied when it comes; the lot decides the rest."""

    def key(row: _Row, upto: int) -> tuple[object, ...]:
        entrant, primary, columns, _ = row
        out: list[object] = [-primary]
        for name in breaks[:upto]:
            if name == "lot":
                out.append(lot(seed, entrant))
            else:
                value = columns[name]
                out.append(value if name in LOWER_FIRST else -value)
        return tuple(out)

    if "head_to_head" in breaks:
        h2h = breaks.index("head_to_head")
        groups: dict[tuple[object, ...], list[str]] = {}
        for row in rows:
            groups.setdefault(key(row, h2h), []).append(row[0])
        for group in groups.values():
            for row in rows:
                if row[0] in group:
                    row[2]["head_to_head"] = sum(
                        (tallies[row[0]].beaten.get(o, Fraction(0)) for o in group if o != row[0]),
                        Fraction(0),
                    )
    return sorted(rows, key=lambda row: key(row, len(breaks)))


# ----- promotion and relegation -----------------------------------------------------------
def season_moves(league: LeagueState, season: SeasonState) -> tuple[Move, ...]:
    """Promotions and relegations between neighbouring divisions (top first): the last
    ``relegate`` of each division go down, the first ``promote`` of the one below go up;
    withdrawn entrants neither move nor count."""
    names = season.division_names()
    tables = {name: standings(league, season, name) for name in names}
    moves: list[Move] = []
    for upper, lower in itertools.pairwise(names):
        above = [r.entrant for r in tables[upper] if not r.withdrawn]
        below = [r.entrant for r in tables[lower] if not r.withdrawn]
        down = min(season.started.relegate, len(above) // 2)
        up = min(season.started.promote, len(below) // 2)
        moves += [Move(e, upper, lower) for e in above[len(above) - down :]]
        moves += [Move(e, lower, upper) for e in below[:up]]
    return tuple(moves)


def next_divisions(
    league: LeagueState, count: int, names: Sequence[str] | None = None
) -> list[tuple[str, list[str]]]:
    """The divisions of a new season: the last season's, with its moves applied, new
    entrants in the bottom division; the first season splits the entrants in registration
    order into ``count`` divisions (the first ones on top)."""
    active = list(league.active_entrants())
    previous = league.seasons[-1] if league.seasons else None
    if previous is None:
        labels = list(names or [str(i + 1) for i in range(count)])
        size = -(-len(active) // max(1, len(labels)))
        return [(label, active[i * size : (i + 1) * size]) for i, label in enumerate(labels)]
    moved = {m.entrant: m.to_division for m in (previous.ended.moves if previous.ended else ())}
    labels = list(previous.division_names())
    out: dict[str, list[str]] = {label: [] for label in labels}
    for entrant in active:
        where = moved.get(entrant) or previous.division_of(entrant) or labels[-1]
        out[where if where in out else labels[-1]].append(entrant)
    return list(out.items())
