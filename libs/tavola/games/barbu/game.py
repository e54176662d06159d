"""Barbu rules: lifecycle, legality, decisions and encoding (see the package docstring)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from tavola.games.barbu import actions as codes
from tavola.games.barbu.actions import BarbuAction, ChooseContract, Double, PlayCard
from tavola.games.barbu.contracts import (
    DOMINO_PLACE_POINTS,
    PENALTY_CARD_COUNT,
    Contract,
    is_penalty_card,
)
from tavola.games.barbu.contracts import trick_points as points_of_trick
from tavola.games.barbu.doubling import allowed_targets, legal_doubles, why_double_illegal
from tavola.games.barbu.events import (
    EVENT_TYPES,
    CardPlayed,
    ContractChosen,
    DealEndedEarly,
    DealStarted,
    DoublesDeclared,
    FirstDeclarerDrawn,
    HandDealt,
    Passed,
    TrickWon,
    WentOut,
)
from tavola.games.barbu.messages import MESSAGES
from tavola.games.barbu.play import legal_cards, why_card_illegal
from tavola.games.barbu.scoring import score_deal
from tavola.games.barbu.state import DEALS_PER_BLOCK, SEATS, BarbuOptions, BarbuState
from tavola.games.barbu.timers import TIMERS, decision
from tavola.games.barbu.transitions import advance, evolve
from tavola.games.barbu.views import BarbuView, build_view, describe
from tavola.rules.cards import (
    Rank,
    Suit,
    deal_round_robin,
    deck_from_permutation,
    standard_deck,
    winner_by_rank,
)
from tavola.rules.errors import IllegalAction, Reason
from tavola.rules.interface import (
    ChanceRequest,
    Event,
    GameInfo,
    OptionSpec,
    OptionValue,
    SeatScore,
    TrickGame,
    rank_scores,
)

if TYPE_CHECKING:
    from tavola.bots.interface import GameBots

DECK = standard_deck()
PLAYS = tuple(PlayCard(c) for c in DECK)  # one action per card, by card index


class Barbu(TrickGame[BarbuState, BarbuAction]):
    info = GameInfo(
        name="barbu",
        title="Barbu",
        min_players=4,
        max_players=4,
        rules_version=1,
        options=(
            OptionSpec("fixed_order", "bool", False, "barbu.option.fixed_order", house_rule=False),
            OptionSpec("no_doubling", "bool", False, "barbu.option.no_doubling", house_rule=False),
            OptionSpec("play_out_all_tricks", "bool", False, "barbu.option.play_out_all_tricks"),
            OptionSpec("void_must_trump", "bool", False, "barbu.option.void_must_trump"),
            OptionSpec("blocks", "int", 4, "barbu.option.blocks", minimum=1, maximum=4),
            *TIMERS.options(),
        ),
        event_types=EVENT_TYPES,
        short={"blocks": 1},
    )

    # ----- lifecycle -------------------------------------------------------------------
    def initial_state(self, players: int, options: Mapping[str, OptionValue]) -> BarbuState:
        if players != SEATS:
            raise IllegalAction(Reason.of("barbu.four_players", players=players))
        rest, clock = TIMERS.split(self.parse_options(options))
        return BarbuState(options=BarbuOptions(**rest, clock=clock))  # type: ignore[arg-type]

    def players(self, state: BarbuState) -> int:
        return SEATS

    def chance(self, state: BarbuState) -> ChanceRequest | None:
        if state.phase == "draw":
            return ChanceRequest("first-declarer", "draw", SEATS)
        if state.phase == "deal":
            return ChanceRequest(f"deal/{state.deal + 1}", "shuffle", len(DECK))
        return None

    def resolve_chance(
        self, state: BarbuState, request: ChanceRequest, outcome: tuple[int, ...]
    ) -> list[Event]:
        if request != self.chance(state):
            raise ValueError(f"unexpected chance request {request}")
        if request.kind == "draw":
            return [FirstDeclarerDrawn(outcome[0])]
        deal = state.deal + 1
        declarer = state.declarer
        if deal > 1 and (deal - 1) % DEALS_PER_BLOCK == 0:
            declarer = (declarer + 1) % SEATS
        dealer = (declarer - 1) % SEATS
        deck = deck_from_permutation(DECK, outcome)
        hands = deal_round_robin(deck, SEATS, first=declarer, count=13)
        events: list[Event] = [
            DealStarted(deal, declarer, dealer, (declarer + 2) % SEATS, (13,) * SEATS)
        ]
        events += [HandDealt(deal, seat, hand) for seat, hand in enumerate(hands)]
        return events

    def evolve(self, state: BarbuState, event: Event) -> BarbuState:
        return evolve(state, event)

    # ----- turns and legality ----------------------------------------------------------
    def to_act(self, state: BarbuState) -> frozenset[int]:
        if state.turn is None or state.phase not in ("contract", "doubling", "play"):
            return frozenset()
        return frozenset((state.turn,))

    def legal_actions(self, state: BarbuState, seat: int) -> Sequence[BarbuAction]:
        if seat != state.turn or state.phase not in ("contract", "doubling", "play"):
            return ()
        legal: tuple[BarbuAction, ...] | None = state.legal
        if legal is None:
            state.legal = legal = self._legal(state, seat)
        return legal

    def _legal(self, state: BarbuState, seat: int) -> tuple[BarbuAction, ...]:
        if state.phase == "contract":
            return self._contract_choices(state)
        if state.phase == "doubling":
            return tuple(Double(t) for t in legal_doubles(state, seat))
        return tuple(PLAYS[c.suit * 13 + c.rank - 2] for c in legal_cards(state, seat))

    def _contract_choices(self, state: BarbuState) -> tuple[ChooseContract, ...]:
        remaining = state.remaining[state.declarer]
        if state.options.fixed_order:
            remaining = remaining[:1]
        choices: list[ChooseContract] = []
        for contract in remaining:
            if contract == Contract.TRUMPS:
                choices += [ChooseContract(contract, trump=suit) for suit in Suit]
            elif contract == Contract.DOMINO:
                choices += [ChooseContract(contract, start_rank=rank) for rank in Rank]
            else:
                choices.append(ChooseContract(contract))
        return tuple(choices)

    def why_illegal(self, state: BarbuState, seat: int, action: BarbuAction) -> Reason | None:
        if seat != state.turn or state.phase not in ("contract", "doubling", "play"):
            return Reason.of("barbu.not_on_turn", seat=seat)
        if state.phase == "contract":
            if not isinstance(action, ChooseContract):
                return Reason.of("barbu.expected_contract")
            return self._contract_reason(state, action)
        if state.phase == "doubling":
            if not isinstance(action, Double):
                return Reason.of("barbu.expected_double")
            if action.targets != tuple(sorted(set(action.targets))) or any(
                not 0 <= t < SEATS for t in action.targets
            ):
                return Reason.of("barbu.bad_double_list")
            return why_double_illegal(state, seat, action.targets)
        if not isinstance(action, PlayCard):
            if state.contract == Contract.DOMINO and action == Double(()):
                return Reason.of("barbu.must_play")
            return Reason.of("barbu.expected_card")
        if action.card in legal_cards(state, seat):
            return None
        return why_card_illegal(state, seat, action.card)

    def _contract_reason(self, state: BarbuState, action: ChooseContract) -> Reason | None:
        contract = action.contract
        needs_trump = contract == Contract.TRUMPS
        needs_rank = contract == Contract.DOMINO
        if (action.trump is not None) != needs_trump or (
            action.start_rank is not None
        ) != needs_rank:
            return Reason.of("barbu.contract_parameter", contract=contract.code)
        remaining = state.remaining[state.declarer]
        if contract not in remaining:
            return Reason.of("barbu.contract_used", contract=contract.code)
        if state.options.fixed_order and contract != remaining[0]:
            return Reason.of("barbu.fixed_order", contract=remaining[0].code)
        return None

    # ----- decisions -------------------------------------------------------------------
    def decide(self, state: BarbuState, seat: int, action: BarbuAction) -> list[Event]:
        """``Game.decide`` with a shortcut for the common command: one of the legal actions
        just listed for the seat on turn (the very object: every check then passes)."""
        legal = state.legal
        if legal is not None and seat == state.turn:
            for choice in legal:
                if choice is action:
                    return self.apply(state, seat, choice)
        return super().decide(state, seat, action)

    def apply(self, state: BarbuState, seat: int, action: BarbuAction) -> list[Event]:
        if isinstance(action, ChooseContract):
            first: Event = ContractChosen(
                state.deal, seat, action.contract, action.trump, action.start_rank
            )
        elif isinstance(action, Double):
            first = DoublesDeclared(state.deal, seat, action.targets, False)
        else:
            first = CardPlayed(seat, action.card)
        events: list[Event] = [first]
        state = advance(state, first)
        if isinstance(action, PlayCard):
            consequences = self._after_card(state, seat)
            state = _folded(state, consequences)
            events += consequences
        return events + self._automatic_events(state)

    def _after_card(self, state: BarbuState, seat: int) -> list[Event]:
        """What a played card completes: a trick (and maybe the deal), or a Domino exit."""
        if state.contract == Contract.DOMINO:
            if state.hands[seat]:
                return []
            place = len(state.finished) + 1
            out: list[Event] = [WentOut(seat, place, DOMINO_PLACE_POINTS[place - 1])]
            if place == SEATS - 1:
                out += score_deal(_folded(state, out))
            return out
        trick = state.trick
        assert trick is not None and state.contract is not None
        if len(trick.plays) < SEATS:
            return []
        won = self._trick_won(state)
        after = advance(state, won)
        if after.tricks_played == 13:
            return [won, *score_deal(after)]
        if self._all_scoring_cards_taken(after):
            ended = DealEndedEarly(state.deal, after.tricks_played)
            return [won, ended, *score_deal(advance(after, ended))]
        return [won]

    def _trick_won(self, state: BarbuState) -> TrickWon:
        trick = state.trick
        assert trick is not None and state.contract is not None
        cards = trick.cards()
        number = state.tricks_played + 1
        winner = winner_by_rank(trick, state.trump)
        points = points_of_trick(state.contract, number, cards)
        penalty = tuple(c for c in cards if is_penalty_card(state.contract, c))
        return TrickWon(number, winner, cards, points, penalty)

    def _all_scoring_cards_taken(self, state: BarbuState) -> bool:
        if state.options.play_out_all_tricks or state.contract not in PENALTY_CARD_COUNT:
            return False
        captured = sum(len(c) for c in state.captured)
        return captured == PENALTY_CARD_COUNT[state.contract]

    def _automatic_events(self, state: BarbuState) -> list[Event]:
        """Forced passes: a declarer nobody doubled, a Domino seat with no playable card."""
        events: list[Event] = []
        for _ in range(2 * SEATS):
            seat = state.turn
            if seat is None:
                break
            if state.phase == "doubling" and not allowed_targets(state, seat):
                event: Event = DoublesDeclared(state.deal, seat, (), True)
            elif (
                state.phase == "play"
                and state.contract == Contract.DOMINO
                and not legal_cards(state, seat)
            ):
                event = Passed(seat)
            else:
                break
            events.append(event)
            state = advance(state, event)
        return events

    # ----- timers ------------------------------------------------------------------------
    def decision(self, state: BarbuState, seat: int) -> str | None:
        return decision(state, seat)

    def turn_timer(self, state: BarbuState, seat: int) -> int | None:
        """The table's timers: 45 s for a contract, 20 s for a doubling turn, 25 s for a
        card, 20 s for a Domino card (defaults)."""
        return state.options.clock.seconds(decision(state, seat))

    def automatic_action(self, state: BarbuState, seat: int) -> tuple[BarbuAction, Reason]:
        """Contract: the first remaining in book order (Trumps: the longest suit; Domino: the
        rank held most often, nearest 8). Doubling: pass, or the declarer only when
        obligated. Card: the lowest legal card."""
        legal = self.legal_actions(state, seat)
        if not legal:
            return super().automatic_action(state, seat)
        if state.phase == "contract":
            choice = _auto_contract(state, seat, legal)
            return choice, Reason.of("barbu.auto.contract", contract=codes.encode(choice))
        if state.phase == "doubling":
            if state.must_double_declarer(seat):
                return Double((state.declarer,)), Reason.of(
                    "barbu.auto.double_declarer", declarer=state.declarer
                )
            return Double(()), Reason.of("barbu.auto.pass")
        cards = [a.card for a in legal if isinstance(a, PlayCard)]
        low = min(cards, key=lambda c: (c.rank, c.suit))
        return PlayCard(low), Reason.of("barbu.auto.card", card=low.code)

    # ----- what seats see --------------------------------------------------------------
    def view(self, state: BarbuState, seat: int | None) -> BarbuView:
        return build_view(state, seat)

    def standings(self, state: BarbuState) -> tuple[SeatScore, ...]:
        return rank_scores(state.totals)

    def is_over(self, state: BarbuState) -> bool:
        return state.phase == "over"

    # ----- encoding ----------------------------------------------------------------------
    def encode_action(self, action: BarbuAction) -> str:
        return codes.encode(action)

    def decode_action(self, code: str) -> BarbuAction:
        action = codes.decode(code)
        if action is None:
            raise self.malformed(code)
        return action

    def describe_action(self, action: BarbuAction) -> str:
        return describe(action)

    def bots(self) -> GameBots:
        from tavola.games.barbu.bots import BOTS

        return BOTS

    def messages(self) -> Mapping[str, Mapping[str, str]]:
        return MESSAGES


def _folded(state: BarbuState, events: list[Event]) -> BarbuState:
    """The state after ``events``, each fold remembered (``transitions.advance``)."""
    for event in events:
        state = advance(state, event)
    return state


def _auto_contract(state: BarbuState, seat: int, legal: Sequence[BarbuAction]) -> ChooseContract:
    choices = [a for a in legal if isinstance(a, ChooseContract)]
    first = choices[0].contract
    options = [a for a in choices if a.contract == first]
    hand = state.hands[seat]
    if first == Contract.TRUMPS:
        return max(options, key=lambda a: (sum(c.suit == a.trump for c in hand), -(a.trump or 0)))
    if first == Contract.DOMINO:
        return max(
            options,
            key=lambda a: (
                sum(c.rank == a.start_rank for c in hand),
                -abs((a.start_rank or 8) - 8),
            ),
        )
    return options[0]


GAME = Barbu()
