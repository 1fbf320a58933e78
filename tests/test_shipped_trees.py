"""The optimal trees shipped with the package, and the script that makes them."""

from __future__ import annotations

import gzip
import hashlib
import importlib.util
import itertools
import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from bullscows import Rules
from bullscows.errors import BullsCowsError, BullsCowsWarning, StrategyError
from bullscows.outcomes import build_tree, guess_counts
from bullscows.search import found
from bullscows.strategies import get_strategy, optimal_strategy
from bullscows.tree import DecisionTree, check_tree, load_tree, store
from bullscows.tree.store import shipped_dir, tree_file_name, tree_label
from plain import plain_counts

ROOT = Path(__file__).resolve().parent.parent
MM = Rules.parse("mm")
#: Every file the package may ship: (spec, strategy, consistent only, depth cap, total, worst,
#: secrets at worst). mm: Koyama and Lai (5625; 5626 when no secret may take 6). bc: 26274
#: guesses with at most 7 (6 never suffice), so the lowest total within 7 guesses is 26274 as
#: well. bc:guesses=digits (any 4 digits as a try): 26254, still 7 at worst (this project's
#: search). bc-1to9 (4 distinct of 1-9): 14914 with 6 secrets at 7; within 6 guesses 14916 (this
#: project's search; mastermind-strategy finds 14914 for p4c9n too). bc-nolead (no leading
#: zero): 23283 with 24 secrets at 7, and 6 never suffice (this project's search). The secrets
#: at worst are the README's table. digits (4 digits, repeats allowed): 55632, 4 secrets at 8
#: (this project's search; no publication gives it).
EXPECTED: dict[str, tuple[str, str, bool, int | None, int, int, int]] = {
    "mm--optimal.json.gz": ("mm", "optimal", False, None, 5625, 6, 2),
    "mm--optimal-worst.json.gz": ("mm", "optimal-worst", False, None, 5626, 5, 545),
    "mm-colours--optimal.json.gz": ("mm-colours", "optimal", False, None, 5625, 6, 2),
    "mm-colours--optimal-worst.json.gz": ("mm-colours", "optimal-worst", False, None, 5626, 5, 545),
    "bc--optimal.json.gz": ("bc", "optimal", False, None, 26274, 7, 72),
    "bc--optimal-worst.json.gz": ("bc", "optimal-worst", False, None, 26274, 7, 72),
    "bc%3aguesses%3ddigits--optimal.json.gz": ("bc:guesses=digits", "optimal", False, None,
                                               26254, 7, 67),
    "bc%3aguesses%3ddigits--optimal-worst.json.gz": ("bc:guesses=digits", "optimal-worst",
                                                     False, None, 26254, 7, 67),
    "bc-1to9--optimal.json.gz": ("bc-1to9", "optimal", False, None, 14914, 7, 6),
    "bc-1to9--optimal-worst.json.gz": ("bc-1to9", "optimal-worst", False, None, 14916, 6, 605),
    "bc-nolead--optimal.json.gz": ("bc-nolead", "optimal", False, None, 23283, 7, 24),
    "bc-nolead--optimal-worst.json.gz": ("bc-nolead", "optimal-worst", False, None, 23283, 7, 24),
    "digits--optimal.json.gz": ("digits", "optimal", False, None, 55632, 8, 4),
}  # fmt: skip
SHIPPED = sorted(item.name for item in shipped_dir().iterdir() if item.name.endswith(".json.gz"))


