"""Symmetries of a variant that let a search look at one code of each equivalent class.

Before any guess, relabelling symbols and permuting positions map codes onto each other
without changing any outcome (when every symbol is allowed everywhere), so only one code per
*pattern* of repeated symbols needs to be considered: the lowest code of its class.

>>> from bullscows.universe import universe
>>> u = universe(Rules.parse("mm"))
>>> [u.text(i) for i in opening_representatives(Rules.parse("mm"))]
['1111', '1112', '1122', '1123', '1234']
"""

from __future__ import annotations

import numpy as np

from bullscows.rules import Rules
from bullscows.universe import IndexArray, universe


def _patterns(total: int, largest: int, parts: int) -> list[list[int]]:
    """Partitions of ``total`` into at most ``parts`` parts up to ``largest``, largest first."""
    if total == 0:
        return [[]]
    if parts == 0:
        return []
    found = []
    for first in range(min(total, largest), 0, -1):
        for rest in _patterns(total - first, first, parts - 1):
            found.append([first, *rest])
    return found


def opening_representatives(rules: Rules) -> IndexArray | None:
    """The lowest code of each class of openings, or ``None`` when positions are restricted.

    A class's lowest code gives its most repeated symbol the lowest label, and sorts.
    """
    if rules.allowed is not None:
        return None
    largest = rules.length if rules.repeats else 1
    rows = []
    for pattern in reversed(_patterns(rules.length, largest, len(rules.symbols))):
        rows.append([symbol for symbol, times in enumerate(pattern) for _ in range(times)])
    u = universe(rules)
    return np.sort(u.indices(np.array(rows, dtype=np.uint8)))
