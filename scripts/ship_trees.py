"""(Re)build the optimal trees shipped with bullscows, in ``src/bullscows/data/trees``.

Each entry of ``SHIPPED`` (a variant, ``optimal`` or ``optimal-worst``, and the options) is
searched with ``bullscows.search.optimal_tree``, its file's bytes read back and checked with
``bullscows.tree.check_tree``, and only then written in place (whole), their SHA-256
recorded in ``SHA256SUMS`` beside it (a shipped tree whose bytes do not match is passed over
with a warning and searched again, ``tree.store.read_shipped``). The files are
deterministic: gzip without a time stamp, JSON with sorted keys and compact separators, so
rebuilding an unchanged tree changes no byte. Their names come from
``tree.store.tree_file_name``, the same names the strategies look for.

    .venv/bin/python scripts/ship_trees.py --only mm     # the Mastermind trees
    .venv/bin/python scripts/ship_trees.py --only mm-colours   # the same game in colour letters
    .venv/bin/python scripts/ship_trees.py --only bc     # Bulls & Cows (a long search)
    .venv/bin/python scripts/ship_trees.py --only bc:guesses=digits   # any 4 digits as a try
    .venv/bin/python scripts/ship_trees.py --only bc-1to9   # 4 distinct digits of 1-9
    .venv/bin/python scripts/ship_trees.py --only bc-nolead   # no leading zero
    .venv/bin/python scripts/ship_trees.py --only digits   # 4 digits, repeats (minutes)
    .venv/bin/python scripts/ship_trees.py --list        # what would be built, and where
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bullscows.atomic import write_atomic
from bullscows.errors import BullsCowsError
from bullscows.rules import Rules
from bullscows.search.found import search_tree
from bullscows.search.optimal import SearchReport
from bullscows.strategies import STRATEGIES
from bullscows.strategies.optimal_strategy import OptimalSearch
from bullscows.tree import check_tree, load_tree
from bullscows.tree.store import record_digest, tree_file_name

#: The package's folder of shipped trees, in this checkout.
TREES = Path(__file__).resolve().parent.parent / "src" / "bullscows" / "data" / "trees"
#: Seconds between two progress lines of a long search.
REPORT_EVERY = 30.0


@dataclass(frozen=True, slots=True)
class Entry:
    """One shipped tree: a rules spec, an optimal strategy's name and its options."""

    spec: str
    strategy: str
    consistent_only: bool = False
    max_depth: int | None = None

    def file_name(self) -> str:
        """The shipped file's name (``mm--optimal.json.gz``)."""
        rules, options = Rules.parse(self.spec), (self.consistent_only, self.max_depth)
        return tree_file_name(rules, self.strategy, *options, ".json.gz")


#: Every tree the package ships; ``--only`` picks some by variant.
SHIPPED = (
    Entry("mm", "optimal"),
    Entry("mm", "optimal-worst"),
    Entry("mm-colours", "optimal"),  # Mastermind in colour letters: its own codes, same figures
    Entry("mm-colours", "optimal-worst"),
    Entry("bc", "optimal"),
    Entry("bc", "optimal-worst"),
    Entry("bc:guesses=digits", "optimal"),  # tries may repeat digits (Codeforces 753B)
    Entry("bc:guesses=digits", "optimal-worst"),
    Entry("bc-1to9", "optimal"),  # 4 distinct of 1-9: 14,914, as mastermind-strategy's p4c9n
    Entry("bc-1to9", "optimal-worst"),
    Entry("bc-nolead", "optimal"),  # no leading zero: 23,283, settled by this project's search
    Entry("bc-nolead", "optimal-worst"),
    Entry("digits", "optimal"),  # 4 digits, repeats: 55,632, settled by this project's search
)


def build(entry: Entry, folder: Path) -> str:
    """Search, check and write one entry's tree; a line of its figures.

    The tree's bytes replace the shipped file (whole: ``write_atomic``) only once ``check_tree``
    finds them valid (every secret settled, the stated summary the real one); their SHA-256 is
    then recorded in the folder's ``SHA256SUMS``, which the package checks on every load.
    """
    rules = Rules.parse(entry.spec)
    strategy = STRATEGIES[entry.strategy]
    assert issubclass(strategy, OptimalSearch)
    start = time.perf_counter()
    last = [start]

    def progress(report: SearchReport) -> None:
        if time.perf_counter() - last[0] >= REPORT_EVERY:
            last[0] = time.perf_counter()
            print(f"  {report}", file=sys.stderr)

    tree = search_tree(
        rules, entry.strategy, strategy.objective, entry.consistent_only, entry.max_depth, progress
    )
    final = folder / entry.file_name()
    data = tree.file_bytes(final, sort_keys=True)
    report = check_tree(load_tree(data))
    if not report.valid or report.summary is None:
        raise BullsCowsError(f"{final.name}: the searched tree is not valid: {report.problems}")
    write_atomic(final, data)
    record_digest(folder, final.name, data)
    s = report.summary
    return (
        f"{final.name}: total {s.total:,}, worst {s.worst}, {s.nodes:,} nodes, "
        f"{final.stat().st_size:,} bytes, {time.perf_counter() - start:.1f} s"
    )


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Search, check and write the optimal trees shipped with bullscows "
        "(gzip JSON, deterministic bytes).",
        epilog="Example: %(prog)s --only mm   (Mastermind: a few seconds)",
    )
    specs = sorted({e.spec for e in SHIPPED})
    parser.add_argument(
        "--only",
        action="append",
        metavar="SPEC",
        help=f"Build only the trees of this variant (repeatable, or comma-separated): "
        f"{', '.join(specs)}. Default: all of them.",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=TREES,
        metavar="DIR",
        help="Write the files to DIR (default: the package's data/trees folder).",
    )
    parser.add_argument(
        "--list", action="store_true", help="Print the files that would be built, and stop."
    )
    args = parser.parse_args(argv)
    wanted = {s.strip() for item in args.only or () for s in item.split(",") if s.strip()}
    unknown = sorted(wanted - set(specs))
    if unknown:
        choices = ", ".join(specs)
        parser.error(f"--only {unknown[0]!r}: not a shipped variant; choose from {choices}")
    if not args.out.is_dir():
        parser.error(f"--out {str(args.out)!r}: not a folder; give an existing folder")
    args.entries = [e for e in SHIPPED if not wanted or e.spec in wanted]
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Build the chosen trees; exit 1 if any fails (the others are still written)."""
    args = parse_args(argv)
    failed = 0
    for entry in args.entries:
        if args.list:
            print(args.out / entry.file_name())
            continue
        print(f"{entry.spec} {entry.strategy}: searching...", file=sys.stderr)
        try:
            print(build(entry, args.out))
        except BullsCowsError as error:
            print(f"{entry.file_name()}: not written: {error}", file=sys.stderr)
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
