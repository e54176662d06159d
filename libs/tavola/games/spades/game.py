"""Spades rules: chance, transitions, legality and encoding (see package docstring)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

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
    CLUB_PLAYS,
    DIAMOND_PLAYS,
    HEART_PLAYS,
    SIDE_MASK,
    SPADE,
    SPADE_PLAYS,
    SUIT_PLAYS,
    card_reason,
    legal_mask,
    plays_in,
)
from tavola.games.spades.scoring import match_outcome, settle_hand, team_of
from tavola.games.spades.state import (
    DECK_BITS,
    SEATS,
    SpadesOptions,
    SpadesState,
    copy,
    dealt,
    mask_of,
)
from tavola.games.spades.timers import TIMERS, decision
from tavola.games.spades.transitions import CARDS_PLAYED, TRICKS_PER_HAND, game_evolve
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

if TYPE_CHECKING:
    from tavola.bots.interface import GameBots

DECK = standard_deck()
ALL_BIDS = tuple(Bid(n) for n in range(MAX_BID + 1))
ON_TURN = tuple(frozenset((seat,)) for seat in range(SEATS))
NOBODY: frozenset[int] = frozenset()
# events are values: the common ones built once, by seat and card index (``CARDS_PLAYED``,
# from ``transitions``) or bid
BIDS_MADE = tuple(tuple(BidMade(seat, n) for n in range(MAX_BID + 1)) for seat in range(SEATS))
FIRST_SPADE = SPADE * 13  # the index of the lowest spade


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
        short={"hands": 1},
        teams=True,
    )

    # ----- lifecycle -------------------------------------------------------------------
    def initial_state(self, players: int, options: Mapping[str, OptionValue]) -> SpadesState:
        if players != SEATS:
            raise IllegalAction(Reason.of("spades.players", players=players))
        if not options:  # the default table, built once (a copy each time: states are values)
            if self._default is None:
                self._default = self._initial(options)
            state = copy(self._default)
            state.allowed = 0  # (as ``__init__`` leaves it)
            return state
        return self._initial(options)

    _default: SpadesState | None = None

    def _initial(self, options: Mapping[str, OptionValue]) -> SpadesState:
        rest, clock = TIMERS.split(self.parse_options(options))
        return SpadesState(options=SpadesOptions(**rest, clock=clock))  # type: ignore[arg-type]

    def players(self, state: SpadesState) -> int:
        return SEATS

    def chance(self, state: SpadesState) -> ChanceRequest | None:
        phase = state.phase
        if phase == "play" or phase == "bidding":  # (most often asked)
            return None
        if phase == "draw_dealer":
            return FIRST_DEALER
        if phase == "deal":
            return _deal_request(state.hand + 1)
        return None

    def resolve_chance(
        self, state: SpadesState, request: ChanceRequest, outcome: tuple[int, ...]
    ) -> list[Event]:
        expected = self.chance(state)
        if request is not expected and request != expected:  # (the same one, most often)
            raise ValueError(f"unexpected chance request {request}")
        if request.kind == "draw":
            return [DealerChosen(outcome[0])]
        number = state.hand + 1
        dealer = state.dealer if number == 1 else (state.dealer + 1) % SEATS
        hands = _deal(outcome, first=(dealer + 1) % SEATS)
        return [
            _hand_started(number, dealer),
            HandDealt(number, 0, hands[0]),
            HandDealt(number, 1, hands[1]),
            HandDealt(number, 2, hands[2]),
            HandDealt(number, 3, hands[3]),
        ]

    evolve = game_evolve  # (``transitions``: the common event spelt out, one call less)

    # ----- turns and legality ----------------------------------------------------------
    def decision(self, state: SpadesState, seat: int) -> str | None:
        return decision(state, seat)

    def turn_timer(self, state: SpadesState, seat: int) -> int | None:
        """The table's timers (rule book: 30 s for a bid, 25 s for a card)."""
        return state.options.clock.seconds(decision(state, seat))

    def to_act(self, state: SpadesState) -> frozenset[int]:
        turn = state.turn
        if turn is None or state.phase not in ("bidding", "play"):
            return NOBODY
        return ON_TURN[turn]

    def legal_actions(self, state: SpadesState, seat: int) -> Sequence[SpadesAction]:
        """Kept in the state once asked (``state.legal``), with their cards as bits in
        ``state.allowed`` for ``decide``. In card order the plays are the suits' own
        tuples (``play.SUIT_PLAYS``): one suit's when following, else their sum."""
        if seat != state.turn:
            return ()
        legal: tuple[SpadesAction, ...] | None = state.legal
        if legal is not None:
            return legal
        phase = state.phase
        if phase == "play":
            held, led = state.held, state.led
            if led < 0:  # a lead: no spade before they are broken, unless only spades
                hand = held >> 52 * seat & DECK_BITS
                allowed = hand if state.spades_broken else hand & SIDE_MASK or hand
            else:
                shift = 13 * led
                suit = held >> 52 * seat + shift & 0x1FFF  # (its 13 bits of the suit led)
                if suit and state.ordered:  # following: the cards of the suit led
                    state.allowed = suit << shift
                    state.legal = legal = SUIT_PLAYS[led][suit]
                    return legal
                allowed = suit << shift if suit else held >> 52 * seat & DECK_BITS
            state.allowed = allowed
            if state.ordered:  # (``play.plays_of`` written out)
                legal = (
                    CLUB_PLAYS[allowed & 0x1FFF]
                    + DIAMOND_PLAYS[allowed >> 13 & 0x1FFF]
                    + HEART_PLAYS[allowed >> 26 & 0x1FFF]
                    + SPADE_PLAYS[allowed >> 39]
                )
            else:
                legal = plays_in(state.hands[seat], allowed)
        elif phase == "bidding":
            legal = ALL_BIDS
        else:
            return ()
        state.legal = legal
        return legal

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
        if legal_mask(mask_of(state, seat), state.led, state.spades_broken) & _bit(action):
            return None
        led = Suit(state.led) if state.led >= 0 else None
        return card_reason(state.hands[seat], led, state.spades_broken, action.card)

    def decide(self, state: SpadesState, seat: int, action: SpadesAction) -> list[Event]:
        """``Game.decide`` with shortcuts for the common commands of the seat on turn — a
        legal card, a bid in range — for which every check of the base class passes."""
        if seat == state.turn:
            if type(action) is Play:
                if state.phase == "play":
                    card = action.card
                    index = card.suit * 13 + card.rank - 2
                    if state.legal is not None:  # (asked: ``allowed`` holds its cards)
                        allowed = state.allowed
                    else:
                        hand = mask_of(state, seat)
                        allowed = legal_mask(hand, state.led, state.spades_broken)
                    if allowed >> index & 1:
                        if len(state.trick) < 3:  # the trick goes on (``SEATS - 1`` plays)
                            if state.spades_broken or index < FIRST_SPADE:
                                return [CARDS_PLAYED[seat][index]]
                            return [CARDS_PLAYED[seat][index], _broken(state.hand, seat)]
                        return self._play(state, seat, index)
            elif type(action) is Bid and state.phase == "bidding":
                tricks = action.tricks
                if 0 <= tricks <= MAX_BID:
                    return self._apply_bid(state, seat, tricks)
        return super().decide(state, seat, action)

    def apply(self, state: SpadesState, seat: int, action: SpadesAction) -> list[Event]:
        if isinstance(action, Bid):
            return self._apply_bid(state, seat, action.tricks)
        assert isinstance(action, Play)
        card = action.card
        return self._play(state, seat, card.suit * 13 + card.rank - 2)

    def _play(self, state: SpadesState, seat: int, index: int) -> list[Event]:
        """The events of a legal play by ``seat`` of the card of deck index ``index``."""
        events: list[Event] = [CARDS_PLAYED[seat][index]]
        hand = state.hand
        if index >= FIRST_SPADE and not state.spades_broken:
            events.append(_broken(hand, seat))
        trick = state.trick
        if len(trick) < SEATS - 1:
            return events
        t0, t1, t2, t3 = tricks = state.tricks
        number = t0 + t1 + t2 + t3 + 1
        winner = _winner(trick, seat, DECK[index])
        events.append(_trick_taken(hand, number, winner))
        if number == TRICKS_PER_HAND:
            taken = list(tricks)
            taken[winner] += 1
            events += self._end_hand(state, tuple(taken))
        return events

    def _apply_bid(self, state: SpadesState, seat: int, tricks: int) -> list[Event]:
        events: list[Event] = [BIDS_MADE[seat][tricks]]
        bids = list(state.bids)
        bids[seat] = tricks
        if None in bids:
            return events
        b = [x or 0 for x in bids]
        contracts = (b[0] + b[2], b[1] + b[3])
        events.append(PlayStarted(state.hand, contracts, (state.dealer + 1) % SEATS))
        return events

    def _end_hand(self, state: SpadesState, tricks: tuple[int, ...]) -> list[Event]:
        """The events after the last trick of ``state``'s hand; ``tricks``: all its tricks."""
        bids = tuple(b or 0 for b in state.bids)
        teams = settle_hand(bids, tricks, state.scores, state.bags)
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

    def bots(self) -> GameBots:
        from tavola.games.spades.bots import BOTS

        return BOTS

    def messages(self) -> Mapping[str, Mapping[str, str]]:
        return MESSAGES


