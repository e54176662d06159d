"""Every NATS subject, stream and consumer name of the platform, in one place.

Names live under a namespace (``TAVOLA_NAMESPACE``, default ``tavola``) so that several
platforms — a developer's, CI's test runs — can share one NATS server without meeting.

Committed events travel on ``<ns>.events.<category>.<id>.<type>`` (``type`` is the event's
qualified type, e.g. ``fan-tan.CardPlayed`` — two tokens), redacted as a spectator sees
them: no hidden payload ever crosses the bus. Requests to the engine arrive on a subject
per calling service (``<ns>.rpc.engine.<caller>.<Method>``, or ``...<caller>.p<N>.<Method>``
to reach the engine holding partition N directly), so the caller is known from the NATS
user allowed to publish there; each service reads replies on its own inbox prefix
(``_INBOX_<service>``), which no other user may subscribe to. Engines forward public calls
to a partition's writer on ``<ns>.rpc.engine.shard.p<N>.<Method>`` (only the engine's user
may publish there). A bot seat's events, redacted for it, are pushed on
``<ns>.bots.seat.<match>.<seat>`` (only the bot service's user may read them), its turn
on ``<ns>.bots.act.<match>.<seat>``; a bot service instance that (re)connects says so on
``<ns>.bots.hello``, and every engine tells it again the turns that wait.
"""

from __future__ import annotations

from dataclasses import dataclass

DUPLICATE_WINDOW_SECONDS = 600.0
ENGINE_QUEUE = "engine"
LOBBY_QUEUE = "lobby"
SCORING_QUEUE = "scoring"
BOTS_GROUP = "bots"  # queue group of the bot service (its turns)
LEGACY_BOTS_CONSUMER = "bots"  # the bot service's durable consumer until 2026-12 (removed)
SCORING_GROUP = "scoring-ended"  # durable consumer and queue group of the scoring service
LOBBY_GROUP = "lobby-ended"  # durable consumer and queue group of the lobby (tables end)
LOBBY_CORRECTIONS_GROUP = "lobby-corrections"  # the lobby's, for league results corrected
SERVICES = ("engine", "lobby", "scoring", "bots")
CALLERS_OF_ENGINE = ("lobby", "bots")


def inbox_prefix(service: str) -> str:
    """Where a service's request replies arrive (only its NATS user may read them)."""
    return f"_INBOX_{service}"


@dataclass(frozen=True, slots=True)
class Subjects:
    namespace: str = "tavola"

    def __post_init__(self) -> None:
        if not self.namespace.replace("_", "").replace("-", "").isalnum():
            raise ValueError(f"unsuitable NATS namespace {self.namespace!r}")

    @property
    def events_stream(self) -> str:
        """The JetStream stream carrying every committed event."""
        return f"{self.namespace.upper().replace('-', '_')}_EVENTS"

    @property
    def events_prefix(self) -> str:
        return f"{self.namespace}.events"

    @property
    def events_all(self) -> str:
        return f"{self.events_prefix}.>"

    @property
    def match_events_all(self) -> str:
        return f"{self.events_prefix}.match.>"

    @property
    def matches_ended(self) -> str:
        """Every match's ``match.MatchEnded`` (and nothing else)."""
        return f"{self.events_prefix}.match.*.match.MatchEnded"

    @property
    def match_corrections(self) -> str:
        """Every match's ``match.Correction`` (a referee's, after the end)."""
        return f"{self.events_prefix}.match.*.match.Correction"

    @property
    def account_events_all(self) -> str:
        return f"{self.events_prefix}.account.>"

    def engine_rpc(self, caller: str, partition: int | None = None) -> str:
        """Requests to the engine from ``caller`` (one of ``CALLERS_OF_ENGINE``); with a
        ``partition``, to the engine holding it (no one answers while no engine does)."""
        if caller not in CALLERS_OF_ENGINE:
            raise ValueError(f"no engine calls from {caller!r}")
        base = f"{self.namespace}.rpc.engine.{caller}"
        return base if partition is None else f"{base}.p{partition}"

    def engine_shard(self, partition: int) -> str:
        """Public calls one engine forwards to the writer of ``partition`` (engines only)."""
        return f"{self.namespace}.rpc.engine.shard.p{partition}"

    def bot_seat(self, match_id: str, seat: int) -> str:
        """A bot seat's own events and view, pushed by the engine to the bot service."""
        _check_token(match_id)
        return f"{self.namespace}.bots.seat.{match_id}.{seat}"

    @property
    def bot_seats_all(self) -> str:
        return f"{self.namespace}.bots.seat.>"

    def bot_turn(self, match_id: str, seat: int) -> str:
        """A bot seat to act now (``BotTurn``), read by one bot service instance."""
        _check_token(match_id)
        return f"{self.namespace}.bots.act.{match_id}.{seat}"

    @property
    def bot_turns_all(self) -> str:
        return f"{self.namespace}.bots.act.>"

    @property
    def bots_hello(self) -> str:
        """A bot service instance (re)connected: engines tell it every turn that waits."""
        return f"{self.namespace}.bots.hello"

    @property
    def lobby_rpc(self) -> str:
        return f"{self.namespace}.rpc.lobby"

    @property
    def account_rpc(self) -> str:
        """AccountService, answered by the lobby."""
        return f"{self.namespace}.rpc.account"

    @property
    def scoring_rpc(self) -> str:
        return f"{self.namespace}.rpc.scoring"

    @property
    def league_rpc(self) -> str:
        """LeagueService's management calls, answered by the lobby."""
        return f"{self.namespace}.rpc.league"

    @property
    def league_scoring_rpc(self) -> str:
        """LeagueService's standings, exports, statistics and histories, answered by the
        scoring service (under its own subjects: only the engine may publish there)."""
        return f"{self.scoring_rpc}.league"

    def stream_subjects(self, stream_id: str) -> str:
        """Every event of one stream: ``match-<id>`` -> ``<ns>.events.match.<id>.>``."""
        return f"{self._stream_base(stream_id)}.>"

    def event_subject(self, stream_id: str, event_type: str) -> str:
        """``(match-<id>, fan-tan.CardPlayed)`` -> ``<ns>.events.match.<id>.fan-tan.CardPlayed``."""
        if not event_type or any(c in event_type for c in " *>\t\r\n"):
            raise ValueError(f"unsuitable event type {event_type!r}")
        return f"{self._stream_base(stream_id)}.{event_type}"

    def _stream_base(self, stream_id: str) -> str:
        category, _, ident = stream_id.partition("-")
        if not ident or "." in ident or any(c in ident for c in " *>"):
            raise ValueError(f"unsuitable stream id {stream_id!r}")
        return f"{self.events_prefix}.{category}.{ident}"


def _check_token(match_id: str) -> None:
    """A match id fit to be one token of a subject."""
    if not match_id or any(c in match_id for c in " .*>"):
        raise ValueError(f"unsuitable match id {match_id!r}")
