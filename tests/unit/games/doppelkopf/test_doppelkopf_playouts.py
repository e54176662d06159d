"""Random playouts over presets, house-rule combinations and table sizes, checking the
invariants of every game and of the whole match."""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tavola.games.doppelkopf import GAME
from tavola.games.doppelkopf import events as ev
from tavola.games.doppelkopf.actions import Declare, Play
from tavola.games.doppelkopf.model import Contract
from tavola.games.doppelkopf.options import HOUSE_RULES
from tavola.games.doppelkopf.trumps import deck
from tavola.rules.cards import Card
from tavola.rules.driver import Playout, play_match, resolve_all_chance
from tavola.rules.errors import IllegalAction, MalformedAction

CARD_CODES = sorted({c.code for c in deck()})
ALL_CODES = [
    "healthy",
    "wedding",
    "poverty",
    "throw",
    "solo Q",
    "solo J",
    "solo C",
    "solo S",
    "solo H",
    "solo D",
    "solo F",
    "accept",
    "decline",
    "re",
    "kontra",
    "no 90",
    "no 60",
    "no 30",
    "schwarz",
    "wait",
    *CARD_CODES,
    *(f"give {c}" for c in CARD_CODES),
]
NOTABLE = (
    ev.DealCancelled,
    ev.BockRoundEarned,
    ev.PartnerFound,
    ev.WeddingAlone,
    ev.SchweinchenShown,
)
MATCHES = ["one_game"] * 6 + ["1_round", "to_10"]


def options_for(rng: random.Random) -> dict[str, Any]:
    preset = rng.choice([None, "official", "tavern"])
    options: dict[str, Any] = {} if preset is None else {"preset": preset}
    for name in HOUSE_RULES:
        if rng.random() < 0.4:
            options[name] = rng.random() < 0.6
    options["match"] = rng.choice(MATCHES)
    if options.get("pflichtsolo"):
        options["match"] = "1_round"
    return options


