"""``benchmarks/published.py --group open``: each unsettled row gets the strongest lower bound
the project proves for it, computed when it runs and named by its kind."""

from __future__ import annotations

from types import ModuleType

import pytest

from bench_scripts import load


@pytest.fixture(scope="module")
def published() -> ModuleType:
    return load("published")


def test_the_open_rows_name_their_strongest_bound(published: ModuleType) -> None:
    # docs/results.md, "Bounds": the deep bound is the best proven for bc5 and logik (digits
    # is settled: a row of the new group)
    kinds = {row.spec: row.bound for row in published.ROWS if row.group == "open"}
    assert kinds == {"bc5": "deep", "logik": "deep"}


@pytest.mark.parametrize(
    ("kind", "lower", "first"),
    [("root", 444, "012"), ("deep", 451, "012")],  # p3c5r: its optimum is 451
)
def test_a_row_prints_the_bound_of_its_kind(
    published: ModuleType, kind: str, lower: int, first: str
) -> None:
    row = published.Row("open", "p3c5r", bound=kind)
    line = published.bounded(row, None, 0, 0.0, None, published.Bound())
    assert f"| {lower} to " in line
    assert f"lower: {kind} bound, first guess {first};" in line
    assert f"`bullscows tree --rules p3c5r --strategy optimal --bound {kind}`" in line


def test_a_search_that_proved_more_is_named(published: ModuleType) -> None:
    row = published.Row("open", "p3c5r", bound="root")
    line = published.bounded(row, 450, 7, 3.0, None, published.Bound())
    assert "| 450 to " in line and "lower: search bound (the root bound, first guess" in line
