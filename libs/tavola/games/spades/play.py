"""Trick play: which cards are legal, why a card is not, who wins, and the safe card.

Legality: follow the suit led if you can, else play anything. Nobody may lead a spade
until spades are broken (a spade was played in an earlier trick) unless the hand holds
only spades — so the first lead of a hand is never a spade unless the leader holds only
spades. The rules decide it on bits (``legal_mask``: a hand as an int, bit ``card.index``
per card); ``legal_cards`` and ``card_reason`` say the same of cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from tavola.games.spades.actions import Play
from tavola.games.spades.state import SuitPatterns
from tavola.rules.cards import Card, PlayedCard, Suit, standard_deck
from tavola.rules.errors import Reason

SPADE = Suit.SPADES
SUIT_MASKS = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
SIDE_MASK = SUIT_MASKS[0] | SUIT_MASKS[1] | SUIT_MASKS[2]
SUIT_NAMES = {
    Suit.CLUBS: "clubs",
    Suit.DIAMONDS: "diamonds",
    Suit.HEARTS: "hearts",
    Suit.SPADES: "spades",
}


def legal_mask(hand: int, led: int, broken: bool) -> int:
    """The playable cards of a hand given as bits (``led``: the suit led, -1 on a lead)."""
    if led >= 0:
        return hand & SUIT_MASKS[led] or hand
    if broken:
        return hand
    return hand & SIDE_MASK or hand


PLAYS = tuple(Play(c) for c in standard_deck())  # one action per card, by card index


# The plays of each suit by its pattern of bits (one dict access, void suit or not).
SUIT_PLAYS = tuple(SuitPatterns(PLAYS, suit) for suit in range(4))
CLUB_PLAYS, DIAMOND_PLAYS, HEART_PLAYS, SPADE_PLAYS = SUIT_PLAYS


def plays_of_suit(suit: int, bits: int) -> tuple[Play, ...]:
    """The plays of the cards of one suit given as 13 bits."""
    return SUIT_PLAYS[suit][bits]


def plays_of(mask: int) -> tuple[Play, ...]:
    """The plays of the cards given as bits, in card order: the four suits' tuples
    (13 bits each, clubs lowest; ``mask < 2**52``, so spades need no ``& 0x1FFF``)."""
    return (
        CLUB_PLAYS[mask & 0x1FFF]
        + DIAMOND_PLAYS[mask >> 13 & 0x1FFF]
        + HEART_PLAYS[mask >> 26 & 0x1FFF]
        + SPADE_PLAYS[mask >> 39]
    )


def plays_in(hand: Sequence[Card], allowed: int) -> tuple[Play, ...]:
    """The plays of the cards of ``hand`` whose bits are in ``allowed``, in hand order."""
    plays = (PLAYS[c.suit * 13 + c.rank - 2] for c in hand)
    return tuple(p for p in plays if allowed >> (p.card.suit * 13 + p.card.rank - 2) & 1)


def legal_cards(hand: Sequence[Card], led: Suit | None, broken: bool) -> tuple[Card, ...]:
    """The playable cards of ``hand`` in hand order."""
    if led is not None:
        follow = tuple(c for c in hand if c.suit == led)
        return follow or tuple(hand)
    if broken:
        return tuple(hand)
    others = tuple(c for c in hand if c.suit != SPADE)
    return others or tuple(hand)


def card_reason(hand: Sequence[Card], led: Suit | None, broken: bool, card: Card) -> Reason | None:
    """Why ``card`` cannot be played now (``None``: it can)."""
    if card not in hand:
        return Reason.of("spades.not_in_hand", card=card.code)
    if led is not None:
        if card.suit != led and any(c.suit == led for c in hand):
            return Reason.of(
                f"spades.must_follow_{SUIT_NAMES[led]}", card=card.code, suit=led.letter
            )
        return None
    if card.suit == SPADE and not broken and any(c.suit != SPADE for c in hand):
        return Reason.of("spades.spades_not_broken", card=card.code)
    return None


def beats(card: Card, best: Card) -> bool:
    """Whether ``card`` played after ``best`` (the trick's current winner) takes over."""
    if card.suit == best.suit:
        return card.rank > best.rank
    return card.suit == SPADE


def current_winner(plays: Sequence[PlayedCard]) -> PlayedCard | None:
    """The play winning the trick so far: highest spade, else highest of the suit led."""
    if not plays:
        return None
    best = plays[0]
    for play in plays[1:]:
        if beats(play.card, best.card):
            best = play
    return best


def low_key(card: Card) -> tuple[bool, int, int]:
    """ "Lowest" for the safe card: any non-spade before any spade, then by rank, then suit."""
    return (card.suit == SPADE, int(card.rank), int(card.suit))


def safe_card(
    legal: Sequence[Card],
    plays: Sequence[PlayedCard],
    partner: int,
    wants_to_lose: bool,
    partner_can_win: bool,
) -> Card:
    """The safe card (see ``views.safe_card_for`` for when a side "wants to lose").

    * Losing is wanted, or the partner (not a nil bidder) is winning the trick: the lowest
      legal card that cannot win the trick; if every legal card would win (or on a lead),
      the lowest legal card.
    * Otherwise: the cheapest card that would win the trick as it stands (on a lead every
      card stands as the winner, so the lowest); if none can win, the lowest legal card.
    """
    best = current_winner(plays)
    lowest = min(legal, key=low_key)
    partner_wins = best is not None and best.seat == partner and partner_can_win
    if wants_to_lose or partner_wins:
        if best is None:
            return lowest
        losers = [c for c in legal if not beats(c, best.card)]
        return min(losers, key=low_key) if losers else lowest
    if best is None:
        return lowest
    winners = [c for c in legal if beats(c, best.card)]
    return min(winners, key=low_key) if winners else lowest
