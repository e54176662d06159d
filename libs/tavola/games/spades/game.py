"""Spades rules: chance, transitions, legality and encoding (see package docstring)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

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
from tavola.games.spades.play import (
    SPADE,
    card_reason,
    legal_mask,
    plays_in,
    plays_of,
    plays_of_suit,
)
from tavola.games.spades.scoring import match_outcome, settle_hand, team_of
from tavola.games.spades.state import SEATS, SpadesOptions, SpadesState
from tavola.games.spades.timers import TIMERS, decision
from tavola.games.spades.transitions import EVOLVE, TRICKS_PER_HAND, card_played
from tavola.games.spades.views import SpadesView, build_view, safe_card_for
from tavola.rules.cards import (
    Card,
    PlayedCard,
    Suit,
    deal_standard,
    standard_deck,
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

DECK = standard_deck()
ALL_BIDS = tuple(Bid(n) for n in range(MAX_BID + 1))
ON_TURN = tuple(frozenset((seat,)) for seat in range(SEATS))


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
        number = state.hand + 1
        dealer = state.dealer if number == 1 else (state.dealer + 1) % SEATS
        hands = deal_standard(outcome, SEATS, first=(dealer + 1) % SEATS, count=13)
        events: list[Event] = [HandStarted(number, dealer, (13,) * SEATS)]
        events += [HandDealt(number, seat, cards) for seat, cards in enumerate(hands)]
        return events

    def evolve(self, state: SpadesState, event: Event) -> SpadesState:
        if type(event) is CardPlayed:  # three events in four
            return card_played(state, event)
        handler = EVOLVE.get(type(event))
        if handler is None:
            raise TypeError(f"not a Spades event: {event!r}")
        return handler(state, event)

    # ----- turns and legality ----------------------------------------------------------
    def decision(self, state: SpadesState, seat: int) -> str | None:
        return decision(state, seat)

    def turn_timer(self, state: SpadesState, seat: int) -> int | None:
        """The table's timers (rule book: 30 s for a bid, 25 s for a card)."""
        return state.options.clock.seconds(decision(state, seat))

    def to_act(self, state: SpadesState) -> frozenset[int]:
        if state.phase not in ("bidding", "play") or state.turn is None:
            return frozenset()
        return ON_TURN[state.turn]

    def legal_actions(self, state: SpadesState, seat: int) -> Sequence[SpadesAction]:
        legal: tuple[SpadesAction, ...] | None = state.legal
        if legal is None or seat != state.turn:
            if seat != state.turn or state.phase not in ("bidding", "play"):
                return ()
            state.legal = legal = self._legal(state, seat)
        return legal

    def _legal(self, state: SpadesState, seat: int) -> tuple[SpadesAction, ...]:
        """The legal actions of the seat on turn; sets ``state.allowed`` (their bits)."""
        if state.phase == "bidding":
            return ALL_BIDS
        hand, led = state.masks[seat], state.led
        if led >= 0 and state.ordered:  # following: the cards of one suit, if any
            suit = hand >> (13 * led) & 0x1FFF
            if suit:
                state.allowed = suit << (13 * led)
                return plays_of_suit(led, suit)
        state.allowed = allowed = legal_mask(hand, led, state.spades_broken)
        return plays_of(allowed) if state.ordered else plays_in(state.hands[seat], allowed)

    def why_illegal(self, state: SpadesState, seat: int, action: SpadesAction) -> Reason | None:
        if seat != state.turn or state.phase not in ("bidding", "play"):
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
        if legal_mask(state.masks[seat], state.led, state.spades_broken) & _bit(action):
            return None
        led = Suit(state.led) if state.led >= 0 else None
        return card_reason(state.hands[seat], led, state.spades_broken, action.card)

    def decide(self, state: SpadesState, seat: int, action: SpadesAction) -> list[Event]:
        """``Game.decide`` with a shortcut for the most common command, a legal card of the
        seat on turn that does not end the trick (every check of the base class passes)."""
        if state.phase == "play" and seat == state.turn and type(action) is Play:
            card = action.card
            if state.legal is not None:
                allowed = state.allowed
            else:
                allowed = legal_mask(state.masks[seat], state.led, state.spades_broken)
            if allowed >> (card.suit * 13 + card.rank - 2) & 1:
                if len(state.trick) < SEATS - 1 and (state.spades_broken or card.suit != SPADE):
                    return [CardPlayed(seat, card)]
                return self._play(state, seat, card)
        return super().decide(state, seat, action)

    def apply(self, state: SpadesState, seat: int, action: SpadesAction) -> list[Event]:
        if isinstance(action, Bid):
            return self._apply_bid(state, seat, action.tricks)
        assert isinstance(action, Play)
        return self._play(state, seat, action.card)

    def _play(self, state: SpadesState, seat: int, card: Card) -> list[Event]:
        events: list[Event] = [CardPlayed(seat, card)]
        if card.suit == SPADE and not state.spades_broken:
            events.append(SpadesBroken(state.hand, seat))
        if len(state.trick) < SEATS - 1:
            return events
        number = sum(state.tricks) + 1
        events.append(TrickTaken(state.hand, number, _winner(state.trick, seat, card)))
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


def _winner(plays: Sequence[PlayedCard], seat: int, card: Card) -> int:
    """Who takes the trick ``plays`` and then ``card`` by ``seat`` (``play.current_winner``
    on suit and rank numbers)."""
    best, best_suit, best_rank = plays[0].seat, plays[0].card.suit, plays[0].card.rank
    for other, c in (*((p.seat, p.card) for p in plays[1:]), (seat, card)):
        if c.suit == best_suit:
            if c.rank > best_rank:
                best, best_rank = other, c.rank
        elif c.suit == SPADE:
            best, best_suit, best_rank = other, c.suit, c.rank
    return best


def _bit(play: Play) -> int:
    card = play.card
    return 1 << (card.suit * 13 + card.rank - 2)


GAME = Spades()
