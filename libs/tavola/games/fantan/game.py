"""Fan Tan rules: state, legality, transitions, views and scoring (see package docstring)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

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
from tavola.games.fantan.state import (
    SEVEN_OF_DIAMONDS_BIT,
    SEVENS,
    FanTanState,
    advance,
    evolve,
    hands_in_match,
)
from tavola.games.fantan.timers import TIMERS, decision
from tavola.games.fantan.views import FanTanView, RowView, rank_code
from tavola.rules.cards import (
    Card,
    Rank,
    Suit,
    deal_round_robin,
    deck_from_permutation,
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

if TYPE_CHECKING:
    from tavola.bots.interface import GameBots

SEVEN_OF_DIAMONDS = Card(Suit.DIAMONDS, Rank.SEVEN)
PLAYS = tuple(Play(c) for c in standard_deck())  # one action per card, by card index
ON_TURN = tuple(frozenset((seat,)) for seat in range(8))


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
        short={"hands": 1},
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
        return hands_in_match(state)

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
        return evolve(state, event)

    # ----- turns and legality ----------------------------------------------------------
    def decision(self, state: FanTanState, seat: int) -> str | None:
        return decision(state, seat)

    def turn_timer(self, state: FanTanState, seat: int) -> int | None:
        """The table's card timer (20 s by default); passes are automatic, never timed."""
        return state.options.clock.seconds(decision(state, seat))

    def to_act(self, state: FanTanState) -> frozenset[int]:
        if state.phase != "play" or state.turn is None:
            return frozenset()
        return ON_TURN[state.turn]

    def legal_actions(self, state: FanTanState, seat: int) -> Sequence[FanTanAction]:
        if seat != state.turn or state.phase != "play":
            return ()
        legal: tuple[FanTanAction, ...] | None = state.legal
        if legal is None:
            allowed = state.masks[seat] & self._playable_bits(state)
            if state.ordered:
                legal = tuple(PLAYS[i] for i in _indexes(allowed))
            else:
                plays = (PLAYS[c.suit * 13 + c.rank - 2] for c in state.hands[seat])
                legal = tuple(p for p in plays if allowed & _bit(p.card))
            state.legal = legal
        return legal

    def _playable_bits(self, state: FanTanState) -> int:
        """The cards that may be played now, as bits (``_card_reason`` gives ``None`` for
        exactly these cards of a hand)."""
        if state.started:
            return state.open
        if self._can_open_with_any_seven(state):
            return SEVENS
        return SEVEN_OF_DIAMONDS_BIT

    def _playable(self, state: FanTanState, hand: tuple[Card, ...]) -> list[Card]:
        """The cards of ``hand`` that may be played now."""
        playable = self._playable_bits(state)
        return [c for c in hand if playable & _bit(c)]

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
        dealt = any(mask & SEVEN_OF_DIAMONDS_BIT for mask in state.masks)
        return state.options.any_seven_starts and not dealt

    def decide(self, state: FanTanState, seat: int, action: FanTanAction) -> list[Event]:
        """``Game.decide`` with a shortcut for the common command: one of the legal plays
        just listed for the seat on turn (the very object: every check then passes)."""
        legal = state.legal
        if legal is not None and seat == state.turn and state.phase == "play":
            for play in legal:
                if play is action:
                    return self.apply(state, seat, play)
        return super().decide(state, seat, action)

    def apply(self, state: FanTanState, seat: int, action: FanTanAction) -> list[Event]:
        assert isinstance(action, Play)
        events: list[Event] = [CardPlayed(seat, action.card)]
        after = advance(state, events[0])
        if not after.masks[seat]:
            return [*events, *self._end_hand(after, winner=seat)]
        # Forced passes: every following seat with nothing to play passes explicitly.
        players = state.players
        current = (seat + 1) % players
        for _ in range(players):
            if after.masks[current] & after.open:  # (the hand has started: ``open`` rules)
                return events
            events.append(Passed(current))
            after = advance(after, events[-1])
            current = (current + 1) % players
        return [*events, *self._end_hand(after, winner=None)]

    def _end_hand(self, state: FanTanState, winner: int | None) -> list[Event]:
        ended: Event = (
            HandWon(state.hand, winner) if winner is not None else HandBlocked(state.hand)
        )
        penalties = tuple(sum(state.options.card_penalty(c) for c in hand) for hand in state.hands)
        totals = tuple(t + p for t, p in zip(state.totals, penalties, strict=True))
        left = tuple(len(h) for h in state.hands)
        return [ended, HandScored(state.hand, penalties, totals, left)]

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

    def bots(self) -> GameBots:
        from tavola.games.fantan.bots import BOTS

        return BOTS

    def messages(self) -> Mapping[str, Mapping[str, str]]:
        return MESSAGES


def _bit(card: Card) -> int:
    return 1 << (card.suit * 13 + card.rank - 2)


def _indexes(mask: int) -> list[int]:
    """The set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _can_open(dealt: Sequence[Card], any_seven_starts: bool) -> bool:
    """Whether some seat can make the first move: 7♦ was dealt, or (house rule) any seven
    was. Otherwise the deal is void and dealt again."""
    if SEVEN_OF_DIAMONDS in dealt:
        return True
    return any_seven_starts and any(c.rank == Rank.SEVEN for c in dealt)


GAME = FanTan()
