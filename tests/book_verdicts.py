"""Cavendish's verdicts on particular cards: the test set in tests/data/book_verdicts.yaml.

The data file's header explains each field. ``load_book_verdicts`` reads it into
``BookVerdict`` records and refuses an entry with a missing or unknown field, so a
judge of play measured against it never runs on a half-read set. ``position``
replays an entry's hand file up to the judged card and returns what the seat held
there and the suit it had to follow; tests/test_book_verdicts.py checks every entry
with it, and a judge can use it to ask its own question at the same point.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from whistbook import Card, Seat, Suit, load
from whistbook.model import HandFile
from whistbook.play import replay

DATA = Path(__file__).resolve().parent / "data" / "book_verdicts.yaml"
HANDS = Path(__file__).resolve().parent.parent / "hands"
#: the seed of Cavendish's book; entries from other seeds name theirs
CAVENDISH_SEED = "003_eafd0ecd4c7a8790.txt"

VERDICTS = ("praised", "blamed", "excused", "doubtful")
BASES = ("explicit", "argued", "cited")
_REQUIRED = {"hand", "book_hand", "trick", "seat", "card", "verdict", "basis", "principle", "summary",
             "says", "offset"}
_OPTIONAL = {"solution", "book_trick", "ending", "led", "better", "worse", "seed"}


@dataclass(frozen=True)
class BookVerdict:
    """One card the book judges, at one trick of one hand file."""

    hand: str  # relative to hands/
    book_hand: str
    trick: int  # 1-based, in our file (or in the solution line, for a problem)
    seat: Seat
    card: Card
    verdict: str  # one of VERDICTS
    basis: str  # one of BASES
    principle: str
    summary: str
    says: str
    offset: int
    better: tuple[Card, ...] = ()
    worse: tuple[Card, ...] = ()
    solution: int | None = None  # 1-based solution line, problems only
    book_trick: int | None = None
    ending: bool = False
    led: Suit | None = None
    seed: str = CAVENDISH_SEED

    @property
    def path(self) -> Path:
        return HANDS / self.hand

    @property
    def key(self) -> str:
        """A short name: book hand, trick and seat (and the solution line for a problem)."""
        if self.solution is not None:  # problems have no book number: name them by file
            book = f"{Path(self.hand).parent.name}-{Path(self.hand).stem[:2]}"
            return f"{book}-s{self.solution}-t{self.trick}-{self.seat.name}"
        return f"{self.book_hand}-t{self.trick}-{self.seat.name}"


@dataclass(frozen=True)
class Position:
    """What the seat held just before playing the judged card, and the suit it had to follow."""

    held: frozenset[Card]
    led: Suit | None  # None when the seat led the trick
    played: Card | None  # the card the file has the seat play there (None after the written tricks)

    def legal(self, card: Card) -> bool:
        if card not in self.held:
            return False
        return self.led is None or card.suit == self.led or all(c.suit != self.led for c in self.held)


def load_book_verdicts(path: Path = DATA) -> list[BookVerdict]:
    """Read the test set; raise ValueError naming the entry for anything malformed."""
    entries = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(entries, list):
        raise ValueError(f"{path}: expected a list of entries")
    return [_entry(i, raw, path) for i, raw in enumerate(entries, 1)]


def _entry(i: int, raw: dict, path: Path) -> BookVerdict:
    where = f"{path.name}: entry {i}"
    if not isinstance(raw, dict):
        raise ValueError(f"{where}: expected a mapping")
    missing, unknown = _REQUIRED - raw.keys(), raw.keys() - _REQUIRED - _OPTIONAL
    if missing or unknown:
        raise ValueError(f"{where}: missing {sorted(missing)}, unknown {sorted(unknown)}")
    if raw["verdict"] not in VERDICTS or raw["basis"] not in BASES:
        raise ValueError(f"{where}: verdict {raw['verdict']!r} / basis {raw['basis']!r} not recognised")
    return BookVerdict(
        hand=raw["hand"], book_hand=str(raw["book_hand"]), trick=int(raw["trick"]), seat=Seat[raw["seat"]],
        card=Card.parse(raw["card"]), verdict=raw["verdict"], basis=raw["basis"],
        principle=raw["principle"], summary=raw["summary"], says=raw["says"], offset=int(raw["offset"]),
        better=tuple(Card.parse(c) for c in raw.get("better", ())),
        worse=tuple(Card.parse(c) for c in raw.get("worse", ())),
        solution=raw.get("solution"), book_trick=raw.get("book_trick"), ending=bool(raw.get("ending", False)),
        led=Card.parse("2" + raw["led"]).suit if "led" in raw else None,
        seed=raw.get("seed", CAVENDISH_SEED),
    )


def position(v: BookVerdict, hand: HandFile | None = None) -> Position:
    """Replay ``v``'s hand (or problem line) to the judged card.

    Raises ValueError when the trick is not in the file: a written trick, or for an
    ``ending`` entry the first trick after the written ones.
    """
    hand = hand or load(v.path)
    if v.solution is not None:  # a problem: its solution line, four cards a trick
        plays = [r.card for r in hand.solutions[v.solution - 1].plays]
        tricks = [plays[i:i + 4] for i in range(0, len(plays), 4)]
    else:
        tricks = [[r.card for r in t.plays] for t in hand.tricks]
    play = replay({s: [r.card for r in refs] for s, refs in hand.deal.items()}, hand.trumps, hand.leader, tricks)
    before = play.tricks[:v.trick - 1]
    held = frozenset(play.hands[v.seat]) - {t.card_of(v.seat) for t in before}
    if v.trick <= len(play.tricks):
        trick = play.tricks[v.trick - 1]
        led = None if trick.leader == v.seat else trick.cards[0].suit
        return Position(held, led, trick.card_of(v.seat))
    if not v.ending or v.trick != len(play.tricks) + 1:
        raise ValueError(f"{v.key}: {v.hand} writes {len(play.tricks)} tricks, not trick {v.trick}")
    if play.next_leader != v.seat and v.led is None:
        raise ValueError(f"{v.key}: {v.seat.name} does not lead trick {v.trick}; say which suit was led")
    return Position(held, None if play.next_leader == v.seat else v.led, None)
