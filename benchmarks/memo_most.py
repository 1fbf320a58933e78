"""What a memo's most slots (``search_calls.MEMO_MOST``) cost a search: the same optimum
searched with memos of fewer and fewer slots, each keeping its largest sets once full and
forgetting the others (``Memo.grow``).

Run: .venv/bin/python benchmarks/memo_most.py bc --most 0 18 16 14 12
     .venv/bin/python benchmarks/memo_most.py p4c9n --objective worst-count --most 0 14 12

``--most`` gives each run's most slots as a power of two (0: the library's own, 2**24). For
each run: the total (or worst count) found, which must be the same in every run, the sets
searched, how many sets the memos forgot, the largest table any memo held (its slots and
MiB at 56 bytes a slot) and the seconds. One thread (``--jobs 1``), so that the sets are the
same run to run.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from bullscows._kernels import search_calls
from bullscows.rules import Rules
from bullscows.search.optimal import optimal_tree

#: Bytes of a memo slot (``search_memo.SLOT`` integers of 8 bytes).
SLOT_BYTES = 56


def searched(spec: str, objective: str, power: int) -> dict[str, Any]:
    """One search with memos of at most ``2**power`` slots (0: the library's own)."""
    memos: list[search_calls.Memo] = []
    peak = [0]
    most = search_calls.MEMO_MOST if power == 0 else 1 << power
    plain = search_calls.Memo

    class Counted(plain):  # type: ignore[misc, valid-type]
        def __init__(self, slots: int = search_calls.MEMO_SLOTS) -> None:
            super().__init__(slots, most=most)
            memos.append(self)

        def grow(self, stuck: bool = False) -> None:
            peak[0] = max(peak[0], self.slots)
            super().grow(stuck)
            peak[0] = max(peak[0], self.slots)

    search_calls.Memo = Counted  # type: ignore[misc, assignment]
    try:
        began = time.perf_counter()
        found = optimal_tree(Rules.parse(spec), objective)  # type: ignore[arg-type]
        seconds = time.perf_counter() - began
    finally:
        search_calls.Memo = plain  # type: ignore[misc]
    peak[0] = max([peak[0], *(memo.slots for memo in memos)])
    return {
        "most": most, "total": found.total, "worst": found.worst, "sets": found.nodes,
        "forgotten": sum(memo.forgotten for memo in memos), "peak": peak[0],
        "seconds": seconds,
    }  # fmt: skip


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rules", help="the variant, as --rules takes it (default bc)",
                        nargs="?", default="bc")  # fmt: skip
    parser.add_argument("--objective", default="total", help="total (default), worst-count, ...")
    parser.add_argument("--most", type=int, nargs="+", default=[0, 16, 14, 12],
                        help="each run's most slots as a power of two (0: 2**24)")  # fmt: skip
    args = parser.parse_args(argv)
    rows = []
    print(f"{args.rules} {args.objective}, one thread:")
    print("| most slots | total | worst | sets searched | sets forgotten | largest table "
          "| seconds |\n|---|---|---|---|---|---|---|")  # fmt: skip
    for power in args.most:
        row = searched(args.rules, args.objective, power)
        rows.append(row)
        mib = row["peak"] * SLOT_BYTES / (1 << 20)
        print(f"| {row['most']:,} | {row['total']:,} | {row['worst']} | {row['sets']:,} | "
              f"{row['forgotten']:,} | {row['peak']:,} slots ({mib:,.1f} MiB) | "
              f"{row['seconds']:.2f} |", flush=True)  # fmt: skip
    if len({(row["total"], row["worst"]) for row in rows}) > 1:
        raise SystemExit("memo_most: the runs found different optima (a bug)")
    return rows


if __name__ == "__main__":
    main()
