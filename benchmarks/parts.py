"""Time the optimal search on single parts two guesses deep of a fixed opening, as
``bullscows tree --opening root-bound`` searches them (``search.opening``): the hardest sets
of the open variants (`digits`, `bc5`, `logik`).

Run: .venv/bin/python benchmarks/parts.py digits --list            # the parts, largest first
     .venv/bin/python benchmarks/parts.py digits --part 12 40       # solve parts 12 and 40
     .venv/bin/python benchmarks/parts.py logik --part 3 --window none

Parts are numbered in the order of the replies (``--list`` shows each one's number, history
and size). Each part is solved by a search of its own (nothing remembered from another part),
in this process on one thread, with the window the opening gives it (``--window heuristic``,
the default: a tree cheaper than the `entropy`/`expected-size` tree, else none) or none
(``--window none``: the optimal cost whatever it is). Each line gives the part, its size, the
heuristic's total, the answer (the optimal cost, or "none below" the window), the sets whose
guesses were all scored (branched on / looked ahead at), the seconds and the CPU seconds of
the searching thread (on a shared machine the CPU seconds vary less). The kernels are loaded
first: compile time is not counted.
"""

from __future__ import annotations

import argparse
import sys
import time

from bullscows._kernels.tables import INFEASIBLE
from bullscows.feedback import Feedback
from bullscows.rules import Rules
from bullscows.search.checkpoint import History
from bullscows.search.engine import Search, SearchOptions
from bullscows.search.opening import Opening, best_first, opening_parts
from bullscows.strategies.part_trees import heuristic_part
from bullscows.universe import IndexArray, universe


def parts(rules: Rules) -> list[tuple[History, IndexArray]]:
    """The parts two guesses deep of the root bound's opening, three codes or more each."""
    search = Search(SearchOptions(rules))
    return opening_parts(search, Opening(best_first(rules), ()), search.state.unlimited)[2]


def describe(rules: Rules, history: History) -> str:
    """A history as the game writes it: guess reply, guess reply."""
    u = universe(rules)
    return ", ".join(
        f"{u.text(guess)} {Feedback.from_index(reply, rules.length).format('bc')}"
        for guess, reply in history
    )


def solve(rules: Rules, history: History, codes: IndexArray, window: str) -> str:
    """One part solved by a search of its own: its line of figures."""
    heuristic = heuristic_part(rules, history, codes)[0]
    limit = heuristic if window == "heuristic" else INFEASIBLE
    search = Search(SearchOptions(rules))
    depth = search.state.unlimited
    started, cpu = time.perf_counter(), time.thread_time()
    found = search.solve(codes.copy(), depth, limit, history)
    seconds, cpu = time.perf_counter() - started, time.thread_time() - cpu
    answer = f"cost {found[0]}" if found is not None else f"none below {limit}"
    branched, looked = (int(x) for x in search.state.stats[:2])
    return (
        f"{len(codes)} codes, heuristic {heuristic}: {answer}; sets {branched:,} branched / "
        f"{looked:,} looked ahead at; {seconds:.2f} s (CPU {cpu:.2f} s)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rules", help="a variant, e.g. digits, bc5, logik")
    parser.add_argument("--list", action="store_true", help="list the parts, largest first")
    parser.add_argument("--part", type=int, nargs="*", default=[], help="parts to solve")
    parser.add_argument("--window", choices=("heuristic", "none"), default="heuristic")
    args = parser.parse_args(argv)
    rules = Rules.parse(args.rules)
    found = parts(rules)
    if args.list:
        ranked = sorted(range(len(found)), key=lambda i: -len(found[i][1]))
        for i in ranked:
            history, codes = found[i]
            print(f"part {i:3d}: {len(codes):5d} codes after {describe(rules, history)}")
    for i in args.part:
        if not 0 <= i < len(found):
            print(f"no part {i}: {args.rules} has parts 0 to {len(found) - 1}", file=sys.stderr)
            return 2
        history, codes = found[i]
        line = solve(rules, history, codes, args.window)
        print(f"part {i} ({describe(rules, history)}): {line}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
