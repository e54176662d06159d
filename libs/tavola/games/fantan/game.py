"""Fan Tan rules: state, legality, transitions, views and scoring (see package docstring)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from tavola.games.fantan.actions import FanTanAction, Pass, Play
from tavola.games.fantan.events import (
    CardPlayed,
    CardsSetAside,
    DealerChosen,
    DealVoided,
    HandBlocked,
    HandDealt,
    HandScored,
    HandStarted,
    HandWon,
    Passed,
)
from tavola.games.fantan.messages import MESSAGES
from tavola.games.fantan.options import FanTanOptions, building_rank
from tavola.games.fantan.timers import TIMERS, decision
from tavola.games.fantan.views import FanTanView, RowView, rank_code
from tavola.rules.cards import (
    Card,
    Rank,
    Suit,
    deal_round_robin,
    deck_from_permutation,
    remove_card,
    standard_deck,
)
from tavola.rules.errors import IllegalAction, Reason
from tavola.rules.interface import (
    ChanceRequest,
    Event,
    Game,
    GameInfo,
    OptionSpec,
    OptionValue,
    SeatScore,
    rank_scores,
)

SEVEN_OF_DIAMONDS = Card(Suit.DIAMONDS, Rank.SEVEN)
Phase = Literal["draw_dealer", "deal", "play", "over"]
Row = tuple[int, int]  # (low, high) building ranks, A=1 … K=13


@dataclass(frozen=True, slots=True)
class FanTanState:
    players: int
    options: FanTanOptions
    phase: Phase = "draw_dealer"
    hand: int = 0
    dealer: int = 0
    hands: tuple[tuple[Card, ...], ...] = ()
    rows: tuple[Row | None, ...] = (None, None, None, None)
    turn: int | None = None
    started: bool = False
    passes_in_a_row: int = 0
    totals: tuple[int, ...] = ()
    hands_played: int = 0
    last_winner: int | None = None
    redeals: int = 0


class FanTan(Game[FanTanState, FanTanAction]):
    info = GameInfo(
        name="fan-tan",
        title="Fan Tan",
        min_players=3,
        max_players=7,
        rules_version=1,
        options=(
            OptionSpec(
                "penalty",
                "choice",
                "per_card",
                "fantan.option.penalty",
                choices=("per_card", "card_value"),
                house_rule=False,
            ),
            OptionSpec("face_cards_ten", "bool", False, "fantan.option.face_cards_ten"),
            OptionSpec("any_seven_starts", "bool", False, "fantan.option.any_seven_starts"),
            OptionSpec("equal_hands", "bool", False, "fantan.option.equal_hands"),
            OptionSpec(
                "hands", "int", 0, "fantan.option.hands", minimum=0, maximum=100, house_rule=False
            ),
            OptionSpec(
                "penalty_limit",
                "int",
                0,
                "fantan.option.penalty_limit",
                minimum=0,
                maximum=10_000,
                house_rule=False,
            ),
            *TIMERS.options(),
        ),
        event_types=(
            DealerChosen,
            DealVoided,
            HandStarted,
            HandDealt,
            CardsSetAside,
            CardPlayed,
            Passed,
            HandWon,
            HandBlocked,
            HandScored,
        ),
        lower_score_wins=True,
    )

    # ----- lifecycle -------------------------------------------------------------------
    def initial_state(self, players: int, options: Mapping[str, OptionValue]) -> FanTanState:
        info = self.info
        if not info.min_players <= players <= info.max_players:
            raise IllegalAction(
                Reason.of(
                    "table.bad_players", game=info.name, min=info.min_players, max=info.max_players
                )
            )
        rest, clock = TIMERS.split(self.parse_options(options))
        opts = FanTanOptions(**rest, clock=clock)  # type: ignore[arg-type]
        return FanTanState(players=players, options=opts, totals=(0,) * players)

    def players(self, state: FanTanState) -> int:
        return state.players

    def hands_in_match(self, state: FanTanState) -> int | None:
        if state.options.hands:
            return state.options.hands
        return None if state.options.penalty_limit else state.players

    def chance(self, state: FanTanState) -> ChanceRequest | None:
        if state.phase == "draw_dealer":
            return ChanceRequest("first-dealer", "draw", state.players)
        if state.phase == "deal":
            suffix = f"/redeal-{state.redeals}" if state.redeals else ""
            return ChanceRequest(f"deal/{state.hand + 1}{suffix}", "shuffle", 52)
        return None

    def resolve_chance(
        self, state: FanTanState, request: ChanceRequest, outcome: tuple[int, ...]
    ) -> list[Event]:
        if request != self.chance(state):
            raise ValueError(f"unexpected chance request {request}")
        if request.kind == "draw":
            return [DealerChosen(dealer=outcome[0])]
        deck = deck_from_permutation(standard_deck(), outcome)
        n = state.players
        hand_no = state.hand + 1
        dealer = state.dealer if hand_no == 1 else (state.dealer + 1) % n
        each = 52 // n if state.options.equal_hands else None
        hands = deal_round_robin(deck, n, first=(dealer + 1) % n, count=each)
        dealt = sum(len(h) for h in hands)
        if not _can_open(deck[:dealt], state.options.any_seven_starts):
            return [DealVoided(hand_no)]
        events: list[Event] = [HandStarted(hand_no, dealer, tuple(len(h) for h in hands))]
        events += [HandDealt(hand_no, seat, hand) for seat, hand in enumerate(hands)]
        if dealt < 52:
            events.append(CardsSetAside(hand_no, tuple(sorted(deck[dealt:]))))
        return events

    def evolve(self, state: FanTanState, event: Event) -> FanTanState:
        match event:
            case DealerChosen(dealer=dealer):
                return replace(state, dealer=dealer, phase="deal")
            case DealVoided():
                return replace(state, redeals=state.redeals + 1)
            case HandStarted(hand=hand, dealer=dealer):
                return replace(
                    state,
                    hand=hand,
                    dealer=dealer,
                    phase="play",
                    redeals=0,
                    hands=tuple(() for _ in range(state.players)),
                    rows=(None, None, None, None),
                    turn=None,
                    started=False,
                    passes_in_a_row=0,
                )
            case HandDealt(seat=seat, cards=dealt):
                hands = list(state.hands)
                hands[seat] = dealt
                new = replace(state, hands=tuple(hands))
                return replace(new, turn=self._opening_seat(new))
            case CardsSetAside():
                return state
            case CardPlayed(seat=seat, card=played):
                return self._after_play(state, seat, played)
            case Passed(seat=seat):
                return replace(
                    state,
                    turn=(seat + 1) % state.players,
                    passes_in_a_row=state.passes_in_a_row + 1,
                )
            case HandWon(seat=seat):
                return replace(state, turn=None, last_winner=seat)
            case HandBlocked():
                return replace(state, turn=None, last_winner=None)
            case HandScored(totals=totals):
                new = replace(state, totals=totals, hands_played=state.hands_played + 1, turn=None)
                return replace(new, phase="over" if self._match_ended(new) else "deal")
        raise TypeError(f"not a Fan Tan event: {event!r}")

    # ----- turns and legality ----------------------------------------------------------
    def decision(self, state: FanTanState, seat: int) -> str | None:
        return decision(state, seat)

    def turn_timer(self, state: FanTanState, seat: int) -> int | None:
        """The table's card timer (20 s by default); passes are automatic, never timed."""
        return state.options.clock.seconds(decision(state, seat))

    def to_act(self, state: FanTanState) -> frozenset[int]:
        if state.phase != "play" or state.turn is None:
            return frozenset()
        return frozenset((state.turn,))

    def legal_actions(self, state: FanTanState, seat: int) -> Sequence[FanTanAction]:
        if seat not in self.to_act(state):
            return ()
        return tuple(Play(c) for c in self._playable(state, state.hands[seat]))

    def _playable(self, state: FanTanState, hand: tuple[Card, ...]) -> list[Card]:
        """The cards of ``hand`` that may be played now (fast path of ``_card_reason``:
        a card is playable exactly when ``_card_reason`` gives ``None``)."""
        if not state.started:
            if self._can_open_with_any_seven(state):
                return [c for c in hand if c.rank == Rank.SEVEN]
            return [c for c in hand if c == SEVEN_OF_DIAMONDS]
        rows = state.rows
        return [c for c in hand if c.rank == Rank.SEVEN or _extends(rows[c.suit], c)]

    def why_illegal(self, state: FanTanState, seat: int, action: FanTanAction) -> Reason | None:
        if isinstance(action, Pass):
            return Reason.of("fantan.must_play")
        return self._card_reason(state, seat, action.card)

    def _card_reason(self, state: FanTanState, seat: int, card: Card) -> Reason | None:
        if card not in state.hands[seat]:
            return Reason.of("fantan.not_in_hand", card=card.code)
        if not state.started:
            if self._can_open_with_any_seven(state):
                if card.rank == Rank.SEVEN:
                    return None
                return Reason.of("fantan.seven_first", card=card.code)
            if card == SEVEN_OF_DIAMONDS:
                return None
            return Reason.of("fantan.seven_of_diamonds_first", card=card.code)
        if card.rank == Rank.SEVEN:
            return None
        row = state.rows[card.suit]
        if row is None:
            return Reason.of("fantan.row_not_open", card=card.code, suit=card.suit.letter)
        value = building_rank(card)
        if value in (row[0] - 1, row[1] + 1):
            return None
        return Reason.of(
            "fantan.not_adjacent",
            card=card.code,
            low=rank_code(row[0], card.suit),
            high=rank_code(row[1], card.suit),
        )

    def _can_open_with_any_seven(self, state: FanTanState) -> bool:
        dealt = any(SEVEN_OF_DIAMONDS in hand for hand in state.hands)
        return state.options.any_seven_starts and not dealt

    def _opening_seat(self, state: FanTanState) -> int | None:
        """Who makes the first move once every hand is known: the holder of 7♦, or with
        ``any_seven_starts`` (7♦ set aside) the first seat from the dealer's left holding a
        seven. ``None`` while hands are still being dealt or nobody can open."""
        if any(len(h) == 0 for h in state.hands):
            return None
        n = state.players
        for step in range(1, n + 1):
            seat = (state.dealer + step) % n
            hand = state.hands[seat]
            if SEVEN_OF_DIAMONDS in hand:
                return seat
        if state.options.any_seven_starts:
            for step in range(1, n + 1):
                seat = (state.dealer + step) % n
                if any(c.rank == Rank.SEVEN for c in state.hands[seat]):
                    return seat
        return None

    def apply(self, state: FanTanState, seat: int, action: FanTanAction) -> list[Event]:
        assert isinstance(action, Play)
        events: list[Event] = [CardPlayed(seat, action.card)]
        after = self.evolve(state, events[0])
        if not after.hands[seat]:
            return [*events, *self._end_hand(after, winner=seat)]
        # Forced passes: every following seat with nothing to play passes explicitly.
        current = (seat + 1) % state.players
        for _ in range(state.players):
            if self._playable(after, after.hands[current]):
                return events
            events.append(Passed(current))
            after = self.evolve(after, events[-1])
            current = (current + 1) % state.players
        return [*events, *self._end_hand(after, winner=None)]

    def _end_hand(self, state: FanTanState, winner: int | None) -> list[Event]:
        ended: Event = (
            HandWon(state.hand, winner) if winner is not None else HandBlocked(state.hand)
        )
        penalties = tuple(sum(state.options.card_penalty(c) for c in hand) for hand in state.hands)
        totals = tuple(t + p for t, p in zip(state.totals, penalties, strict=True))
        left = tuple(len(h) for h in state.hands)
        return [ended, HandScored(state.hand, penalties, totals, left)]

    def _match_ended(self, state: FanTanState) -> bool:
        limit = state.options.penalty_limit
        if limit and max(state.totals) >= limit:
            return True
        planned = self.hands_in_match(state)
        return planned is not None and state.hands_played >= planned

    # ----- what seats see --------------------------------------------------------------
    def view(self, state: FanTanState, seat: int | None) -> FanTanView:
        rows = tuple(
            RowView(suit=Suit(i), low=rank_code(r[0], Suit(i)), high=rank_code(r[1], Suit(i)))
            for i, r in enumerate(state.rows)
            if r is not None
        )
        return FanTanView(
            seat=seat,
            phase=state.phase,
            hand_number=state.hand,
            hands_in_match=self.hands_in_match(state) or 0,
            dealer=state.dealer,
            turn=state.turn,
            hand=state.hands[seat] if seat is not None and state.hands else (),
            card_counts=tuple(len(h) for h in state.hands),
            rows=rows,
            totals=state.totals,
        )

    def standings(self, state: FanTanState) -> tuple[SeatScore, ...]:
        return rank_scores(state.totals, lower_wins=True)

    def is_over(self, state: FanTanState) -> bool:
        return state.phase == "over"

    def automatic_action(self, state: FanTanState, seat: int) -> tuple[FanTanAction, Reason]:
        """On a timeout: the legal card that opens least for others (not a seven if
        avoidable, then the card farthest from the centre of its row)."""
        legal = [a for a in self.legal_actions(state, seat) if isinstance(a, Play)]
        if not legal:
            return super().automatic_action(state, seat)
        best = min(
            legal,
            key=lambda a: (a.card.rank == Rank.SEVEN, -abs(building_rank(a.card) - 7), a.card),
        )
        return best, Reason.of("fantan.auto.safe_card", card=best.card.code)

    # ----- encoding ----------------------------------------------------------------------
    def encode_action(self, action: FanTanAction) -> str:
        return "pass" if isinstance(action, Pass) else action.card.code

    def decode_action(self, code: str) -> FanTanAction:
        if code.strip().lower() == "pass":
            return Pass()
        try:
            return Play(Card.parse(code))
        except ValueError:
            raise self.malformed(code) from None

    def describe_action(self, action: FanTanAction) -> str:
        return "pass" if isinstance(action, Pass) else action.card.label

    def messages(self) -> Mapping[str, Mapping[str, str]]:
        return MESSAGES

    # ----- helpers -----------------------------------------------------------------------
    def _after_play(self, state: FanTanState, seat: int, played: Card) -> FanTanState:
        hands = list(state.hands)
        hands[seat] = remove_card(hands[seat], played)
        rows = list(state.rows)
        value = building_rank(played)
        row = rows[played.suit]
        if row is None:
            rows[played.suit] = (value, value)
        else:
            rows[played.suit] = (min(row[0], value), max(row[1], value))
        return replace(
            state,
            hands=tuple(hands),
            rows=tuple(rows),
            started=True,
            turn=(seat + 1) % state.players,
            passes_in_a_row=0,
        )


def _extends(row: Row | None, card: Card) -> bool:
    """Whether ``card`` sits one rank below or above the ends of its open row."""
    return row is not None and building_rank(card) in (row[0] - 1, row[1] + 1)


def _can_open(dealt: Sequence[Card], any_seven_starts: bool) -> bool:
    """Whether some seat can make the first move: 7♦ was dealt, or (house rule) any seven
    was. Otherwise the deal is void and dealt again."""
    if SEVEN_OF_DIAMONDS in dealt:
        return True
    return any_seven_starts and any(c.rank == Rank.SEVEN for c in dealt)


GAME = FanTan()
