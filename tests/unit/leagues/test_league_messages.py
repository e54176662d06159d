"""Every league reason code the platform raises has its text in English and Portuguese."""

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
        assert set(texts) == {"en", "pt"}, code
