"""A seat at a match, over the public API: the latest view, the live stream, and what the
player's words do. Front-ends (``terminal``: a live screen; ``lines``: pipes) only read
keys and draw ``screen()``.

The table never waits for the client: a timer may play for the seat (a notice says so,
with the reason), and a move sent against a view the table has left behind (``ABORTED``,
``command.stale``) refreshes the view and tells what changed instead of failing.
"""

from __future__ import annotations

import queue
import time
import uuid
from collections import deque
from typing import Any

import grpc
from rich.text import Text

from tavola.cli.actions import choices, resolve
from tavola.cli.client import Client
from tavola.cli.errors import code_of, reason_of, rpc_line
from tavola.cli.happenings import describe
from tavola.cli.matchbook import Kept
from tavola.cli.notation import join, parse_code, reason_params, values, with_notation
from tavola.cli.screen import Notice, Screen
from tavola.cli.stream import END, Follower, StreamLost
from tavola.cli.texts import t
from tavola.rules.errors import Reason
from tavola.rules.messages import catalogue, render
from tavola.v1 import common_pb2, events_pb2, game_pb2

KEPT_EVENTS = 60
STALE_WAIT = 1.0
IDLE_REFRESH = 5.0
BACKOFF = 1.0
URGENT = 0.15  # seconds between views when the seat may act (Doppelkopf: nearly always)


def automatic_text(reason: common_pb2.Reason, locale: str) -> Text:
    """Why a move was made for a seat: the recorded reason rendered in the CLI's locale."""
    params = reason_params(reason)
    if reason.code in catalogue():
        text = render(Reason.of(reason.code, **params), locale)
    else:
        text = reason.text or reason.code
    return with_notation(text, params)


