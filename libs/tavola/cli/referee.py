"""The referee's commands, over the public API (``AuditService``) with the user's token:

- ``tavola correct MATCH (--void-game | --void-hand H | --adjust SEAT=AMOUNT…) --reason TEXT``
  files a correction of a finished match (a ``referee`` or ``admin`` token);
- ``tavola audit [--game G] [--since DATE]`` re-runs every finished match the caller may
  read through the rules the platform runs now, with a progress bar, and reports those
  whose events or results would differ, each with its first difference (nothing on a
  clean log; exit code 1 when some differ);
- ``tavola import record.json`` sends a record exported elsewhere (``tavola export``) to be
  verified and kept, read-only and marked imported, so this platform can audit it.

``tavola verify`` also lists a match's corrections, apart from its play (``verify``).
"""

from __future__ import annotations

import argparse
import hashlib
import pathlib
import uuid
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from google.protobuf import json_format

from tavola.cli.client import Client
from tavola.cli.errors import CliError
from tavola.cli.progress import Bars
from tavola.cli.texts import LOCALES, pick
from tavola.eventlog.model import StoredEvent
from tavola.match.events import Correction
from tavola.protocol import events as codec
from tavola.v1 import audit_pb2, audit_pb2_grpc, game_pb2

PART = 48 * 1024  # the largest part of a record one ImportRecord call carries

TEXTS: dict[str, tuple[str, str]] = {
    "help.correct": (
        "file a referee's correction of a finished match (void it, void a hand, adjust scores)",
        "registrar uma correção do árbitro numa partida terminada (anular, anular uma mão,"
        " ajustar pontos)",
    ),
    "help.audit": (
        "re-run every finished match through the current rules; report those that would differ",
        "rodar de novo cada partida terminada pelas regras atuais; mostrar as que mudariam",
    ),
    "help.import": (
        "verify a match record exported elsewhere and keep it here (read-only, imported)",
        "verificar um registro de partida exportado em outro lugar e guardá-lo aqui"
        " (somente leitura, importado)",
    ),
    "correct.done": (
        "Correction {kind} filed on {match_id} (version {version}, corrects version {references}).",
        "Correção {kind} registrada em {match_id} (versão {version}, corrige a versão"
        " {references}).",
    ),
    "correct.again": (
        "This correction was already filed (version {version}); nothing new was recorded.",
        "Esta correção já tinha sido registrada (versão {version}); nada novo foi gravado.",
    ),
    "correct.bad_adjust": (
        "--adjust takes SEAT=AMOUNT (e.g. 2=-10), got {value!r}",
        "--adjust recebe LUGAR=PONTOS (p. ex. 2=-10), veio {value!r}",
    ),
    "correct.mixed_amounts": (
        "every --adjust of one correction adds the same amount; file one correction per amount",
        "todo --adjust de uma correção soma o mesmo valor; registre uma correção por valor",
    ),
    "correct.one_kind": (
        "say what to correct: --void-game, --void-hand H or --adjust SEAT=AMOUNT",
        "diga o que corrigir: --void-game, --void-hand H ou --adjust LUGAR=PONTOS",
    ),
    "audit.matches": ("matches re-run", "partidas rodadas de novo"),
    "audit.clean": (
        "{n} finished matches re-run: the current rules record every one as it was recorded.",
        "{n} partidas terminadas rodadas de novo: as regras atuais registram todas como foram"
        " registradas.",
    ),
    "audit.differ": (
        "{n} of {total} finished matches would differ under the current rules:",
        "{n} de {total} partidas terminadas mudariam com as regras atuais:",
    ),
    "audit.line": (
        "{match_id} ({game}, rules v{played} → v{now}{imported}): version {version}"
        " {event_type}{field}: recorded {recorded}, now {rederived}",
        "{match_id} ({game}, regras v{played} → v{now}{imported}): versão {version}"
        " {event_type}{field}: registrado {recorded}, agora {rederived}",
    ),
    "audit.imported": (", imported", ", importada"),
    "audit.bad_date": (
        "--since takes a date (YYYY-MM-DD) or a time (YYYY-MM-DDTHH:MM), got {value!r}",
        "--since recebe uma data (AAAA-MM-DD) ou um horário (AAAA-MM-DDTHH:MM), veio {value!r}",
    ),
    "import.done": (
        "Imported {match_id} ({game}, {events} events): verified, kept read-only.",
        "Importada {match_id} ({game}, {events} eventos): verificada, guardada somente para"
        " leitura.",
    ),
    "import.again": (
        "{match_id} ({game}) was imported before: nothing new was kept.",
        "{match_id} ({game}) já tinha sido importada: nada novo foi guardado.",
    ),
    "import.parts": ("record parts sent", "partes do registro enviadas"),
    "verify.corrections": (
        "Corrections (a referee's, after the end; not play), each checked against the event"
        " it references:",
        "Correções (do árbitro, depois do fim; não são jogadas), cada uma conferida com o"
        " evento a que se refere:",
    ),
    "verify.correction": (
        "  version {version}: {kind}{detail} — corrects version {references} — by {referee}:"
        " {reason}",
        "  versão {version}: {kind}{detail} — corrige a versão {references} — por {referee}:"
        " {reason}",
    ),
}

