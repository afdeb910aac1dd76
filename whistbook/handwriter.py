"""What a writer of a hand file needs from a hand it has played: the claim
for the tricks not written out and the result, and the deal and the tricks
as the file writes them.

``whistbook new`` (:mod:`.starter`), ``whistbook deal``
(:mod:`.generated`) and the workbench of ``serve`` (:mod:`.workbench`)
each write a hand file from a replay; their opening comments and keys
differ, the lines below do not. The claim is the double-dummy solver's, so
the file validates: the check accepts a claim the solver agrees with.
"""

from __future__ import annotations

import json

from .deal import hand_line
from .laws import describe_result
from .play import Replay
from .scoring import honours_held, score_hand
from .seats import SEATS, Seat, Side


def yaml_string(text: str) -> str:
    """``text`` as a quoted scalar: a JSON string is a YAML double-quoted one,
    every quote, backslash and control character escaped."""
    return json.dumps(text, ensure_ascii=False)


def solver_ending(rp: Replay) -> tuple[dict[Side, int], str]:
    """The tricks each side takes of those not played in ``rp`` with best
    play from here (empty when every trick is played), and the result of the
    hand in the book's words, from love-all."""
    from .solver import dd_tricks  # the solver is loaded only by those who write a hand

    claim: dict[Side, int] = {}
    if rp.cards_left:
        got = dd_tricks({s: rp.remaining[s] for s in SEATS}, rp.trumps, rp.next_leader)
        side = rp.next_leader.side
        claim = {side: got, side.other: rp.cards_left - got}
    final = {s: rp.tally[s] + claim.get(s, 0) for s in Side}
    held = honours_held({Seat(k): hand for k, hand in enumerate(rp.hands)}, rp.trumps)
    return claim, describe_result(score_hand(final, held, None, "short"))


def deal_lines(rp: Replay) -> list[str]:
    """``deal:`` and a line for each seat's thirteen cards."""
    return ["deal:"] + [f"  {s}: {hand_line(rp.hands[s])}" for s in SEATS]


def claim_line(claim: dict[Side, int]) -> str:
    """The ending's claim, AB first."""
    return "  claim: {" + ", ".join(f"{s}: {claim[s]}" for s in Side if s in claim) + "}"


__all__ = ["yaml_string", "solver_ending", "deal_lines", "claim_line"]
