"""``bullscows tree --opening``: the lowest total among trees of a fixed opening
(``search.opening``), or the best tree of it found before a time limit, with the bounds."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from bullscows.cli.progress import ANNOUNCE_CODES, searching, showing
from bullscows.codes import Code
from bullscows.errors import interrupted as stopped
from bullscows.feedback import counted
from bullscows.rules import Rules
from bullscows.tree import DecisionTree
from bullscows.tree.irving import save_tree

if TYPE_CHECKING:  # the search loads numba: not for --help
    from bullscows.search.opening import OpeningResult
    from bullscows.search.progress import Budget

#: ``--opening``'s word for the first guess of the lowest root bound.
ROOT_BOUND = "root-bound"


def run_opening(
    rules: Rules,
    opening: str,
    jobs: int,
    scheduler: str | None,
    checkpoint: Path | None,
    budget: Budget | None,
    out: Path | None,
    as_json: bool,
    quiet: bool,
    log_every: float = 0.0,
) -> bool:
    """Search the opening named ``opening`` (a first guess, or ``ROOT_BOUND``) on ``jobs``
    threads or ``scheduler``, with its checkpoint and budget, print its figures, and write
    its tree to ``out``; whether the budget stopped it first. Its progress shows on a terminal, else
    as a line every ``log_every`` seconds. Stopped by Ctrl-C or SIGTERM while its parts were
    searched, it does the same, then exits 130."""
    from bullscows.executors import make_executor
    from bullscows.search.opening import OpeningInterrupted, opening_tree
    from bullscows.search.optimal import check_searchable
    from bullscows.strategies.part_trees import heuristic_part

    first = None if opening == ROOT_BOUND else Code(opening, rules).index
    check_searchable(rules)  # before the announcement
    resume = "" if checkpoint is None else f"; run it again to resume from {checkpoint}"
    try:
        # The workers first: a scheduler that cannot be used is refused before the announcement.
        with make_executor(None, jobs, scheduler, threads=True) as pool:
            if not quiet and rules.size >= ANNOUNCE_CODES:
                click.echo(
                    f"Searching every part of a fixed opening of {rules.spec} ({rules.size:,} "
                    f"secrets) two guesses deep: from seconds to days (Ctrl-C stops{resume}).",
                    err=True,
                )
            with searching(showing(quiet), f"opening of {rules.spec}", log_every) as show:
                found = opening_tree(rules, heuristic_part, first, show, pool, checkpoint, budget)
    except OpeningInterrupted as stop:
        _report(stop.found, out, as_json)
        interrupted(checkpoint)
    except KeyboardInterrupt:
        interrupted(checkpoint)
    _report(found, out, as_json)
    return found.stopped is not None


def _report(found: OpeningResult, out: Path | None, as_json: bool) -> None:
    """Print the figures of the opening's tree (``as_json``: as JSON), and write it to
    ``out``."""
    built = opening_decision_tree(found)
    if out is not None:
        save_tree(built, out, built.stated)
        click.echo(f"Tree written to {out} ({out.stat().st_size:,} bytes)", err=True)
    if as_json:
        click.echo(json.dumps(_json(found, built), indent=2))
    else:
        _print(found, built)


def interrupted(checkpoint: Path | None) -> NoReturn:
    """Say where a search stopped by Ctrl-C left its answers, and exit 130."""
    kept = (
        f"the answers so far are in {checkpoint}: run the same command to resume"
        if checkpoint is not None
        else "give --checkpoint FILE to be able to resume"
    )
    sys.exit(stopped(f"Interrupted; {kept}."))


def opening_decision_tree(found: OpeningResult) -> DecisionTree:
    """The tree found, labelled with its opening and, unless every part was solved, as an
    upper bound."""
    from bullscows.search.found import stating

    text = found.opening.text(found.rules)
    if found.solved == found.parts:
        label, objective = f"optimal, opening {text}", "optimal-total-of-opening"
    else:
        label = f"optimal, opening {text}, {found.solved:,} of {found.parts:,} parts solved"
        objective = "upper-bound"
    return stating(DecisionTree(found.rules, label, objective, found.tree), found.distribution)


def _print(found: OpeningResult, built: DecisionTree) -> None:
    from bullscows.search.kept import kept_words
    from bullscows.search.progress import Costs

    rules, s = found.rules, built.stated
    assert s is not None
    exact = found.solved == found.parts
    click.echo(f"{rules.spec}: {rules.describe()} ({counted(s.secrets, 'secret', True)})")
    rows = [
        ("opening", f"{found.opening.text(rules)}, then in each of its "
         f"{len(found.opening.seconds):,} parts of 3 codes or more the root bound's guess"),
        ("parts solved", f"{found.solved:,} of {found.parts:,} (3 codes or more, two guesses "
         f"deep), {found.sets:,} sets in {found.seconds:.0f} s"),
    ]  # fmt: skip
    if found.stopped is not None:
        rows.append(("stopped", f"at {found.stopped}: the parts left have the better "
                     "heuristic's tree (entropy or expected-size)"))  # fmt: skip
    if found.kept:
        rows.append(("kept", kept_words(found.kept)))
    rows.append(("total", f"{found.total:,}" + (
        " (the lowest of this opening)" if exact else " (an upper bound)"
    )))  # fmt: skip
    rows.append(("lower bound", f"{found.lower:,} (no tree of this opening costs less)"))
    if not exact:
        rows.append(("gap", Costs().gap(found.lower, found.total)))
    spread = " ".join(f"{k}:{v}" for k, v in sorted(s.distribution.items()))
    rows += [("average", f"{s.average:.4f}"), ("worst", f"{s.worst:,}"),
             ("distribution", spread), ("nodes", f"{s.nodes:,}")]  # fmt: skip
    for name, value in rows:
        click.echo(f"  {name:<13} {value}")


def _json(found: OpeningResult, built: DecisionTree) -> dict[str, object]:
    assert built.stated is not None
    return {
        "rules": found.rules.spec,
        "name": built.strategy,
        "objective": built.objective,
        "opening": found.opening.text(found.rules),
        "parts": found.parts,
        "solved": found.solved,
        "stopped": found.stopped,
        "lower": found.lower,
        "sets": found.sets,
        "kept": found.kept,
        **built.stated.to_json(),
    }
