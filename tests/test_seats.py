import pytest

from whistbook.errors import InvalidCardError
from whistbook.seats import SEATS, Seat, Side


def test_clockwise_order_and_partners():
    assert [str(s) for s in SEATS] == ["A", "Y", "B", "Z"]
    assert Seat.A.lho is Seat.Y and Seat.Y.lho is Seat.B and Seat.B.lho is Seat.Z and Seat.Z.lho is Seat.A
    assert Seat.A.rho is Seat.Z
    assert Seat.A.partner is Seat.B and Seat.Y.partner is Seat.Z
    assert Seat.B.side is Side.AB and Seat.Z.side is Side.YZ
    assert Side.AB.other is Side.YZ and Side.YZ.seats == (Seat.Y, Seat.Z)


def test_iteration_and_turns():
    assert list(Seat.Z.iter_from()) == [Seat.Z, Seat.A, Seat.Y, Seat.B]
    assert Seat.A.turns_to(Seat.Z) == 3
    assert Seat.B.next(3) is Seat.Y


def test_parse_and_aliases():
    assert Seat.parse("b") is Seat.B
    assert Seat.parse("South") is Seat.A and Seat.parse("W") is Seat.Y
    assert Side.parse("ab") is Side.AB and Side.parse("Y Z") is Side.YZ
    with pytest.raises(InvalidCardError):
        Seat.parse("Q")
