"""A match as one viewer saw it, version by version, and its rendering as readable text.

A ``Replay`` is every event of the match as the viewer received it and the viewer's view
at any version. It comes either from stored events — an exported record, or ExportMatch's
answer — projected here with the very functions that served the live game (each event
redacted by ``protocol.envelopes.to_envelope``, each view the game's ``view`` of the match
folded to that version), or from the platform itself: ``StreamEvents`` from version 0 and
``GetView`` at a version, as that seat (a referee or an admin needs no seat token once
the match has ended).

``render`` turns a replay into items to print: the header (game, options, the seats and
their bot levels), then per hand its heading, the table as the viewer saw it once the
hand was dealt (the play screen's renderers: rows, board, the viewer's hand — every
seat's hand for the full record), each event as one line (automatic moves with their
reason), and the totals after each scored hand; the standings at the end. Never a seat's
credentials or a token: those events give no line, and nothing else carries them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import grpc
from rich.text import Text

from tavola.cli import screen
from tavola.cli.client import PATIENT_RETRIES, Client, limited_wait
from tavola.cli.errors import CliError
from tavola.cli.happenings import TIMEOUT, describe, event_name
from tavola.cli.names import seat_name
from tavola.cli.notation import item_text, join, values
from tavola.cli.replay_texts import say
from tavola.cli.standings import lines as standing_lines
from tavola.cli.standings import teams_of
from tavola.cli.texts import t
from tavola.eventlog.model import StoredEvent
from tavola.match import aggregate
from tavola.match.aggregate import MatchState
from tavola.protocol import events as codec
from tavola.protocol import records_export
from tavola.protocol.envelopes import FULL, SPECTATOR, to_envelope
from tavola.protocol.records import to_record
from tavola.rules import registry
from tavola.rules.cards import Card
from tavola.rules.tiles import Tile
from tavola.v1 import events_pb2, game_pb2

STARTS = frozenset({"HandStarted", "DealStarted", "GameStarted"})  # a hand begins
SCORED = frozenset({"HandScored", "DealScored", "GameScored", "GameAbandoned"})
ENDED = "match.MatchEnded"  # its standings close the replay
ViewAt = Callable[[int, int], game_pb2.GetViewResponse]  # (version, seat) -> view


@dataclass
class Replay:
    """Every event as ``viewer`` received it (versions 1…n, no gaps) and ``view_at``: the
    view of a seat (the viewer; every seat and the spectator for the full record) just
    after a version."""

    match_id: str
    game: str
    viewer: int  # a seat, SPECTATOR or FULL
    envelopes: list[events_pb2.EventEnvelope]
    view_at: ViewAt
    players: int = 0
    created: dict[str, Any] = field(default_factory=dict)

    @property
    def last(self) -> int:
        return self.envelopes[-1].version if self.envelopes else 0


# ----- from stored events (a record, ExportMatch) ------------------------------------------
def local_view(state: MatchState, seat: int) -> game_pb2.GetViewResponse:
    """The seat's (or a spectator's) view of the match at the state's version: the game's
    ``view`` as the engine serves it (``GetView``), without the reasons for blocked items."""
    game = state.game
    viewer = None if seat < 0 else seat
    response = game_pb2.GetViewResponse(
        version=state.version,
        view=to_record(game.view(state.game_state, viewer), f"{state.created.game}.View"),
        to_act=sorted(state.to_act()),
        finished=state.ended is not None,
        standings=[
            game_pb2.SeatStanding(
                seat=s.seat,
                score=s.score,
                rank=s.rank,
                player_name=state.seat(s.seat).player_name,
                is_bot=state.seat(s.seat).is_bot,
            )
            for s in game.standings(state.game_state)
        ],
        game=state.created.game,
        away=sorted(state.away),
    )
    for deadline in state.deadlines:
        shown = response.deadlines.add(seat=deadline.seat, seconds=deadline.seconds)
        shown.deadline.FromMilliseconds(deadline.deadline_ms)
    if viewer is not None and state.ended is None:
        response.legal_actions.extend(
            game_pb2.LegalAction(code=game.encode_action(a), label=game.describe_action(a))
            for a in game.legal_actions(state.game_state, seat)
        )
    return response


def from_stored(stored: Sequence[StoredEvent], viewer: int, locale: str = "") -> Replay:
    """The replay of a record for ``viewer``: the same projection as the live game's."""
    records = codec.decode_recorded(stored)
    states: list[MatchState] = []
    state: MatchState | None = None
    for record in records:
        state = aggregate.evolve(state, record.event)
        states.append(state)
    first = states[0].created
    envelopes = [to_envelope(s, viewer, first.table_id, locale) for s in stored]

    def view_at(version: int, seat: int) -> game_pb2.GetViewResponse:
        return local_view(states[max(1, min(version, len(states))) - 1], seat)

    replay = Replay(first.match_id, first.game, viewer, envelopes, view_at, len(first.seats))
    replay.created = values(envelopes[0].payload)
    return replay


