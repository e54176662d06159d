"""The CLI's own texts in English and Portuguese (``--locale en|pt``; ``pt`` and ``pt-BR``
are Brazilian, ``pt-PT`` European: the server's texts come in the same variant, and the
CLI's own read their European form (``TEXTS_PT_PT``) where one differs from the Brazilian).

Game texts — why a card cannot be played, hints, automatic moves, option descriptions —
come from the server as ``Reason.text`` in the locale the CLI asks for. Names that a view
carries only as codes (a Barbu or Doppelkopf contract, a preset) are looked up in the
rules' catalogue (``game_text``), the same one the server renders with. Everything else the
CLI says is here (``tavola.cli.catalogue``), keyed by a stable name.
"""

from __future__ import annotations

import os

from tavola.cli.catalogue import TEXTS, TEXTS_PT_PT
from tavola.rules.errors import Reason

LOCALES = ("en", "pt", "pt-BR", "pt-PT")


# the locales the rules' catalogue renders in European Portuguese (``normal_locale``)
_EUROPEAN = frozenset({"pt-pt", "pt-ao", "pt-mz"})


def is_pt(locale: str) -> bool:
    return locale.lower().replace("_", "-").split("-")[0] == "pt"


def is_pt_pt(locale: str) -> bool:
    """European Portuguese: ``pt-PT``, ``pt_PT``, ``pt-pt``..."""
    return locale.strip().lower().replace("_", "-") in _EUROPEAN


def pick(key: str, entry: tuple[str, str], european: dict[str, str], locale: str) -> str:
    """The template of ``entry`` (English, Brazilian) in ``locale``; in pt-PT the European
    text of ``key`` where there is one, else the Brazilian."""
    if not is_pt(locale):
        return entry[0]
    return european.get(key, entry[1]) if is_pt_pt(locale) else entry[1]


def default_locale() -> str:
    """``TAVOLA_LOCALE``, else the language of ``LANG`` when it is Portuguese, else en."""
    chosen = os.environ.get("TAVOLA_LOCALE", "")
    if chosen in LOCALES:
        return chosen
    lang = os.environ.get("LANG", "").lower()
    if lang.startswith(("pt_pt", "pt-pt")):
        return "pt-PT"
    return "pt" if lang.startswith("pt") else "en"


def t(key: str, locale: str = "en", /, **params: object) -> str:
    """The text ``key`` in ``locale`` with its parameters filled in."""
    entry = TEXTS.get(key)
    if entry is None:
        return key
    template = pick(key, entry, TEXTS_PT_PT, locale)
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template


def has(key: str) -> bool:
    return key in TEXTS


def game_text(code: str, locale: str = "en", /, **params: str | int) -> str | None:
    """A text of the rules' catalogue (contract and preset names), or ``None``."""
    from tavola.rules.messages import catalogue, render

    if code not in catalogue():
        return None
    return render(Reason.of(code, **params), locale)


def game_title(name: str, title: str, locale: str = "en") -> str:
    """A game's title in the locale (the platform's title where the CLI has none)."""
    key = f"title.{name}"
    return t(key, locale) if key in TEXTS and locale != "en" else title
