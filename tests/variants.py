"""Hypothesis helpers shared by the tests: variants drawn at random."""

from __future__ import annotations

from hypothesis import assume
from hypothesis import strategies as st

from bullscows.errors import RulesError
from bullscows.rules import Rules


def variant_with_limits(draw: st.DrawFn, length: int, symbols: str, repeats: bool) -> Rules:
    """The variant, half the time with random symbols allowed at each position (a draw whose
    limits leave no code is discarded)."""
    allowed = None
    if draw(st.booleans()):
        allowed = tuple(
            "".join(draw(st.sets(st.sampled_from(symbols), min_size=1))) for _ in range(length)
        )
    try:
        return Rules(length, symbols, repeats, allowed)
    except RulesError:
        assume(False)  # per-position limits that leave no code without repeats
        raise
