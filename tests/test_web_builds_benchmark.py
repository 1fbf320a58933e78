"""``benchmarks/web_builds.py``: its wide variants are each new, and its split of the light
requests by whether a universe was being built meanwhile."""

from __future__ import annotations

import itertools

from bench_scripts import load
from bullscows.rules import Rules

web_builds = load("web_builds")


def test_wide_variants_are_distinct_universes_of_the_wide_shape() -> None:
    specs = list(itertools.islice(web_builds.wide_variants(), 30))
    rules = [Rules.parse(spec) for spec in specs]
    assert len(set(rules)) == 30
    assert all(r.guess_rules.size == 2_097_152 and r.size == 40_320 for r in rules)


def test_requests_are_split_by_overlap_with_builds() -> None:
    spans = [("guess", 0.0, 1.0), ("guess", 1.0, 2.0), ("hint", 5.0, 6.0), ("hint", 2.5, 3.0)]
    builds = [(1.5, 2.0), (5.9, 7.0)]
    assert web_builds.split(spans, builds) == {
        "guess": ([1.0], [1.0]),  # the first ends before the build: outside
        "hint": ([1.0], [0.5]),
    }
    assert web_builds.split(spans, []) == {"guess": ([], [1.0, 1.0]), "hint": ([], [1.0, 0.5])}