# European Portuguese, only where the Brazilian text above would read wrongly in Portugal
TEXTS_PT_PT: dict[str, str] = {
    "help.correct": (
        "registar uma correção do árbitro numa partida terminada (anular, anular uma mão,"
        " ajustar pontos)"
    ),
    "help.audit": (
        "reexecutar cada partida terminada com as regras atuais; mostrar as que mudariam"
    ),
    "help.import": (
        "verificar um registo de partida exportado noutro lado e guardá-lo aqui"
        " (só de leitura, importado)"
    ),
    "correct.done": (
        "Correção {kind} registada em {match_id} (versão {version}, corrige a versão {references})."
    ),
    "correct.again": (
        "Esta correção já tinha sido registada (versão {version}); nada de novo foi gravado."
    ),
    "correct.mixed_amounts": (
        "cada --adjust de uma correção soma o mesmo valor; regista uma correção por valor"
    ),
    "correct.one_kind": "diz o que corrigir: --void-game, --void-hand H ou --adjust LUGAR=PONTOS",
    "audit.matches": "partidas reexecutadas",
    "audit.clean": (
        "{n} partidas terminadas reexecutadas: as regras atuais registam todas tal como foram"
        " registadas."
    ),
    "audit.line": (
        "{match_id} ({game}, regras v{played} → v{now}{imported}): versão {version}"
        " {event_type}{field}: registado {recorded}, agora {rederived}"
    ),
    "audit.bad_date": (
        "--since recebe uma data (AAAA-MM-DD) ou uma hora (AAAA-MM-DDTHH:MM), veio {value!r}"
    ),
    "import.done": (
        "Importada {match_id} ({game}, {events} eventos): verificada, guardada só para leitura."
    ),
    "import.parts": "partes do registo enviadas",
}


def text(key: str, locale: str = "en", /, **params: object) -> str:
    return pick(key, TEXTS[key], TEXTS_PT_PT, locale).format(**params)


def register(sub: Any) -> None:
    """Add ``correct``, ``audit`` and ``import`` to the ``tavola`` parser's subcommands."""
    locale = "en"
    correct = sub.add_parser("correct", help=text("help.correct", locale))
    correct.add_argument("match_id")
    kinds = correct.add_mutually_exclusive_group()
    kinds.add_argument("--void-game", action="store_true", help="the match counts for nothing")
    kinds.add_argument("--void-hand", type=int, default=0, metavar="H", help="hand H, from 1")
    kinds.add_argument(
        "--adjust", action="append", default=[], metavar="SEAT=AMOUNT", help="add AMOUNT"
    )
    correct.add_argument("--reason", required=True, help="why (1 to 500 characters)")
    correct.add_argument("--command-id", default="", help="a retry with it files nothing new")
    _common(correct)
    audit = sub.add_parser("audit", help=text("help.audit", locale))
    audit.add_argument("--game", default="", help="only this game")
    audit.add_argument("--since", default="", metavar="DATE", help="only matches ended since")
    _common(audit)
    record = sub.add_parser("import", help=text("help.import", locale))
    record.add_argument("path", metavar="record.json")
    _common(record)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--address", default=None, help="platform address (host:port)")
    parser.add_argument("--token", default=None, help="API token (default: yours from tavola up)")
    parser.add_argument(
        "--locale", default=argparse.SUPPRESS, choices=LOCALES, help="en or pt (pt-BR, pt-PT)"
    )


