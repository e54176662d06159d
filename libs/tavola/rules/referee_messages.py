"""Texts of the referee's desk: corrections, audits and imports (docs/api.md,
AuditService). Portuguese in the Brazilian form."""

from __future__ import annotations

REFEREE_MESSAGES: dict[str, dict[str, str]] = {
    "correction.not_finished": {
        "en": "Only a finished match can be corrected; {match_id} has not ended.",
        "pt": "Só uma partida terminada pode ser corrigida; {match_id} ainda não terminou.",
    },
    "correction.bad_kind": {
        "en": "Unknown correction '{kind}': use void_game, void_hand or adjust_score.",
        "pt": "Correção desconhecida '{kind}': use void_game, void_hand ou adjust_score.",
    },
    "correction.bad_reason": {
        "en": "Give a reason of 1 to {limit} characters (without spaces around it).",
        "pt": "Informe um motivo de 1 a {limit} caracteres (sem espaços nas pontas).",
    },
    "correction.game_void": {
        "en": "This match is already void: nothing more can be corrected.",
        "pt": "Esta partida já foi anulada: não há mais nada a corrigir.",
    },
    "correction.not_by_score": {
        "en": (
            "This match is not ranked by its scores (a series is won by games): only voiding "
            "the whole game can correct it."
        ),
        "pt": (
            "Esta partida não é classificada pela pontuação (uma série se vence por jogos): "
            "só anular o jogo inteiro pode corrigi-la."
        ),
        "pt-PT": (
            "Esta partida não é classificada pela pontuação (uma série ganha-se por jogos): "
            "só anular o jogo inteiro a pode corrigir."
        ),
    },
    "correction.no_such_hand": {
        "en": "There is no hand {hand}: the match had {hands} hands (numbered from 1).",
        "pt": "Não existe a mão {hand}: a partida teve {hands} mãos (numeradas a partir de 1).",
    },
    "correction.hand_void": {
        "en": "Hand {hand} is already void.",
        "pt": "A mão {hand} já foi anulada.",
    },
    "correction.no_seats": {
        "en": "Name at least one seat whose score changes.",
        "pt": "Indique ao menos um lugar cuja pontuação muda.",
    },
    "correction.bad_seat": {
        "en": "There is no seat {seat}: seats are numbered 0 to {last}.",
        "pt": "Não existe o lugar {seat}: os lugares vão de 0 a {last}.",
    },
    "correction.seat_twice": {
        "en": "Name each seat once.",
        "pt": "Indique cada lugar uma só vez.",
    },
    "correction.partner_missing": {
        "en": "Partners share one score: adjust seat {partner} with seat {seat}.",
        "pt": "Parceiros dividem a mesma pontuação: ajuste o lugar {partner} junto com o {seat}.",
    },
    "correction.bad_amount": {
        "en": "The adjustment must be non-zero and at most {limit} points either way.",
        "pt": "O ajuste deve ser diferente de zero e de no máximo {limit} pontos para cada lado.",
    },
    "correction.field_unused": {
        "en": "{field} does not apply to this correction; leave it out.",
        "pt": "{field} não se aplica a esta correção; deixe de fora.",
    },
    "audit.not_finished": {
        "en": "Only a finished match can be audited; {match_id} has not ended.",
        "pt": "Só uma partida terminada pode ser auditada; {match_id} ainda não terminou.",
    },
    "import.bad_record": {
        "en": "This is not a match record this platform can read ({why}).",
        "pt": "Isto não é um registro de partida que esta plataforma consiga ler ({why}).",
    },
    "import.not_verified": {
        "en": "The record does not verify ({why}); nothing was imported.",
        "pt": "O registro não passa na verificação ({why}); nada foi importado.",
    },
    "import.part_missing": {
        "en": "Send the record's parts in order: part {part} comes next.",
        "pt": "Envie as partes do registro em ordem: a próxima é a parte {part}.",
    },
    "import.exists_here": {
        "en": "Match {match_id} was played here; it cannot be imported over itself.",
        "pt": "A partida {match_id} foi jogada aqui; não pode ser importada sobre si mesma.",
    },
    "import.differs": {
        "en": "Another record of match {match_id} was imported before; it is kept as it is.",
        "pt": "Outro registro da partida {match_id} já foi importado; ele é mantido como está.",
    },
}
