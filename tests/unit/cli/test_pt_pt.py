"""The CLI's European Portuguese texts: each replaces a Brazilian text that exists, takes the
same placeholders, reads in pt-PT (and only there), and the Brazilian texts stay free of
European-only forms."""

from __future__ import annotations

import re
import string

import pytest

from tavola.cli import catalogue, referee, replay_texts
from tavola.cli.texts import is_pt_pt, t

# (name, key -> (en, pt-BR), key -> pt-PT, the catalogue's lookup)
CATALOGUES = [
    ("cli", catalogue.TEXTS, catalogue.TEXTS_PT_PT, t),
    ("replay", replay_texts.TEXTS, replay_texts.TEXTS_PT_PT, replay_texts.say),
    ("referee", referee.TEXTS, referee.TEXTS_PT_PT, referee.text),
]
EUROPEAN_KEYS = [(name, key) for name, _, european, _ in CATALOGUES for key in sorted(european)]
BRAZILIAN_KEYS = [(name, key) for name, texts, _, _ in CATALOGUES for key in sorted(texts)]
BY_NAME = {name: (texts, european, lookup) for name, texts, european, lookup in CATALOGUES}

# Unmistakably European Portuguese (as in tests/unit/test_message_catalogue.py): "tu" verb
# forms and pronouns, and words a Brazilian player would not use; only forms with no
# Brazilian reading ("último a jogar" is Brazilian too). A Brazilian text matches none.
EUROPEAN_ONLY = [
    r"\btu\b",
    r"\bti\b",
    r"\b(teu|tua|teus|tuas)\b",
    r"\b(tens|podes|deves|estás|queres|precisas|consegues|sabes|vês|és|continuas)\b",
    r"\b(saíste|recebeste|compraste|declaraste|escolhias|abres)\b",
    r"\w-te\b",
    r"\bnoutr[oa]s?\b",
    r"\b(equipa|equipas)\b",
    r"\becrã",
    r"\butilizador",
    r"\bregist(o|ad[oa]s?|ar|am|a)\b",
    r"\bficheiros?\b",
    r"\bronda",
    r"\bdescodific",
    r"\bautónom",
    r"\bpenalizaç",
    r"\bsegue-se\b",
    r"\b(está|estão|estou|estava) a \w+(ar|er|ir)\b",
]
EUROPEAN = re.compile("|".join(f"(?:{pattern})" for pattern in EUROPEAN_ONLY), re.IGNORECASE)


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def conversions(template: str) -> list[tuple[str, str | None]]:
    return [
        (name, conversion)
        for _, name, _, conversion in string.Formatter().parse(template)
        if name is not None
    ]


def sample(template: str) -> dict[str, str]:
    return {name: f"<{name}>" for name in fields(template)}


@pytest.mark.parametrize(("name", "key"), EUROPEAN_KEYS)
def test_every_european_text_replaces_an_existing_different_brazilian_one(
    name: str, key: str
) -> None:
    texts, european, _ = BY_NAME[name]
    assert key in texts, key
    assert european[key].strip(), key
    assert european[key] != texts[key][1], f"{key}: same as the Brazilian text"


@pytest.mark.parametrize(("name", "key"), EUROPEAN_KEYS)
def test_every_european_text_takes_the_brazilian_and_english_placeholders(
    name: str, key: str
) -> None:
    texts, european, _ = BY_NAME[name]
    en, pt = texts[key]
    assert fields(european[key]) == fields(pt) == fields(en), key
    assert sorted(conversions(european[key]), key=str) == sorted(conversions(pt), key=str), key


@pytest.mark.parametrize(("name", "key"), EUROPEAN_KEYS)
def test_pt_pt_reads_the_european_text_and_pt_or_pt_br_the_brazilian(name: str, key: str) -> None:
    texts, european, lookup = BY_NAME[name]
    en, pt = texts[key]
    params = sample(en)
    for locale in ("pt-PT", "pt_PT", "pt-pt"):
        assert lookup(key, locale, **params) == european[key].format(**params), locale
    for locale in ("pt", "pt-BR", "pt_BR"):
        assert lookup(key, locale, **params) == pt.format(**params), locale
    assert lookup(key, "en", **params) == en.format(**params)


@pytest.mark.parametrize(("name", "key"), BRAZILIAN_KEYS)
def test_a_text_without_a_european_form_reads_the_brazilian_one_in_pt_pt(
    name: str, key: str
) -> None:
    texts, european, lookup = BY_NAME[name]
    if key in european:
        return
    params = sample(texts[key][0])
    assert lookup(key, "pt-PT", **params) == lookup(key, "pt-BR", **params), key


@pytest.mark.parametrize(("name", "key"), BRAZILIAN_KEYS)
def test_no_brazilian_text_uses_european_only_forms(name: str, key: str) -> None:
    texts, _, _ = BY_NAME[name]
    found = EUROPEAN.search(texts[key][1])
    assert found is None, f"{name} {key}: {found and found.group(0)!r} in {texts[key][1]!r}"


def test_the_european_forms_regex_catches_the_european_texts() -> None:
    european = [text for _, _, texts, _ in CATALOGUES for text in texts.values()]
    caught = [text for text in european if EUROPEAN.search(text)]
    assert len(caught) > len(european) // 2, [text for text in european if text not in caught]


def test_the_seat_label_of_the_player_stays_third_person() -> None:
    # "você" fills {seat} in "{seat} jogou {card}", "casamento de {wedding}"...: "tu" would
    # need its own verb forms ("tu jogaste") and cases ("de ti")
    for key in ("seat.you", "seat.you_mark", "title.you_are"):
        assert key not in catalogue.TEXTS_PT_PT, key


def test_the_european_locales() -> None:
    for locale in ("pt-PT", "pt_PT", "pt-pt", "PT_pt", " pt-PT "):
        assert is_pt_pt(locale), locale
    for locale in ("pt", "pt-BR", "pt_BR", "en", "en-PT", ""):
        assert not is_pt_pt(locale), locale