def run(args: argparse.Namespace) -> int:
    locale = getattr(args, "locale", None) or "en"
    client = Client.connect(args.address, args.token)
    stub = audit_pb2_grpc.AuditServiceStub(client.channel)
    try:
        if args.command == "correct":
            return correct(stub, correction_request(args, locale), locale)
        if args.command == "audit":
            return audit(stub, args.game, since(args.since, locale), locale)
        return import_record(stub, args.path, locale)
    finally:
        client.close()


# ----- correct ----------------------------------------------------------------------------
def correction_request(args: argparse.Namespace, locale: str) -> audit_pb2.FileCorrectionRequest:
    request = audit_pb2.FileCorrectionRequest(
        match_id=args.match_id,
        reason=args.reason,
        command_id=args.command_id or f"cli-{uuid.uuid4()}",
        locale=locale,
    )
    if args.void_game:
        request.kind = "void_game"
    elif args.void_hand:
        request.kind = "void_hand"
        request.hand = args.void_hand
    elif args.adjust:
        seats, amounts = [], set()
        for item in args.adjust:
            seat, _, amount = item.partition("=")
            try:
                seats.append(int(seat))
                amounts.add(int(amount))
            except ValueError:
                raise CliError(text("correct.bad_adjust", locale, value=item), 2) from None
        if len(amounts) != 1:
            raise CliError(text("correct.mixed_amounts", locale), 2)
        request.kind = "adjust_score"
        request.seats.extend(seats)
        request.amount = amounts.pop()
    else:
        raise CliError(text("correct.one_kind", locale), 2)
    return request


def correct(stub: Any, request: audit_pb2.FileCorrectionRequest, locale: str = "en") -> int:
    answer = stub.FileCorrection(request)
    c = answer.correction
    if answer.duplicate:
        print(text("correct.again", locale, version=c.version))
        return 0
    print(
        text(
            "correct.done",
            locale,
            kind=c.kind,
            match_id=request.match_id,
            version=c.version,
            references=c.references,
        )
    )
    return 0


# ----- audit ------------------------------------------------------------------------------
def since(value: str, locale: str = "en") -> datetime | None:
    if not value:
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise CliError(text("audit.bad_date", locale, value=value), 2) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def audit_all(
    stub: Any,
    game: str = "",
    after: datetime | None = None,
    progress: Callable[[int, int], None] | None = None,
    locale: str = "en",
) -> tuple[int, list[audit_pb2.AuditMatchResponse]]:
    """Re-run every finished match the caller may read: (matches re-run, those that
    would differ). The library function behind ``tavola audit``."""
    request = audit_pb2.ListFinishedMatchesRequest(game=game)
    if after is not None:
        request.since.FromDatetime(after)
    listed = stub.ListFinishedMatches(request).matches
    differ = []
    for done, match in enumerate(listed, 1):
        answer = stub.AuditMatch(
            audit_pb2.AuditMatchRequest(match_id=match.match_id, locale=locale)
        )
        if answer.differs:
            differ.append(answer)
        if progress is not None:
            progress(done, len(listed))
    return len(listed), differ


def audit_lines(
    total: int, differ: Sequence[audit_pb2.AuditMatchResponse], locale: str = "en"
) -> list[str]:
    if not differ:
        return [text("audit.clean", locale, n=total)]
    lines = [text("audit.differ", locale, n=len(differ), total=total)]
    for answer in differ:
        d = answer.difference
        lines.append(
            "  "
            + text(
                "audit.line",
                locale,
                match_id=answer.match_id,
                game=answer.game,
                played=answer.recorded_rules_version,
                now=answer.current_rules_version,
                imported=text("audit.imported", locale) if answer.imported else "",
                version=d.version,
                event_type=d.event_type or "?",
                field=f".{d.field}" if d.field else "",
                recorded=_short(d.recorded),
                rederived=_short(d.rederived),
            )
        )
    return lines