# ----- from the platform -------------------------------------------------------------------
def from_export(client: Client, match_id: str, locale: str = "") -> Replay:
    """The full record (ExportMatch: a finished match), every hand shown."""
    record = client.game.ExportMatch(game_pb2.ExportMatchRequest(match_id=match_id), timeout=60)
    stored = [records_export.from_record(e) for e in record.events]
    if not stored:
        raise CliError(t("error.no_match", locale or "en", match=match_id))
    return from_stored(stored, FULL, locale)


def from_api(
    client: Client, match_id: str, seat: int, seat_token: str = "", locale: str = "en"
) -> Replay:
    """The match as ``seat`` (or a spectator: -1) received it: ``StreamEvents`` from version
    0 up to the version ``GetView`` answers now, and ``GetView`` at any version."""
    head = client.game.GetView(
        game_pb2.GetViewRequest(match_id=match_id, seat=seat, seat_token=seat_token, locale=locale),
        timeout=30,
    )
    envelopes: list[events_pb2.EventEnvelope] = []
    for attempt in range(PATIENT_RETRIES + 1):
        stream = client.game.StreamEvents(
            game_pb2.StreamEventsRequest(
                match_id=match_id,
                seat=seat,
                seat_token=seat_token,
                after_version=envelopes[-1].version if envelopes else 0,
                until_end=head.finished,
                locale=locale,
            ),
            timeout=300,
        )
        try:
            for item in stream:
                if item.HasField("event"):
                    envelopes.append(item.event)
                    if item.event.version >= head.version:
                        break
            break
        except grpc.RpcError as error:
            # a rate limit (a replay comes right after the views a person paged through)
            # is waited out as the unary calls' is, and the stream resumes where it was
            wait = limited_wait(error)
            if wait is None or attempt == PATIENT_RETRIES:
                raise
            time.sleep(wait)
        finally:
            stream.cancel()
    views: dict[int, game_pb2.GetViewResponse] = {head.version: head}

    def view_at(version: int, _seat: int) -> game_pb2.GetViewResponse:
        version = max(1, min(version, head.version))
        if version not in views:
            views[version] = client.game.GetView(
                game_pb2.GetViewRequest(
                    match_id=match_id,
                    seat=seat,
                    seat_token=seat_token,
                    at_version=version,
                    locale=locale,
                ),
                timeout=30,
            )
        return views[version]

    replay = Replay(match_id, head.game, seat, envelopes, view_at, len(head.standings))
    if envelopes:
        replay.created = values(envelopes[0].payload)
    return replay


# ----- rendering ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Item:
    """Lines to print; ``move`` marks an event a step-by-step replay pauses after;
    ``version``: the event's (0 for anything else) — ``snapshot``: the table's, if it is one."""

    lines: list[Text]
    move: bool = False
    version: int = 0
    snapshot: int = 0


def hands_of(replay: Replay) -> list[int]:
    """The hand each version belongs to (index version - 1): 0 before the first deal, then
    1, 2, … — a hand begins with the game's first event of a deal."""
    out, hand = [], 0
    for envelope in replay.envelopes:
        if not envelope.hidden and event_name(envelope) in STARTS:
            hand += 1
        out.append(hand)
    return out


def render(
    replay: Replay,
    *,
    hand: int | None = None,
    from_version: int = 0,
    locale: str = "en",
    width: int = 80,
) -> Iterator[Item]:
    """The replay as items to print (see the module's docstring)."""
    hands = hands_of(replay)
    count = max(hands, default=0)
    if hand is not None and not 1 <= hand <= count:
        raise CliError(say("error.no_hand", locale, hand=hand, hands=count), 2)
    if not 0 <= from_version <= replay.last:
        raise CliError(say("error.no_version", locale, last=replay.last), 2)
    yield Item(header(replay, locale))
    me = replay.viewer
    if from_version:
        yield Item(snapshot(replay, from_version, locale, width), snapshot=from_version)
    pending = False
    shown_last = False
    for envelope, in_hand in zip(replay.envelopes, hands, strict=True):
        version = envelope.version
        if version <= from_version or (hand is not None and in_hand != hand):
            continue
        shown_last = version == replay.last
        name = event_name(envelope)
        if not envelope.hidden and name in STARTS:
            heading = Text(f"── {say('hand', locale, hand=in_hand)} ", style="bold")
            heading.append("─" * max(0, width - heading.cell_len))
            yield Item([Text(), heading])
            pending = True
        line = None if envelope.type == ENDED else describe(envelope, replay.game, me, locale)
        if line is not None:
            yield Item(event_lines(envelope, line, locale), is_move(envelope), version)
        if pending and envelope.last_in_batch and envelope.to_act:
            pending = False  # the hand is dealt and someone is to act: the table
            yield Item(snapshot(replay, version, locale, width), snapshot=version)
        if name in SCORED and not envelope.hidden:
            yield Item([totals(replay, version, in_hand, locale)])
    if shown_last:
        yield Item([Text(), *final(replay, locale)])


