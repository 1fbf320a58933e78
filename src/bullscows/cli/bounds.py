"""``bullscows tree --strategy optimal --bound root|deep|deeper``: a proven lower bound on a
variant's lowest total, with the bound of each first guess, without searching for a tree."""

from __future__ import annotations

import time

import click

from bullscows.cli.progress import counting, showing
from bullscows.feedback import counted
from bullscows.rules import Rules
from bullscows.universe import universe

#: What ``--bound`` takes, and how many guesses deep each bounds a first guess's parts.
KINDS = {"root": 1, "deep": 2, "deeper": 3}


def print_bound(rules: Rules, kind: str, jobs: int, quiet: bool) -> None:
    """Compute and print the root, deep or deeper bound of ``rules`` (``search.frontier``,
    ``search.deep_bound``), each first guess's bound with it, and the time it took."""
    from bullscows.search.deep_bound import deep_bound  # numba: not for --help
    from bullscows.search.frontier import root_bound

    started = time.perf_counter()
    click.echo(f"{rules.spec}: {rules.describe()} ({counted(rules.size, 'secret', True)})")
    if kind == "root":
        root = root_bound(rules)
        rows = [(root.text(guess), f"{bound:,}", "") for guess, bound in root.firsts]
        lower, how = root.lower, "root bound"
    else:
        text = universe(rules).text
        with counting(showing(quiet)) as update:
            found = deep_bound(
                rules, jobs, lambda first, done, parts: update(
                    f"first guess {text(first)}: parts", done, parts
                ), KINDS[kind],
            )  # fmt: skip
        rows = [(found.text(first.guess), f"{first.root:,}", _deep(first.deep, first.exact,
                 first.root)) for first in found.firsts]  # fmt: skip
        lower, how = found.lower, f"{kind} bound (root bound {found.root:,})"
    click.echo(
        f"  {how}: {lower:,} ({lower / rules.size:.4f} a secret; proven: no tree costs less)"
    )
    width = max(len("first guess"), *(len(guess) for guess, _, _ in rows))
    heads = ("first guess", "root bound", "" if kind == "root" else f"{kind} bound")
    for guess, root_text, deep_text in [heads, *rows]:
        click.echo(f"  {guess:<{width}}  {root_text:>10}  {deep_text}".rstrip())
    click.echo(f"  time {time.perf_counter() - started:.1f} s")


def _deep(deep: int, exact: bool, root: int) -> str:
    """A first guess's deep bound as the table gives it."""
    if exact:
        return f"{deep:,}"
    if deep == root:
        return "not bounded deeper (its root bound is at least the bound)"
    return f"at least {deep:,} (bounded no further: it cannot lower the bound)"
