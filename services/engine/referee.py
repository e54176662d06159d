"""The referee's desk in the engine (``AuditService``): corrections, audits, imports.

A correction is a command like any other: decided against the match as its writer holds
it (``routing.py`` forwards the call to the engine holding the match's partition) and
appended to the match's own stream after its end (``match.Correction``), idempotent by
the caller's command id. Audits and imports only read the log, so any engine answers
them. An imported record is kept whole, exactly as exported (its own hashes), as the one
event of the stream ``imported-<match id>``: read-only — nothing is ever decided on it.
"""

from __future__ import annotations

import contextlib
import hashlib
from typing import Any

from google.protobuf.message import DecodeError
from google.protobuf.timestamp_pb2 import Timestamp

from services.engine.callers import Caller, command_key
from services.engine.mapping import check_id, duplicate_response, stream_of
from tavola.accounts.model import ADMIN, REFEREE, Principal
from tavola.eventlog.chain import verify_chain
from tavola.eventlog.errors import ConcurrencyConflict, DuplicateCommand
from tavola.eventlog.model import Cursor, NewEvent, StoredEvent
from tavola.match import audit as audits
from tavola.match import corrections
from tavola.match.aggregate import Batch, MatchState
from tavola.match.events import Correction, MatchCreated
from tavola.match.verify import Discrepancy, verify
from tavola.protocol import errors, records_export
from tavola.protocol import events as codec
from tavola.v1 import audit_pb2, game_pb2

IMPORTED = "import.Record"  # a whole record, as exported (the stream imported-<match id>)
IMPORT_PART = "import.Part"  # a part of a record being sent (upload-<sha256>-<parts>)
IMPORT_DONE = "import.Done"  # a record imported (importdigest-<sha256>: what it answered)
MAX_PARTS = 128
_SYSTEM = codec.Metadata(kind=codec.CAUSE_KINDS["system"]).encode()
SEED_REVEALED = "match.SeedRevealed"
_FINISHES = frozenset({SEED_REVEALED, IMPORTED})  # what ends a match's record


def imported_stream(match_id: str) -> str:
    return f"imported-{match_id}"


def correction_pb(version: int, correction: Correction) -> game_pb2.MatchCorrection:
    return game_pb2.MatchCorrection(
        version=version,
        kind=correction.kind,
        seats=list(correction.seats),
        amount=correction.amount,
        hand=correction.hand,
        reason=correction.reason,
        referee=correction.referee,
        references=correction.references,
    )


def corrections_pb(state: MatchState) -> list[game_pb2.MatchCorrection]:
    """The match's corrections with their versions (they are the stream's last events)."""
    first = state.version - len(state.corrections) + 1
    return [correction_pb(first + i, c) for i, c in enumerate(state.corrections)]


def _fingerprint(request: audit_pb2.FileCorrectionRequest) -> bytes:
    text = "|".join(
        (
            "correction",
            request.match_id,
            request.kind,
            ",".join(map(str, request.seats)),
            str(request.amount),
            str(request.hand),
            request.reason,
        )
    )
    return hashlib.sha256(text.encode()).digest()


def refused(error: corrections.CorrectionRefused, locale: str) -> errors.ServiceError:
    params = dict(error.reason.params)
    make = errors.invalid if error.invalid else errors.precondition
    return make(error.reason.code, locale, **params)


