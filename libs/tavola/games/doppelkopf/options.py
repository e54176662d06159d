"""Doppelkopf table options, presets and match lengths."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from tavola.games.doppelkopf.timers import DEFAULT_CLOCK, TIMERS
from tavola.rules.interface import OptionSpec, OptionValue
from tavola.rules.timers import TimerSettings

MATCH_LENGTHS = ("one_game", "1_round", "2_rounds", "3_rounds", "to_10", "to_20", "to_30")

OPTION_SPECS = (
    OptionSpec(
        "match",
        "choice",
        "1_round",
        "doppelkopf.option.match",
        choices=MATCH_LENGTHS,
        house_rule=False,
    ),
    OptionSpec("second_dulle", "bool", False, "doppelkopf.option.second_dulle"),
    OptionSpec("schweinchen", "bool", False, "doppelkopf.option.schweinchen"),
    OptionSpec("armut", "bool", False, "doppelkopf.option.armut"),
    OptionSpec("schmeissen", "bool", False, "doppelkopf.option.schmeissen"),
    OptionSpec("fuchs_am_end", "bool", False, "doppelkopf.option.fuchs_am_end"),
    OptionSpec("karlchen_fangen", "bool", False, "doppelkopf.option.karlchen_fangen"),
    OptionSpec("bockrunde", "bool", False, "doppelkopf.option.bockrunde"),
    OptionSpec("pflichtsolo", "bool", False, "doppelkopf.option.pflichtsolo"),
    OptionSpec("without_nines", "bool", False, "doppelkopf.option.without_nines"),
    *TIMERS.options(),
)

HOUSE_RULES = tuple(spec.name for spec in OPTION_SPECS if spec.house_rule)

PRESETS: Mapping[str, Mapping[str, OptionValue]] = {
    "official": {name: False for name in HOUSE_RULES},
    "tavern": {
        **{name: False for name in HOUSE_RULES},
        "second_dulle": True,
        "schweinchen": True,
        "schmeissen": True,
        "bockrunde": True,
        "match": "to_20",
    },
}


@dataclass(frozen=True, slots=True)
class DokoOptions:
    match: str = "1_round"
    second_dulle: bool = False
    schweinchen: bool = False
    armut: bool = False
    schmeissen: bool = False
    fuchs_am_end: bool = False
    karlchen_fangen: bool = False
    bockrunde: bool = False
    pflichtsolo: bool = False
    without_nines: bool = False
    clock: TimerSettings = DEFAULT_CLOCK

    @property
    def rounds(self) -> int:
        """Rounds in a match by rounds, else 0."""
        return int(self.match[0]) if self.match.endswith(("round", "rounds")) else 0

    @property
    def target(self) -> int:
        """Target score of a match to a target, else 0."""
        return int(self.match[3:]) if self.match.startswith("to_") else 0

    @property
    def single_game(self) -> bool:
        return self.match == "one_game"

    @property
    def hand_size(self) -> int:
        return 10 if self.without_nines else 12
