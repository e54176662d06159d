"""Who wins and the game value (DDV 7.1 and 7.2), as an itemised settlement.

``settle`` is a pure function of the completed tricks, the parties and the announcement
levels. Every line credits one party; the Re party's net value is the sum of its lines
minus the sum of Kontra's (special points are netted this way, so winners may end
negative). With no winner only items 1 (without "won"), 4 and the special points count.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tavola.games.doppelkopf.model import Party, ScoreLine, TrickRecord
from tavola.games.doppelkopf.trumps import CLUB_JACK, FOX, card_points

BELOW = {2: 90, 3: 60, 4: 30}  # a denial of level L: the opponents stay below this
REACH = {2: 120, 3: 90, 4: 60, 5: 30}  # reaching this against a denial of level L scores
BELOW_LABEL = {2: "below_90", 3: "below_60", 4: "below_30", 5: "schwarz"}
DENIAL_LABEL = {2: "no_90", 3: "no_60", 4: "no_30", 5: "schwarz"}
PARTY_LABEL = {Party.RE: "re", Party.KONTRA: "kontra"}


@dataclass(frozen=True, slots=True)
class Tally:
    points: tuple[int, int]  # card points of Re, Kontra
    tricks: tuple[int, int]  # tricks of Re, Kontra


@dataclass(frozen=True, slots=True)
class SpecialRules:
    enabled: bool = True  # False in solos (and games scored as solos)
    fuchs_am_end: bool = False
    karlchen_fangen: bool = False


@dataclass(frozen=True, slots=True)
class Settlement:
    winner: Party | None
    tally: Tally
    lines: tuple[ScoreLine, ...]
    value: int  # the Re party's net value per player (before solo factor and Bock)


def tally(tricks: Sequence[TrickRecord], re: Sequence[bool]) -> Tally:
    points, counts = [0, 0], [0, 0]
    for trick in tricks:
        side = 0 if re[trick.winner] else 1
        points[side] += card_points([p.card for p in trick.plays])
        counts[side] += 1
    return Tally((points[0], points[1]), (counts[0], counts[1]))


def opponents_below(t: Tally, party: Party, level: int) -> bool:
    """Did ``party``'s opponents stay below the limit of a denial of ``level``?"""
    if level == 5:
        return t.tricks[party.other] == 0
    return t.points[party.other] < BELOW[level]


def target_met(t: Tally, party: Party, levels: tuple[int, int]) -> bool:
    own, opposing = levels[party], levels[party.other]
    if own >= 2:
        return opponents_below(t, party, own)
    if opposing >= 2:
        return not opponents_below(t, party.other, opposing)
    only_kontra = levels[Party.RE] == 0 and levels[Party.KONTRA] >= 1
    need = 120 if (party == Party.RE) == only_kontra else 121
    return t.points[party] >= need


def winner_of(t: Tally, levels: tuple[int, int]) -> Party | None:
    for party in Party:
        if target_met(t, party, levels):
            return party
    return None


def _line(name: str, party: Party, value: int = 1) -> ScoreLine:
    return ScoreLine(f"doppelkopf.line.{name}", party, value)


def _below_lines(t: Tally, party: Party) -> list[ScoreLine]:
    return [_line(BELOW_LABEL[lv], party) for lv in range(2, 6) if opponents_below(t, party, lv)]


def _reached_lines(t: Tally, party: Party, levels: tuple[int, int]) -> list[ScoreLine]:
    return [
        _line(f"reached_{REACH[lv]}", party)
        for lv in range(2, levels[party.other] + 1)
        if t.points[party] >= REACH[lv]
    ]


def _announcement_lines(winner: Party, levels: tuple[int, int]) -> list[ScoreLine]:
    lines = []
    for party in Party:
        if levels[party] >= 1:
            lines.append(_line(f"{PARTY_LABEL[party]}_announced", winner, 2))
        lines += [
            _line(f"{PARTY_LABEL[party]}_{DENIAL_LABEL[lv]}", winner)
            for lv in range(2, levels[party] + 1)
        ]
    return lines


def special_lines(
    tricks: Sequence[TrickRecord], re: Sequence[bool], winner: Party | None, rules: SpecialRules
) -> list[ScoreLine]:
    if not rules.enabled:
        return []

    def party(seat: int) -> Party:
        return Party.RE if re[seat] else Party.KONTRA

    lines = [_line("against_the_old", Party.KONTRA)] if winner == Party.KONTRA else []
    for trick in tricks:
        taker = party(trick.winner)
        if card_points([p.card for p in trick.plays]) >= 40:
            lines.append(_line("doppelkopf", taker))
        lines += [
            _line("fox", taker) for p in trick.plays if p.card == FOX and party(p.seat) != taker
        ]
    if tricks:
        lines += _last_trick_lines(tricks[-1], party, rules)
    return lines


def _last_trick_lines(
    trick: TrickRecord, party: Callable[[int], Party], rules: SpecialRules
) -> list[ScoreLine]:
    taker = party(trick.winner)
    winning = next(p.card for p in trick.plays if p.seat == trick.winner)
    lines = []
    if winning == CLUB_JACK:
        lines.append(_line("karlchen", taker))
    if rules.fuchs_am_end and winning == FOX:
        lines.append(_line("fox_last", taker))
    if rules.karlchen_fangen:
        lines += [
            _line("karlchen_caught", taker)
            for p in trick.plays
            if p.card == CLUB_JACK and party(p.seat) != taker
        ]
    return lines


def settle(
    tricks: Sequence[TrickRecord],
    re: Sequence[bool],
    levels: tuple[int, int],
    rules: SpecialRules,
) -> Settlement:
    t = tally(tricks, re)
    winner = winner_of(t, levels)
    return value_of(t, levels, special_lines(tricks, re, winner, rules))


def value_of(t: Tally, levels: tuple[int, int], specials: Sequence[ScoreLine]) -> Settlement:
    """The settlement of a game from its tally, announcement levels and special points."""
    winner = winner_of(t, levels)
    if winner is None:
        lines = [ln for p in Party for ln in (*_below_lines(t, p), *_reached_lines(t, p, levels))]
    else:
        lines = [
            _line("won", winner),
            *_below_lines(t, winner),
            *_announcement_lines(winner, levels),
            *_reached_lines(t, winner, levels),
        ]
    lines += specials
    value = sum(ln.value if ln.party == Party.RE else -ln.value for ln in lines)
    return Settlement(winner=winner, tally=t, lines=tuple(lines), value=value)


def seat_scores(
    players: int, seats: Sequence[int], re: Sequence[bool], value: int, solo: bool
) -> tuple[int, ...]:
    """Per-seat scores: Re +value each (×3 for a lone Re), Kontra −value; others 0."""
    scores = [0] * players
    for seat in seats:
        if re[seat]:
            scores[seat] = value * (3 if solo else 1)
        else:
            scores[seat] = -value
    return tuple(scores)
