"""Regenerate the golden playthroughs in tests/goldens/ (``make goldens``)."""

from __future__ import annotations

import pathlib

from tavola.rules.playthrough import available, render

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "goldens"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for golden in available():
        path = OUT / f"{golden.name}.txt"
        path.write_text(render(golden))
        print(f"wrote {path.relative_to(OUT.parent.parent)}")


if __name__ == "__main__":
    main()
