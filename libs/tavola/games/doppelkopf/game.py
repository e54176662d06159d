"""Doppelkopf: the ``Game`` implementation tying the modules together (see the package
docstring for variant, phases and action codes)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from tavola.games.doppelkopf import events as ev
from tavola.games.doppelkopf.actions import (
    Announce,
    AnswerPoverty,
    Declare,
    DokoAction,
    GiveBack,
    Play,
    Wait,
)
from tavola.games.doppelkopf.announcements import (
    CALL_CODES,
    call_reason,
    is_late_reply,
    legal_calls,
    wait_reason,
)
from tavola.games.doppelkopf.automatic import automatic
from tavola.games.doppelkopf.evolve import evolve
from tavola.games.doppelkopf.match import active_seats, bock_due, forced_solo, match_over
from tavola.games.doppelkopf.messages import MESSAGES
from tavola.games.doppelkopf.model import Call, Reservation
from tavola.games.doppelkopf.options import OPTION_SPECS, PRESETS, DokoOptions
from tavola.games.doppelkopf.play import Chain, card_reason, legal_cards, play_events
from tavola.games.doppelkopf.poverty import (
    answer_events,
    answer_reason,
    givable,
    give_events,
    give_reason,
)
from tavola.games.doppelkopf.reservations import (
    RESERVATION_CODES,
    legal_reservations,
    reservation_reason,
    resolve,
)
from tavola.games.doppelkopf.state import DokoState
from tavola.games.doppelkopf.timers import TIMERS, decision
from tavola.games.doppelkopf.trumps import deck
from tavola.games.doppelkopf.views import DokoView, make_view
from tavola.rules.cards import Card, deal_round_robin, deck_from_permutation, standard_deck
from tavola.rules.errors import IllegalAction, Reason
from tavola.rules.interface import (
    ChanceRequest,
    Event,
    GameInfo,
    OptionValue,
    SeatScore,
    TrickGame,
    rank_scores,
)

if TYPE_CHECKING:
    from tavola.bots.interface import GameBots


_DECK_CARDS = frozenset(deck())  # each card the double deck has (a code names one)

PLAYS = tuple(Play(c) for c in standard_deck())  # one action per card, by card index
CODE_TO_RESERVATION = {code.lower(): r for r, code in RESERVATION_CODES.items()}
CODE_TO_CALL = {code: c for c, code in CALL_CODES.items()}
RESERVATION_LABELS = {
    Reservation.HEALTHY: "healthy",
    Reservation.WEDDING: "Hochzeit",
    Reservation.POVERTY: "Armut",
    Reservation.THROW: "Schmeißen",
    Reservation.QUEEN_SOLO: "Queen solo",
    Reservation.JACK_SOLO: "Jack solo",
    Reservation.CLUBS_SOLO: "♣ solo",
    Reservation.SPADES_SOLO: "♠ solo",
    Reservation.HEARTS_SOLO: "♥ solo",
    Reservation.DIAMONDS_SOLO: "♦ solo",
    Reservation.FLEISCHLOS: "Fleischlos",
}
CALL_LABELS = {
    Call.RE: "Re",
    Call.KONTRA: "Kontra",
    Call.NO_90: "no 90",
    Call.NO_60: "no 60",
    Call.NO_30: "no 30",
    Call.SCHWARZ: "schwarz",
}


class Doppelkopf(TrickGame[DokoState, DokoAction]):
    info = GameInfo(
        name="doppelkopf",
        title="Doppelkopf",
        min_players=4,
        max_players=5,
        rules_version=1,
        options=OPTION_SPECS,
        event_types=ev.EVENT_TYPES,
        presets=PRESETS,
        short={"match": "one_game"},
        lower_score_wins=False,
        teams=False,
    )
    defers = True  # ``wait``: an announcement let pass while another seat plays

    # ----- lifecycle -------------------------------------------------------------------
    def initial_state(self, players: int, options: Mapping[str, OptionValue]) -> DokoState:
        if not self.info.min_players <= players <= self.info.max_players:
            raise IllegalAction(Reason.of("doppelkopf.players", players=players))
        rest, clock = TIMERS.split(self.parse_options(options))
        opts = DokoOptions(**rest, clock=clock)  # type: ignore[arg-type]
        if opts.pflichtsolo and not opts.rounds:
            raise IllegalAction(Reason.of("doppelkopf.pflichtsolo_needs_rounds"))
        return DokoState(
            players=players,
            options=opts,
            present=(True,) * players,
            totals=(0,) * players,
            solo_owed=(opts.pflichtsolo,) * players,
        )

    def players(self, state: DokoState) -> int:
        return state.players

    def pause_before_chance(self, state: DokoState) -> int | None:
        """The rule book: between games everyone sees the result and the provisional
        standings for 20 s before the next deal."""
        return 20 if state.phase == "deal" and state.games > 0 else None

    def pause_before_end(self, state: DokoState) -> int | None:
        """The rule book: 10 s after the last game (its result) before the final standings;
        none when the match ended without a scored last game (a player left)."""
        deal = state.deal
        scored = deal is not None and len(deal.tricks) == state.options.hand_size
        return 10 if state.phase == "over" and scored and not state.interrupted else None

    def chance(self, state: DokoState) -> ChanceRequest | None:
        if state.phase == "draw_dealer":
            return ChanceRequest("first-dealer", "draw", state.players)
        if state.phase == "deal":
            size = 40 if state.options.without_nines else 48
            return ChanceRequest(f"deal/{state.deals + 1}", "shuffle", size)
        return None

    def resolve_chance(
        self, state: DokoState, request: ChanceRequest, outcome: tuple[int, ...]
    ) -> list[Event]:
        if request != self.chance(state):
            raise ValueError(f"unexpected chance request {request}")
        if request.kind == "draw":
            return [ev.DealerDrawn(dealer=outcome[0])]
        cards = deck_from_permutation(deck(state.options.without_nines), outcome)
        seats = active_seats(state.present, state.dealer)
        hands = deal_round_robin(cards, len(seats), first=0, count=state.options.hand_size)
        number = state.deals + 1
        events: list[Event] = [
            ev.GameStarted(number, state.dealer, seats, bock_due(state), forced_solo(state, seats))
        ]
        events += [ev.HandDealt(number, seat, hands[i]) for i, seat in enumerate(seats)]
        return events

    def evolve(self, state: DokoState, event: Event) -> DokoState:
        return evolve(state, event)

    # ----- turns and legality ----------------------------------------------------------
    def decision(self, state: DokoState, seat: int) -> str | None:
        return decision(state, seat)

    def turn_timer(self, state: DokoState, seat: int) -> int | None:
        """The table's timers (defaults: 20 s a reservation, 20 s an Armut answer, 15 s each
        card given back, 25 s a card); none for a seat that may only announce."""
        return state.options.clock.seconds(decision(state, seat))

    def to_act(self, state: DokoState) -> frozenset[int]:
        acting = state.acting
        if acting is None:
            state.acting = acting = self._to_act(state)
        return acting

    def _to_act(self, state: DokoState) -> frozenset[int]:
        deal = state.deal
        if deal is None:
            return frozenset()
        if state.phase == "reservations":
            return frozenset(s for s in deal.seats if deal.declared[s] is None)
        if state.phase == "poverty_offer" and deal.asked is not None:
            return frozenset((deal.asked,))
        if state.phase == "poverty_return" and deal.partner is not None:
            return frozenset((deal.partner,))
        if state.phase != "play":
            return frozenset()
        seats = {s for s in deal.seats if legal_calls(state, s)}
        if deal.turn is not None:
            seats.add(deal.turn)
        return frozenset(seats)

    def legal_actions(self, state: DokoState, seat: int) -> Sequence[DokoAction]:
        known = state.legal
        if known is None:
            known = state.legal = {}
        legal = known.get(seat)
        if legal is None:
            legal = known[seat] = self._legal(state, seat)
        return legal

    def _legal(self, state: DokoState, seat: int) -> tuple[DokoAction, ...]:
        if state.phase == "reservations":
            return tuple(Declare(r) for r in legal_reservations(state, seat))
        if state.phase == "poverty_offer":
            if answer_reason(state, seat) is None:
                return (AnswerPoverty(True), AnswerPoverty(False))
            return ()
        if state.phase == "poverty_return":
            return tuple(GiveBack(c) for c in givable(state, seat))
        if state.phase != "play":
            return ()
        plays: list[DokoAction] = [
            PLAYS[c.suit * 13 + c.rank - 2] for c in legal_cards(state, seat)
        ]
        calls: list[DokoAction] = [Announce(c) for c in legal_calls(state, seat)]
        waiting: list[DokoAction] = [Wait()] if calls and not plays else []
        return (*plays, *calls, *waiting)

    def decide(self, state: DokoState, seat: int, action: DokoAction) -> list[Event]:
        """``Game.decide`` with a shortcut for the common command: one of the legal actions
        just listed for a seat to act (the very object: every check then passes)."""
        known = state.legal
        if known is not None and seat in known and seat in self.to_act(state):
            for choice in known[seat]:
                if choice is action:
                    return self.apply(state, seat, choice)
        return super().decide(state, seat, action)

    def why_illegal(self, state: DokoState, seat: int, action: DokoAction) -> Reason | None:
        match action:
            case Declare(reservation=r):
                return reservation_reason(state, seat, r)
            case AnswerPoverty():
                return answer_reason(state, seat)
            case GiveBack(card=c):
                return give_reason(state, seat, c)
            case Announce(call=call):
                return call_reason(state, seat, call)
            case Play(card=c):
                return card_reason(state, seat, c)
            case Wait():
                return wait_reason(state, seat)
        return Reason.of("doppelkopf.not_now")

    def apply(self, state: DokoState, seat: int, action: DokoAction) -> list[Event]:
        match action:
            case Declare(reservation=r):
                chain = Chain(state)
                chain.add(ev.ReservationChosen(seat, r), ev.SeatDeclared(seat))
                if not self.to_act(chain.state):
                    chain.add(*resolve(chain.state))
                return chain.events
            case AnswerPoverty(accept=accept):
                return answer_events(state, seat, accept)
            case GiveBack(card=c):
                return give_events(state, seat, c)
            case Announce(call=call):
                return [self._announced(state, seat, call)]
            case Play(card=c):
                return play_events(state, seat, c)
            case Wait():
                return [ev.AnnouncementsDeferred(seat)]
        raise TypeError(f"not a Doppelkopf action: {action!r}")

    def _announced(self, state: DokoState, seat: int, call: Call) -> Event:
        deal = state.deal
        assert deal is not None
        party = deal.party(seat)
        reply = is_late_reply(state, deal, seat, call)
        return ev.Announced(seat, party, call, call.level, reply)

    def seat_left(self, state: DokoState, seat: int) -> list[Event]:
        """A player leaving ends the current game unscored; the match goes on with those who
        remain if at least four do (a single game goes to the final standings)."""
        if self.is_over(state) or not state.present[seat]:
            return []
        chain = Chain(state)
        chain.add(ev.PlayerLeft(seat))
        deal = state.deal
        in_game = state.phase in ("reservations", "poverty_offer", "poverty_return", "play")
        if in_game and deal is not None and seat in deal.seats:
            chain.add(ev.GameAbandoned(deal.number, seat))
        if match_over(chain.state):
            interrupted = not state.options.single_game
            chain.add(ev.MatchEnded(interrupted))
        return chain.events

    def action_public(self, code: str) -> bool:
        """A reservation is made in secret (its events reveal what the rules show, when they
        show it), and so are the cards returned to a poor player."""
        text = code.strip().lower()
        return text not in CODE_TO_RESERVATION and not text.startswith("give")

    def automatic_action(self, state: DokoState, seat: int) -> tuple[DokoAction, Reason]:
        return automatic(self, state, seat)

    # ----- what seats see --------------------------------------------------------------
    def view(self, state: DokoState, seat: int | None) -> DokoView:
        return make_view(state, seat)

    def standings(self, state: DokoState) -> tuple[SeatScore, ...]:
        return rank_scores(state.totals)

    def is_over(self, state: DokoState) -> bool:
        return state.phase == "over"

    # ----- encoding ----------------------------------------------------------------------
    def encode_action(self, action: DokoAction) -> str:
        match action:
            case Declare(reservation=r):
                return RESERVATION_CODES[r]
            case AnswerPoverty(accept=accept):
                return "accept" if accept else "decline"
            case GiveBack(card=c):
                return f"give {c.code}"
            case Announce(call=call):
                return CALL_CODES[call]
            case Play(card=c):
                return c.code
            case Wait():
                return "wait"
        raise TypeError(f"not a Doppelkopf action: {action!r}")

    def decode_action(self, code: str) -> DokoAction:
        text = " ".join(code.strip().lower().split())
        if text in CODE_TO_RESERVATION:
            return Declare(CODE_TO_RESERVATION[text])
        if text in CODE_TO_CALL:
            return Announce(CODE_TO_CALL[text])
        if text in ("accept", "decline"):
            return AnswerPoverty(text == "accept")
        if text == "wait":
            return Wait()
        if text.startswith("give "):
            return GiveBack(self._card(code, text[5:]))
        return Play(self._card(code, text))

    def _card(self, code: str, text: str) -> Card:
        try:
            parsed = Card.parse(text)
        except ValueError:
            raise self.malformed(code) from None
        if parsed not in _DECK_CARDS:
            raise self.malformed(code)
        return parsed

    def describe_action(self, action: DokoAction) -> str:
        match action:
            case Declare(reservation=r):
                return RESERVATION_LABELS[r]
            case GiveBack(card=c):
                return f"give {c.label}"
            case Announce(call=call):
                return CALL_LABELS[call]
            case Play(card=c):
                return c.label
        return self.encode_action(action)

    def bots(self) -> GameBots:
        from tavola.games.doppelkopf.bots import BOTS

        return BOTS

    def messages(self) -> Mapping[str, Mapping[str, str]]:
        return MESSAGES


GAME = Doppelkopf()
