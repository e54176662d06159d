"""Barbu actions and their stable codes (see the package docstring).

* ``ChooseContract``: ``"contract no-queens"``, ``"contract trumps H"``, ``"contract domino 7"``
  (the starting rank as a rank letter: 2-9 T J Q K A).
* ``Double``: ``"pass"`` (doubling nobody) or ``"double 1 3"`` (the seats doubled, ascending).
* ``PlayCard``: a card code, ``"7D"``, ``"TH"``, ``"AS"``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from tavola.games.barbu.contracts import CONTRACT_BY_CODE, Contract
from tavola.rules.cards import Card, Rank, Suit
from tavola.rules.interface import Action

RANK_LETTERS = "23456789TJQKA"


@dataclass(frozen=True, slots=True)
class ChooseContract(Action):
    contract: Contract
    trump: Suit | None = None
    start_rank: Rank | None = None


@dataclass(frozen=True, slots=True)
class Double(Action):
    """One doubling turn: the seats doubled (ascending); ``()`` is a pass."""

    targets: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayCard(Action):
    card: Card


BarbuAction = ChooseContract | Double | PlayCard


def encode(action: BarbuAction) -> str:
    if isinstance(action, PlayCard):
        return action.card.code
    if isinstance(action, Double):
        return "double " + " ".join(map(str, action.targets)) if action.targets else "pass"
    code = "contract " + action.contract.code
    if action.trump is not None:
        code += " " + action.trump.letter
    if action.start_rank is not None:
        code += " " + action.start_rank.letter
    return code


@functools.lru_cache(maxsize=1024)  # a view decodes each card of the hand it blocks
def decode(code: str) -> BarbuAction | None:
    """The action of a code, or ``None`` when the code is malformed (actions are frozen:
    one is shared by every caller of its code)."""
    words = code.strip().split()
    if not words:
        return None
    head = words[0].lower()
    if head == "pass" and len(words) == 1:
        return Double(())
    if head == "double":
        return _decode_double(words[1:])
    if head == "contract":
        return _decode_contract(words[1:])
    if len(words) == 1:
        try:
            return PlayCard(Card.parse(words[0]))
        except ValueError:
            return None
    return None


def _decode_double(words: list[str]) -> Double | None:
    if not words or any(w not in ("0", "1", "2", "3") for w in words):
        return None
    seats = sorted(int(w) for w in words)
    if len(set(seats)) != len(seats):
        return None
    return Double(tuple(seats))


def _decode_contract(words: list[str]) -> ChooseContract | None:
    if not words or words[0].lower() not in CONTRACT_BY_CODE:
        return None
    contract = CONTRACT_BY_CODE[words[0].lower()]
    rest = [w.upper() for w in words[1:]]
    if contract == Contract.TRUMPS:
        if len(rest) != 1 or len(rest[0]) != 1 or rest[0] not in "CDHS":
            return None
        return ChooseContract(contract, trump=Suit("CDHS".index(rest[0])))
    if contract == Contract.DOMINO:
        letter = "T" if rest == ["10"] else (rest[0] if len(rest) == 1 else "")
        if len(letter) != 1 or letter not in RANK_LETTERS:
            return None
        return ChooseContract(contract, start_rank=Rank(RANK_LETTERS.index(letter) + 2))
    return None if rest else ChooseContract(contract)