def _short(value: str, limit: int = 160) -> str:
    return value if len(value) <= limit else value[: limit - 1] + "…"


def audit(stub: Any, game: str, after: datetime | None, locale: str = "en") -> int:
    with Bars() as bars:
        bars.add("matches", text("audit.matches", locale))
        total, differ = audit_all(
            stub, game, after, lambda done, n: bars.update("matches", done, total=n), locale
        )
    for line in audit_lines(total, differ, locale):
        print(line)
    return 1 if differ else 0


# ----- import -----------------------------------------------------------------------------
def record_bytes(path: str, locale: str = "en") -> bytes:
    """An exported record (``tavola export``'s JSON) as the bytes ImportRecord takes."""
    from tavola.cli.replay import read_record  # its checks and messages for a bad file

    read_record(path, locale)
    record = json_format.Parse(
        pathlib.Path(path).read_text(encoding="utf-8"), game_pb2.ExportMatchResponse()
    )
    return record.SerializeToString(deterministic=True)


def send_record(
    stub: Any,
    payload: bytes,
    progress: Callable[[int, int], None] | None = None,
    locale: str = "en",
) -> audit_pb2.ImportRecordResponse:
    digest = hashlib.sha256(payload).hexdigest()
    parts = [payload[i : i + PART] for i in range(0, len(payload), PART)] or [b""]
    answer = audit_pb2.ImportRecordResponse()
    for index, chunk in enumerate(parts):
        answer = stub.ImportRecord(
            audit_pb2.ImportRecordRequest(
                record_sha256=digest, part=index, parts=len(parts), chunk=chunk, locale=locale
            )
        )
        if progress is not None:
            progress(len(parts) if answer.complete else index + 1, len(parts))
        if answer.complete:  # the last part, or a record imported before
            break
    return answer


def import_record(stub: Any, path: str, locale: str = "en") -> int:
    payload = record_bytes(path, locale)
    with Bars() as bars:
        bars.add("parts", text("import.parts", locale))
        answer = send_record(
            stub, payload, lambda done, n: bars.update("parts", done, total=n), locale
        )
    key = "import.again" if answer.already else "import.done"
    print(text(key, locale, match_id=answer.match_id, game=answer.game, events=answer.events))
    return 0


# ----- verify: the corrections, apart from play ------------------------------------------
def correction_lines(stored: Iterable[StoredEvent], locale: str = "en") -> list[str]:
    """The match's corrections as ``tavola verify`` lists them (none: no lines)."""
    found = [s for s in stored if s.type == "match.Correction"]
    if not found:
        return []
    lines = [text("verify.corrections", locale)]
    for item in found:
        event = codec.decode_payload("", item.type, item.payload)
        assert isinstance(event, Correction)
        detail = (
            f" {event.hand}"
            if event.kind == "void_hand"
            else f" {event.amount:+d} → {','.join(map(str, event.seats))}"
            if event.kind == "adjust_score"
            else ""
        )
        lines.append(
            text(
                "verify.correction",
                locale,
                version=item.version,
                kind=event.kind,
                detail=detail,
                references=event.references,
                referee=event.referee,
                reason=event.reason,
            )
        )
    return lines


def verify(args: argparse.Namespace) -> int:
    """``tavola verify``: the play verified as ever (``tavola.cli.replay``), then the
    corrections listed apart (the verifier has checked each one's reference)."""
    from tavola.cli import replay

    bots = not args.no_bots
    if args.file:
        stored = replay.read_record(args.file, args.locale)
    else:
        stored = replay._stored(args.match_id, args.database_url, args.locale)
    code = replay.check(stored, bots=bots, locale=args.locale)
    if code == 0:
        for line in correction_lines(stored, args.locale):
            print(line)
    return code


__all__ = [
    "audit_all",
    "audit_lines",
    "correction_lines",
    "register",
    "run",
    "send_record",
    "verify",
]
