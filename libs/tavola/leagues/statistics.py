"""Per-seat statistics of one finished match, from every event of its stream (pure).

Counters are whole numbers under stable keys, summed over matches by the projection:

- every game: ``hands`` (hands played);
- Barbu: ``contract.<code>.chosen`` and ``contract.<code>.score`` (the declarer's
  adjusted score in the deals it chose that contract);
- Spades: ``bids``, ``bids.made``, ``bids.failed`` (the partnership's contract), ``nils``,
  ``nils.made``, ``nils.failed``, ``bags`` (the partnership's, each hand);
- Doppelkopf: ``solos``, ``solos.won``, ``announcements``, ``announcements.won``;
- dominoes: ``won.domino``, ``won.block`` (hands the seat's side won so), ``went_out``;
- Fan Tan: ``cards_left`` (at the end of hands), ``blocked`` (times it had to pass:
  blocked), ``hands_won``.

Like the league's result (``results.summarise``), this is where a referee's correction
would be folded, and the projection replaces a match's rows with the new ones.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tavola.games.barbu import events as barbu
from tavola.games.dominoes import events as dominoes
from tavola.games.doppelkopf import events as doppelkopf
from tavola.games.doppelkopf.model import Party
from tavola.games.fantan import events as fantan
from tavola.games.spades import events as spades
from tavola.leagues.results import hands
from tavola.match.events import MatchCreated
from tavola.rules.interface import Event

Counters = dict[str, int]


def match_statistics(created: MatchCreated, events: Sequence[Event]) -> list[Counters]:
    seats = len(created.seats)
    out: list[Counters] = [{} for _ in range(seats)]
    played, _ = hands(created.game, seats, events)
    for counters in out:
        counters["hands"] = played
    collect = _BY_GAME.get(created.game)
    if collect is not None:
        collect(events, out)
    return out


def _add(out: list[Counters], seat: int, key: str, amount: int = 1) -> None:
    if 0 <= seat < len(out):
        out[seat][key] = out[seat].get(key, 0) + amount


def _barbu(events: Sequence[Event], out: list[Counters]) -> None:
    declarer = -1
    for event in events:
        if isinstance(event, barbu.ContractChosen):
            declarer = event.declarer
            _add(out, declarer, f"contract.{event.contract.code}.chosen")
        elif isinstance(event, barbu.DealScored) and declarer >= 0:
            _add(out, declarer, f"contract.{event.contract.code}.score", event.adjusted[declarer])


def _spades(events: Sequence[Event], out: list[Counters]) -> None:
    bids: dict[int, int] = {}
    for event in events:
        if isinstance(event, spades.HandStarted):
            bids = {}
        elif isinstance(event, spades.BidMade):
            bids[event.seat] = event.tricks
        elif isinstance(event, spades.HandScored):
            for team in event.teams:
                for seat in (team.team, team.team + 2):
                    _add(out, seat, "bags", team.bags_won)
                    if bids.get(seat, 0) > 0:
                        _add(out, seat, "bids")
                        _add(out, seat, "bids.made" if team.made else "bids.failed")
                for nil in team.nils:
                    _add(out, nil.seat, "nils")
                    _add(out, nil.seat, "nils.made" if nil.made else "nils.failed")


def _doppelkopf(events: Sequence[Event], out: list[Counters]) -> None:
    solo: int | None = None
    announced: list[tuple[int, Party]] = []
    for event in events:
        if isinstance(
            event, doppelkopf.GameStarted | doppelkopf.GameAbandoned | doppelkopf.DealCancelled
        ):
            solo, announced = None, []
        elif isinstance(event, doppelkopf.ContractChosen):
            if event.contract.is_solo and event.declarer is not None:
                solo = event.declarer
                _add(out, solo, "solos")
        elif isinstance(event, doppelkopf.Announced):
            announced.append((event.seat, event.party))
            _add(out, event.seat, "announcements")
        elif isinstance(event, doppelkopf.GameScored):
            winner = event.winner
            if solo is not None and winner == Party.RE and solo in event.re_seats:
                _add(out, solo, "solos.won")
            for seat, party in announced:
                if winner is not None and winner == party:
                    _add(out, seat, "announcements.won")
            solo, announced = None, []


def _dominoes(events: Sequence[Event], out: list[Counters]) -> None:
    for event in events:
        if isinstance(event, dominoes.PlayerWentOut):
            _add(out, event.seat, "went_out")
        elif isinstance(event, dominoes.HandScored) and event.winner_side is not None:
            key = "won.domino" if event.ending == dominoes.Ending.DOMINO else "won.block"
            for seat in range(len(out)):
                if seat % 2 == event.winner_side:
                    _add(out, seat, key)


def _fantan(events: Sequence[Event], out: list[Counters]) -> None:
    for event in events:
        if isinstance(event, fantan.Passed):
            _add(out, event.seat, "blocked")
        elif isinstance(event, fantan.HandWon):
            _add(out, event.seat, "hands_won")
        elif isinstance(event, fantan.HandScored):
            for seat, left in enumerate(event.cards_left):
                _add(out, seat, "cards_left", left)


_BY_GAME: dict[str, Callable[[Sequence[Event], list[Counters]], None]] = {
    "barbu": _barbu,
    "spades": _spades,
    "doppelkopf": _doppelkopf,
    "dominoes": _dominoes,
    "fan-tan": _fantan,
}