class Session:
    """One seat's table: call ``start()``, then ``pump()`` often and ``handle()`` each line
    the player enters; ``screen()`` is what to draw."""

    def __init__(
        self,
        client: Client,
        kept: Kept,
        locale: str,
        title: str = "",
        lower_wins: bool | None = None,
        leave_note: str = "",
        min_interval: float = 0.5,
    ) -> None:
        self.client, self.kept, self.locale = client, kept, locale
        self.title, self.lower_wins, self.leave_note = title, lower_wins, leave_note
        self.view = game_pb2.GetViewResponse()
        self.events: deque[events_pb2.EventEnvelope] = deque(maxlen=KEPT_EVENTS)
        self.fresh: list[events_pb2.EventEnvelope] = []  # not yet printed (line mode)
        self.notices: list[Notice] = []
        self.hint = ""
        self.asking = ""
        self.ended = False
        self.lost: str = ""
        self.left_by: str = ""
        self._queue: queue.Queue[Any] = queue.Queue()
        self._follower: Follower | None = None
        self._last_cause: tuple[Any, ...] = ()
        self._fetched = 0.0
        self._dirty = self._urgent = False
        self.min_interval = min_interval

    # ----- the table -------------------------------------------------------------------
    def start(self) -> None:
        """The view at the current version, then the live stream from that version."""
        self.refresh()
        self._follower = Follower(
            self.client, self.kept, self.view.version, self._queue, self.locale
        )
        self._follower.start()

    def stop(self) -> None:
        if self._follower is not None:
            self._follower.stop()

    def refresh(self) -> None:
        """The view now; notices about an earlier table (hints, errors) go with it."""
        before = self.view.version
        self.view = self.client.game.GetView(
            game_pb2.GetViewRequest(
                match_id=self.kept.match_id,
                seat=self.kept.seat,
                seat_token=self.kept.seat_token,
                locale=self.locale,
            ),
            timeout=10,
        )
        self._fetched = time.monotonic()
        if self.view.version != before:
            self.notices = [n for n in self.notices if n.kind in ("auto", "changed")]
            self.hint = ""

    @property
    def finished(self) -> bool:
        return self.view.finished or self.ended

    @property
    def my_turn(self) -> bool:
        return bool(self.view.legal_actions) and not self.view.finished

    def pump(self, timeout: float = 0.0) -> bool:
        """Take what the stream brought (waiting up to ``timeout`` for the first); True
        when something changed. The view is fetched again once the table has settled."""
        changed = False
        deadline = time.monotonic() + timeout
        while True:
            wait = max(0.0, deadline - time.monotonic())
            try:
                item = (
                    self._queue.get(timeout=wait)
                    if wait and not changed
                    else self._queue.get_nowait()
                )
            except queue.Empty:
                break
            changed = True
            if item == END:
                self.ended = True
                self._dirty = self._urgent = True
            elif isinstance(item, StreamLost):
                self.lost = item.line
            else:
                self._absorb(item)
        return self._catch_up() or changed

    def _catch_up(self) -> bool:
        """Fetch the view when the table has settled — soon when the seat may act, else at
        most every ``min_interval`` s (the platform limits reads; bots are fast)."""
        since = time.monotonic() - self._fetched
        due = self._dirty and since >= (URGENT if self._urgent else self.min_interval)
        if not (due or since > IDLE_REFRESH):
            return False
        try:
            self.refresh()
        except grpc.RpcError as error:
            if code_of(error) not in (
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                grpc.StatusCode.UNAVAILABLE,
            ):
                raise
            self._fetched = time.monotonic() + BACKOFF  # try again a little later
            return False
        self._dirty = self._urgent = False
        return True

    def _absorb(self, envelope: events_pb2.EventEnvelope) -> bool:
        self.events.append(envelope)
        self.fresh.append(envelope)
        cause = envelope.cause
        key = (cause.kind, cause.seat, cause.action, cause.command_id, cause.chance_purpose)
        first_of_batch = key != self._last_cause
        self._last_cause = key
        timed_out = cause.kind == events_pb2.CAUSE_KIND_TIMEOUT and cause.seat == self.kept.seat
        if timed_out and first_of_batch:
            self._notice("auto", automatic_text(cause.automatic_reason, self.locale))
        if envelope.last_in_batch:
            self._dirty = True
            self._urgent = self._urgent or self.kept.seat in envelope.to_act
        return envelope.last_in_batch

    def _notice(self, kind: str, text: Text | str) -> None:
        shown = text if isinstance(text, Text) else Text(text)
        self.notices = [*self.notices[-2:], Notice(kind, shown)]

    def screen(self, now: float | None = None, typed: str = "", prompt: bool = True) -> Screen:
        return Screen(
            view=self.view,
            match_id=self.kept.match_id,
            seat=self.kept.seat,
            locale=self.locale,
            title=self.title,
            events=tuple(self.events),
            notices=tuple(self.notices),
            typed=typed,
            asking=self.asking,
            hint=self.hint,
            now=time.time() if now is None else now,
            prompt=prompt,
            lower_wins=self.lower_wins,
            extra={"leave": self.leave_note},
        )

    # ----- the player's words ----------------------------------------------------------
    def handle(self, typed: str) -> str:
        """Act on one line; returns ``"left"`` or ``"paused"`` when the player goes,
        else ``""``."""
        text = typed.strip()
        if self.asking == "quit":
            return self._answer_quit(text)
        if not text:
            return ""
        if text in ("q", "quit", "exit"):
            self.asking = "quit"
            return ""
        self.notices = []
        if text in ("h", "?"):
            self._hint()
        elif text.startswith("?"):
            self._explain(text[1:])
        elif text == "u":
            self._take_back()
        else:
            self._play(text)
        return ""

    def _answer_quit(self, text: str) -> str:
        self.asking = ""
        if text.lower() in ("l", "leave", "s", "sair"):
            self.leave()
            return "left"
        if text.lower() in ("p", "pause", "pausa"):
            return "paused"
        self._notice("info", t("notice.keep_playing", self.locale))
        return ""

    def _options(self) -> list[Any]:
        return choices(self.view.game, self.view.legal_actions, self.locale, values(self.view.view))

    def _play(self, text: str) -> None:
        code = resolve(text, self._options())
        if code is None:
            self._not_a_choice(text)
            return
        request = game_pb2.SubmitActionRequest(
            match_id=self.kept.match_id,
            seat=self.kept.seat,
            seat_token=self.kept.seat_token,
            command_id=str(uuid.uuid4()),
            expected_version=self.view.version,
            action=code,
            locale=self.locale,
        )
        try:
            self.client.game.SubmitAction(request, timeout=10)
        except grpc.RpcError as error:
            self._refused(error)
            return
        self.hint = ""
        self.refresh()

    def _not_a_choice(self, text: str) -> None:
        if not self.view.legal_actions:
            self._notice("error", t("notice.not_your_turn", self.locale))
            return
        item = parse_code(text)
        if item is not None or text.isdigit():
            self._notice("error", t("notice.not_playable", self.locale, typed=text))
        else:
            self._notice("error", t("notice.unknown_input", self.locale, typed=text))

    def _refused(self, error: grpc.RpcError) -> None:
        reason, _ = reason_of(error)
        if code_of(error) == grpc.StatusCode.ABORTED and reason in (
            "command.stale",
            "command.conflict",
        ):
            self._moved_on()
            return
        self._notice("error", rpc_line(error, self.locale))
        if code_of(error) == grpc.StatusCode.FAILED_PRECONDITION:
            self.refresh()

    def _moved_on(self) -> None:
        """The table went on while the player chose: show the new table and what changed."""
        before = self.view.version
        self.refresh()
        deadline = time.monotonic() + STALE_WAIT
        while self._seen() < self.view.version and time.monotonic() < deadline:
            self.pump(0.1)
        changes = [
            line
            for e in self.events
            if before < e.version <= self.view.version
            for line in [describe(e, self.view.game, self.kept.seat, self.locale)]
            if line is not None
        ]
        text = Text(t("notice.moved_on", self.locale) + " ")
        text.append_text(join(changes[-4:], "; ") if changes else Text("…"))
        self._notice("changed", text)
        if self.my_turn:
            self._notice("info", t("notice.choose_again", self.locale))

    def _seen(self) -> int:
        return self.events[-1].version if self.events else 0

    def _seat_request(self) -> dict[str, Any]:
        return {
            "match_id": self.kept.match_id,
            "seat": self.kept.seat,
            "seat_token": self.kept.seat_token,
        }

    def _hint(self) -> None:
        try:
            hint = self.client.game.GetHint(
                game_pb2.GetHintRequest(**self._seat_request(), locale=self.locale), timeout=30
            )
        except grpc.RpcError as error:
            self._notice("error", rpc_line(error, self.locale))
            return
        self.hint = hint.action.code
        options = {o.code: o for o in self._options()}
        chosen = options.get(hint.action.code)
        line = Text(t("notice.hint", self.locale) + " ")
        if chosen is not None:
            line.append(chosen.key + " ", style="bold cyan")
            line.append_text(chosen.label)
        else:
            line.append(hint.action.label)
        line.append(" — ")
        line.append_text(with_notation(hint.reason.text, reason_params(hint.reason)))
        self._notice("hint", line)

    def _explain(self, text: str) -> None:
        code = resolve(text, self._options()) or _item_code(text) or text.strip()
        try:
            why = self.client.game.ExplainAction(
                game_pb2.ExplainActionRequest(
                    **self._seat_request(), action=code, locale=self.locale
                ),
                timeout=10,
            )
        except grpc.RpcError as error:
            self._notice("error", rpc_line(error, self.locale))
            return
        if why.legal:
            self._notice("info", t("notice.legal", self.locale, action=text.strip()))
        else:
            self._notice("info", with_notation(why.reason.text, reason_params(why.reason)))

    def _take_back(self) -> None:
        try:
            back = self.client.game.TakeBack(
                game_pb2.TakeBackRequest(
                    **self._seat_request(), command_id=str(uuid.uuid4()), locale=self.locale
                ),
                timeout=10,
            )
        except grpc.RpcError as error:
            self._notice("error", rpc_line(error, self.locale))
            return
        self.refresh()
        self._notice("info", t("notice.taken_back", self.locale, version=back.restored_version))

    def leave(self) -> None:
        """Leave for good: a bot takes the seat, or the game's rules decide."""
        reply = self.client.game.LeaveMatch(
            game_pb2.LeaveMatchRequest(**self._seat_request()), timeout=10
        )
        self.left_by = reply.replaced_by


def _item_code(text: str) -> str | None:
    cleaned = text.strip().strip("[]").replace("|", "-")
    item = parse_code(cleaned)
    if item is None:
        try:
            from tavola.rules.cards import Card

            item = Card.parse(cleaned)
        except ValueError:
            return None
    return item.code