def header(replay: Replay, locale: str) -> list[Text]:
    created = replay.created
    options = ", ".join(
        f"{o.get('name')}={_plain(o.get('value'))}" for o in created.get("options") or []
    )
    out = [
        Text(
            t(
                "replay.header",
                locale,
                match=replay.match_id,
                game=replay.game,
                seats=replay.players,
                options=options or t("none", locale),
            ),
            style="bold",
        )
    ]
    if replay.viewer == FULL:
        out.append(Text(say("as.full", locale), style="dim"))
    elif replay.viewer == SPECTATOR:
        out.append(Text(say("as.spectator", locale), style="dim"))
    else:
        out.append(Text(say("as.seat", locale, seat=replay.viewer), style="dim"))
    for seat in created.get("seats") or []:
        number = int(seat.get("seat", 0))
        who = t("seat.n", locale, n=number)
        name = str(seat.get("player_name", ""))
        level = str(seat.get("bot_level") or "")
        if level and f"({level})" in name:  # the platform's bots are named with their level
            key = "seat.client_bot"
        elif level:
            key = "seat.bot"
        elif seat.get("is_bot"):
            key = "seat.client_bot"
        else:
            key = "seat.person"
        out.append(Text("  " + say(key, locale, seat=who, name=name, level=level)))
    return out


def _plain(value: Any) -> str:
    if isinstance(value, dict):  # an OptionValue record: its one set field
        return next((str(v) for v in value.values() if v not in (None, "")), "")
    return str(value)


def is_move(envelope: events_pb2.EventEnvelope) -> bool:
    return envelope.cause.kind in (events_pb2.CAUSE_KIND_ACTION, TIMEOUT)


def event_lines(envelope: events_pb2.EventEnvelope, line: Text, locale: str) -> list[Text]:
    out = Text(f"{envelope.version:>5}  ", style="dim")
    out.append_text(line)
    lines = [out]
    reason = envelope.cause.automatic_reason
    if envelope.cause.kind == TIMEOUT and (reason.text or reason.code):
        lines.append(
            Text("       " + say("automatic_why", locale, reason=reason.text or reason.code))
        )
    return lines


def _quiet(view: game_pb2.GetViewResponse) -> game_pb2.GetViewResponse:
    """A view to draw in a replay: no choices, no reasons, no countdowns (it is the past)."""
    shown = game_pb2.GetViewResponse()
    shown.CopyFrom(view)
    shown.ClearField("legal_actions")
    shown.ClearField("blocked")
    shown.ClearField("deadlines")
    return shown


def snapshot(replay: Replay, version: int, locale: str, width: int) -> list[Text]:
    """The table as the viewer saw it just after ``version`` (the play screen's drawing);
    for the full record, every seat's hand under the spectator's table."""
    seat = SPECTATOR if replay.viewer == FULL else replay.viewer
    view = _quiet(replay.view_at(version, seat))
    drawn = screen.Screen(view, replay.match_id, seat, locale, title=replay.game, prompt=False)
    out = [Text(say("table_at", locale, version=version), style="dim")]
    out += screen.lines(drawn, width, height=500)
    if replay.viewer == FULL:
        for other in range(replay.players):
            out.append(holding(other, replay.view_at(version, other), locale))
    return out


def holding(seat: int, view: game_pb2.GetViewResponse, locale: str) -> Text:
    found = values(view.view).get("hand")
    items = [i for i in found if isinstance(i, Card | Tile)] if isinstance(found, list) else []
    who = seat_name(seat, FULL, locale)
    if not items:
        return Text("  " + say("holding.none", locale, seat=who))
    out = Text("  " + say("holding", locale, seat=who) + "  ")
    out.append_text(join([item_text(i) for i in items], " "))
    return out


def totals(replay: Replay, version: int, hand: int, locale: str) -> Text:
    seat = SPECTATOR if replay.viewer == FULL else replay.viewer
    view = replay.view_at(version, seat)
    scores = "  ".join(
        f"{seat_name(s.seat, replay.viewer, locale)} {s.score}"
        for s in sorted(view.standings, key=lambda s: s.seat)
    )
    return Text("       " + say("totals", locale, hand=hand, scores=scores), style="bold")


def final(replay: Replay, locale: str) -> list[Text]:
    seat = SPECTATOR if replay.viewer == FULL else replay.viewer
    view = replay.view_at(replay.last, seat)
    teams = teams_of(replay.game, view.view, replay.players)
    known = replay.game in registry.names()
    lower = registry.get(replay.game).info.lower_score_wins if known else False
    return [
        Text(line) for line in standing_lines(view.standings, teams, lower, locale, view.finished)
    ]
