"""Clipped matches of whole corpora, remembered within a byte budget.

A :class:`Counted` holds a corpus's clipped matches (segments x orders) and sentence
lengths, stored in the narrowest of int32 / int64 that holds them (read back as int64, the
same values). :class:`CountsCache` keeps them by key, least recently used forgotten first
once their arrays pass ``cap`` bytes; an object filed under several keys is counted once.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

__all__ = ["Counted", "CountsCache", "compact"]

_INT32 = np.iinfo(np.int32)


def compact(values: NDArray[np.int64]) -> NDArray[np.int32] | NDArray[np.int64]:
    """``values`` (integers) as int32 when every one fits, else as int64."""
    if values.size and (values.min() < _INT32.min or values.max() > _INT32.max):
        return values.astype(np.int64, copy=False)
    return values.astype(np.int32, copy=False)


@dataclass(frozen=True)
class Counted:
    """A corpus's clipped matches (segments x orders) and sentence lengths: per segment
    the hypothesis then its references (segment scope), or the hypotheses then the pool;
    ``spaced``: a token holds a space (joined n-grams are not tuple n-grams). Build with
    :meth:`of`; :attr:`counts` and :attr:`lens` are int64."""

    stored_counts: NDArray[np.int32] | NDArray[np.int64]
    stored_lens: NDArray[np.int32] | NDArray[np.int64]
    spaced: bool

    @classmethod
    def of(cls, counts: NDArray[np.int64], lens: NDArray[np.int64], spaced: bool) -> Counted:
        return cls(compact(counts), compact(lens), spaced)

    @property
    def counts(self) -> NDArray[np.int64]:
        return self.stored_counts.astype(np.int64)

    @property
    def lens(self) -> NDArray[np.int64]:
        return self.stored_lens.astype(np.int64)

    @property
    def nbytes(self) -> int:
        return int(self.stored_counts.nbytes + self.stored_lens.nbytes)


class CountsCache:
    """:class:`Counted` by key; past ``cap`` bytes the least recently used keys are
    forgotten (the last one put is always kept)."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self._items: OrderedDict[Hashable, Counted] = OrderedDict()
        self._keys_of: dict[int, int] = {}  # id(counted) -> keys filing it
        self.bytes = 0

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: Hashable) -> Counted | None:
        found = self._items.get(key)
        if found is not None:
            self._items.move_to_end(key)
        return found

    def put(self, key: Hashable, counted: Counted) -> None:
        if key in self._items:
            return
        self._items[key] = counted
        filed = self._keys_of.get(id(counted), 0)
        if not filed:
            self.bytes += counted.nbytes
        self._keys_of[id(counted)] = filed + 1
        while self.bytes > self.cap and len(self._items) > 1:
            self._drop(next(iter(self._items)))

    def forget(self, kind: str) -> None:
        """Forget every key whose first element is ``kind``."""
        for key in [k for k in self._items if isinstance(k, tuple) and k and k[0] == kind]:
            self._drop(key)

    def _drop(self, key: Hashable) -> None:
        counted = self._items.pop(key)
        left = self._keys_of[id(counted)] - 1
        if left:
            self._keys_of[id(counted)] = left
        else:
            del self._keys_of[id(counted)]
            self.bytes -= counted.nbytes
