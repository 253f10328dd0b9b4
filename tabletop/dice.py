"""Server-side randomness for table games (docs/architecture.md: randomness happens only in ``decide``).

``Dice`` wraps a source of random integers and keeps a *tape* of every draw it made:
``[[n, result], ...]`` where ``result`` was drawn uniformly from ``0..n-1``. The kit stores the
tape with the command's events, so:

- a replay never needs randomness (the outcome is in the events);
- after an undo, the same kind of command by the same seat is handed a ``Dice`` that first plays
  back the undone command's tape (while each asked range matches), so undo is never a re-roll.

The source is ``secrets.SystemRandom`` (the OS's cryptographic generator) in production, or
``random.Random(seed)`` when ``TABLETOP_RNG_SEED`` is set (tests).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


class Dice:
    """Random draws with a tape. All methods are uniform unless weights are given.

    ``source``: an object with ``randrange(n)``; ``replay``: a tape to play back first.
    """

    def __init__(self, source: random.Random | None = None, replay: list | None = None) -> None:
        self._source = source or secrets.SystemRandom()
        self._replay = [list(x) for x in (replay or [])]
        self.tape: list[list[int]] = []

    def randbelow(self, n: int) -> int:
        """An int in ``0..n-1`` (``n`` >= 1). Raises ValueError for ``n`` < 1."""
        if n < 1:
            raise ValueError("randbelow needs n >= 1")
        if self._replay and self._replay[0][0] == n:
            result = self._replay.pop(0)[1]
        else:
            self._replay = []  # the command changed shape: fresh randomness from here on
            result = self._source.randrange(n)
        self.tape.append([n, result])
        return result

    def randint(self, low: int, high: int) -> int:
        """An int in ``low..high`` inclusive."""
        return low + self.randbelow(high - low + 1)

    def d(self, sides: int = 6) -> int:
        """One die: ``1..sides``."""
        return self.randint(1, sides)

    def roll(self, count: int, sides: int = 6) -> list[int]:
        """``count`` dice of ``sides`` faces, in rolling order."""
        return [self.d(sides) for _ in range(count)]

    def choice(self, items: Sequence[T]) -> T:
        """One element of a non-empty sequence."""
        return items[self.randbelow(len(items))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A new list with the items in random order (Fisher-Yates)."""
        result = list(items)
        for i in range(len(result) - 1, 0, -1):
            j = self.randbelow(i + 1)
            result[i], result[j] = result[j], result[i]
        return result

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """``k`` distinct elements in random order."""
        return self.shuffled(items)[:k]

    def weighted_index(self, weights: Sequence[int]) -> int:
        """An index drawn with probability ``weights[i] / sum(weights)``; integer weights >= 0,
        sum > 0."""
        total = sum(weights)
        if total <= 0 or any(w < 0 for w in weights):
            raise ValueError("weights must be >= 0 with a positive sum")
        point = self.randbelow(total)
        for index, weight in enumerate(weights):
            if point < weight:
                return index
            point -= weight
        raise AssertionError("unreachable")


def make_dice(seed: int | str | None = None, replay: list | None = None) -> Dice:
    """A ``Dice`` seeded when ``seed`` is given (tests), cryptographic otherwise."""
    source = random.Random(seed) if seed not in (None, "") else None
    return Dice(source, replay)
