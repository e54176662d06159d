"""Every league reason code the platform raises has its text in English and Portuguese
(European Portuguese where it differs), and refusals render it."""

from __future__ import annotations

import re
from pathlib import Path

from tavola.leagues.messages import LEAGUE_MESSAGES

ROOT = Path(__file__).resolve().parents[3]
RAISED = re.compile(
    r'(?:refuse|malformed|invalid|not_found|denied|precondition|Reason\.of)\(\s*"(league\.[a-z_]+)"'
)


def test_every_league_reason_has_english_and_portuguese_text():
    sources = [*ROOT.glob("libs/tavola/leagues/*.py"), *ROOT.glob("services/lobby/league_*.py")]
    sources += [ROOT / "services/scoring/league_queries.py"]
    raised = {code for path in sources for code in RAISED.findall(path.read_text())}
    assert raised and raised <= set(LEAGUE_MESSAGES)
    for code, texts in LEAGUE_MESSAGES.items():
        assert {"en", "pt"} <= set(texts) <= {"en", "pt", "pt-PT"}, code


def test_a_league_refusal_reads_in_the_caller_s_language():
    from tavola.rules.errors import Reason
    from tavola.rules.messages import render

    reason = Reason.of("league.round_opened", round=3)
    assert render(reason, "en") == "Round 3 has opened already: it can no longer be moved."
    assert render(reason, "pt-BR").startswith("A rodada 3")
    assert render(reason, "pt-PT").startswith("A ronda 3")
