"""Seats A, Y, B, Z (clockwise, as in Cavendish) and the sides AB and YZ.

>>> Seat.Z.lho
Seat.A
>>> Seat.A.partner, Seat.A.side
(Seat.B, Side.AB)
>>> [str(s) for s in Seat.Y.iter_from()]
['Y', 'B', 'Z', 'A']
"""

from __future__ import annotations

import enum
from typing import Iterator

from .errors import InvalidCardError


class Side(enum.IntEnum):
    AB = 0
    YZ = 1

    @property
    def other(self) -> "Side":
        return Side(1 - self)

    @property
    def seats(self) -> tuple["Seat", "Seat"]:
        return (Seat.A, Seat.B) if self is Side.AB else (Seat.Y, Seat.Z)

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Side.{self.name}"

    @classmethod
    def parse(cls, text: str) -> "Side":
        key = text.strip().upper().replace(" ", "").replace("-", "")
        if key in ("AB", "BA"):
            return Side.AB
        if key in ("YZ", "ZY"):
            return Side.YZ
        raise InvalidCardError(f"{text!r} is not a side (expected AB or YZ)")


class Seat(enum.IntEnum):
    """Clockwise order: A, then Y on A's left, B opposite A, Z on A's right."""

    A = 0
    Y = 1
    B = 2
    Z = 3

    @property
    def lho(self) -> "Seat":
        """The next player clockwise (plays after this seat)."""
        return _SEATS[(self + 1) % 4]

    @property
    def rho(self) -> "Seat":
        return _SEATS[(self + 3) % 4]

    @property
    def partner(self) -> "Seat":
        return _SEATS[(self + 2) % 4]

    @property
    def side(self) -> Side:
        return Side(self % 2)

    def next(self, n: int = 1) -> "Seat":
        return _SEATS[(self + n) % 4]

    def iter_from(self) -> Iterator["Seat"]:
        """The four seats in play order starting with this one."""
        for k in range(4):
            yield _SEATS[(self + k) % 4]

    def turns_to(self, other: "Seat") -> int:
        """How many places clockwise ``other`` sits from this seat."""
        return (other - self) % 4

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Seat.{self.name}"

    @classmethod
    def parse(cls, text: str) -> "Seat":
        """``A Y B Z``, or the compass aliases ``S W N E`` (A is South)."""
        key = text.strip().upper()
        if key in _ALIASES:
            return _ALIASES[key]
        raise InvalidCardError(f"{text!r} is not a seat (expected A, Y, B or Z)")


SEATS: tuple[Seat, ...] = tuple(Seat)
_SEATS = SEATS
_ALIASES = {
    "A": Seat.A, "Y": Seat.Y, "B": Seat.B, "Z": Seat.Z,
    "S": Seat.A, "SOUTH": Seat.A, "W": Seat.Y, "WEST": Seat.Y,
    "N": Seat.B, "NORTH": Seat.B, "E": Seat.Z, "EAST": Seat.Z,
}
