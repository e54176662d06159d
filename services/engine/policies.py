"""Who may call each public method: the scopes (any one suffices) and the rate-limit class.

This table is the edge's whole authorisation of methods (a method missing here is closed);
finer rules — a seat only with its own account and token, a host's own tables, a referee
(or an admin) reading any seat only once the match has ended — are the application's
(docs/security.md lists them all).
"""

from __future__ import annotations

from tavola.accounts.model import ADMIN, BOT, HOST, PLAY, READ, REFEREE
from tavola.service.edge import Policy

ANY = (PLAY, BOT, HOST, REFEREE, READ, ADMIN)
SEAT = (PLAY, BOT)
LOOK = (PLAY, BOT, READ, REFEREE)
REVIEW = (*LOOK, ADMIN)  # a finished match's every seat: referees and admins (app.py)

_GAME = {
    "SubmitAction": Policy(SEAT, "act"),
    "TakeBack": Policy((PLAY,), "act"),
    "LeaveMatch": Policy(SEAT, "act"),
    "GetView": Policy(REVIEW, "read"),
    "StreamEvents": Policy(REVIEW, "read"),
    "GetMatch": Policy(REVIEW, "read"),
    "ExportMatch": Policy(REVIEW, "read"),
    "ExplainAction": Policy(SEAT, "help"),
    "GetHint": Policy((PLAY,), "help"),
}
_LOBBY = {
    "ListGames": Policy(ANY, "read"),
    "ListTables": Policy(LOOK, "read"),
    "GetTable": Policy(LOOK, "read"),
    "CreateTable": Policy((HOST,), "create_table"),
    "SitDown": Policy(SEAT, "lobby"),
    "FillWithBots": Policy((HOST,), "lobby"),
    "StartMatch": Policy((HOST,), "lobby"),
    "InviteToTable": Policy((HOST,), "lobby"),
    "ChangeTableOptions": Policy((HOST,), "lobby"),
}
_ACCOUNT = {
    "WhoAmI": Policy(ANY, "read"),
    "GetAccount": Policy(ANY, "read"),
    "ListTokens": Policy(ANY, "read"),
    "IssueToken": Policy(ANY, "account"),
    "RevokeToken": Policy(ANY, "account"),
    "CreateAccount": Policy((ADMIN,), "account"),
    "ListAccounts": Policy((ADMIN,), "read"),
}
_SCORING = {
    "GetMatchStandings": Policy(LOOK, "read"),
    "GetPlayerStandings": Policy(LOOK, "read"),
    "GetRatings": Policy(LOOK, "read"),
}

_LEAGUE = {
    "CreateLeague": Policy((HOST,), "lobby"),
    "StartSeason": Policy((HOST,), "lobby"),
    "ScheduleRound": Policy((HOST,), "lobby"),
    "ResumeRound": Policy((HOST,), "lobby"),
    "EndSeason": Policy((HOST,), "lobby"),
    "Register": Policy((PLAY, BOT, HOST), "lobby"),
    "Withdraw": Policy((PLAY, BOT, HOST), "lobby"),
    "GetMyTable": Policy(SEAT, "read"),
    "GetLeague": Policy(LOOK, "read"),
    "ListLeagues": Policy(LOOK, "read"),
    "GetRound": Policy(LOOK, "read"),
    "GetStandings": Policy(LOOK, "read"),
    "ExportSeason": Policy(LOOK, "read"),
    "GetStatistics": Policy(LOOK, "read"),
    "GetMatchHistory": Policy(LOOK, "read"),
    "GetRatingHistory": Policy(LOOK, "read"),
}

_AUDIT = {  # the referee's desk (services/engine/referee.py)
    "FileCorrection": Policy((REFEREE, ADMIN), "act"),
    "AuditMatch": Policy((REFEREE, ADMIN, READ, PLAY, BOT), "read"),
    "ListFinishedMatches": Policy((REFEREE, ADMIN, READ, PLAY, BOT), "read"),
    "ImportRecord": Policy((REFEREE, ADMIN), "act"),
}

POLICIES: dict[str, Policy] = {
    f"/tavola.v1.{service}/{method}": policy
    for service, table in (
        ("GameService", _GAME),
        ("LobbyService", _LOBBY),
        ("AccountService", _ACCOUNT),
        ("ScoringService", _SCORING),
        ("LeagueService", _LEAGUE),
        ("AuditService", _AUDIT),
    )
    for method, policy in table.items()
}
