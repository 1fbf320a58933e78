"""The compiled builders of a large universe give the arrays numpy's builders give, and let go
of Python's lock while they run."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bullscows import universe as module
from bullscows._kernels import universe_kernels
from bullscows.errors import RulesError
from bullscows.rules import DEFAULT_ALPHABET, Rules
from bullscows.universe import Universe
from variants import variant_with_limits


def _both_ways(rules: Rules) -> None:
    """Codes, keys and masks of ``rules`` built by the compiled kernels and by numpy."""
    allowed, base = module._allowed(rules), len(rules.symbols)
    codes = module._enumerate_numpy(allowed, rules.repeats)
    assert np.array_equal(universe_kernels.enumerate_codes(allowed, rules.repeats), codes)
    assert len(codes) == rules.size
    counted = universe_kernels.enumerate_codes(allowed, rules.repeats, rules.size)
    assert np.array_equal(counted, codes)
    assert np.array_equal(universe_kernels.code_keys(codes, base), module._keys_numpy(codes, base))
    width = rules.length if rules.repeats else 1
    numpy_masks = (module._masks(len(codes), rules.length * base),
                   module._masks(len(codes), base * width))  # fmt: skip
    compiled_masks = tuple(m.copy() for m in numpy_masks)
    module._set_masks_numpy(codes, base, width, *numpy_masks)
    universe_kernels.set_masks(codes, base, width, *compiled_masks)
    for ours, theirs in zip(compiled_masks, numpy_masks, strict=True):
        assert np.array_equal(ours, theirs)


@st.composite
def variants(draw: st.DrawFn) -> Rules:
    """Small variants, with and without repeats, often with per-position limits, some with
    masks of several words (many symbols)."""
    length = draw(st.integers(1, 5))
    repeats = draw(st.booleans())
    colours = draw(st.integers(1 if repeats else length, 7 if draw(st.booleans()) else 30))
    return variant_with_limits(draw, length, DEFAULT_ALPHABET[:colours], repeats)


@settings(max_examples=80)
@given(variants())
def test_compiled_builders_equal_numpy_on_drawn_variants(rules: Rules) -> None:
    _both_ways(rules)


@pytest.mark.parametrize(
    "spec",
    ["bc", "mm", "bc-nolead", "moo5,3,4", "p5c10n:guesses=p5c10r", "p6c8r", "p6c12n",
     "p7c7n:guesses=p7c7r", "p4c6r:allowed=01/2345/012345/5", "p5c9n:nolead:guesses=p5c9r"],
)  # fmt: skip
def test_compiled_builders_equal_numpy_on_named_variants(spec: str) -> None:
    rules = Rules.parse(spec)
    _both_ways(rules.guess_rules)
    _both_ways(rules.secret_rules)


@pytest.mark.parametrize("spec", ["p5c10n:guesses=p5c10r", "p6c7r", "p3c40n"])
def test_a_universe_built_either_way_is_the_same(spec: str, monkeypatch: pytest.MonkeyPatch
                                                 ) -> None:  # fmt: skip
    rules = Rules.parse(spec)
    monkeypatch.setattr(module, "COMPILED_CODES", 10**9)
    by_numpy = Universe(rules)
    monkeypatch.setattr(module, "COMPILED_CODES", 1)
    compiled = Universe(rules)
    for name in ("codes", "keys", "pos_masks", "sym_masks", "secrets"):
        assert np.array_equal(getattr(compiled, name), getattr(by_numpy, name)), name


@settings(max_examples=80)
@given(variants())
def test_the_count_the_compiled_walk_is_given_is_read_from_its_arrays(rules: Rules) -> None:
    allowed = module._allowed(rules)
    count = module._code_count(allowed, rules.repeats)
    rows = len(universe_kernels.enumerate_codes(allowed, rules.repeats))  # counted by the walk
    assert count is None or count == rows
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(module, "COMPILED_CODES", 1)  # the compiled walk, whatever the size
        assert np.array_equal(module.enumerate_codes(rules), module._enumerate_numpy(allowed,
                              rules.repeats))  # fmt: skip


def test_a_position_that_repeats_a_symbol_is_counted_by_the_walk() -> None:
    twice = [np.array([0, 0, 1], dtype=np.uint8)] * 2
    assert module._code_count(twice, repeats=False) is None  # not 3 * 2: the walk counts 4
    assert len(universe_kernels.enumerate_codes(twice, repeats=False)) == 4
    assert module._code_count(twice, repeats=True) == 9


def test_a_variant_made_only_to_score_is_not_enumerated() -> None:
    huge = Rules(length=12, symbols=DEFAULT_ALPHABET[:12], repeats=True, scoring=True)
    with pytest.raises(RulesError, match="can be enumerated in memory"):
        module.enumerate_codes(huge)


def test_the_kernels_let_go_of_the_lock() -> None:
    kernels = [universe_kernels._walk, universe_kernels._keys, universe_kernels._set_masks]
    assert all(kernel.targetoptions.get("nogil") for kernel in kernels)


def test_a_large_universe_is_built_aside_at_a_lower_priority(monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:  # fmt: skip
    import os
    import sys
    import threading

    seen: list[tuple[str, int]] = []

    def recorded(rules: Rules) -> str:
        seen.append((threading.current_thread().name, os.getpriority(os.PRIO_PROCESS, 0)))
        return "built"

    monkeypatch.setattr(module, "Universe", recorded)
    before = os.getpriority(os.PRIO_PROCESS, 0)
    assert module.built_aside(Rules.parse("bc")) == "built"
    assert os.getpriority(os.PRIO_PROCESS, 0) == before  # the caller's thread keeps its own
    lower = min(19, before + module.BUILD_NICE)
    assert seen == [("bullscows-universe", lower if sys.platform == "linux" else seen[0][1])]

    def failing(rules: Rules) -> None:
        raise RulesError(f"no universe of {rules.spec}")

    monkeypatch.setattr(module, "Universe", failing)
    with pytest.raises(RulesError, match="no universe of bc"):
        module.built_aside(Rules.parse("bc"))
