"""The whole message catalogue (platform, trust, leagues and every game): each code reads in
English and Brazilian Portuguese ("pt"), the European form ("pt-PT") only where it differs,
every translation takes the English text's placeholders, and no template spells a card code.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping

import pytest

from tavola.leagues.messages import LEAGUE_MESSAGES
from tavola.rules.errors import Reason
from tavola.rules.messages import catalogue, normal_locale, render, text_for

ALL: dict[str, Mapping[str, str]] = {**catalogue(), **LEAGUE_MESSAGES}
CODES = sorted(ALL)
WITH_EUROPEAN = sorted(code for code, texts in ALL.items() if "pt-PT" in texts)

# Unmistakably European Portuguese: second-person "tu" verb forms and pronouns, and words a
# Brazilian player would not use (equipa, ecrã, utilizador, registo, ronda...). Only
# forms with no Brazilian reading: a false positive would block a correct text.
EUROPEAN_ONLY = [
    r"\btu\b",
    r"\bti\b",
    r"\b(teu|tua|teus|tuas)\b",
    r"\b(tens|podes|deves|estás|queres|precisas|consegues|sabes|vês|és)\b",
    r"\b(tiveres|puderes|quiseres|terias|precisavas)\b",
    r"\b(jogaste|passaste|dobraste|fizeste|foste|deixaste|ganhaste|perdeste|viste)\b",
    r"\w-te\b",  # "livra-te", "vale-te"
    r"\bnoutr[oa]s?\b",
    r"\b(equipa|equipas)\b",
    r"\becrã",
    r"\butilizador",
    r"\bregisto\b",
    r"\bregistad[oa]s?\b",
    r"\bfacto\b",
    r"\bcontacto",
    r"\bronda",
    r"\bmais pequen[oa]s?\b",
    r"\b(está|estão|estou|estava) a \w+(ar|er|ir)\b",  # "está a jogar"
]
EUROPEAN = re.compile("|".join(f"(?:{pattern})" for pattern in EUROPEAN_ONLY), re.IGNORECASE)
CARD_CODE = re.compile(r"(?<![\w{])(10|[2-9TJQKA])[CDHS](?![\w}])")


def placeholders(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field is not None}


def sample_params(template: str) -> dict[str, str]:
    return {name: f"<{name}>" for name in placeholders(template)}


@pytest.mark.parametrize("code", CODES)
def test_every_code_reads_in_english_and_brazilian_portuguese(code: str) -> None:
    texts = ALL[code]
    assert texts.get("en") and texts.get("pt"), code
    assert set(texts) <= {"en", "pt", "pt-PT"}, code
    if "pt-PT" in texts:
        assert texts["pt-PT"] and texts["pt-PT"] != texts["pt"], code


@pytest.mark.parametrize("code", CODES)
def test_every_translation_takes_exactly_the_english_placeholders(code: str) -> None:
    texts = ALL[code]
    for locale, template in texts.items():
        assert placeholders(template) == placeholders(texts["en"]), (code, locale)


@pytest.mark.parametrize("code", CODES)
def test_no_brazilian_text_uses_european_only_forms(code: str) -> None:
    found = EUROPEAN.search(ALL[code]["pt"])
    assert found is None, f"{code}: {found and found.group(0)!r} in {ALL[code]['pt']!r}"


@pytest.mark.parametrize("code", CODES)
def test_no_template_spells_a_card_code(code: str) -> None:
    for locale, template in ALL[code].items():
        assert not CARD_CODE.search(template), (code, locale, template)


def test_the_european_forms_regex_catches_the_european_texts() -> None:
    assert WITH_EUROPEAN
    caught = [code for code in WITH_EUROPEAN if EUROPEAN.search(ALL[code]["pt-PT"])]
    assert len(caught) > len(WITH_EUROPEAN) // 2
    for text in ("Não tens o 8♦ na mão.", "precisavas de ter", "a tua equipa", "está a jogar"):
        assert EUROPEAN.search(text), text


@pytest.mark.parametrize("code", sorted(catalogue()))
def test_pt_pt_renders_the_european_text_or_falls_back_to_pt(code: str) -> None:
    texts = catalogue()[code]
    params = sample_params(texts["en"])
    reason = Reason.of(code, **params)
    european = texts.get("pt-PT", texts["pt"])
    assert render(reason, "pt-PT") == european.format(**params)
    assert render(reason, "pt_pt") == european.format(**params)


@pytest.mark.parametrize("code", sorted(catalogue()))
def test_pt_and_pt_br_render_the_brazilian_text(code: str) -> None:
    texts = catalogue()[code]
    params = sample_params(texts["en"])
    reason = Reason.of(code, **params)
    for locale in ("pt", "pt-BR", "pt_BR", "pt-br"):
        assert render(reason, locale) == texts["pt"].format(**params), locale
    assert render(reason, "en") == texts["en"].format(**params)


def test_cards_render_as_labels_in_every_language() -> None:
    reason = Reason.of("barbu.not_in_hand", card="QS")
    assert render(reason, "en") == "Q♠ is not in your hand."
    assert render(reason, "pt") == "Você não tem o Q♠ na mão."
    assert render(reason, "pt-PT") == "Não tens o Q♠ na mão."
    hint = Reason.of("fantan.hint.keep_block", card="TC", kept="7H")
    for locale in ("en", "pt", "pt-PT"):
        text = render(hint, locale)
        assert "10♣" in text and "7♥" in text and "TC" not in text and "7H" not in text


def test_the_locales_normalise_to_brazilian_or_european_portuguese() -> None:
    assert [normal_locale(x) for x in ("pt", "pt-BR", "pt_br", "PT-br")] == ["pt-BR"] * 4
    assert [normal_locale(x) for x in ("pt-PT", "pt_PT", "pt-pt")] == ["pt-PT"] * 3
    assert normal_locale("de") == normal_locale("en") == "en"
    entry = {"en": "E", "pt": "B", "pt-PT": "P"}
    assert (text_for(entry, "pt"), text_for(entry, "pt-PT"), text_for(entry, "fr")) == (
        "B",
        "P",
        "E",
    )
    assert text_for({"en": "E", "pt": "B"}, "pt-PT") == "B"