def cards_in(value: Any) -> Iterator[Card]:
    if isinstance(value, Card):
        yield value
    elif isinstance(value, tuple):
        for item in value:
            yield from cards_in(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from cards_in(getattr(value, f.name))


class Checker:
    """A chooser that checks legality, encoding and views at the positions it sees. With
    ``realistic`` it prefers "healthy", cards over announcements (fewer calls)."""

    def __init__(self, sample: float, realistic: bool = False) -> None:
        self.sample = sample
        self.realistic = realistic
        self.positions = 0

    def __call__(self, game: Any, state: Any, seat: int, legal: Any, rng: random.Random) -> Any:
        for action in legal:
            code = game.encode_action(action)
            assert game.decode_action(code) == action
            assert game.why_illegal(state, seat, action) is None
        if rng.random() < self.sample:
            self.check_position(state, rng)
        if self.realistic:
            return self.pick(legal, rng)
        return legal[rng.randrange(len(legal))]

    def pick(self, legal: Any, rng: random.Random) -> Any:
        healthy = [a for a in legal if isinstance(a, Declare) and a.reservation == 0]
        if healthy and rng.random() < 0.8:
            return healthy[0]
        special = [a for a in legal if isinstance(a, Declare) and a.reservation in (1, 2, 3)]
        if special and rng.random() < 0.8:
            return rng.choice(special)
        plays = [a for a in legal if isinstance(a, Play)]
        if plays and rng.random() < 0.95:
            return rng.choice(plays)
        return rng.choice(legal)

    def check_position(self, state: Any, rng: random.Random) -> None:
        self.positions += 1
        for seat in GAME.to_act(state):
            legal = set(GAME.legal_actions(state, seat))
            for code in ALL_CODES:
                action = GAME.decode_action(code)
                reason = GAME.why_illegal(state, seat, action)
                assert (reason is None) == (action in legal), (code, reason)
                if reason is not None:
                    assert reason.code in GAME.messages(), reason
            illegal = [GAME.decode_action(c) for c in rng.sample(ALL_CODES, 5)]
            for action in illegal:
                if action not in legal:
                    before = state
                    with pytest.raises(IllegalAction):
                        GAME.decide(state, seat, action)
                    assert state == before
        check_views(state)


def check_views(state: Any) -> None:
    deal = state.deal
    spectator = GAME.view(state, None)
    assert spectator.hand == ()
    for seat in range(state.players):
        view = GAME.view(state, seat)
        own = deal.hands[seat] if deal else ()
        assert sorted(view.hand) == sorted(own)
        shown = dict.fromkeys(cards_in(dataclasses.replace(view, hand=())))
        played = {p.card for t in (deal.tricks if deal else ()) for p in t.plays}
        if deal and deal.trick:
            played |= {p.card for p in deal.trick.plays}
        assert set(shown) <= played
        if deal and state.phase == "play" and deal.contract == Contract.NORMAL:
            marked = {k.seat for k in view.known_parties}
            assert marked <= {a.seat for a in deal.announcers}


def check_match(out: Any, players: int, options: dict[str, Any]) -> int:
    """Replay the events checking every invariant; returns the number of games scored."""
    state = GAME.initial_state(players, options)
    tricks = games = 0
    for event in out.events:
        if isinstance(event, ev.Announced):
            check_deadline(state, event)
        if event.audience() is None and not isinstance(event, ev.CardPlayed):
            assert not list(cards_in(event)), event
        if isinstance(event, ev.HandDealt):
            assert event.audience() == frozenset({event.seat})
        if isinstance(event, ev.GameStarted):
            tricks = 0
        if isinstance(event, ev.TrickWon):
            tricks += 1
        if isinstance(event, ev.GameScored):
            games += 1
            check_game(state, event, tricks)
        state = GAME.evolve(state, event)
    assert state == out.state and GAME.is_over(state)
    assert GAME.to_act(state) == frozenset() and GAME.chance(state) is None
    return games


def check_game(state: Any, event: ev.GameScored, tricks: int) -> None:
    assert tricks == state.options.hand_size
    assert event.re_points + event.kontra_points == 240
    assert sum(event.scores) == 0
    playing = [event.scores[s] for s in state.deal.seats]
    assert len({s % 2 for s in playing}) == 1
    assert all(event.scores[s] == 0 for s in range(state.players) if s not in state.deal.seats)
    net = sum(ln.value if ln.party == 0 else -ln.value for ln in event.lines)
    assert net == event.value


def check_deadline(state: Any, event: ev.Announced) -> None:
    deal = state.deal
    size = state.options.hand_size
    held = len(deal.hands[event.seat])
    own = deal.levels[event.party]
    assert not deal.wedding_open
    if held >= size - (own + 1) - deal.shift:
        return
    opposing = deal.levels[1 - event.party]
    assert event.call.level == 1 and opposing > 0 and event.reply
    assert held >= size - opposing - deal.shift - 1


def play_realistic(
    players: int, options: dict[str, Any], seed: bytes, rng: random.Random, choose: Checker
) -> Playout:
    """Like ``play_match`` but the seat on turn acts most of the time (a seat that may only
    announce is picked now and then), so games with few or no announcements are common."""
    state = GAME.initial_state(players, options)
    out = Playout(game=GAME, state=state)
    while True:
        state, events = resolve_all_chance(GAME, state, seed)
        out.events += events
        if GAME.is_over(state):
            break
        seats = sorted(GAME.to_act(state))
        turn = state.deal.turn if state.phase == "play" else None
        seat = turn if turn in seats and rng.random() < 0.97 else rng.choice(seats)
        action = choose(GAME, state, seat, GAME.legal_actions(state, seat), rng)
        events = GAME.decide(state, seat, action)
        state = GAME.fold(state, events)
        out.events += events
    out.state = state
    return out


def run(seed: int, sample: float = 0.05) -> tuple[Any, int, dict[str, Any], int]:
    rng = random.Random(seed)
    options = options_for(rng)
    players = rng.choice([4, 4, 5])
    match_seed = seed.to_bytes(32, "big")
    if seed % 3 == 0:
        out = play_match(
            GAME, players, options, seed=match_seed, rng=random.Random(seed), choose=Checker(sample)
        )
    else:
        out = play_realistic(
            players, options, match_seed, random.Random(seed), Checker(sample, realistic=True)
        )
    return out, players, options, check_match(out, players, options)


def test_random_matches_keep_every_invariant():
    games = 0
    start = time.perf_counter()
    for seed in range(60):
        games += run(seed)[3]
    elapsed = time.perf_counter() - start
    assert games >= 120
    print(f"doppelkopf: {games} games checked in {elapsed:.1f}s")


@pytest.mark.slow
def test_five_thousand_random_games_keep_every_invariant():
    """About two minutes: ``make test`` runs it, ``make unit`` skips slow tests."""
    games, seed = 0, 10_000
    while games < 5000:
        games += run(seed, sample=0.01)[3]
        seed += 1


def test_the_same_seed_gives_identical_events():
    options = {"preset": "tavern", "armut": True, "match": "1_round"}
    one = play_match(GAME, 4, options, seed=b"\x07" * 32, rng=random.Random(7))
    random.seed(12345)  # disturbing global randomness changes nothing
    two = play_match(GAME, 4, options, seed=b"\x07" * 32, rng=random.Random(7))
    assert one.events == two.events


def test_every_variant_is_reached_by_random_play():
    seen: set[Any] = set()
    for seed in range(200, 260):
        out, *_ = run(seed, sample=0.0)
        for event in out.events:
            if isinstance(event, ev.ContractChosen):
                seen.add(event.contract)
            elif isinstance(event, ev.GameScored):
                seen.add("won" if event.winner is not None else "nobody")
                seen.add(
                    "announced" if any("announced" in ln.label for ln in event.lines) else "silent"
                )
            elif isinstance(event, NOTABLE):
                seen.add(type(event).__name__)
    assert set(Contract) <= seen
    assert {
        "won",
        "nobody",
        "announced",
        "silent",
        "DealCancelled",
        "BockRoundEarned",
        "PartnerFound",
        "SchweinchenShown",
    } <= seen


def test_throughput_of_the_pure_engine():
    start = time.perf_counter()
    count = 40
    for seed in range(count):
        play_match(
            GAME, 4, {"match": "one_game"}, seed=seed.to_bytes(32, "big"), rng=random.Random(seed)
        )
    rate = count / (time.perf_counter() - start)
    print(f"doppelkopf: {rate:.0f} games/s")
    assert rate > 5


def test_decode_rejects_malformed_codes():
    for code in ["", "bid 4", "solo X", "give", "11H", "no 45"]:
        with pytest.raises(MalformedAction) as err:
            GAME.decode_action(code)
        assert err.value.reason.code == "action.malformed"


def test_every_code_the_catalogue_needs_is_there_in_both_languages():
    for code, texts in GAME.messages().items():
        assert code.startswith("doppelkopf.") and {"en", "pt"} <= set(texts)
        assert set(texts) <= {"en", "pt", "pt-PT"}, code
    for spec in GAME.info.options:
        assert spec.description in GAME.messages()
    assert all(isinstance(GAME.describe_action(Play(c)), str) for c in deck())
