"""The league's reason codes in English and Portuguese (the catalogue's format: ``pt`` is
Brazilian Portuguese, ``pt-PT`` where European Portuguese differs).

``tavola.rules.messages.catalogue`` merges this table, so a league refusal reads in the
caller's language; the stable code and its parameters are what the API promises
(docs/leagues.md).
"""

from __future__ import annotations

LEAGUE_MESSAGES: dict[str, dict[str, str]] = {
    "league.not_found": {"en": "No league {league_id}.", "pt": "Não existe a liga {league_id}."},
    "league.not_host": {
        "en": "Only the league's host (or an admin) may do this.",
        "pt": "Só o anfitrião da liga (ou um administrador) pode fazer isso.",
    },
    "league.bad_format": {
        "en": "Invalid league format: {field} ({detail}).",
        "pt": "Formato de liga inválido: {field} ({detail}).",
    },
    "league.no_bot_accounts": {
        "en": "This league does not take bot accounts.",
        "pt": "Esta liga não aceita contas de bots.",
    },
    "league.not_registered": {
        "en": "That account is not registered in this league.",
        "pt": "Essa conta não está inscrita nesta liga.",
    },
    "league.no_season": {
        "en": "No season is running.",
        "pt": "Não há nenhuma temporada em curso.",
    },
    "league.season_running": {
        "en": "Season {season} is still running: end it first.",
        "pt": "A temporada {season} ainda está em curso: termine-a primeiro.",
    },
    "league.round_opened": {
        "en": "Round {round} has opened already: it can no longer be moved.",
        "pt": "A rodada {round} já abriu: não pode mais ser mudada.",
        "pt-PT": "A ronda {round} já abriu: já não pode ser mudada.",
    },
    "league.round_unfinished": {
        "en": "A round of season {season} has not ended yet.",
        "pt": "Uma rodada da temporada {season} ainda não terminou.",
        "pt-PT": "Uma ronda da temporada {season} ainda não terminou.",
    },
    "league.round_not_halted": {
        "en": "Round {round} is not halted.",
        "pt": "A rodada {round} não está parada.",
        "pt-PT": "A ronda {round} não está parada.",
    },
    "league.no_playoff": {
        "en": "This league has no playoff.",
        "pt": "Esta liga não tem mata-mata.",
        "pt-PT": "Esta liga não tem eliminatórias.",
    },
    "league.playoff_started": {
        "en": "The playoff of season {season} has begun: no regular round follows it.",
        "pt": "O mata-mata da temporada {season} já começou: nenhuma rodada normal vem depois.",
        "pt-PT": "A eliminatória da temporada {season} já começou: não há mais rondas normais.",
    },
    "league.playoff_over": {
        "en": "The playoff of season {season} has its champion.",
        "pt": "O mata-mata da temporada {season} já tem seu campeão.",
        "pt-PT": "A eliminatória da temporada {season} já tem o seu campeão.",
    },
    "league.no_round": {
        "en": "No round {round}.",
        "pt": "Não existe a rodada {round}.",
        "pt-PT": "Não existe a ronda {round}.",
    },
    "league.no_division": {
        "en": "No division {division}.",
        "pt": "Não existe a divisão {division}.",
    },
}
