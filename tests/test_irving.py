"""Trees in Irving notation (``tree.irving``), kunigami's all-bulls leaves, and comparisons."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bullscows import Code, Rules
from bullscows.errors import BullsCowsError
from bullscows.outcomes import build_tree
from bullscows.strategies import get_strategy
from bullscows.tree import DecisionTree, check_tree, load_tree
from bullscows.tree.compare import compare_trees
from bullscows.tree.irving import VariantNotNamed, read_irving, save_tree, to_irving
from bullscows.tree.store import shipped_dir
from treeforms import REFERENCE, as_kunigami_js

P2 = Rules.parse("p2c3n")  # codes 01 02 10 12 20 21
#: simple's tree on p2c3n, typed by hand: 01; after 0 1 cow, 12 (then 20); after 1 bull, 02
#: (then 21); after 2 cows, 10. Total 1 + 2 + (2 + 3) + (2 + 3) = 13.
HAND = "6 (01: 1, 2 (12), 0; 2 (02); 1)"


def shipped(name: str) -> DecisionTree:
    return load_tree(shipped_dir().joinpath(name).read_bytes())


@pytest.mark.parametrize(
    ("name", "total", "worst"),
    [("mm--optimal.json.gz", 5625, 6), ("mm--optimal-worst.json.gz", 5626, 5),
     ("bc--optimal.json.gz", 26274, 7)],
)  # fmt: skip
def test_json_irving_json_round_trip(name: str, total: int, worst: int) -> None:
    tree = shipped(name)
    text = to_irving(tree)
    back = read_irving(text)
    assert back == DecisionTree(tree.rules, tree.strategy, tree.objective, tree.root)
    assert load_tree(back.to_json()) == back
    report = check_tree(back)
    assert report.valid and report.summary is not None
    assert (report.summary.total, report.summary.worst) == (total, worst)


def test_minimax_tree_has_knuths_published_total() -> None:
    """Knuth (1976): 5,801 guesses over the 1,296 secrets, at most 5; written without a
    header it reads back for the variant it is given."""
    mm = Rules.parse("mm")
    tree = build_tree(mm, get_strategy("minimax"))
    text = to_irving(tree, header=False)
    assert text.startswith("1296 (1122: 1, 16A, 96B, 256C, 256D; 0, 36E, 208F, 256G; 4 (1213*),")
    with pytest.raises(VariantNotNamed, match="does not name its variant"):
        read_irving(text)
    back = read_irving(text, mm)
    assert back.root == tree.root
    summary = back.summary()
    assert (summary.total, summary.worst, summary.secrets) == (5801, 5, 1296)


def test_a_hand_written_tree() -> None:
    tree = read_irving(HAND, P2)
    assert tree.root == build_tree(P2, get_strategy("simple")).root
    assert tree.summary().total == 13
    assert to_irving(tree, header=False).strip() == HAND


@pytest.mark.parametrize(
    "text",
    [
        "6 (01: 1, 2 (12), 0; 0, 2 (02); 1)",  # Knuth's explicit 0 for all bulls but one, 1 cow
        "6 (01x)",  # parts of two codes, played in the variant's order
        "6 (01)",  # the same without the mark, as mastermind-strategy's files may write it
        "6 (01: 1, 2, 0; 2; 1)",  # two codes left, only counted (Knuth's files): in order
        "6 (01: 1, 2A, 0; 2B; 1)\n\nA = (12)\nB = (02)",  # labels defined after the tree
        "6\n(01:\n 1,\n 2 ( 12 ) , 0 ;2(02);1 )",  # spacing and line breaks do not matter
        "# rules: p2c3n\n# strategy: simple\n" + HAND,  # the file names its variant
    ],
)
def test_forms_of_the_notation(text: str) -> None:
    tree = read_irving(text, None if text.startswith("#") else P2)
    assert tree.root == read_irving(HAND, P2).root


def test_a_guess_that_cannot_be_the_secret_is_starred() -> None:
    text = "9 (01: 1, 2 (11*), 1; 4 (02); 1)"  # 11 splits 12 and 20, and is neither
    tree = read_irving(text, Rules.parse("p2c3r"))
    assert check_tree(tree).valid and tree.summary().total == 22
    assert to_irving(tree, header=False).strip() == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("5 (01: 1, 2 (12), 0; 2 (02); 1)", "the situation at the root has 6 codes, not 5"),
        ("6 (01: 1, 3 (12), 0; 2 (02); 1)", "at 01 '0 1' has 2 codes, not 3"),
        ("6 (01: 1, 2 (12), 0; 2 (02); 0)", "all bulls after 01 happens for 1 code, not 0"),
        ("6 (01: 1, 2 (12), 0; 2 (02), 1)", "expected ';' after reply '1 0', found ','"),
        ("6 (0x: 1, 2 (12), 0; 2 (02); 1)", "'x' is not a symbol"),
        ("6 (01: 1, 2A, 0; 2 (02); 1)", "labels used but not defined: A"),
        ("6 (01: 1, 2A, 0; 2 (02); 1) B = (02)", "label 'B' is defined but not used"),
        ("6 (01: 1, 2 (12), 0; 2 (02); 1) junk", "expected a label definition"),
    ],
)
def test_bad_trees_are_refused_with_the_line(text: str, message: str) -> None:
    with pytest.raises(BullsCowsError, match="^tree line 1: .*" + _escaped(message)):
        read_irving(text, P2)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("12 (01: 1, 4, 2; 4 (02); 1)", "at 01 '0 1' has 4 codes, but no guess for it"),
        ("12 (01)", "leaves 4 codes: the play of that situation must be written out"),
    ],
)
def test_more_than_two_codes_need_their_play(text: str, message: str) -> None:
    with pytest.raises(BullsCowsError, match="^tree line 1: .*" + _escaped(message)):
        read_irving(text, Rules.parse("p2c4n"))


def test_knuths_form_of_his_tree_reads_with_his_total() -> None:
    """Knuth's tree as his and mastermind-strategy's files write it: a situation of two codes
    as its count alone, and no mark on a guess that leaves two codes (our own minimax tree,
    written so: minimax is Knuth's rule)."""
    mm = Rules.parse("mm")
    ours = to_irving(build_tree(mm, get_strategy("minimax")), header=False)
    bare = re.sub(r"\b2 \([1-6]{4}\)", "2", ours).replace("x)", ")")
    assert bare.count("2,") > 20 and "x)" not in bare
    tree = read_irving(bare, mm)
    summary = check_tree(tree).summary
    assert summary is not None
    assert (summary.total, summary.worst, summary.secrets) == (5801, 5, 1296)


def _escaped(text: str) -> str:
    import re

    return re.escape(text)


def test_files_in_irving_notation_load(tmp_path: Path) -> None:
    path = tmp_path / "simple.txt"
    tree = build_tree(P2, get_strategy("simple"))
    save_tree(tree, path)
    assert path.read_text().startswith("# rules: p2c3n\n")
    assert load_tree(path) == tree
    (tmp_path / "bare.txt").write_text(HAND + "\n")
    assert load_tree(tmp_path / "bare.txt", P2).root == tree.root


# --- kunigami's trees: an explicit all-bulls leaf under every node ---------------------------


def kunigami_shaped(node: dict[str, object], length: int) -> dict[str, object]:
    """``node`` with an all-bulls leaf repeating its guess, as kunigami's trees have."""
    replies = {k: kunigami_shaped(v, length) for k, v in node.get("replies", {}).items()}  # type: ignore[attr-defined]
    return {"guess": node["guess"], "replies": {**replies, f"{length} 0": {"guess": node["guess"]}}}


def test_all_bulls_leaves_that_repeat_the_guess_are_accepted() -> None:
    tree = build_tree(P2, get_strategy("simple"))
    data = json.loads(tree.to_json())
    data["tree"] = kunigami_shaped(data["tree"], 2)
    assert data["tree"]["replies"]["2 0"] == {"guess": "01"}
    assert load_tree(json.dumps(data)) == tree
    assert check_tree(load_tree(json.dumps(data))).valid


def test_a_bare_tree_in_kunigamis_shape_is_read_for_the_variant_given() -> None:
    """The root node alone, all-bulls leaves included, as the walker's data holds it."""
    tree = build_tree(P2, get_strategy("simple"))
    bare = json.dumps(kunigami_shaped(json.loads(tree.to_json())["tree"], 2))
    with pytest.raises(VariantNotNamed, match="a bare tree"):
        load_tree(bare)
    imported = load_tree(bare, P2)
    assert imported.root == tree.root and imported.strategy == "imported"
    assert check_tree(imported).summary == check_tree(tree).summary


@pytest.mark.parametrize(
    "leaf", [{"guess": "02"}, {"guess": "01", "replies": {"0 1": {"guess": "12"}}}]
)
def test_other_all_bulls_branches_are_refused(leaf: dict[str, object]) -> None:
    data = json.loads(build_tree(P2, get_strategy("simple")).to_json())
    data["tree"]["replies"]["2 0"] = leaf
    with pytest.raises(BullsCowsError, match="reply key '2 0' at the root: all bulls ends"):
        load_tree(json.dumps(data))


# --- comparing --------------------------------------------------------------------------------


def test_compare_finds_where_two_trees_part() -> None:
    mm = Rules.parse("mm")
    a, b = shipped("mm--optimal.json.gz"), shipped("mm--optimal-worst.json.gz")
    result = compare_trees(a, b)
    assert (result.a.total, result.b.total) == (5625, 5626)
    moved = sum(m - n for _, n, m in result.changed)
    assert moved == 1  # the totals differ by one guess, spread over the changed secrets
    assert result.first_difference is not None
    with pytest.raises(BullsCowsError, match="different variants"):
        compare_trees(a, build_tree(P2, get_strategy("simple")))
    assert compare_trees(a, read_irving(to_irving(a), mm)).changed == []


# --- against published material ----------------------------------------------------------------

#: Parts of the mm tree for first guess 1123 that mastermind-strategy's source gives as its
#: example of the notation (the root line, and situation A: 44 codes after 0 bulls, 3 cows).
PUBLISHED_ROOT = (
    "1296 (1123: 2 (2311), 44A, 222B, 276C, 81D; 4 (1312), 84E, 230F, 182G; 5 (1321: 1, 0, 0, 0,"
    "\n0; 2 (1132), 0, 0, 0; 1, 0, 0; 0; 1), 40H, 105I; 20J; 1)"
)
PUBLISHED_A = (
    "A = (2345: 0, 6 (3412), 10 (3612: 1, 0, 0, 0, 0; 1, 1, 2 (4211), 0; 1, 0, 2 (3411); 1; 1),"
    "\n    2 (3611), 0; 0, 6 (3215), 8 (2461: 0, 1, 1,0, 0; 0, 0, 1, 1; 0, 1, 2 (2231); 1; 0),"
    " 4 (2611); 0,\n    2 (2314), 4 (2316); 2 (2315); 0)"
)


def test_the_published_example_of_the_notation_reads_and_checks() -> None:
    """Its root and situation A, with the other labels (not published there) taken from
    expected-size's tree, which opens with 1123 too: every count agrees, and the whole is a
    valid tree."""
    mm = Rules.parse("mm")
    ours = to_irving(build_tree(mm, get_strategy("expected-size")), header=False, width=10**6)
    root, *labels = ours.strip().split("\n\n")
    assert root.split(";")[0] == PUBLISHED_ROOT.split(";")[0]  # 1123 splits 1,296 codes alike
    rest = [label for label in labels if not label.startswith("A =")]
    tree = read_irving("\n\n".join([PUBLISHED_ROOT, PUBLISHED_A, *rest]), mm)
    report = check_tree(tree)
    assert report.valid, report.problems
    assert tree.root.guess == Code("1123", mm).index


# --- kunigami's file as he published it: a JavaScript constant --------------------------------


def test_a_tree_written_as_kunigami_writes_his_reads_back(tmp_path: Path) -> None:
    tree = build_tree(P2, get_strategy("minimax"))
    text = f"const decisionTree = {as_kunigami_js(json.loads(tree.to_json())['tree'], P2)};\n"
    path = tmp_path / "tree.json"
    path.write_text(text)
    with pytest.raises(VariantNotNamed, match="kunigami's tree"):
        load_tree(path)
    read = load_tree(path, P2)
    assert read.root == tree.root and read.strategy == "imported"
    assert load_tree(text.removeprefix("const decisionTree = "), P2).root == tree.root


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[0, 1], {'0 2': [[1, 0], {}]}]", "reply key '0 2' at the root: kunigami's keys read"),
        ("[[0, 7], {}]", "the guess at the root is [0, 7]: a list of symbol numbers from 0 to 2"),
        ("[[0, 1], {'(0, 2)': [[1, 0]]}]", "kunigami's nodes are [GUESS, {REPLY: NODE, ...}]"),
        ("[[0, 1], {'(0, 2)': [[1, 0], {}]}", "is not JSON"),
    ],
)
def test_bad_kunigami_trees_are_refused(text: str, message: str) -> None:
    with pytest.raises(BullsCowsError, match=_escaped(message)):
        load_tree(text, P2)


@pytest.mark.skipif(
    not (REFERENCE / "kunigami-tree.js").exists(), reason="kunigami's published file not here"
)
def test_kunigamis_published_tree_reads_as_published() -> None:
    tree = load_tree(REFERENCE / "kunigami-tree.js", Rules.parse("bc"))
    report = check_tree(tree)
    assert report.valid and report.summary is not None
    s = report.summary
    assert (s.secrets, s.total, s.worst, s.at_worst) == (5040, 26914, 7, 280)
