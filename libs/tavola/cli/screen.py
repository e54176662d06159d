"""The play screen as a pure function: a view response and what happened recently in,
rich text out — no I/O, no clock (``now`` is given), so every game is tested offline.

Top to bottom, within ``width`` × ``height`` (80 × 24 by default): the title with the match
id; the game's lines about the deal; one row per seat (turn marker, name, the game's
columns, the countdown to the seat's deadline); the board (trick, rows or line); the hand
with the playable items numbered; other choices; why the other items cannot be played,
grouped by reason; recent events; notices (hints, errors, automatic moves, what changed);
the prompt. When space runs short, recent events go first, then the help line.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console, Group
from rich.text import Text

from tavola.cli import hand as hand_block
from tavola.cli.actions import Choice, choices
from tavola.cli.happenings import describe
from tavola.cli.notation import values
from tavola.cli.tables import Ctx, Parts, generic, renderer
from tavola.cli.texts import t
from tavola.v1 import events_pb2, game_pb2

NOTICE_STYLES = {
    "hint": ("cyan", "☞ "),
    "error": ("bold red", "✗ "),
    "auto": ("yellow", "⏱ "),
    "changed": ("magenta", "↻ "),
    "info": ("", "· "),
}


@dataclass(frozen=True)
class Notice:
    """A line under the table: ``kind`` is hint, error, auto, changed or info."""

    kind: str
    text: Text


@dataclass(frozen=True)
class Screen:
    """Everything the play screen shows; ``now`` is Unix time in seconds (countdowns)."""

    view: game_pb2.GetViewResponse
    match_id: str
    seat: int
    locale: str = "en"
    title: str = ""
    events: Sequence[events_pb2.EventEnvelope] = ()
    notices: Sequence[Notice] = ()
    typed: str = ""
    asking: str = ""
    hint: str = ""
    now: float = 0.0
    prompt: bool = True
    lower_wins: bool | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def deadlines(view: game_pb2.GetViewResponse, now: float) -> dict[int, float]:
    """Seconds left per seat with a running timer (never below 0, never above its length)."""
    out = {}
    for deadline in view.deadlines:
        left = deadline.deadline.ToMilliseconds() / 1000 - now
        out[deadline.seat] = max(0.0, min(float(deadline.seconds or left), left))
    return out


def countdown(seconds: float | None) -> Text:
    if seconds is None:
        return Text()
    whole = int(seconds + 0.999)
    return Text(f"⏱ {whole}s", style="bold red" if whole <= 5 else "yellow")


def context(screen: Screen, width: int) -> Ctx:
    view = screen.view
    players = len(view.standings) or 4
    return Ctx(
        game=view.game,
        v=values(view.view),
        me=screen.seat,
        locale=screen.locale,
        players=players,
        to_act=tuple(view.to_act),
        width=width,
    )


def parts_of(ctx: Ctx) -> Parts:
    try:
        return renderer(ctx.game)(ctx)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return generic.render(ctx)  # a view this renderer does not know: still readable


def render(screen: Screen, width: int = 80, height: int = 24) -> Group:
    return Group(*lines(screen, width, height))


def lines(screen: Screen, width: int = 80, height: int = 24) -> list[Text]:
    ctx = context(screen, width)
    parts = parts_of(ctx)
    options = choices(ctx.game, screen.view.legal_actions, ctx.locale, ctx.v)
    left = deadlines(screen.view, screen.now)
    blocks: dict[str, list[Text]] = {
        "title": [_title(screen, ctx, width)],
        "info": parts.info,
        "seats": _seat_rows(screen, ctx, parts, left),
        "board": parts.board,
        "hand": hand_block.rows(ctx, options, screen.hint, width),
        "choices": hand_block.other_choices(ctx, options, screen.hint),
        "reasons": hand_block.reasons(ctx, screen.view),
        "events": _recent(screen, ctx),
        "notices": [_notice(n) for n in screen.notices],
        "prompt": _prompt(screen, ctx, options, left) if screen.prompt else [],
        "help": [_help(ctx, options)] if screen.prompt else [],
    }
    wrapped = {name: _wrap_all(block, width) for name, block in blocks.items()}
    _fit(wrapped, height)
    return [line for block in wrapped.values() for line in block]


def _fit(blocks: dict[str, list[Text]], height: int) -> None:
    """Drop the least needed lines until everything fits in ``height`` rows."""

    def total() -> int:
        return sum(len(b) for b in blocks.values())

    for name, keep in (
        ("events", 0),
        ("help", 0),
        ("reasons", 2),
        ("info", 2),
        ("board", 3),
        ("notices", 2),
        ("reasons", 1),
        ("choices", 3),
        ("seats", 4),
    ):
        block = blocks[name]
        while total() > height and len(block) > keep:
            if name == "events":
                block.pop(0)  # the oldest first
            else:
                block.pop()


_MEASURE: dict[int, Console] = {}


def _wrap_all(block: list[Text], width: int) -> list[Text]:
    console = _MEASURE.setdefault(width, Console(width=width, color_system=None))
    out: list[Text] = []
    for line in block:
        if line.cell_len <= width:
            out.append(line)
            continue
        indent = len(line.plain) - len(line.plain.lstrip(" "))  # kept on every piece
        body = line[indent:] if indent < width // 2 else line
        pad = indent if body is not line else 0
        for piece in body.wrap(console, width - pad):
            row = Text(" " * pad)
            row.append_text(piece)
            row.no_wrap = True
            out.append(row)
    return out


def _title(screen: Screen, ctx: Ctx, width: int) -> Text:
    view = screen.view
    title = screen.title or view.game
    out = Text(f" {title} ", style="bold reverse")
    out.append(f" {t('title.match', ctx.locale)} ", style="dim")
    out.append(screen.match_id, style="bold")
    out.append(f"  v{view.version}", style="dim")
    if screen.seat >= 0:
        you = t("title.you_are", ctx.locale, seat=screen.seat)
        if out.cell_len + len(you) + 2 <= width:
            out.append(" " * (width - out.cell_len - len(you)) + you, style="dim")
    return out


def _seat_rows(screen: Screen, ctx: Ctx, parts: Parts, left: dict[int, float]) -> list[Text]:
    standings = {s.seat: s for s in screen.view.standings}
    generic_cells = not parts.seats
    rows: list[list[Text]] = []
    for seat in range(ctx.players):
        standing = standings.get(seat)
        name = standing.player_name if standing else ctx.seat(seat)
        if seat == ctx.me:
            name += " " + t("seat.you_mark", ctx.locale)
        cells = list(parts.seats.get(seat, []))
        if generic_cells and standing is not None:
            cells.append(Text(t("col.score", ctx.locale) + f" {standing.score}"))
        if seat in screen.view.away:  # the seat's client is gone: timers play for it
            cells.append(Text(t("col.away", ctx.locale), style="yellow"))
        head = Text("▶ " if seat in ctx.to_act else "  ", style="bold green")
        head.append(f"{seat} ", style="dim")
        head.append(name[:22], style="bold" if seat == ctx.me else "")
        rows.append([head, *cells, countdown(left.get(seat))])
    return _columns(rows)


def _columns(rows: list[list[Text]]) -> list[Text]:
    widths: dict[int, int] = {}
    for row in rows:
        for index, cell in enumerate(row[:-1]):
            widths[index] = max(widths.get(index, 0), cell.cell_len)
    out = []
    for row in rows:
        line = Text()
        for index, cell in enumerate(row[:-1]):
            line.append_text(cell)
            line.append(" " * (widths[index] - cell.cell_len + 2))
        line.append_text(row[-1])
        line.rstrip()
        out.append(line)
    return out


def _recent(screen: Screen, ctx: Ctx) -> list[Text]:
    out = []
    for envelope in screen.events:
        line = describe(envelope, ctx.game, ctx.me, ctx.locale)
        if line is not None:
            row = Text("  · ", style="dim")
            row.append_text(line)
            out.append(row)
    return out[-6:]


def _notice(notice: Notice) -> Text:
    style, mark = NOTICE_STYLES.get(notice.kind, NOTICE_STYLES["info"])
    out = Text(mark, style=style)
    out.append_text(notice.text)
    return out


def _prompt(screen: Screen, ctx: Ctx, options: list[Choice], left: dict[int, float]) -> list[Text]:
    view = screen.view
    if view.finished:
        return [Text(t("prompt.finished", ctx.locale), style="bold")]
    if screen.asking == "quit":
        return [
            Text(t("prompt.quit", ctx.locale, what=screen.extra.get("leave", "")), "bold yellow"),
            Text(t("prompt.quit_keys", ctx.locale), style="yellow"),
        ]
    if options:
        turn = ctx.v.get("turn")
        optional = isinstance(turn, int) and turn != ctx.me and ctx.me not in left
        key = "prompt.optional" if optional else "prompt.your_move"
        out = Text(t(key, ctx.locale), style="bold green")
        mine = left.get(ctx.me)
        if mine is not None:
            out.append(" ")
            out.append_text(countdown(mine))
        out.append(" › ", style="bold")
        out.append(screen.typed)
        out.append("▌", style="blink")
        return [out]
    waiting = [s for s in view.to_act if s != ctx.me]
    out = Text(
        t("prompt.waiting", ctx.locale, seats=", ".join(ctx.seat(s) for s in waiting))
        if waiting
        else t("prompt.waiting_table", ctx.locale),
        style="dim",
    )
    soonest = min((left[s] for s in waiting if s in left), default=None)
    if soonest is not None:
        out.append(" ")
        out.append_text(countdown(soonest))
    if screen.typed:
        out.append(" › " + screen.typed)
    return [out]


def _help(ctx: Ctx, options: list[Choice]) -> Text:
    key = "help.keys" if options else "help.keys_waiting"
    return Text(t(key, ctx.locale), style="dim")


def plain(screen: Screen, width: int = 80, height: int = 200) -> str:
    """The screen as plain text (screenshots, tests, pipes)."""
    console = Console(width=width, color_system=None, record=True, file=io.StringIO())
    console.print(render(screen, width, height))
    return console.export_text()
