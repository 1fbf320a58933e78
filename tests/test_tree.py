"""Decision trees: built from a strategy, saved as JSON, read back, checked and played."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bullscows.bench import run_bench
from bullscows.codes import Code
from bullscows.errors import BullsCowsError, StrategyError
from bullscows.feedback import Feedback
from bullscows.figures import distribution
from bullscows.knowledge import Knowledge
from bullscows.outcomes import build_tree, guess_counts
from bullscows.readers import quote_path
from bullscows.rules import Rules
from bullscows.strategies import STRATEGIES, get_strategy
from bullscows.strategies.tree_strategy import TreeStrategy
from bullscows.tree import (
    DecisionTree,
    check_tree,
    load_tree,
    render_text,
)
from bullscows.tree.files import SHAPE
from bullscows.tree.irving import to_irving

MM = Rules.parse("mm")
DETERMINISTIC = [name for name, cls in STRATEGIES.items() if cls.deterministic]
SMALL = ["p2c3n", "p3c4r", "moo3,2,4", "p3c5n:nolead", "p3c5n:nolead:guesses=p3c5r"]


@pytest.fixture(scope="module")
def mm_minimax() -> DecisionTree:
    return build_tree(MM, get_strategy("minimax"))


def test_deterministic_strategies_are_known() -> None:
    assert {"simple", "minimax", "entropy", "brute-force"} <= set(DETERMINISTIC)


def test_minimax_tree_of_mastermind(mm_minimax: DecisionTree) -> None:
    # Knuth's strategy (lowest code among ties): 5801 guesses in all, never more than 5.
    s = mm_minimax.summary()
    assert (s.total, s.worst, s.at_worst, s.secrets) == (5801, 5, 694, 1296)
    assert s.distribution == {1: 1, 2: 6, 3: 62, 4: 533, 5: 694}
    assert s.nodes == sum(1 for _ in mm_minimax.nodes()) == 1378
    assert Code.of_index(mm_minimax.root.guess, MM).text == "1122"
    assert mm_minimax.stated == s


# A reply-blind strategy's tree on mm would have about a million nodes: small variants only.
CASES = [
    (spec, name)
    for spec in ["mm", *SMALL]
    for name in DETERMINISTIC
    if not (spec == "mm" and get_strategy(name).ignores_replies)
]


@pytest.mark.parametrize(("spec", "name"), CASES)
def test_tree_matches_the_strategy_and_checks(spec: str, name: str) -> None:
    rules = Rules.parse(spec)
    strategy = get_strategy(name)
    tree = build_tree(rules, strategy)
    assert tree.summary().distribution == distribution(guess_counts(rules, get_strategy(name)))
    report = check_tree(tree)
    assert report.valid, report.problems
    assert report.summary == tree.summary()
    assert load_tree(tree.to_json()) == tree


def test_consistent_only_label() -> None:
    tree = build_tree(MM, get_strategy("entropy", consistent_only=True))
    assert tree.strategy == "entropy (consistent only)"
    assert json.loads(tree.to_json())["strategy"] == "entropy (consistent only)"


def test_random_strategies_have_no_tree() -> None:
    with pytest.raises(StrategyError, match="random"):
        build_tree(MM, get_strategy("random-consistent"))


# --- JSON -------------------------------------------------------------------------------------


def test_json_schema(mm_minimax: DecisionTree) -> None:
    data = json.loads(mm_minimax.to_json())
    assert data["format"] == "bullscows-tree"
    assert data["version"] == 1
    assert (data["rules"], data["strategy"], data["objective"]) == ("mm", "minimax", "strategy")
    assert data["summary"]["total"] == 5801
    assert data["summary"]["distribution"]["5"] == 694
    assert set(data["summary"]) == {
        "total", "average", "worst", "at_worst", "distribution", "secrets", "nodes",
    }  # fmt: skip
    root = data["tree"]
    assert root["guess"] == "1122"
    assert "4 0" not in root["replies"]  # all bulls is implicit
    assert all(len(key.split(" ")) == 2 for key in root["replies"])


def test_json_round_trip_through_a_file(mm_minimax: DecisionTree, tmp_path: Path) -> None:
    path = tmp_path / "mm.json"
    mm_minimax.save(path)
    loaded = load_tree(path)
    assert loaded == mm_minimax
    assert loaded.stated == mm_minimax.summary()
    assert load_tree(str(path)) == mm_minimax


def test_gzip_round_trip(mm_minimax: DecisionTree, tmp_path: Path) -> None:
    path = tmp_path / "mm.json.gz"
    mm_minimax.save(path)
    data = path.read_bytes()
    assert data[:2] == b"\x1f\x8b"  # gzip
    assert gzip.decompress(data).decode() == mm_minimax.to_json() + "\n"
    assert load_tree(path) == mm_minimax == load_tree(str(path)) == load_tree(data)
    # Deterministic: no time stamp, so saving again gives the same bytes.
    mm_minimax.save(path)
    assert path.read_bytes() == data


def test_figures_given_are_written_without_playing_the_tree(
    mm_minimax: DecisionTree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A build's or a search's stated figures go into the file as they are: writing a big
    # searched tree to the cache plays no secret down it again.
    from bullscows.tree.store import FileTreeStore

    stated = mm_minimax.stated
    assert stated is not None
    expected = mm_minimax.to_json()
    monkeypatch.setattr(DecisionTree, "summary", lambda self: pytest.fail("played again"))
    assert mm_minimax.to_json(figures=stated) == expected
    FileTreeStore(tmp_path).write("mm.json", mm_minimax)
    assert (tmp_path / "mm.json").read_text(encoding="utf-8") == expected + "\n"


def test_sorted_keys_change_no_tree(mm_minimax: DecisionTree) -> None:
    text = mm_minimax.to_json(sort_keys=True)
    assert text.startswith('{"format":"bullscows-tree","objective":')
    assert load_tree(text) == mm_minimax


def test_a_damaged_gzip_file_is_a_clean_error(mm_minimax: DecisionTree, tmp_path: Path) -> None:
    path = tmp_path / "cut.json.gz"
    mm_minimax.save(path)
    path.write_bytes(path.read_bytes()[:100])
    with pytest.raises(BullsCowsError, match=r"cannot read tree file '.*cut\.json\.gz'"):
        load_tree(path)


def test_a_leaf_may_omit_replies() -> None:
    text = json.dumps({
        "format": "bullscows-tree", "version": 1, "rules": "p1c2n", "strategy": "by hand",
        "objective": "strategy", "tree": {"guess": "0", "replies": {"0 0": {"guess": "1"}}},
    })  # fmt: skip
    tree = load_tree(text)
    assert tree.stated is None
    assert check_tree(tree).valid
    assert tree.summary().total == 3


# --- check_tree catches corruption ------------------------------------------------------------


def corrupt(tree: DecisionTree, edit: Any) -> DecisionTree:
    data = json.loads(tree.to_json())
    edit(data)
    return load_tree(json.dumps(data))


def leaves_of_one_node(top: dict[str, Any]) -> list[dict[str, Any]]:
    """The leaves under the first node (depth first) that has at least two."""
    stack = [top]
    while stack:
        node = stack.pop()
        children = list(node.get("replies", {}).values())
        leaves = [child for child in children if "replies" not in child]
        if len(leaves) >= 2:
            return leaves
        stack.extend(children)
    raise AssertionError("no node has two leaves")


def test_check_catches_a_wrong_reply_key(mm_minimax: DecisionTree) -> None:
    def edit(data: dict[str, Any]) -> None:
        replies = data["tree"]["replies"]
        replies["1 3"] = replies.pop("0 4")  # 1122 can never get 1 bull 3 cows from a code

    report = check_tree(corrupt(mm_minimax, edit))
    assert not report.valid
    text = " ".join(report.problems)
    assert "'0 4'" in text and "no branch" in text
    assert "no secret reaches" in text and "'1 3'" in text


def test_check_catches_a_missing_secret(mm_minimax: DecisionTree) -> None:
    def edit(data: dict[str, Any]) -> None:
        replies = data["tree"]["replies"]["0 4"]
        assert "replies" not in replies  # a leaf: 2211
        del data["tree"]["replies"]["0 4"]

    report = check_tree(corrupt(mm_minimax, edit))
    assert not report.valid
    assert any("2211" in p and "no branch" in p for p in report.problems)
    with pytest.raises(BullsCowsError, match="not valid"):
        corrupt(mm_minimax, edit).summary()


def test_check_catches_a_secret_at_two_leaves(mm_minimax: DecisionTree) -> None:
    def edit(data: dict[str, Any]) -> None:
        first, second, *_ = leaves_of_one_node(data["tree"])
        first["guess"] = second["guess"]

    report = check_tree(corrupt(mm_minimax, edit))
    assert not report.valid
    assert any("leaf more than once" in p for p in report.problems)


def test_check_catches_a_wrong_summary(mm_minimax: DecisionTree) -> None:
    def edit(data: dict[str, Any]) -> None:
        data["summary"]["total"] = 5800

    report = check_tree(corrupt(mm_minimax, edit))
    assert len(report.problems) == 1
    assert "total 5800" in report.problems[0] and "total 5801" in report.problems[0]


def test_check_catches_a_wrong_node_count(mm_minimax: DecisionTree) -> None:
    def edit(data: dict[str, Any]) -> None:
        data["summary"]["nodes"] = 1

    assert "nodes 1," in check_tree(corrupt(mm_minimax, edit)).problems[0]


# --- load errors -------------------------------------------------------------------------------

GOOD: dict[str, Any] = {
    "format": "bullscows-tree", "version": 1, "rules": "p2c3n", "strategy": "simple",
    "objective": "strategy", "tree": {"guess": "01", "replies": {"0 2": {"guess": "10"}}},
}  # fmt: skip


def variant(**changes: Any) -> str:
    return json.dumps({**GOOD, **changes})


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "is not JSON"),
        ("[1, 2]", "expected a JSON object"),
        (variant(format="bullscows-bench"), "format 'bullscows-bench' is not 'bullscows-tree'"),
        (variant(version=2), "version 2 is not supported"),
        (variant(rules="p9c2n"), "tree: rules spec 'p9c2n': no code fits 9 distinct symbols"),
        (variant(rules="zz"), "tree: unknown rules 'zz'; expected a preset"),
        (
            "{}",
            "tree lacks 'format', 'version', 'rules', 'strategy', 'objective' and 'tree'; "
            'a tree file is a JSON object {"format": "bullscows-tree", "version": 1, "rules": "mm"',
        ),
        (json.dumps({k: v for k, v in GOOD.items() if k != "format"}), "tree lacks 'format'; a"),
        (json.dumps({k: v for k, v in GOOD.items() if k != "tree"}), "tree lacks 'tree'; a tree"),
        (variant(tree={"guess": "01", "replies": []}), "'replies' at the root must be an object"),
        (variant(rules=4), "'rules' must be a rules spec"),
        (variant(strategy=None), "'strategy' must be text"),
        (variant(tree={"guess": "011"}), "code '011' has 3 symbols"),
        (variant(tree={"guess": "00"}), "at the root (rules 'p2c3n'): code '00': '0' appears"),
        (variant(tree={"replies": {}}), "needs a 'guess'"),
        (variant(tree={"guess": "01", "reply": {}}), "unknown keys ['reply']"),
        (variant(tree={"guess": "01", "replies": {"0B2C": {"guess": "10"}}}), "'0B2C'"),
        (variant(tree={"guess": "01", "replies": {"3 0": {"guess": "10"}}}), "make 3"),
        (variant(tree={"guess": "01", "replies": {"2 0": {"guess": "10"}}}), "all bulls"),
        (variant(tree={"guess": "01", "replies": {"0 2": {"guess": "13"}}}), "'3' is not"),
        (variant(summary={"total": 1}), "tree: tree summary '{\"total\": 1}': expected total"),
    ],
)
def test_load_errors(text: str, message: str) -> None:
    with pytest.raises(BullsCowsError) as error:
        load_tree(text)
    assert message in str(error.value)


@pytest.mark.parametrize(
    ("data", "start"), [(b"hello", "'hello'"), (b" \n", "nothing"), (b"\x00", "'\\x00'")]
)
def test_text_that_is_no_tree_says_what_a_tree_file_is(data: bytes, start: str) -> None:
    with pytest.raises(BullsCowsError) as error:
        load_tree(data, name="x.json")
    assert str(error.value) == f"tree file 'x.json' starts with {start}, not a tree; {SHAPE}"
    assert SHAPE.startswith('a tree file is a JSON object {"format": "bullscows-tree", ')


def test_load_error_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(BullsCowsError, match="cannot read tree file"):
        load_tree(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{nonsense")
    with pytest.raises(BullsCowsError, match=r"tree file '.*bad.json' line 1 is not JSON"):
        load_tree(bad)


def test_load_error_says_where_in_the_tree() -> None:
    tree = {"guess": "01", "replies": {"0 1": {"guess": "12", "replies": {"x": {"guess": "20"}}}}}
    with pytest.raises(BullsCowsError, match="reply key 'x' at 01 '0 1'"):
        load_tree(variant(tree=tree))


# --- text -------------------------------------------------------------------------------------


def test_render_text(mm_minimax: DecisionTree) -> None:
    lines = render_text(mm_minimax, "bc")
    assert lines[0] == "1122"
    assert "  0B4C -> 2211" in lines
    assert sum(1 for line in lines if "->" in line) + 1 <= len(lines)
    cut = render_text(mm_minimax, "pair", max_depth=1)
    assert cut == ["1122", "  ..."]
    two = render_text(mm_minimax, "pair", max_depth=2)
    assert "  0 0: 3345" in two and "    ..." in two
    assert not any(line.startswith("      ") for line in two)


# --- playing a tree ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def mm_file(mm_minimax: DecisionTree, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("trees") / "mm-minimax.json"
    mm_minimax.save(path)
    return path


def test_tree_strategy_by_name(mm_file: Path) -> None:
    strategy = get_strategy(f"tree:{mm_file}", consistent_only=True)
    assert isinstance(strategy, TreeStrategy)
    assert strategy.label == "tree:mm-minimax.json"
    assert strategy.deterministic
    assert strategy.problem(MM) is None
    assert strategy.problem(Rules.parse("bc")) == "tree file mm-minimax.json is for mm, not bc"
    assert get_strategy(strategy.name).label == strategy.label


def test_tree_strategy_names_that_fail(tmp_path: Path) -> None:
    with pytest.raises(StrategyError, match="give the tree file"):
        get_strategy("tree:")
    with pytest.raises(StrategyError, match="cannot read tree file"):
        get_strategy(f"tree:{tmp_path / 'none.json'}")


def test_tree_strategy_follows_the_tree(mm_file: Path, mm_minimax: DecisionTree) -> None:
    strategy = get_strategy(f"tree:{mm_file}")
    rng = random.Random(0)
    start = Knowledge.start(MM)
    assert strategy.next_guess(start, rng) == mm_minimax.root.guess
    after = start.after(Code("1122", MM), Feedback(0, 0))
    assert Code.of_index(strategy.next_guess(after, rng), MM).text == "3345"
    assert guess_counts(MM, strategy).sum() == 5801


def test_tree_strategy_refuses_a_history_off_the_tree(mm_file: Path) -> None:
    strategy = get_strategy(f"tree:{mm_file}")
    rng = random.Random(0)
    start = Knowledge.start(MM)
    with pytest.raises(StrategyError, match=r"guess #1 was 1234, but the tree .* plays 1122"):
        strategy.next_guess(start.after(Code("1234", MM), Feedback(0, 0)), rng)
    with pytest.raises(StrategyError, match="is for mm, not bc"):
        strategy.next_guess(Knowledge.start(Rules.parse("bc")), rng)


def test_bench_of_a_tree_equals_its_strategy(mm_file: Path) -> None:
    # bullscows bench --strategy checks names against the registry; the library takes any name.
    report = run_bench(MM, ["minimax", f"tree:{mm_file}"])
    direct, played = report.results
    assert played.name == "tree:mm-minimax.json"
    assert (played.total, played.worst, played.at_worst, played.distribution) == (
        direct.total, direct.worst, direct.at_worst, direct.distribution,
    )  # fmt: skip


def test_bench_reads_a_tree_file_once(mm_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from bullscows.cli import main
    from bullscows.strategies import tree_strategy

    reads: list[object] = []
    real = tree_strategy.load_tree

    def counted(source: Path) -> DecisionTree:
        reads.append(source)
        return real(source)

    monkeypatch.setattr(tree_strategy, "load_tree", counted)
    result = CliRunner().invoke(main, ["bench", "--rules", "mm", "--strategy", f"tree:{mm_file}"])
    assert result.exit_code == 0, result.output
    assert "5,801" in result.output and len(reads) == 1


def test_bench_skips_a_tree_of_another_variant(mm_file: Path) -> None:
    report = run_bench(Rules.parse("p2c3n"), [f"tree:{mm_file}"])
    assert report.results == ()
    assert report.skipped[0].reason == "tree file mm-minimax.json is for mm, not p2c3n"


def test_counts_per_secret_agree(mm_minimax: DecisionTree) -> None:
    strategy = TreeStrategy(mm_minimax, "mm.json")
    secrets = np.array([0, 7, 1295], dtype=np.int64)
    expected = guess_counts(MM, get_strategy("minimax"), secrets)
    assert guess_counts(MM, strategy, secrets).tolist() == expected.tolist()


def test_check_allows_an_average_written_out_in_full(mm_minimax: DecisionTree) -> None:
    def edit(data: dict[str, Any]) -> None:
        data["summary"]["average"] = 5801 / 1296

    assert check_tree(corrupt(mm_minimax, edit)).valid

    def rounded(data: dict[str, Any]) -> None:
        data["summary"]["average"] = 4.476

    assert "average 4.476)" in check_tree(corrupt(mm_minimax, rounded)).problems[0]


def test_a_summary_is_checked_without_assert() -> None:
    # Under python -O an assert vanishes: the check must not be one.
    import subprocess
    import sys

    code = (
        "from bullscows.tree import TreeSummary\n"
        "try:\n    TreeSummary.from_json({'total': 'x'})\n"
        "except ValueError as e:\n    print('refused', e)\n"
    )
    out = subprocess.run([sys.executable, "-O", "-c", code], capture_output=True, text=True)
    assert out.stdout.startswith("refused tree summary"), out.stdout + out.stderr


def test_a_reply_held_twice_is_refused_not_dropped() -> None:
    # json.loads would keep the second "0 2" and lose the first branch unseen.
    text = variant().replace('"replies": {', '"replies": {"0 2": {"guess": "12"}, ', 1)
    assert text.count('"0 2"') == 2
    with pytest.raises(BullsCowsError) as error:
        load_tree(text)
    assert str(error.value) == (
        "tree line 1: the object at '/tree/replies' holds the key '0 2' twice; a key may "
        "appear once"
    )


def test_a_tree_file_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    # Windows editors start a UTF-8 file with U+FEFF; the tree after it is the same.
    tree = load_tree(variant())
    path = tmp_path / "tree.json"
    path.write_text("\ufeff" + variant(), encoding="utf-8")
    assert load_tree(path) == tree
    assert load_tree(path.read_bytes()) == tree
    assert load_tree(gzip.compress(path.read_bytes())) == tree
    assert load_tree("\ufeff" + variant()) == tree


def test_kunigami_refuses_a_reply_held_twice() -> None:
    # Twice as written, or twice once read ('(0, 2)' and '(0,2)' are one reply): never dropped.
    p2 = Rules.parse("p2c2n")
    leaf = "[[1, 0], {'(2, 0)': [[1, 0], {}]}]"
    held = "tree: the node at the root holds the reply '(0, 2)' twice; a reply may appear once"
    read = "tree: the node at the root holds the reply '(0,2)' twice (as '(0, 2)' too); a reply"
    for second, message in (("'(0, 2)'", held), ("'(0,2)'", read)):
        text = f"[[0, 1], {{'(2, 0)': [[0, 1], {{}}], '(0, 2)': {leaf}, {second}: {leaf}}}]"
        with pytest.raises(BullsCowsError) as error:
            load_tree(text, p2)
        assert str(error.value).startswith(message), error.value


def test_each_text_form_is_read_as_text_and_a_path_as_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    p2 = Rules.parse("p2c3n")
    tree = build_tree(p2, get_strategy("simple"))
    irving = to_irving(tree, header=False).strip()
    assert "\n" not in irving  # one line: a count and its play
    kunigami = "const decisionTree = [[0, 1], {'(0, 2)': [[1, 0], {}]}];"
    forms = [tree.to_json(), irving, to_irving(tree), kunigami, f"  {kunigami}\n", "[[0, 1], {}]"]
    monkeypatch.chdir(tmp_path)  # where no file holds these names
    for text in forms:
        assert load_tree(text, p2).rules == p2, text
    assert load_tree(irving, p2).root == tree.root
    # A text that names an existing file is that file, in every form.
    for name in ("6 (01", "const t", "{run1}.json", "[2024] mm.json", "#1.txt"):
        (tmp_path / name).write_text(tree.to_json())
        assert load_tree(name) == tree
        assert load_tree(str(tmp_path / name)) == tree


@pytest.mark.parametrize("text", ["mm.json", "2024/trees/mm.json", "const", "a\0b", "x" * 5000])
def test_text_that_is_neither_a_file_nor_a_tree_is_refused_in_one_line(
    text: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(BullsCowsError) as error:
        load_tree(text)
    message = str(error.value)
    assert message.startswith(f"cannot read tree file {quote_path(text)}: "), message
    assert message.endswith("; nor is the text a tree (JSON, Irving notation or kunigami's list)")
    assert "\n" not in message