def _winner(plays: Sequence[PlayedCard], seat: int, card: Card) -> int:
    """Who takes the trick ``plays`` and then ``card`` by ``seat`` (``play.current_winner``
    on suit and rank numbers)."""
    first = plays[0]
    best, best_suit, best_rank = first.seat, first.card.suit, first.card.rank
    for play in plays[1:]:
        c = play.card
        if c.suit == best_suit:
            if c.rank > best_rank:
                best, best_rank = play.seat, c.rank
        elif c.suit == SPADE:
            best, best_suit, best_rank = play.seat, c.suit, c.rank
    if card.suit == best_suit:
        return seat if card.rank > best_rank else best
    return seat if card.suit == SPADE else best


# events are values: those of the first hands of any match built once (a frozen
# dataclass is slow to build: each field is an ``object.__setattr__``)
_KEPT_HANDS = 64
_TAKEN: dict[tuple[int, int, int], TrickTaken] = {}
_STARTED: dict[tuple[int, int], HandStarted] = {}
_BROKEN: dict[tuple[int, int], SpadesBroken] = {}


def _trick_taken(hand: int, number: int, seat: int) -> TrickTaken:
    """``TrickTaken(hand, number, seat)``, built once for the first hands of any match."""
    if hand > _KEPT_HANDS:
        return TrickTaken(hand, number, seat)
    key = (hand, number, seat)
    event = _TAKEN.get(key)
    if event is None:
        event = _TAKEN[key] = TrickTaken(hand, number, seat)
    return event


