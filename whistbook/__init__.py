"""whistbook: whist hands in YAML, replayed, checked, explained and rendered as lessons."""

from __future__ import annotations

__version__ = "0.1.0"

from .cards import DECK, SUITS, Card, Suit
from .laws import CheckedHand, check
from .errors import WhistbookError
from .handfile import load, loads
from .play import Replay, Trick, replay
from .scoring import Score, score_hand
from .seats import SEATS, Seat, Side

__all__ = [
    "__version__", "Card", "Suit", "SUITS", "DECK", "Seat", "Side", "SEATS",
    "load", "loads", "check", "CheckedHand", "replay", "Replay", "Trick",
    "score_hand", "Score", "WhistbookError",
]
