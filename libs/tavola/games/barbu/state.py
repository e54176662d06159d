"""The Barbu match state (one value for the whole 28-deal session) and its options.

A state is a value: nothing changes a state once the rules have built it. ``changed``
makes the next one from ``copy`` (a hand-written copy of the slots, several times cheaper
than ``dataclasses.replace``, which still works). A state also caches what the rules
computed from it, never compared nor taken by ``replace``: the legal actions of the seat
on turn (``legal``) and the last state folded from it (``memo``: the event and the state
after it — ``apply`` folds its events as it decides them, so the caller's fold of the very
same events costs nothing).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from tavola.games.barbu.contracts import ALL_CONTRACTS, Contract
from tavola.games.barbu.timers import DEFAULT_CLOCK
from tavola.rules.cards import Card, Rank, Suit, Trick
from tavola.rules.timers import TimerSettings

Phase = Literal["draw", "deal", "contract", "doubling", "play", "over"]
Row = tuple[int, int]  # Domino: (lowest, highest) rank on the table in a suit
SEATS = 4
DEALS_PER_BLOCK = 7
DEALS = SEATS * DEALS_PER_BLOCK
DOUBLES_OWED = 2


@dataclass(frozen=True, slots=True)
class BarbuOptions:
    fixed_order: bool = False
    no_doubling: bool = False
    play_out_all_tricks: bool = False
    void_must_trump: bool = False
    blocks: int = 4  # declarers' blocks of 7 deals; 4 is the full 28-deal session
    clock: TimerSettings = DEFAULT_CLOCK

    @property
    def deals(self) -> int:
        return self.blocks * DEALS_PER_BLOCK


@dataclass(slots=True)
class BarbuState:
    options: BarbuOptions
    phase: Phase = "draw"
    deal: int = 0
    declarer: int = 0
    dealer: int = 0
    hands: tuple[tuple[Card, ...], ...] = ((), (), (), ())
    remaining: tuple[tuple[Contract, ...], ...] = (ALL_CONTRACTS,) * SEATS
    contract: Contract | None = None
    trump: Suit | None = None
    start_rank: Rank | None = None
    turn: int | None = None
    doubles: tuple[tuple[int, int], ...] = ()  # (doubler, doubled) this deal
    block_doubles: tuple[int, ...] = (0,) * SEATS  # doubles of the declarer this block
    trick: Trick | None = None
    tricks_played: int = 0
    tricks_taken: tuple[int, ...] = (0,) * SEATS
    captured: tuple[tuple[Card, ...], ...] = ((), (), (), ())  # penalty cards, face up
    rows: tuple[Row | None, ...] = (None, None, None, None)
    finished: tuple[int, ...] = ()  # Domino finishing order
    points: tuple[int, ...] = (0,) * SEATS  # raw points of the deal so far
    totals: tuple[int, ...] = (0,) * SEATS
    legal: Any = field(init=False, default=None, repr=False, compare=False)
    memo: tuple[Any, BarbuState] | None = field(init=False, default=None, repr=False, compare=False)

    @property
    def block_position(self) -> int:
        """0..6: how many deals of the current declarer's block were played before."""
        return (self.deal - 1) % DEALS_PER_BLOCK

    def owed(self, seat: int) -> int:
        """Doubles of the declarer ``seat`` still owes in this block (0 for the declarer
        and when doubling is off)."""
        if seat == self.declarer or self.options.no_doubling or self.deal == 0:
            return 0
        return max(0, DOUBLES_OWED - self.block_doubles[seat])

    def must_double_declarer(self, seat: int) -> bool:
        """True when the doubling turns left in the block (this one included) equal the
        doubles of the declarer still owed."""
        owed = self.owed(seat)
        return owed > 0 and DEALS_PER_BLOCK - self.block_position <= owed


_new = object.__new__


def copy(s: BarbuState) -> BarbuState:
    """A copy of every slot but the caches (the copy will have its own)."""
    new: BarbuState = _new(BarbuState)
    new.options = s.options
    new.phase = s.phase
    new.deal = s.deal
    new.declarer = s.declarer
    new.dealer = s.dealer
    new.hands = s.hands
    new.remaining = s.remaining
    new.contract = s.contract
    new.trump = s.trump
    new.start_rank = s.start_rank
    new.turn = s.turn
    new.doubles = s.doubles
    new.block_doubles = s.block_doubles
    new.trick = s.trick
    new.tricks_played = s.tricks_played
    new.tricks_taken = s.tricks_taken
    new.captured = s.captured
    new.rows = s.rows
    new.finished = s.finished
    new.points = s.points
    new.totals = s.totals
    new.legal = new.memo = None
    return new


def changed(state: BarbuState, **changes: Any) -> BarbuState:
    """The state with ``changes`` (``dataclasses.replace`` for the hot path)."""
    new = copy(state)
    for name, value in changes.items():
        setattr(new, name, value)
    return new