def _hand_started(hand: int, dealer: int) -> HandStarted:
    """``HandStarted(hand, dealer, DEALT)``, built once for the first hands of any match."""
    if hand > _KEPT_HANDS:
        return HandStarted(hand, dealer, DEALT)
    event = _STARTED.get((hand, dealer))
    if event is None:
        event = _STARTED[hand, dealer] = HandStarted(hand, dealer, DEALT)
    return event


def _broken(hand: int, seat: int) -> SpadesBroken:
    """``SpadesBroken(hand, seat)``, built once for the first hands of any match."""
    if hand > _KEPT_HANDS:
        return SpadesBroken(hand, seat)
    event = _BROKEN.get((hand, seat))
    if event is None:
        event = _BROKEN[hand, seat] = SpadesBroken(hand, seat)
    return event


FIRST_DEALER = ChanceRequest("first-dealer", "draw", SEATS)
DEALT = (13,) * SEATS  # the counts of every deal (``HandStarted``)
_DEAL_REQUESTS: list[ChanceRequest] = []  # "deal/N" by N - 1, built once (requests are values)


def _deal_request(number: int) -> ChanceRequest:
    """``ChanceRequest(f"deal/{number}", "shuffle", 52)``, built once for the first hands."""
    if number > _KEPT_HANDS:
        return ChanceRequest(f"deal/{number}", "shuffle", 52)
    while len(_DEAL_REQUESTS) < number:
        _DEAL_REQUESTS.append(ChanceRequest(f"deal/{len(_DEAL_REQUESTS) + 1}", "shuffle", 52))
    return _DEAL_REQUESTS[number - 1]


_BIT = [1 << i for i in range(52)].__getitem__  # (a list's: a quick call, ints only)
_FULL_DECK = (1 << 52) - 1


def _deal(outcome: Sequence[int], first: int) -> tuple[tuple[Card, ...], ...]:
    """``deal_standard(outcome, SEATS, first, count=13)`` on bits: the ``k``-th seat from
    ``first`` gets every fourth card from position ``k``, its hand the sum of their bits
    (distinct powers of two) and its cards those of the mask, in card order (``dealt``,
    which remembers each hand's mask for ``evolve``). The outcome
    is a permutation exactly when the 52 bits, all of indices 0-51, add up to the full
    deck (a repeated index carries into another bit; ``min`` rules out the negative ones
    a list accepts); any other outcome takes ``deal_standard``, which refuses it."""
    try:
        masks = [sum(map(_BIT, outcome[k::SEATS])) for k in range(SEATS)]
    except (IndexError, TypeError):
        masks = []
    if len(outcome) != 52 or sum(masks) != _FULL_DECK or min(outcome) < 0:
        return deal_standard(outcome, SEATS, first, count=13)
    return dealt([masks[(seat - first) % SEATS] for seat in range(SEATS)])


def _bit(play: Play) -> int:
    card = play.card
    return 1 << (card.suit * 13 + card.rank - 2)


GAME = Spades()