class RefereeMixin:
    """Mixed into ``Engine`` (it uses the engine's locks, memory, log and append)."""

    _ports: Any
    locks: Any

    async def _load_held(self, match_id: str) -> MatchState:  # pragma: no cover (Engine's)
        raise NotImplementedError

    async def load(self, match_id: str) -> MatchState:  # pragma: no cover (Engine's)
        raise NotImplementedError

    async def _append(self, *args: Any, **kwargs: Any) -> int:  # pragma: no cover (Engine's)
        raise NotImplementedError

    # ----- corrections ------------------------------------------------------------------
    async def file_correction(
        self, request: audit_pb2.FileCorrectionRequest, caller: Caller
    ) -> audit_pb2.FileCorrectionResponse:
        locale = request.locale or "en"
        if not isinstance(caller, Principal) or not caller.has(REFEREE, ADMIN):
            raise errors.denied("auth.scope_missing", locale, scope="referee|admin")
        check_id("match_id", request.match_id)
        from services.engine.app import check_command_id

        if request.command_id:
            check_command_id(request.command_id)
        command_id = request.command_id or f"auto-{self._ports.new_id()}"
        fingerprint = _fingerprint(request)
        key = command_key(caller, -1, f"correction/{command_id}")
        async with self.locks.hold(request.match_id):
            state = await self._load_held(request.match_id)
            stored = await self._ports.store.read_stream(stream_of(request.match_id))
            records = codec.decode_recorded(stored, state.created.game)
            try:
                correction = corrections.build(
                    state,
                    records,
                    request.kind,
                    list(request.seats),
                    request.amount,
                    request.hand,
                    request.reason,
                    caller.account_id,
                )
            except corrections.CorrectionRefused as error:
                previous = await self._ports.store.find_command(stream_of(request.match_id), key)
                if previous is not None:
                    return _duplicate(previous.result, fingerprint, command_id)
                raise refused(error, locale) from None
            response = audit_pb2.FileCorrectionResponse(
                correction=correction_pb(state.version + 1, correction)
            )
            try:
                await self._append(
                    state,
                    request.match_id,
                    state.created.game,
                    [Batch("correction", (correction,))],
                    key,
                    fingerprint + response.SerializeToString(),
                )
            except DuplicateCommand as duplicate:
                return _duplicate(duplicate.record.result, fingerprint, command_id)
            except ConcurrencyConflict:
                raise errors.aborted(
                    "command.stale", locale, expected=state.version, actual=-1
                ) from None
        return response

    async def get_match(self, request: game_pb2.GetMatchRequest) -> game_pb2.GetMatchResponse:
        """GetMatch, with the match's corrections."""
        response: game_pb2.GetMatchResponse = await super().get_match(request)  # type: ignore[misc]
        state = await self.load(request.match_id)
        response.corrections.extend(corrections_pb(state))
        return response

    # ----- audits -----------------------------------------------------------------------
    async def _finished_events(self, match_id: str, locale: str) -> tuple[list[StoredEvent], bool]:
        """A finished match's stored events (played here, or imported), and whether it
        was imported."""
        check_id("match_id", match_id)
        stored = await self._ports.store.read_stream(stream_of(match_id))
        if stored:
            if not any(s.type == SEED_REVEALED for s in stored):
                raise errors.precondition("audit.not_finished", locale, match_id=match_id)
            return stored, False
        imported = await self._ports.store.read_stream(imported_stream(match_id))
        if not imported:
            raise errors.not_found("match.not_found", locale, match_id=match_id)
        record = game_pb2.ExportMatchResponse.FromString(imported[0].payload)
        return [records_export.from_record(e) for e in record.events], True

    async def audit_match(
        self, request: audit_pb2.AuditMatchRequest, caller: Caller
    ) -> audit_pb2.AuditMatchResponse:
        locale = request.locale or "en"
        stored, imported = await self._finished_events(request.match_id, locale)
        _may_read(caller, stored, locale)
        found = audits.audit(codec.decode_recorded(stored))
        response = audit_pb2.AuditMatchResponse(
            match_id=found.match_id,
            game=found.game,
            recorded_rules_version=found.recorded_rules_version,
            current_rules_version=found.current_rules_version,
            differs=found.differs,
            imported=imported,
        )
        if found.difference is not None:
            d = found.difference
            response.difference.CopyFrom(
                audit_pb2.AuditDifference(
                    version=d.version,
                    event_type=d.event_type,
                    field=d.field,
                    recorded=d.recorded[:2000],
                    rederived=d.rederived[:2000],
                )
            )
        return response

    async def list_finished(
        self, request: audit_pb2.ListFinishedMatchesRequest, caller: Caller
    ) -> audit_pb2.ListFinishedMatchesResponse:
        """Every finished match in the log (and imported record) the caller may read."""
        since = request.since.ToDatetime().timestamp() if request.HasField("since") else None
        out: list[audit_pb2.FinishedMatch] = []
        cursor = Cursor.START
        while True:
            batch, reach = await self._ports.store.read_all_of(_FINISHES, cursor)
            for item in batch:
                if since is not None and item.recorded_at.timestamp() < since:
                    continue
                imported = item.type == IMPORTED
                if imported:
                    record = game_pb2.ExportMatchResponse.FromString(item.payload)
                    first = records_export.from_record(record.events[0])
                else:
                    first = (await self._ports.store.read_stream(item.stream_id, limit=1))[0]
                created = codec.decode_payload("", first.type, first.payload)
                if not isinstance(created, MatchCreated):
                    continue
                if request.game and created.game != request.game:
                    continue
                if not _reader(caller, created):
                    continue
                stamp = Timestamp()
                stamp.FromDatetime(item.recorded_at)
                out.append(
                    audit_pb2.FinishedMatch(
                        match_id=created.match_id,
                        game=created.game,
                        ended_at=stamp,
                        imported=imported,
                    )
                )
            if reach == cursor:
                return audit_pb2.ListFinishedMatchesResponse(matches=out)
            cursor = reach

    # ----- imports ----------------------------------------------------------------------
    async def import_record(
        self, request: audit_pb2.ImportRecordRequest, caller: Caller
    ) -> audit_pb2.ImportRecordResponse:
        """Take one part of a record; the last part verifies and keeps the whole."""
        locale = request.locale or "en"
        if not isinstance(caller, Principal) or not caller.has(REFEREE, ADMIN):
            raise errors.denied("auth.scope_missing", locale, scope="referee|admin")
        digest = request.record_sha256
        if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
            raise errors.invalid("request.invalid", locale, field="record_sha256", detail="hex")
        if not 1 <= request.parts <= MAX_PARTS or not 0 <= request.part < request.parts:
            raise errors.invalid("request.out_of_range", locale, field="part", limit=MAX_PARTS)
        if not request.chunk:
            raise errors.invalid("request.missing", locale, field="chunk")
        done = await self._ports.store.read_stream(f"importdigest-{digest}", limit=1)
        if done:  # this very record was imported before (whatever its parts)
            answer = audit_pb2.ImportRecordResponse.FromString(done[0].payload)
            answer.already = True
            answer.received = request.parts
            return answer
        upload = f"upload-{digest}-{request.parts}"
        have = await self._ports.store.stream_version(upload)
        if request.part > have:
            raise errors.precondition("import.part_missing", locale, part=have)
        if request.part == have:
            chunk = NewEvent(
                event_id=self._ports.new_id(),
                type=IMPORT_PART,
                payload=request.chunk,
                schema_version=1,
                audience=(),  # nobody's stream shows it
                metadata=_SYSTEM,
            )
            with contextlib.suppress(DuplicateCommand, ConcurrencyConflict):  # sent twice: once
                await self._ports.store.append(
                    upload, have, [chunk], command_id=f"part/{request.part}"
                )
        received = max(have, request.part + 1)
        if request.part + 1 < request.parts:
            return audit_pb2.ImportRecordResponse(received=received)
        parts = await self._ports.store.read_stream(upload)
        payload = b"".join(p.payload for p in parts[: request.parts])
        if hashlib.sha256(payload).hexdigest() != digest:
            raise errors.invalid("import.bad_record", locale, why="SHA-256 differs")
        answer = await self._import(payload, digest, locale)
        answer.received = request.parts
        return answer

    async def _import(
        self, payload: bytes, digest: str, locale: str
    ) -> audit_pb2.ImportRecordResponse:
        try:
            record = game_pb2.ExportMatchResponse.FromString(payload)
            if record.format != records_export.FORMAT or not record.events:
                raise ValueError(f"format {record.format or '?'}")
            stored = [records_export.from_record(e) for e in record.events]
            records = codec.decode_recorded(stored)
        except (DecodeError, ValueError, KeyError, TypeError, IndexError, Discrepancy) as error:
            why = str(error).splitlines()[0][:120] if str(error) else type(error).__name__
            raise errors.invalid("import.bad_record", locale, why=why) from None
        broken = verify_chain(stored)
        if broken is not None:
            raise errors.precondition(
                "import.not_verified", locale, why=f"hash chain broken at version {broken}"
            )
        try:
            verify(records)
        except Discrepancy as error:
            raise errors.precondition("import.not_verified", locale, why=str(error)[:200]) from None
        created = records[0].event
        assert isinstance(created, MatchCreated)
        match_id = created.match_id
        check_id("match_id", match_id)
        if await self._ports.store.read_stream(stream_of(match_id), limit=1):
            raise errors.precondition("import.exists_here", locale, match_id=match_id)
        answer = audit_pb2.ImportRecordResponse(
            complete=True, match_id=match_id, game=created.game, events=len(stored)
        )
        event = NewEvent(
            event_id=self._ports.new_id(),
            type=IMPORTED,
            payload=payload,
            schema_version=1,
            audience=(),  # nobody's stream shows it: audits read it
            metadata=_SYSTEM,
        )
        try:
            await self._ports.store.append(
                imported_stream(match_id), 0, [event], command_id=f"import/{digest}"
            )
        except DuplicateCommand:
            answer.already = True
        except ConcurrencyConflict:
            raise errors.precondition("import.differs", locale, match_id=match_id) from None
        index = NewEvent(  # the record's digest, so a record sent again is known at once
            event_id=self._ports.new_id(),
            type=IMPORT_DONE,
            payload=answer.SerializeToString(),
            schema_version=1,
            audience=(),
            metadata=_SYSTEM,
        )
        with contextlib.suppress(DuplicateCommand, ConcurrencyConflict):
            await self._ports.store.append(f"importdigest-{digest}", 0, [index])
        return answer


def _duplicate(result: bytes, fingerprint: bytes, command_id: str) -> Any:
    return duplicate_response(
        result,
        fingerprint,
        command_id,
        audit_pb2.FileCorrectionResponse,  # type: ignore[arg-type]
    )


def _reader(caller: Caller, created: MatchCreated) -> bool:
    """May the caller read this finished match's whole log? Whoever may export it: an
    account (the edge has checked its token may read) — a finished match's record is
    open (``ExportMatch``), a running one is never audited."""
    return isinstance(caller, Principal)


def _may_read(caller: Caller, stored: list[StoredEvent], locale: str) -> None:
    created = codec.decode_payload("", stored[0].type, stored[0].payload)
    if not isinstance(created, MatchCreated) or not _reader(caller, created):
        raise errors.denied("auth.scope_missing", locale, scope="read")


__all__ = ["RefereeMixin", "correction_pb", "corrections_pb", "imported_stream"]
