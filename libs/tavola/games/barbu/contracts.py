"""The seven Barbu contracts: their codes, order and the points of a captured trick."""

from __future__ import annotations

from enum import IntEnum

from tavola.rules.cards import Card, Rank, Suit


class Contract(IntEnum):
    """The contracts in the rule book's order (also the order of ``fixed_order``)."""

    NO_TRICKS = 0
    NO_QUEENS = 1
    NO_LAST_TWO = 2
    NO_HEARTS = 3
    NO_KING = 4
    TRUMPS = 5
    DOMINO = 6

    @property
    def code(self) -> str:
        return CONTRACT_CODES[self]

    @property
    def positive(self) -> bool:
        return self in (Contract.TRUMPS, Contract.DOMINO)

    @property
    def raw_total(self) -> int:
        """What the contract's raw points always add up to."""
        return RAW_TOTALS[self]


CONTRACT_CODES: dict[Contract, str] = {
    Contract.NO_TRICKS: "no-tricks",
    Contract.NO_QUEENS: "no-queens",
    Contract.NO_LAST_TWO: "no-last-two",
    Contract.NO_HEARTS: "no-hearts",
    Contract.NO_KING: "no-king",
    Contract.TRUMPS: "trumps",
    Contract.DOMINO: "domino",
}
CONTRACT_BY_CODE: dict[str, Contract] = {code: c for c, code in CONTRACT_CODES.items()}
RAW_TOTALS: dict[Contract, int] = {
    Contract.NO_TRICKS: -26,
    Contract.NO_QUEENS: -24,
    Contract.NO_LAST_TWO: -30,
    Contract.NO_HEARTS: -30,
    Contract.NO_KING: -20,
    Contract.TRUMPS: 65,
    Contract.DOMINO: 65,
}
ALL_CONTRACTS: tuple[Contract, ...] = tuple(Contract)
HEART_LEAD_RESTRICTED = frozenset((Contract.NO_HEARTS, Contract.NO_KING))
DOMINO_PLACE_POINTS: tuple[int, ...] = (45, 20, 5, -5)
KING_OF_HEARTS = Card(Suit.HEARTS, Rank.KING)
ACE_OF_HEARTS = Card(Suit.HEARTS, Rank.ACE)


def is_penalty_card(contract: Contract, card: Card) -> bool:
    """Cards shown face up when captured (queens, hearts, K♥ in their contracts)."""
    if contract == Contract.NO_QUEENS:
        return card.rank == Rank.QUEEN
    if contract == Contract.NO_HEARTS:
        return card.suit == Suit.HEARTS
    if contract == Contract.NO_KING:
        return card == KING_OF_HEARTS
    return False


PENALTY_CARD_COUNT: dict[Contract, int] = {
    Contract.NO_QUEENS: 4,
    Contract.NO_HEARTS: 13,
    Contract.NO_KING: 1,
}


def card_points(contract: Contract, card: Card) -> int:
    if not is_penalty_card(contract, card):
        return 0
    if contract == Contract.NO_QUEENS:
        return -6
    if contract == Contract.NO_HEARTS:
        return -6 if card == ACE_OF_HEARTS else -2
    return -20


def trick_points(contract: Contract, number: int, cards: tuple[Card, ...]) -> int:
    """Raw points of the seat winning trick ``number`` (1..13) made of ``cards``."""
    if contract == Contract.NO_TRICKS:
        return -2
    if contract == Contract.TRUMPS:
        return 5
    if contract == Contract.NO_LAST_TWO:
        return {12: -10, 13: -20}.get(number, 0)
    return sum(card_points(contract, c) for c in cards)
