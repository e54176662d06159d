"""Spades rules: chance, transitions, legality and encoding (see package docstring)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from tavola.games.spades.actions import Bid, BlindNil, Play, SpadesAction
from tavola.games.spades.bidding import MAX_BID, bid_reason, suggested_bid
from tavola.games.spades.events import (
    BidMade,
    CardPlayed,
    DealerChosen,
    ExtraHandCalled,
    HandDealt,
    HandScored,
    HandStarted,
    MatchEnded,
    PlayStarted,
    SpadesBroken,
    TrickTaken,
)
from tavola.games.spades.messages import MESSAGES
from tavola.games.spades.play import SPADE, card_reason, legal_cards
from tavola.games.spades.scoring import match_outcome, settle_hand, team_of
from tavola.games.spades.state import SEATS, SpadesOptions, SpadesState
from tavola.games.spades.timers import TIMERS, decision
from tavola.games.spades.views import SpadesView, build_view, safe_card_for
from tavola.rules.cards import (
    Card,
    Trick,
    deal_round_robin,
    deck_from_permutation,
    remove_card,
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

TRICKS_PER_HAND = 13
ALL_BIDS = tuple(Bid(n) for n in range(MAX_BID + 1))


def _set(values: tuple[int | None, ...], index: int, value: int) -> tuple[int | None, ...]:
    return (*values[:index], value, *values[index + 1 :])


class Spades(TrickGame[SpadesState, SpadesAction]):
    info = GameInfo(
        name="spades",
        title="Spades",
        min_players=SEATS,
        max_players=SEATS,
        rules_version=1,
        options=(
            OptionSpec("target", "int", 500, "spades.option.target", minimum=50, maximum=2000),
            OptionSpec("floor", "int", -200, "spades.option.floor", minimum=-2000, maximum=-50),
            OptionSpec("hands", "int", 0, "spades.option.hands", minimum=0, maximum=50),
            *TIMERS.options(),
        ),
        event_types=(
            DealerChosen,
            HandStarted,
            HandDealt,
            BidMade,
            PlayStarted,
            CardPlayed,
            SpadesBroken,
            TrickTaken,
            HandScored,
            ExtraHandCalled,
            MatchEnded,
        ),
        teams=True,
    )

    # ----- lifecycle -------------------------------------------------------------------
    def initial_state(self, players: int, options: Mapping[str, OptionValue]) -> SpadesState:
        if players != SEATS:
            raise IllegalAction(Reason.of("spades.players", players=players))
        rest, clock = TIMERS.split(self.parse_options(options))
        return SpadesState(options=SpadesOptions(**rest, clock=clock))  # type: ignore[arg-type]

    def players(self, state: SpadesState) -> int:
        return SEATS

    def chance(self, state: SpadesState) -> ChanceRequest | None:
        if state.phase == "draw_dealer":
            return ChanceRequest("first-dealer", "draw", SEATS)
        if state.phase == "deal":
            return ChanceRequest(f"deal/{state.hand + 1}", "shuffle", 52)
        return None

    def resolve_chance(
        self, state: SpadesState, request: ChanceRequest, outcome: tuple[int, ...]
    ) -> list[Event]:
        if request != self.chance(state):
            raise ValueError(f"unexpected chance request {request}")
        if request.kind == "draw":
            return [DealerChosen(dealer=outcome[0])]
        deck = deck_from_permutation(standard_deck(), outcome)
        number = state.hand + 1
        dealer = state.dealer if number == 1 else (state.dealer + 1) % SEATS
        hands = deal_round_robin(deck, SEATS, first=(dealer + 1) % SEATS, count=13)
        events: list[Event] = [HandStarted(number, dealer, (13,) * SEATS)]
        events += [HandDealt(number, seat, cards) for seat, cards in enumerate(hands)]
        return events

    def evolve(self, state: SpadesState, event: Event) -> SpadesState:
        match event:
            case CardPlayed(seat=seat, card=played):
                assert state.trick is not None
                hands = list(state.hands)
                hands[seat] = remove_card(hands[seat], played)
                return replace(
                    state,
                    hands=tuple(hands),
                    turn=(seat + 1) % SEATS,
                    trick=state.trick.with_play(seat, played),
                )
            case TrickTaken(number=number, seat=seat):
                return self._after_trick(state, number, seat)
            case BidMade(seat=seat, tricks=tricks):
                return replace(state, bids=_set(state.bids, seat, tricks), turn=(seat + 1) % SEATS)
            case PlayStarted(leader=leader):
                return replace(state, phase="play", trick=Trick(leader), turn=leader)
            case SpadesBroken():
                return replace(state, spades_broken=True)
            case HandDealt(seat=seat, cards=dealt):
                hands = list(state.hands)
                hands[seat] = dealt
                return replace(state, hands=tuple(hands))
        return self._evolve_match(state, event)

    def _evolve_match(self, state: SpadesState, event: Event) -> SpadesState:
        match event:
            case DealerChosen(dealer=dealer):
                return replace(state, dealer=dealer, phase="deal")
            case HandStarted(hand=hand, dealer=dealer):
                return replace(
                    state,
                    phase="bidding",
                    hand=hand,
                    dealer=dealer,
                    hands=((),) * SEATS,
                    bids=(None,) * SEATS,
                    turn=(dealer + 1) % SEATS,
                    trick=None,
                    last_trick=None,
                    last_winner=None,
                    tricks=(0,) * SEATS,
                    spades_broken=False,
                )
            case HandScored(scores=scores, bags=bags):
                return replace(
                    state,
                    phase="deal",
                    scores=scores,
                    bags=bags,
                    turn=None,
                    trick=None,
                    hands_played=state.hands_played + 1,
                )
            case ExtraHandCalled():
                return replace(state, deciding=True)
            case MatchEnded(winner=winner):
                return replace(state, phase="over", winner=winner, turn=None)
        raise TypeError(f"not a Spades event: {event!r}")

    def _after_trick(self, state: SpadesState, number: int, seat: int) -> SpadesState:
        tricks = list(state.tricks)
        tricks[seat] += 1
        more = number < TRICKS_PER_HAND
        return replace(
            state,
            tricks=tuple(tricks),
            last_trick=state.trick,
            last_winner=seat,
            trick=Trick(seat) if more else None,
            turn=seat if more else None,
        )

    # ----- turns and legality ----------------------------------------------------------
    def decision(self, state: SpadesState, seat: int) -> str | None:
        return decision(state, seat)

    def turn_timer(self, state: SpadesState, seat: int) -> int | None:
        """The table's timers (rule book: 30 s for a bid, 25 s for a card)."""
        return state.options.clock.seconds(decision(state, seat))

    def to_act(self, state: SpadesState) -> frozenset[int]:
        if state.phase not in ("bidding", "play") or state.turn is None:
            return frozenset()
        return frozenset((state.turn,))

    def legal_actions(self, state: SpadesState, seat: int) -> Sequence[SpadesAction]:
        if seat != state.turn or state.phase not in ("bidding", "play"):
            return ()
        if state.phase == "bidding":
            return ALL_BIDS
        assert state.trick is not None
        cards = legal_cards(state.hands[seat], state.trick.led_suit, state.spades_broken)
        return tuple(Play(c) for c in cards)

    def why_illegal(self, state: SpadesState, seat: int, action: SpadesAction) -> Reason | None:
        if seat not in self.to_act(state):
            on_turn = ",".join(str(s) for s in sorted(self.to_act(state)))
            return Reason.of("game.not_your_turn", seat=seat, on_turn=on_turn)
        if state.phase == "bidding":
            if isinstance(action, BlindNil):
                return Reason.of("spades.no_blind_nil")
            if isinstance(action, Bid):
                return bid_reason(action.tricks)
            return Reason.of("spades.bid_first", card=action.card.code)
        if not isinstance(action, Play):
            return Reason.of("spades.bidding_over")
        assert state.trick is not None
        return card_reason(
            state.hands[seat], state.trick.led_suit, state.spades_broken, action.card
        )

    def apply(self, state: SpadesState, seat: int, action: SpadesAction) -> list[Event]:
        if isinstance(action, Bid):
            return self._apply_bid(state, seat, action.tricks)
        assert isinstance(action, Play) and state.trick is not None
        events: list[Event] = [CardPlayed(seat, action.card)]
        if action.card.suit == SPADE and not state.spades_broken:
            events.append(SpadesBroken(state.hand, seat))
        trick = state.trick.with_play(seat, action.card)
        if len(trick.plays) < SEATS:
            return events
        number = sum(state.tricks) + 1
        events.append(TrickTaken(state.hand, number, winner_by_rank(trick, SPADE)))
        if number == TRICKS_PER_HAND:
            events += self._end_hand(self.fold(state, events))
        return events

    def _apply_bid(self, state: SpadesState, seat: int, tricks: int) -> list[Event]:
        events: list[Event] = [BidMade(seat, tricks)]
        bids = [tricks if s == seat else b for s, b in enumerate(state.bids)]
        if any(b is None for b in bids):
            return events
        b = [x or 0 for x in bids]
        contracts = (b[0] + b[2], b[1] + b[3])
        events.append(PlayStarted(state.hand, contracts, (state.dealer + 1) % SEATS))
        return events

    def _end_hand(self, state: SpadesState) -> list[Event]:
        bids = tuple(b or 0 for b in state.bids)
        teams = settle_hand(bids, state.tricks, state.scores, state.bags)
        scores = (teams[0].score_after, teams[1].score_after)
        bags = (teams[0].bags_after, teams[1].bags_after)
        events: list[Event] = [HandScored(state.hand, teams, scores, bags)]
        opts = state.options
        outcome = match_outcome(
            scores,
            state.deciding,
            target=opts.target,
            floor=opts.floor,
            hands_played=state.hands_played + 1,
            hands=opts.hands,
        )
        if outcome == "extra":
            events.append(ExtraHandCalled(state.hand, scores[0]))
        elif outcome == "ended":
            events.append(MatchEnded(state.hand, 0 if scores[0] > scores[1] else 1, scores))
        return events

    # ----- what seats see --------------------------------------------------------------
    def view(self, state: SpadesState, seat: int | None) -> SpadesView:
        return build_view(state, seat)

    def standings(self, state: SpadesState) -> tuple[SeatScore, ...]:
        """Each seat gets its partnership's score; ranks are by partnership (1 or 2)."""
        team_rank = rank_scores(state.scores)
        return tuple(
            SeatScore(s, state.scores[team_of(s)], team_rank[team_of(s)].rank) for s in range(SEATS)
        )

    def is_over(self, state: SpadesState) -> bool:
        return state.phase == "over"

    def automatic_action(self, state: SpadesState, seat: int) -> tuple[SpadesAction, Reason]:
        """Timer ran out: bid the suggested bid (never nil), or play the safe card."""
        if seat not in self.to_act(state):
            return super().automatic_action(state, seat)
        if state.phase == "bidding":
            bid = suggested_bid(state.hands[seat])
            return Bid(bid), Reason.of("spades.auto.bid", bid=bid)
        chosen = safe_card_for(self.view(state, seat))
        return Play(chosen), Reason.of("spades.auto.card", card=chosen.code)

    # ----- encoding ----------------------------------------------------------------------
    def encode_action(self, action: SpadesAction) -> str:
        if isinstance(action, Bid):
            return "nil" if action.tricks == 0 else f"bid {action.tricks}"
        if isinstance(action, BlindNil):
            return "blind nil"
        return action.card.code

    def decode_action(self, code: str) -> SpadesAction:
        words = code.strip().lower().split()
        if words == ["nil"]:
            return Bid(0)
        if words == ["blind", "nil"]:
            return BlindNil()
        if len(words) == 2 and words[0] == "bid":
            try:
                return Bid(int(words[1]))
            except ValueError:
                raise self.malformed(code) from None
        try:
            return Play(Card.parse(code))
        except ValueError:
            raise self.malformed(code) from None

    def describe_action(self, action: SpadesAction) -> str:
        if isinstance(action, Play):
            return action.card.label
        if isinstance(action, BlindNil):
            return "Blind nil"
        return "Nil" if action.tricks == 0 else f"Bid {action.tricks}"

    def messages(self) -> Mapping[str, Mapping[str, str]]:
        return MESSAGES


GAME = Spades()
