"""The texts of ``tavola replay`` in English and Brazilian Portuguese, with the same
placeholders in both, and in European Portuguese where it differs (``TEXTS_PT_PT``); the
words it shares with the rest of the CLI (seats, events, standings, the table) come from the
CLI's catalogue (``tavola.cli.texts``)."""

from __future__ import annotations

from tavola.cli.texts import pick

TEXTS: dict[str, tuple[str, str]] = {
    "help.replay": (
        "a match as readable text: every hand as its viewer saw it, bids, contracts, each "
        "move (automatic ones with their reason), scores per hand and totals; whole (a "
        "finished match: referees, admins, its players), as one seat saw it (--seat N) or as "
        "a spectator; from the platform or offline from an exported record (--file)",
        "uma partida em texto legível: cada mão como quem a viu, lances, contratos, cada "
        "jogada (as automáticas com o motivo), pontos por mão e totais; inteira (partida "
        "terminada: árbitros, administradores, seus jogadores), como um lugar a viu (--seat N) "
        "ou como um espectador; da plataforma ou sem ela, de um registro exportado (--file)",
    ),
    "help.match_id": (
        "the match's id (or --file)",
        "o identificador da partida (ou --file)",
    ),
    "help.file": (
        "an exported record (tavola export, ExportMatch) to replay offline",
        "um registro exportado (tavola export, ExportMatch) para rever sem a plataforma",
    ),
    "help.seat": (
        "the match exactly as seat N saw it (its own cards; the others' stay hidden)",
        "a partida exatamente como o lugar N a viu (as próprias cartas; as dos outros ocultas)",
    ),
    "help.spectator": (
        "the match as a spectator saw it (public events only)",
        "a partida como um espectador a viu (só os eventos públicos)",
    ),
    "help.hand": (
        "only hand H (a deal, a game), counted from 1",
        "só a mão H (uma dada, um jogo), contada a partir de 1",
    ),
    "help.step": (
        "wait for Enter after each move (q, then Enter: stop)",
        "esperar Enter depois de cada jogada (q e Enter: parar)",
    ),
    "help.from_version": (
        "start at version V: the table as it stood then, and every event after it",
        "começar na versão V: a mesa como estava então, e cada evento depois dela",
    ),
    "help.address": ("the platform (HOST:PORT)", "a plataforma (HOST:PORTA)"),
    "as.seat": ("as seat {seat} saw it", "como o lugar {seat} a viu"),
    "as.spectator": ("as a spectator saw it", "como um espectador a viu"),
    "as.full": (
        "every hand shown (the full record)",
        "todas as mãos à vista (o registro completo)",
    ),
    "seat.person": ("{seat}: {name}", "{seat}: {name}"),
    "seat.bot": ("{seat}: {name} (bot, {level})", "{seat}: {name} (bot, {level})"),
    "seat.client_bot": ("{seat}: {name} (bot)", "{seat}: {name} (bot)"),
    "hand": ("hand {hand}", "mão {hand}"),
    "table_at": ("the table at version {version}", "a mesa na versão {version}"),
    "holding": ("{seat} holds", "{seat} tem"),
    "holding.none": ("{seat} holds nothing", "{seat} não tem nada"),
    "totals": ("totals after hand {hand}: {scores}", "totais depois da mão {hand}: {scores}"),
    "automatic_why": ("why: {reason}", "motivo: {reason}"),
    "step.prompt": ("Enter: next move · q: stop ", "Enter: próxima jogada · q: parar "),
    "error.what": (
        "name a match (MATCH_ID) or an exported record (--file PATH), not both",
        "indique uma partida (MATCH_ID) ou um registro exportado (--file CAMINHO), não os dois",
    ),
    "error.no_seat": (
        "there is no seat {seat}: the match has seats 0 to {last}",
        "não existe o lugar {seat}: a partida tem os lugares 0 a {last}",
    ),
    "error.no_hand": (
        "the match has no hand {hand} (it has {hands})",
        "a partida não tem a mão {hand} (ela tem {hands})",
    ),
    "error.no_version": (
        "--from-version must be between 0 and {last}, the match's last version",
        "--from-version deve estar entre 0 e {last}, a última versão da partida",
    ),
}

TEXTS_PT_PT: dict[str, str] = {
    "help.replay": (
        "uma partida em texto legível: cada mão como quem a viu, lances, contratos, cada "
        "jogada (as automáticas com o motivo), pontos por mão e totais; inteira (partida "
        "terminada: árbitros, administradores, os seus jogadores), como um lugar a viu "
        "(--seat N) ou como um espectador; da plataforma ou sem ela, de um registo "
        "exportado (--file)"
    ),
    "help.file": "um registo exportado (tavola export, ExportMatch) para rever sem a plataforma",
    "as.full": "todas as mãos à vista (o registo completo)",
    "error.what": (
        "indica uma partida (MATCH_ID) ou um registo exportado (--file CAMINHO), não os dois"
    ),
    "error.no_hand": "a partida não tem a mão {hand} (tem {hands})",
}


def say(key: str, locale: str = "en", /, **params: object) -> str:
    """The replay's text ``key`` in ``locale`` with its parameters filled in."""
    entry = TEXTS.get(key)
    if entry is None:
        return key
    return pick(key, entry, TEXTS_PT_PT, locale).format(**params)
