"""The player's own items on screen: the hand with each playable card or tile numbered
under it, the other choices (bids, contracts, announcements, which end), and why the rest
cannot be played — one line per reason, listing the items it applies to."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rich.text import Text

from tavola.cli.actions import Choice
from tavola.cli.notation import code_label, item_text, join, parse_code, reason_params
from tavola.cli.notation import with_notation as notation
from tavola.cli.tables.base import Ctx
from tavola.cli.texts import t
from tavola.rules.cards import Card
from tavola.rules.tiles import Tile
from tavola.v1 import game_pb2

MAX_REASONS = 4


def items(ctx: Ctx) -> list[Card | Tile]:
    return [i for i in ctx.seq("hand") if isinstance(i, Card | Tile)]


def _keys_of(item: Card | Tile, options: Sequence[Choice]) -> list[Choice]:
    """The choices that play this item: its code, or (a tile) its code with an end."""
    return [o for o in options if o.code == item.code]


def rows(ctx: Ctx, options: Sequence[Choice], hint: str, width: int) -> list[Text]:
    """Two lines per row of the hand: the items, and the number to type under each
    playable one (dim: not playable now)."""
    hand = items(ctx)
    if not hand:
        return []
    label = t("hand.label", ctx.locale)
    indent = len(label) + 2
    cell = max(len(item_text(i).plain) for i in hand) + 1
    per_row = max(1, (width - indent) // cell)
    out = []
    for start in range(0, len(hand), per_row):
        top = Text(label.ljust(indent) if start == 0 else " " * indent, style="bold")
        bottom = Text(" " * indent)
        for item in hand[start : start + per_row]:
            keys = _keys_of(item, options)
            playable = bool(keys)
            style = "underline" if keys and keys[0].code == hint else ""
            shown = item_text(item, style) if playable else Text(item_text(item).plain, "dim")
            top.append_text(shown)
            top.append(" " * (cell - shown.cell_len))
            number = keys[0].key if keys else ""
            bottom.append(number.center(cell - 1) + " ", style="bold cyan")
        bottom.rstrip()
        out += [top, bottom] if bottom.plain.strip() else [top]
    return out


def other_choices(ctx: Ctx, options: Sequence[Choice], hint: str) -> list[Text]:
    """Choices that are not an item of the hand, keyed: ``0 nil  bid 1 2 3 …``; a run of
    three or more labels that differ only in their last word is written once
    (``Trumps 6:♣ 7:♦ 8:♥ 9:♠``)."""
    in_hand = {i.code for i in items(ctx)}
    rest = [o for o in options if o.code not in in_hand]
    if not rest:
        return []
    line = Text(t("hand.choose", ctx.locale) + "  ", style="bold")
    for index, (prefix, group) in enumerate(_runs(rest)):
        if index:
            line.append("   ")
        if prefix and len(group) >= 3:
            line.append_text(_run(prefix, group, hint))
        else:
            line.append_text(join((_single(o, hint) for o in group), "   "))
    return [line]


def _runs(options: Sequence[Choice]) -> list[tuple[str, list[Choice]]]:
    runs: list[tuple[str, list[Choice]]] = []
    for option in options:
        head, _, _ = option.label.plain.rpartition(" ")
        if runs and head and runs[-1][0] == head:
            runs[-1][1].append(option)
        else:
            runs.append((head, [option]))
    return runs


def _run(prefix: str, group: list[Choice], hint: str) -> Text:
    out = Text(prefix + " ")
    for index, option in enumerate(group):
        if index:
            out.append("  ")
        tail = option.label[len(prefix) + 1 :]
        if option.code == hint:
            tail.stylize("underline")
        out.append(option.key, style="bold cyan")
        if tail.plain != option.key:
            out.append(":")
            out.append_text(tail)
    return out


def _single(option: Choice, hint: str) -> Text:
    label = option.label.copy()
    if option.code == hint:
        label.stylize("underline")
    out = Text()
    if label.plain.split()[-1:] == [option.key]:
        out.append_text(label[: len(label.plain) - len(option.key)])
        out.append(option.key, style="bold cyan")
    else:
        out.append(option.key + " ", style="bold cyan")
        out.append_text(label)
    return out


def reasons(ctx: Ctx, view: game_pb2.GetViewResponse) -> list[Text]:
    """Why the other items of the hand cannot be played, one line per reason."""
    groups: dict[tuple[Any, ...], list[game_pb2.BlockedAction]] = {}
    for blocked in view.blocked:
        params = reason_params(blocked.reason)
        key = (
            blocked.reason.code,
            tuple(sorted((n, v) for n, v in params.items() if v != blocked.code)),
        )
        groups.setdefault(key, []).append(blocked)
    hand_size = len({i.code for i in items(ctx)})
    out = [_reason_line(members, hand_size) for members in groups.values()]
    if len(out) > MAX_REASONS:
        more = len(out) - MAX_REASONS + 1
        out = out[: MAX_REASONS - 1]
        out.append(Text(t("hand.more_reasons", ctx.locale, n=more), style="dim"))
    return out


def _reason_line(members: list[game_pb2.BlockedAction], hand_size: int) -> Text:
    first = members[0]
    codes = list(dict.fromkeys(m.code for m in members))
    params = reason_params(first.reason)
    text = first.reason.text or first.reason.code
    listed = join(
        (item_text(item) for item in (parse_code(c) for c in codes) if item is not None), ", "
    )
    out = Text("  ")
    mention = re.search(r"(?<![\w-])" + re.escape(first.code) + r"(?![\w-])", text)
    if mention is not None and code_label(first.code) is not None:
        out.append_text(notation(text[: mention.start()], params))
        out.append_text(listed)
        out.append_text(notation(text[mention.end() :], params))
    elif len(codes) >= hand_size:
        out.append_text(notation(text, params))
    else:
        out.append_text(listed)
        out.append(": ")
        out.append_text(notation(text, params))
    out.stylize("dim")
    return out
