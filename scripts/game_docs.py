"""Write the generated reference (events, view, options) into each game's page and the
platform's events into docs/api.md (``tavola.protocol.reference``). Run after changing a
game's events, view or options; ``tests/unit/test_game_docs.py`` checks the pages are current.
"""

from __future__ import annotations

import pathlib

from tavola.protocol.reference import all_games, game_reference, platform_reference, replace_section

DOCS = pathlib.Path(__file__).resolve().parent.parent / "docs"


def page_of(name: str) -> pathlib.Path:
    return DOCS / "games" / f"{name}.md"


def main() -> None:
    for game in all_games():
        path = page_of(game.info.name)
        path.write_text(replace_section(path.read_text(), game_reference(game)))
        print(f"wrote {path.relative_to(DOCS.parent)}")
    api = DOCS / "api.md"
    api.write_text(replace_section(api.read_text(), platform_reference()))
    print(f"wrote {api.relative_to(DOCS.parent)}")


if __name__ == "__main__":
    main()
