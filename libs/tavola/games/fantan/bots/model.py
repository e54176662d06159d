"""What a Fan Tan seat knows, as bits: cards, open ends, and what the passes prove.

Card bits: a card's bit is ``suit * 13 + building_rank - 1`` (A=0 … 7=6 … K=12), so the
open ends of a row are neighbouring bits. Everything here is derived from a seat's
``Knowledge`` (its view and the events it was shown) — never from a game state.

Inference (the hard level's knowledge): a ``Passed`` event proves that the passer held no
playable card at that moment — no unplayed seven and no card next to an open end — and
since cards never change hands, it still holds none of those cards now.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from tavola.bots.interface import Knowledge
from tavola.games.fantan.events import CardPlayed, HandStarted, Passed
from tavola.games.fantan.game import GAME
from tavola.games.fantan.options import FanTanOptions, building_rank
from tavola.games.fantan.timers import TIMERS
from tavola.rules.cards import Card, Rank, Suit

SEVEN = 6  # rank position of the seven inside a suit's 13 bits
FULL = (1 << 52) - 1
Rows = tuple[tuple[int, int] | None, ...]  # per suit: (low, high) rank positions 0..12


def bit_of(card: Card) -> int:
    return int(card.suit) * 13 + building_rank(card) - 1


def card_of(bit: int) -> Card:
    suit, pos = divmod(bit, 13)
    return Card(Suit(suit), Rank.ACE if pos == 0 else Rank(pos + 1))


def mask_of(cards: Sequence[Card]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << bit_of(c)
    return mask


def bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _next(bit: int) -> int:
    pos = bit % 13
    if pos == SEVEN:
        return (1 << (bit - 1)) | (1 << (bit + 1))
    if pos < SEVEN:
        return 1 << (bit - 1) if pos > 0 else 0
    return 1 << (bit + 1) if pos < 12 else 0


def _beyond(bit: int) -> int:
    suit, pos = divmod(bit, 13)
    base = suit * 13
    if pos == SEVEN:
        return (((1 << 13) - 1) << base) & ~(1 << bit)
    if pos < SEVEN:
        return ((1 << pos) - 1) << base
    return (((1 << 13) - 1) & ~((1 << (pos + 1)) - 1)) << base


def directions(pos: int) -> tuple[int, ...]:
    """The steps (-1 down, +1 up) a card at rank position ``pos`` leads in."""
    return (-1, 1) if pos == SEVEN else ((-1,) if pos < SEVEN else (1,))


def _chains(bit: int) -> tuple[tuple[int, ...], ...]:
    suit, pos = divmod(bit, 13)
    return tuple(
        tuple(1 << (suit * 13 + p) for p in range(pos + step, -1 if step < 0 else 13, step))
        for step in directions(pos)
    )


def _end_cards(bit: int) -> int:
    suit, pos = divmod(bit, 13)
    ends = {0 if step < 0 else 12 for step in directions(pos)} - {pos}
    return sum(1 << (suit * 13 + end) for end in ends)


NEXT = tuple(_next(b) for b in range(52))  # the cards a card uncovers when played
BEYOND = tuple(_beyond(b) for b in range(52))  # every card further out in its direction
SEVENS = sum(1 << (s * 13 + SEVEN) for s in range(4))
DISTANCE = tuple(abs(b % 13 - SEVEN) for b in range(52))  # how far from the row's seven
CHAINS = tuple(_chains(b) for b in range(52))  # per direction: the cards behind, nearest first
END_CARDS = tuple(_end_cards(b) for b in range(52))  # the ace/king its directions end at


def run_behind(hand: int, bit: int) -> int:
    """The cards of ``hand`` directly behind card ``bit`` in its direction(s), with no gap."""
    total = 0
    for chain in CHAINS[bit]:
        for flag in chain:
            if not hand & flag:
                break
            total += 1
    return total


def ends_mask(rows: Rows) -> int:
    """Cards playable once the hand has started: unplayed sevens and the neighbours of the
    open ends."""
    mask = 0
    for suit, row in enumerate(rows):
        base = suit * 13
        if row is None:
            mask |= 1 << (base + SEVEN)
            continue
        low, high = row
        if low > 0:
            mask |= 1 << (base + low - 1)
        if high < 12:
            mask |= 1 << (base + high + 1)
    return mask


def played_mask(rows: Rows) -> int:
    mask = 0
    for suit, row in enumerate(rows):
        if row is not None:
            low, high = row
            mask |= ((1 << (high - low + 1)) - 1) << (suit * 13 + low)
    return mask


def with_card(rows: Rows, bit: int) -> Rows:
    suit, pos = divmod(bit, 13)
    out = list(rows)
    row = out[suit]
    out[suit] = (pos, pos) if row is None else (min(row[0], pos), max(row[1], pos))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Seen:
    """A seat's knowledge of the current hand, as bits.

    ``unseen``: cards in the other seats' hands or set aside; ``lacks[s]``: cards seat ``s``
    is proven not to hold (from its passes); ``aside``: how many cards were set aside
    (``equal_hands``), which may be any unseen card; ``penalty[b]``: the penalty of card ``b``.
    """

    seat: int
    players: int
    hand: int
    counts: tuple[int, ...]
    rows: Rows
    started: bool
    unseen: int
    lacks: tuple[int, ...]
    aside: int
    penalty: tuple[int, ...]
    may_hold: tuple[tuple[int, ...], ...] = ()  # ``holders`` of every card, worked out once

    def holders(self, bit: int) -> list[int]:
        """Other seats that may hold card ``bit`` (-1 stands for the set-aside cards)."""
        return list(self.may_hold[bit])


def options_of(knowledge: Knowledge) -> FanTanOptions:
    return _parsed_options(knowledge.options)


@lru_cache(maxsize=64)
def _parsed_options(options: tuple[tuple[str, str], ...]) -> FanTanOptions:
    """The table's options, parsed once per option set (every decision of a table reads
    them)."""
    rest, clock = TIMERS.split(GAME.parse_options(dict(options)))
    return FanTanOptions(**rest, clock=clock)  # type: ignore[arg-type]


@lru_cache(maxsize=64)
def _penalties(options: FanTanOptions) -> tuple[int, ...]:
    """The penalty of every card, by bit, under ``options``."""
    return tuple(options.card_penalty(card_of(b)) for b in range(52))


def read(knowledge: Knowledge) -> Seen:
    """The seat's knowledge of the current hand (view for the table, history for passes)."""
    view = knowledge.view
    n = knowledge.players
    rows: Rows = tuple(None for _ in range(4))
    for row in view.rows:
        low, high = bit_of(Card.parse(row.low)), bit_of(Card.parse(row.high))
        rows = with_card(with_card(rows, low), high)
    hand = mask_of(view.hand)
    dealt, lacks = _replay_current_hand(knowledge.history, n)
    counts = tuple(view.card_counts) if view.card_counts else (0,) * n
    played = played_mask(rows)
    options = options_of(knowledge)
    aside = 52 - dealt if dealt else 0
    may_hold = _may_hold(knowledge.seat, n, counts, lacks, aside)
    return Seen(
        seat=knowledge.seat,
        players=n,
        hand=hand,
        counts=counts,
        rows=rows,
        started=played != 0,
        unseen=FULL & ~hand & ~played,
        lacks=lacks,
        aside=aside,
        penalty=_penalties(options),
        may_hold=may_hold,
    )


def _may_hold(
    seat: int, players: int, counts: tuple[int, ...], lacks: tuple[int, ...], aside: int
) -> tuple[tuple[int, ...], ...]:
    """``Seen.may_hold``: per card, the other seats that hold cards and whose passes do not
    rule it out, then -1 if cards were set aside."""
    seats = [s for s in range(players) if s != seat and counts[s]]
    pile = (-1,) if aside else ()
    if not any(lacks[s] for s in seats):
        return ((*seats, *pile),) * 52
    return tuple((*(s for s in seats if not lacks[s] >> bit & 1), *pile) for bit in range(52))


def _replay_current_hand(history: Sequence[object], players: int) -> tuple[int, tuple[int, ...]]:
    """Cards dealt in the current hand and, per seat, the cards its passes rule out."""
    start = 0
    dealt = 0
    for i, event in enumerate(history):
        if isinstance(event, HandStarted):
            start, dealt = i, sum(event.counts)
    lacks = [0] * players
    rows: Rows = (None, None, None, None)
    for event in history[start:]:
        if isinstance(event, CardPlayed):
            rows = with_card(rows, bit_of(event.card))
        elif isinstance(event, Passed):
            lacks[event.seat] |= ends_mask(rows)
    return dealt, tuple(lacks)
