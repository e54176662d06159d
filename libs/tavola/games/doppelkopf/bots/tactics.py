"""Card play of the medium and hard levels; each choice comes with its reason (a hint code).

Medium knows only its hand, the trick on the table and the parties the table shows:
lead a plain ace if it has one, else its cheapest card; following, leave a partner's trick
alone, win cheaply when it can, else duck with its cheapest card.

Hard also counts the cards played, knows who is void in what (a failure to follow) and
whose party is certain (♣Q played, announcements, contracts). It wins a trick only with a
card no opponent still to play can beat (or when it plays last), smears points onto a
partner's safe trick, leads aces only while the suit is fresh, pulls trumps as a strong Re
or soloist and leads into a partner's void.
"""

from __future__ import annotations

from collections.abc import Sequence

from tavola.games.doppelkopf.bots.infer import Seen
from tavola.games.doppelkopf.model import Party
from tavola.games.doppelkopf.trumps import POINTS, TRUMP, beats
from tavola.rules.cards import Card, PlayedCard, Rank
from tavola.rules.errors import Reason


def _hint(code: str, card: Card) -> Reason:
    return Reason.of(f"doppelkopf.hint.{code}", card=card.code)


def cost(seen: Seen, c: Card) -> float:
    """What playing ``c`` gives away: its points, and for trumps their strength."""
    if not seen.is_trump(c):
        return float(POINTS[c.rank])
    low = min(seen.rules.power[x] for x in seen.rules.power if seen.is_trump(x))
    return POINTS[c.rank] + (seen.rules.power[c] - low) * 0.5 + 1.5


def cheapest(seen: Seen, cards: Sequence[Card]) -> Card:
    return min(cards, key=lambda c: (cost(seen, c), c))


def weakest(seen: Seen, cards: Sequence[Card]) -> Card:
    return min(cards, key=lambda c: (seen.rules.power[c], POINTS[c.rank], c))


def winner(seen: Seen, plays: Sequence[PlayedCard]) -> PlayedCard:
    best = plays[0]
    for p in plays[1:]:
        if beats(p.card, best.card, seen.rules, seen.second_dulle):
            best = p
    return best


def _beats(seen: Seen, new: Card, best: Card) -> bool:
    return beats(new, best, seen.rules, seen.second_dulle)


def _friend(seen: Seen, seat: int, certain: bool) -> bool:
    mine = seen.my_party
    other = seen.party.get(seat) if certain else seen.guess(seat)
    return mine is not None and other == mine


# ----- medium ---------------------------------------------------------------------------
def medium_card(seen: Seen, cards: Sequence[Card]) -> tuple[Card, Reason]:
    if len(cards) == 1:
        return cards[0], _hint("only_card", cards[0])
    if not seen.plays:
        aces = [c for c in cards if c.rank == Rank.ACE and not seen.is_trump(c)]
        if aces:
            return min(aces), _hint("lead_ace", min(aces))
        card = cheapest(seen, cards)
        return card, _hint("lead_low", card)
    best = winner(seen, seen.plays)
    if not _friend(seen, best.seat, certain=True):
        wins = [c for c in cards if _beats(seen, c, best.card)]
        if wins:
            card = weakest(seen, wins)
            return card, _hint("win_cheaply", card)
    card = cheapest(seen, cards)
    return card, _hint("duck", card)


# ----- hard -----------------------------------------------------------------------------
def hard_card(seen: Seen, cards: Sequence[Card]) -> tuple[Card, Reason]:
    if len(cards) == 1:
        return cards[0], _hint("only_card", cards[0])
    if not seen.plays:
        return _lead(seen, cards)
    return _follow(seen, cards)


def _after_me(seen: Seen) -> list[int]:
    done = {p.seat for p in seen.plays} | {seen.me}
    return [s for s in seen.seats if s not in done]


def _fresh(seen: Seen, kind: int) -> bool:
    """A plain suit not led yet this deal with enough cards out for everyone to follow."""
    if kind == TRUMP or any(seen.rules.kind[t.plays[0].card] == kind for t in seen.tricks):
        return False
    out = sum(1 for c in seen.unseen if seen.rules.kind[c] == kind)
    return out >= 3


