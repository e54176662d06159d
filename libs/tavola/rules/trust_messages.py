"""Texts of the platform's trust boundary: accounts, tokens, ownership, limits, bad input
and outages (docs/security.md). Portuguese in the Brazilian form."""

from __future__ import annotations

TRUST_MESSAGES: dict[str, dict[str, str]] = {
    "auth.missing": {
        "en": "This call needs a token: send 'authorization: Bearer <token>'.",
        "pt": "Esta chamada precisa de um token: envie 'authorization: Bearer <token>'.",
    },
    "auth.malformed": {
        "en": "The authorization header must be 'Bearer <token>'.",
        "pt": "O cabeçalho authorization deve ser 'Bearer <token>'.",
    },
    "auth.invalid": {
        "en": "The token is not valid (unknown or revoked).",
        "pt": "O token não é válido (desconhecido ou revogado).",
    },
    "auth.scope_missing": {
        "en": "The token lacks the scope this needs ({scope}).",
        "pt": "O token não tem o escopo necessário ({scope}).",
    },
    "rate.limited": {
        "en": "Too many requests ({limit}); try again shortly.",
        "pt": "Pedidos demais ({limit}); tente de novo daqui a pouco.",
    },
    "stream.too_many": {
        "en": "Too many open streams (at most {limit}); close one first.",
        "pt": "Transmissões abertas demais (no máximo {limit}); feche uma antes.",
    },
    "stream.slow_reader": {
        "en": "The stream was closed: nothing was read for {seconds} s.",
        "pt": "A transmissão foi fechada: nada foi lido por {seconds} s.",
    },
    "request.bad_text": {
        "en": "{field} contains characters that are not allowed (control characters).",
        "pt": "{field} contém caracteres não permitidos (caracteres de controle).",
    },
    "request.out_of_range": {
        "en": "{field} is out of range (at most {limit}).",
        "pt": "{field} está fora do intervalo (no máximo {limit}).",
    },
    "request.too_deep": {
        "en": "{field} is nested too deeply.",
        "pt": "{field} está aninhado demais.",
    },
    "service.unavailable": {
        "en": "The {service} is not available right now; try again in a moment.",
        "pt": "O serviço {service} não está disponível agora; tente de novo em instantes.",
    },
    "service.timeout": {
        "en": "The {service} did not answer in time; try again in a moment.",
        "pt": "O serviço {service} não respondeu a tempo; tente de novo em instantes.",
    },
    "seat.not_yours": {
        "en": "Seat {seat} is not yours: it belongs to the account that sat down there.",
        "pt": "O lugar {seat} não é seu: pertence à conta que se sentou nele.",
    },
    "match.running": {
        "en": (
            "Match {match_id} is still being played: nobody sees seat {seat}'s cards before "
            "the end but its own player, with the seat's token (a referee reads it once the "
            "match has ended)."
        ),
        "pt": (
            "A partida {match_id} ainda está em andamento: ninguém vê as cartas do lugar {seat} "
            "antes do fim, só o próprio jogador, com o token do lugar (um árbitro lê depois que "
            "a partida acabar)."
        ),
    },
    "match.duplicate_running": {
        "en": (
            "Match {match_id} is a duplicate table: its play is shown to nobody but its own "
            "players until every table dealt the same cards has ended."
        ),
        "pt": (
            "A partida {match_id} é uma mesa duplicada: o jogo só é mostrado aos próprios "
            "jogadores até terminarem todas as mesas que receberam as mesmas cartas."
        ),
    },
    "table.not_host": {
        "en": "Only the table's host (or an admin) may do this.",
        "pt": "Só o anfitrião da mesa (ou um administrador) pode fazer isso.",
    },
    "table.invite_only": {
        "en": "This table is by invitation only.",
        "pt": "Esta mesa é só para convidados.",
    },
    "table.options_locked": {
        "en": "The options cannot change once another player has sat down.",
        "pt": "As opções não podem mudar depois que outro jogador se sentou.",
    },
    "command.bad_id": {
        "en": "A command id is at most 128 printable ASCII characters, without spaces.",
        "pt": (
            "Um identificador de comando tem no máximo 128 caracteres ASCII visíveis, sem espaços."
        ),
    },
    "account.name_spaces": {
        "en": "A name may not begin or end with a space, nor hold two in a row.",
        "pt": "Um nome não pode começar nem terminar com espaço, nem ter dois seguidos.",
    },
    "account.name_length": {
        "en": "A name has 2 to 32 characters.",
        "pt": "Um nome tem de 2 a 32 caracteres.",
    },
    "account.name_chars": {
        "en": "A name holds letters, digits, spaces, '.', '-' and '_' only.",
        "pt": "Um nome só pode ter letras, dígitos, espaços, '.', '-' e '_'.",
    },
    "account.name_reserved": {
        "en": "Names beginning with 'Bot ' belong to the platform's own bots.",
        "pt": "Nomes que começam com 'Bot ' pertencem aos bots da plataforma.",
    },
    "account.name_taken": {
        "en": "The name {name} is taken.",
        "pt": "O nome {name} já está em uso.",
    },
    "account.not_found": {
        "en": "No account {name}.",
        "pt": "Não existe a conta {name}.",
    },
    "account.scope_not_allowed": {
        "en": "A token of this account cannot have the scope {scope}.",
        "pt": "Um token desta conta não pode ter o escopo {scope}.",
    },
    "account.too_many_tokens": {
        "en": "This account has {limit} live tokens; revoke one first.",
        "pt": "Esta conta tem {limit} tokens ativos; revogue um antes.",
    },
    "account.no_such_token": {
        "en": "No token {token_id} on this account.",
        "pt": "Não há o token {token_id} nesta conta.",
    },
    "account.kind_differs": {
        "en": "The account {name} exists with another kind.",
        "pt": "A conta {name} existe com outro tipo.",
    },
    "table.exact_players": {
        "en": "{game} is played by {n} players.",
        "pt": "{game} é jogado por {n} jogadores.",
    },
    "seat.away_takeover": {
        "en": "Seat {seat} stopped playing: a bot plays it until its player comes back.",
        "pt": "O lugar {seat} parou de jogar: um bot joga por ele até o jogador voltar.",
    },
    "internal.error": {
        "en": "Something went wrong on our side (incident {incident}); it has been logged.",
        "pt": "Algo deu errado do nosso lado (incidente {incident}); foi registrado.",
    },
}