@pytest.fixture
def no_search(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """No search, and a cache that cannot be used (a file where its folder should be)."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the tree should come from the package, not the search")

    blocked = tmp_path / "cache"
    blocked.write_text("not a folder")
    monkeypatch.setenv("BULLSCOWS_CACHE", str(blocked))
    monkeypatch.setattr(found, "optimal_tree", refuse)
    optimal_strategy._tree.cache_clear()
    yield blocked
    optimal_strategy._tree.cache_clear()


def test_the_mastermind_trees_are_shipped() -> None:
    assert {"mm--optimal.json.gz", "mm--optimal-worst.json.gz"} <= set(SHIPPED)


@pytest.mark.parametrize("name", SHIPPED)
def test_a_shipped_tree(name: str) -> None:
    assert name in EXPECTED, f"{name!r} is shipped but has no row in EXPECTED"
    spec, strategy, consistent_only, max_depth, total, worst, at_worst = EXPECTED[name]
    rules = Rules.parse(spec)
    assert tree_file_name(rules, strategy, consistent_only, max_depth, ".json.gz") == name
    tree = load_tree(shipped_dir().joinpath(name).read_bytes())
    objective = "total" if strategy == "optimal" else "worst"
    assert (tree.rules, tree.strategy, tree.objective) == (
        rules,
        tree_label(strategy, consistent_only, max_depth),
        f"optimal-{objective}",
    )
    report = check_tree(tree)  # every secret settled, and the stated summary the real one
    assert report.problems == []
    assert report.summary is not None
    figures = (report.summary.total, report.summary.worst, report.summary.at_worst)
    assert (*figures, report.summary.secrets) == (total, worst, at_worst, rules.size)


@pytest.mark.parametrize(
    ("name", "total", "worst"), [("optimal", 5625, 6), ("optimal-worst", 5626, 5)]
)
def test_mastermind_plays_the_shipped_tree(
    no_search: Path, name: str, total: int, worst: int
) -> None:
    counts = guess_counts(MM, get_strategy(name))
    assert (int(counts.sum()), int(counts.max())) == (total, worst)
    assert no_search.read_text() == "not a folder"  # the cache was neither needed nor written


def test_digits_plays_its_shipped_optimum(no_search: Path) -> None:
    # 10,000 codes: above the search's size limit, so only the shipped tree lets it play.
    counts = guess_counts(Rules.parse("digits"), get_strategy("optimal"))
    assert (int(counts.sum()), int(counts.max()), int((counts == 8).sum())) == (55632, 8, 4)
    assert no_search.read_text() == "not a folder"


def test_other_options_still_search(no_search: Path) -> None:
    with pytest.raises(AssertionError, match="not the search"):
        guess_counts(MM, get_strategy("optimal", max_depth=5))


def test_a_shipped_tree_lifts_the_size_limit(
    no_search: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A stand-in for a shipped tree of a variant above the limit (minimax's, labelled as
    # optimal's): the size limit gives way to it, and the strategy plays it without a search.
    monkeypatch.setattr(optimal_strategy, "MAX_OPTIMAL_CODES", 500)
    rules = Rules.parse("p4c7n")  # 840 codes
    strategy = get_strategy("optimal")
    assert strategy.problem(rules) is not None
    stand_in = build_tree(rules, get_strategy("minimax"))
    folder = tmp_path / "trees"
    folder.mkdir()
    labelled = DecisionTree(rules, "optimal", "optimal-total", stand_in.root)
    name = tree_file_name(rules, "optimal", False, None, ".json.gz")
    labelled.save(folder / name)
    store.record_digest(folder, name, (folder / name).read_bytes())
    monkeypatch.setattr(store, "shipped_dir", lambda: folder)
    assert strategy.problem(rules) is None
    assert get_strategy("optimal-worst").problem(rules) is not None  # only the one shipped
    minimax = int(guess_counts(rules, get_strategy("minimax")).sum())
    assert int(guess_counts(rules, strategy).sum()) == minimax  # played back
    # A damaged file is an error, not a search of a variant too large for it.
    (folder / "p4c7n--optimal.json.gz").write_bytes(b"\x1f\x8b damaged")
    optimal_strategy._tree.cache_clear()
    with (
        pytest.warns(BullsCowsWarning, match="does not match the digest recorded"),
        pytest.raises(StrategyError, match="the tree saved for 'p4c7n' cannot be read"),
    ):
        guess_counts(rules, strategy)


def tampered_copy(folder: Path, name: str) -> Path:
    """A copy of the shipped folder where one guess of ``name``'s tree is changed: the guess
    after the first reply of the first branch becomes the code of the next branch's."""
    for item in shipped_dir().iterdir():
        if item.name.endswith(".json.gz") or item.name == store.DIGESTS:
            (folder / item.name).write_bytes(item.read_bytes())
    data = json.loads(gzip.decompress((folder / name).read_bytes()))
    branches = list(data["tree"]["replies"].values())
    first, second = branches[0], branches[1]
    assert first["guess"] != second["guess"]
    first["guess"] = second["guess"]
    text = json.dumps(data, sort_keys=True, separators=(",", ":")) + "\n"
    (folder / name).write_bytes(gzip.compress(text.encode(), mtime=0))
    return folder


def test_the_recorded_digests_are_those_of_the_shipped_trees() -> None:
    digests = store.shipped_digests()
    assert sorted(digests) == SHIPPED
    for name in SHIPPED:
        data = shipped_dir().joinpath(name).read_bytes()
        assert digests[name] == hashlib.sha256(data).hexdigest()
        assert store.read_shipped(name) == data


def test_a_changed_shipped_tree_is_searched_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tampered_copy(tmp_path, "mm--optimal.json.gz")
    changed = load_tree((folder / "mm--optimal.json.gz").read_bytes())
    assert not check_tree(changed).valid  # as installed, some secrets would be played wrongly
    monkeypatch.setattr(store, "shipped_dir", lambda: folder)
    optimal_strategy._tree.cache_clear()
    try:
        with pytest.warns(
            BullsCowsWarning,
            match="the shipped tree 'mm--optimal.json.gz' does not match the digest recorded "
            "when it was built",
        ):
            counts = guess_counts(MM, get_strategy("optimal"))
        assert (int(counts.sum()), int(counts.max())) == (5625, 6)  # searched
        worst = guess_counts(MM, get_strategy("optimal-worst"))  # its own file is untouched
        assert (int(worst.sum()), int(worst.max())) == (5626, 5)
    finally:
        optimal_strategy._tree.cache_clear()


def test_a_shipped_tree_without_a_recorded_digest_is_refused(tmp_path: Path) -> None:
    shutil.copy(shipped_dir().joinpath("mm--optimal.json.gz"), tmp_path / "mm--optimal.json.gz")
    with pytest.raises(BullsCowsError, match="no digest was recorded for it"):
        store.read_shipped("mm--optimal.json.gz", tmp_path)


# --- the script ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ship_trees", ROOT / "scripts" / "ship_trees.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["ship_trees"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_script_lists_the_shipped_files(
    script: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    assert {e.file_name() for e in script.SHIPPED} == set(EXPECTED)
    assert script.main(["--list", "--only", "mm"]) == 0
    listed = [Path(line).name for line in capsys.readouterr().out.splitlines()]
    assert listed == ["mm--optimal.json.gz", "mm--optimal-worst.json.gz"]


def test_the_script_refuses_an_unknown_variant(
    script: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        script.main(["--only", "zz"])
    assert exit_.value.code == 2
    choices = "bc, bc-1to9, bc-nolead, bc:guesses=digits, digits, mm, mm-colours"
    assert f"--only 'zz': not a shipped variant; choose from {choices}" in capsys.readouterr().err


def test_the_script_writes_checked_deterministic_files(script: ModuleType, tmp_path: Path) -> None:
    entry = script.Entry("p3c4n", "optimal-worst")
    assert "total 72, worst 4" in script.build(entry, tmp_path)
    path = tmp_path / "p3c4n--optimal-worst.json.gz"
    first = path.read_bytes()
    assert first[:2] == b"\x1f\x8b"
    assert sorted(p.name for p in tmp_path.iterdir()) == [store.DIGESTS, path.name]
    assert store.read_shipped(path.name, tmp_path) == first  # its digest recorded
    script.build(entry, tmp_path)
    assert path.read_bytes() == first
    assert check_tree(load_tree(path)).valid
    other = script.Entry("p3c4n", "optimal")
    script.build(other, tmp_path)  # a second entry is added to the digests, the first kept
    assert set(store.shipped_digests(tmp_path)) == {other.file_name(), path.name}


@pytest.mark.parametrize("strategy", ["optimal", "optimal-worst"])
def test_the_wide_bulls_and_cows_trees_by_brute_force(strategy: str) -> None:
    """Every secret of 4 distinct digits played down the shipped tree of any-digit tries,
    scored by the textbook definition (itertools and Counter, no library scoring)."""
    name = tree_file_name(Rules.parse("bc:guesses=digits"), strategy, False, None, ".json.gz")
    data = json.loads(gzip.decompress(shipped_dir().joinpath(name).read_bytes()))
    secrets = ("".join(p) for p in itertools.permutations("0123456789", 4))
    counts, repeated = plain_counts(data["tree"], secrets)
    assert sum(n * k for n, k in counts.items()) == 26254
    assert (max(counts), counts[7], sum(counts.values())) == (7, 67, 5040)
    assert repeated  # the tree does play tries that no secret can be