def threatened(seen: Seen, card: Card, kind: int, after: Sequence[int]) -> bool:
    """Could an opponent (or a seat of unknown party) still to play beat ``card``?"""
    higher = [x for x in set(seen.unseen) if _beats(seen, x, card)]
    same = any(seen.rules.kind[x] == kind for x in higher)
    trump = any(seen.is_trump(x) for x in higher)
    for seat in after:
        if _friend(seen, seat, certain=False):
            continue
        voids = seen.voids[seat]
        if kind not in voids:
            if same:
                return True
            if kind != TRUMP and not _fresh(seen, kind) and trump and TRUMP not in voids:
                return True
        elif TRUMP not in voids and trump:
            return True
    return False


def _smear(seen: Seen, cards: Sequence[Card]) -> Card:
    high = sorted(seen.rules.power[c] for c in seen.rules.power if seen.is_trump(c))
    keep_from = high[-9] if len(high) >= 9 else 10**6
    smearable = [c for c in cards if not (seen.is_trump(c) and seen.rules.power[c] >= keep_from)]
    return max(smearable or cards, key=lambda c: (POINTS[c.rank], -seen.rules.power[c], c))


def _follow(seen: Seen, cards: Sequence[Card]) -> tuple[Card, Reason]:
    kind = seen.led_kind()
    assert kind is not None
    best = winner(seen, seen.plays)
    after = _after_me(seen)
    points = sum(POINTS[p.card.rank] for p in seen.plays)
    wins = [c for c in cards if _beats(seen, c, best.card)]
    safe = [c for c in wins if not threatened(seen, c, kind, after)]
    if _friend(seen, best.seat, certain=False):
        if not threatened(seen, best.card, kind, after):
            card = _smear(seen, cards)
            return card, _hint("smear", card)
        if safe and points >= 10:
            card = weakest(seen, safe)
            return card, _hint("secure", card)
        card = cheapest(seen, cards)
        return card, _hint("duck", card)
    if safe:
        card = weakest(seen, safe)
        if points >= 8 or cost(seen, card) < 8 or not after:
            return card, _hint("win_safely", card)
    if wins:
        card = weakest(seen, wins)
        return card, _hint("win_cheaply", card)
    card = cheapest(seen, cards)
    return card, _hint("duck", card)


def _lead(seen: Seen, cards: Sequence[Card]) -> tuple[Card, Reason]:
    opponents = [s for s in seen.others if not _friend(seen, s, certain=False)]
    aces = [
        c
        for c in cards
        if c.rank == Rank.ACE
        and not seen.is_trump(c)
        and _fresh(seen, seen.rules.kind[c])
        and not any(seen.rules.kind[c] in seen.voids[s] for s in opponents)
    ]
    trumps = [c for c in cards if seen.is_trump(c)]
    strong = _pull_trumps(seen, trumps, len(cards))
    if strong is not None and (seen.contract.is_solo or not aces):
        return strong, _hint("pull_trumps", strong)
    if aces:
        card = max(aces, key=lambda c: (_out(seen, seen.rules.kind[c]), c))
        return card, _hint("lead_ace", card)
    partner_void = _partner_void_lead(seen, cards, opponents)
    if partner_void is not None:
        return partner_void, _hint("lead_to_partner", partner_void)
    plain = [c for c in cards if not seen.is_trump(c)]
    if seen.my_party == Party.KONTRA and seen.contract.is_solo and plain:
        card = cheapest(seen, plain)
        return card, _hint("lead_low", card)
    card = cheapest(seen, cards)
    return card, _hint("lead_low", card)


def _out(seen: Seen, kind: int) -> int:
    return sum(1 for c in seen.unseen if seen.rules.kind[c] == kind)


def _pull_trumps(seen: Seen, trumps: Sequence[Card], size: int) -> Card | None:
    """A strong Re (or soloist) leads its top trump while nobody can beat it."""
    if not trumps or seen.my_party != Party.RE:
        return None
    if len(trumps) * 2 < size + (0 if seen.contract.is_solo else 2):
        return None
    if not any(seen.is_trump(c) for c in seen.unseen):
        return None
    top = max(trumps, key=lambda c: seen.rules.power[c])
    if any(_beats(seen, x, top) for x in set(seen.unseen)):
        return None
    return top


def _partner_void_lead(seen: Seen, cards: Sequence[Card], opponents: list[int]) -> Card | None:
    partners = [s for s in seen.others if s not in opponents]
    for c in sorted(cards, key=lambda c: cost(seen, c)):
        kind = seen.rules.kind[c]
        if kind == TRUMP:
            continue
        if any(kind in seen.voids[p] and TRUMP not in seen.voids[p] for p in partners) and not (
            any(kind in seen.voids[o] for o in opponents)
        ):
            return c
    return None
