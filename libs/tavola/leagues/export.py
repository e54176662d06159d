"""A season's final table as CSV and JSON (what ``ExportSeason`` and ``tavola league
export`` write): one row per entrant and division, the published columns in order."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tavola.leagues.formats import COLUMN_TITLES


@dataclass(frozen=True, slots=True)
class ExportRow:
    division: str
    rank: int
    entrant: str
    name: str
    points: float
    columns: tuple[tuple[str, float], ...]
    played: int
    byes: int
    absences: int
    withdrawn: bool
    rounds: tuple[str, ...]
    move: str  # "up", "down" or ""


def number(value: Fraction | float) -> float:
    return round(float(value), 6)


def to_json(league: dict[str, Any], rows: Sequence[ExportRow]) -> str:
    body = {
        **league,
        "rows": [
            {
                "division": r.division,
                "rank": r.rank,
                "entrant": r.entrant,
                "name": r.name,
                "points": r.points,
                **{name: value for name, value in r.columns},
                "played": r.played,
                "byes": r.byes,
                "absences": r.absences,
                "withdrawn": r.withdrawn,
                "rounds": list(r.rounds),
                "move": r.move,
            }
            for r in rows
        ],
    }
    return json.dumps(body, indent=2, sort_keys=False) + "\n"


def to_csv(rows: Sequence[ExportRow]) -> str:
    out = io.StringIO()
    columns = [name for name, _ in rows[0].columns] if rows else []
    rounds = len(rows[0].rounds) if rows else 0
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        [
            "division",
            "rank",
            "name",
            "points",
            *(COLUMN_TITLES.get(c, c) for c in columns),
            "played",
            "byes",
            "absences",
            "withdrawn",
            *(f"round {i + 1}" for i in range(rounds)),
            "move",
            "entrant",
        ]
    )
    for r in rows:
        writer.writerow(
            [
                r.division,
                r.rank,
                r.name,
                r.points,
                *(value for _, value in r.columns),
                r.played,
                r.byes,
                r.absences,
                "yes" if r.withdrawn else "",
                *r.rounds,
                r.move,
                r.entrant,
            ]
        )
    return out.getvalue()
