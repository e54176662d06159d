"""The message catalogue: every player-facing text is a code rendered here (en, pt).

Platform codes live below; each game adds its own through ``Game.messages()``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache

from tavola.rules import registry
from tavola.rules.cards import Card
from tavola.rules.errors import Reason
from tavola.rules.referee_messages import REFEREE_MESSAGES
from tavola.rules.trust_messages import TRUST_MESSAGES

LOCALES = ("en", "pt")  # "pt" is Brazilian Portuguese; "pt-PT" the European catalogue
DEFAULT_LOCALE = "en"
KNOWN_LOCALES = ("en", "pt-BR", "pt-PT")


def normal_locale(locale: str) -> str:
    """``pt``, ``pt_BR``, ``pt-br`` -> ``pt-BR``; ``pt-PT``/``pt_pt`` -> ``pt-PT``; any
    other language -> English."""
    text = locale.replace("_", "-").strip().lower()
    if text in ("pt-pt", "pt-ao", "pt-mz"):
        return "pt-PT"
    if text == "pt" or text.startswith("pt-"):
        return "pt-BR"
    return DEFAULT_LOCALE


PLATFORM_MESSAGES: dict[str, dict[str, str]] = {
    "game.over": {"en": "The match has ended.", "pt": "A partida já terminou."},
    "game.no_such_seat": {"en": "There is no seat {seat}.", "pt": "Não há o lugar {seat}."},
    "game.not_your_turn": {
        "en": "It is not seat {seat}'s turn (to act: {on_turn}).",
        "pt": "Não é a vez do lugar {seat} (a jogar: {on_turn}).",
    },
    "game.unknown": {"en": "No game is called {game}.", "pt": "Não há nenhum jogo {game}."},
    "action.malformed": {
        "en": "{code!r} is not an action of {game}.",
        "pt": "{code!r} não é uma jogada de {game}.",
    },
    "options.unknown": {"en": "Unknown option {option}.", "pt": "Opção desconhecida: {option}."},
    "options.invalid": {
        "en": "{value!r} is not a valid value for {option}.",
        "pt": "{value!r} não é um valor válido para {option}.",
    },
    "options.unknown_preset": {
        "en": "Unknown preset {preset}.",
        "pt": "Predefinição desconhecida: {preset}.",
    },
    "auto.first_legal": {
        "en": "Time ran out: the first legal action was taken.",
        "pt": "O tempo acabou: foi feita a primeira jogada válida.",
    },
    "match.not_found": {"en": "No match {match_id}.", "pt": "Não existe a partida {match_id}."},
    "match.not_finished": {
        "en": "Match {match_id} has not ended: its record would reveal hidden cards.",
        "pt": "A partida {match_id} ainda não acabou: o registro revelaria cartas escondidas.",
        "pt-PT": "A partida {match_id} ainda não acabou: o registo revelaria cartas escondidas.",
    },
    "table.not_found": {"en": "No table {table_id}.", "pt": "Não existe a mesa {table_id}."},
    "request.missing": {
        "en": "The field {field} is required.",
        "pt": "O campo {field} é obrigatório.",
    },
    "request.invalid": {"en": "Invalid {field}: {detail}.", "pt": "{field} inválido: {detail}."},
    "request.too_large": {
        "en": "{field} is too long (at most {limit}).",
        "pt": "{field} é longo demais (no máximo {limit}).",
        "pt-PT": "{field} é demasiado longo (no máximo {limit}).",
    },
    "seat.bad_token": {
        "en": "The token does not open seat {seat}.",
        "pt": "O token do lugar não corresponde ao lugar {seat}.",
        "pt-PT": "O código não corresponde ao lugar {seat}.",
    },
    "seat.already_left": {
        "en": "Seat {seat} has already left the match.",
        "pt": "O lugar {seat} já saiu da partida.",
    },
    "take_back.not_practice": {
        "en": "Moves can be taken back only at a table where every other seat is a bot.",
        "pt": "Só dá para desfazer jogadas numa mesa em que todos os outros lugares são bots.",
        "pt-PT": "Só se pode voltar atrás numa mesa em que todos os outros lugares são bots.",
    },
    "take_back.nothing": {
        "en": "Seat {seat} has no move to take back in this hand.",
        "pt": "O lugar {seat} não tem jogada a desfazer nesta mão.",
    },
    "seat.taken": {"en": "Seat {seat} is taken.", "pt": "O lugar {seat} está ocupado."},
    "seat.none_free": {"en": "No seat is free.", "pt": "Não há lugares livres."},
    "seat.not_bot": {
        "en": "Seat {seat} is not played by the bot service.",
        "pt": "O lugar {seat} não é jogado pelo serviço de bots.",
    },
    "table.not_open": {"en": "The table is no longer open.", "pt": "A mesa já não está aberta."},
    "table.not_full": {
        "en": "{free} seat(s) are still free.",
        "pt": "Ainda há {free} lugar(es) livre(s).",
    },
    "table.bad_players": {
        "en": "{game} is played by {min} to {max} players.",
        "pt": "{game} é jogado por {min} a {max} jogadores.",
        "pt-PT": "{game} joga-se com {min} a {max} jogadores.",
    },
    "command.stale": {
        "en": "Stale version: you saw {expected}, the table is at {actual}.",
        "pt": "Versão desatualizada: você viu a {expected}, a mesa está na {actual}.",
        "pt-PT": "Versão desatualizada: viste a {expected}, a mesa está na {actual}.",
    },
    "command.reused": {
        "en": "The command id {command_id} was already used for another command.",
        "pt": "O identificador {command_id} já foi usado em outro comando.",
        "pt-PT": "O identificador {command_id} já foi usado noutro comando.",
    },
    "command.conflict": {
        "en": "Another move was recorded at the same time; try again.",
        "pt": "Outra jogada foi registrada ao mesmo tempo; tente de novo.",
        "pt-PT": "Outra jogada foi registada ao mesmo tempo; tenta de novo.",
    },
    "hint.hard_choice": {
        "en": "A strong player would play {action} here.",
        "pt": "Um jogador forte jogaria {action} aqui.",
    },
    "internal.error": {"en": "Internal error ({detail}).", "pt": "Erro interno ({detail})."},
}


@cache
def catalogue() -> Mapping[str, Mapping[str, str]]:
    merged: dict[str, Mapping[str, str]] = dict(PLATFORM_MESSAGES)
    merged.update(TRUST_MESSAGES)
    merged.update(REFEREE_MESSAGES)
    from tavola.leagues.messages import LEAGUE_MESSAGES  # the leagues own their texts

    merged.update(LEAGUE_MESSAGES)
    for game in registry.all_games():
        merged.update(game.messages())
    return merged


def text_for(entry: Mapping[str, str], locale: str) -> str | None:
    """An entry's text in ``locale``: ``pt-BR``/``pt-PT`` fall back to ``pt``, then English."""
    wanted = normal_locale(locale)
    if wanted == DEFAULT_LOCALE:
        return entry.get(DEFAULT_LOCALE)
    return entry.get(wanted) or entry.get("pt") or entry.get(DEFAULT_LOCALE)


def render(reason: Reason, locale: str = DEFAULT_LOCALE) -> str:
    """The reason in ``locale`` (falls back to English, then to the code itself). Cards named
    in its parameters read as on the table (``10♣``), never as codes (``TC``)."""
    entry = catalogue().get(reason.code)
    if entry is None:
        return reason.code + (f" {dict(reason.params)}" if reason.params else "")
    template = text_for(entry, locale) or reason.code
    params = {name: _shown(value, name) for name, value in reason.param_dict().items()}
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template


_CARD = re.compile(r"^(10|[2-9TJQKA])[CDHS]$")


_SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def _shown(value: object, name: str = "") -> object:
    if name == "suit" and isinstance(value, str) and value in _SUIT_SYMBOLS:
        return _SUIT_SYMBOLS[value]  # a suit named by its letter reads as its symbol
    if isinstance(value, str) and _CARD.match(value):
        return Card.parse(value).label
    if isinstance(value, str) and "," in value and all(_CARD.match(v) for v in value.split(",")):
        return ", ".join(Card.parse(v).label for v in value.split(","))
    return value
