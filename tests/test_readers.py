"""Bounded, total readers: huge numbers, non-finite floats, deep nesting, devices, links and
compression bombs in replies, tree files and checkpoints are one-line errors, read in bounded
memory; every spec a variant prints parses back."""

from __future__ import annotations

import gzip
import json
import os
import re
from pathlib import Path

import pytest

from bullscows import readers
from bullscows.codes import Code, example_code
from bullscows.errors import BullsCowsError, FeedbackError
from bullscows.feedback import Feedback
from bullscows.outcomes import build_tree
from bullscows.rules import Rules
from bullscows.search import optimal_tree
from bullscows.search.checkpoint import Checkpoint
from bullscows.strategies import get_strategy
from bullscows.tree import DecisionTree, load_tree

BC, MM = Rules.parse("bc"), Rules.parse("mm")
HUGE = "9" * 5000


# --- replies (item 1) and quoting (item 11) -----------------------------------------------------


@pytest.mark.parametrize("text", [f"{HUGE} 0", f"{HUGE}b 0c", f"0 {HUGE}", f"1A{HUGE}B"])
def test_a_reply_with_a_huge_count_is_a_clear_error(text: str) -> None:
    with pytest.raises(FeedbackError, match="too large for a count") as error:
        Feedback.parse(text, BC)
    assert len(str(error.value)) < 300


def test_errors_quote_a_line_at_most() -> None:
    long = "x" * 2_000_000
    for parse in (lambda: Feedback.parse(long, BC), lambda: Code(long, BC)):
        with pytest.raises(BullsCowsError) as error:
            parse()
        assert len(str(error.value)) < 400
        assert "'xxxxxxxx" in str(error.value) and "2,000,000 characters" in str(error.value)
    with pytest.raises(BullsCowsError) as error:
        Rules.parse("p4c6r:symbols=" + long)
    assert len(str(error.value)) < 800


def test_a_code_error_on_a_huge_variant_does_not_enumerate_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import bullscows.universe

    def refuse(rules: Rules) -> None:
        raise AssertionError("the universe was built")

    monkeypatch.setattr(bullscows.universe, "universe", refuse)
    big = Rules.parse("p7c9r")  # 4,782,969 codes
    with pytest.raises(BullsCowsError, match=r"e\.g\. '0123456'"):
        Code("123", big)
    assert example_code(Rules(3, "abc", False, ("abc", "a", "ab"))) == "cab"


# --- JSON -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (f'{{"a": {HUGE}}}', "has more than 18 digits"),
        ('{"a": 1e999}', "out of range"),
        ('{"a": -Infinity}', "not a number"),
        ('{"a": NaN}', "not a number"),
        ("[" * 100_000 + "]" * 100_000, "nested more than"),
        ('{"a": [1,\n2,\n', "line 3 is not JSON"),
    ],
)
def test_json_refusals_name_the_line(text: str, message: str) -> None:
    with pytest.raises(BullsCowsError, match=message) as error:
        readers.load_json(text, "file 'x'")
    assert str(error.value).startswith("file 'x' line ")
    assert len(str(error.value)) < 300


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    text = json.dumps({"a": "[" * 5000, "b": [[1]]})
    assert readers.load_json(text, "x", max_nesting=3) == json.loads(text)
    with pytest.raises(BullsCowsError, match="line 2: nested more than 3"):
        readers.load_json('{"s": "{{{{",\n "b": [[[1]]]}', "x", max_nesting=3)


# --- tree files (items 2, 4) ------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_tree() -> DecisionTree:
    return build_tree(Rules.parse("p2c3n"), get_strategy("minimax"))


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("version", HUGE, "more than 18 digits"),
        ("summary.distribution", f'{{"1": {HUGE}}}', "more than 18 digits"),
        ("summary.distribution", '{"1": Infinity}', "not a number"),
        ("summary.total", "1e999", "out of range"),
    ],
)
def test_a_tree_file_with_a_huge_number_is_refused(
    small_tree: DecisionTree, tmp_path: Path, field: str, value: str, message: str
) -> None:
    data = small_tree.to_dict()
    top, _, inner = field.partition(".")
    marker = "@@VALUE@@"
    if inner:
        data[top][inner] = marker
    else:
        data[top] = marker
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data, indent=1).replace(f'"{marker}"', value))
    with pytest.raises(BullsCowsError, match=message) as error:
        load_tree(path)
    assert "t.json' line " in str(error.value)


def test_a_reply_key_with_a_huge_count_is_refused(small_tree: DecisionTree) -> None:
    data = small_tree.to_dict()
    data["tree"]["replies"] = {f"{HUGE} 0": {"guess": "12"}}
    with pytest.raises(BullsCowsError, match="too large for a count"):
        load_tree(json.dumps(data))


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_devices_are_refused_before_reading(device: str, tmp_path: Path) -> None:
    with pytest.raises(BullsCowsError, match="not a regular file"):
        load_tree(Path(device))
    link = tmp_path / "link.json"
    link.symlink_to(device)
    with pytest.raises(BullsCowsError, match="not a regular file"):
        load_tree(link)
    with pytest.raises(BullsCowsError, match="not a regular file"):
        Checkpoint(link, "mm", "total", None, False)


def test_a_fifo_is_refused_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(BullsCowsError, match="not a regular file"):
        load_tree(fifo)


def test_files_are_read_under_a_cap_raw_and_uncompressed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 5000)
    with pytest.raises(BullsCowsError, match="larger than 4,096 bytes"):
        readers.read_file(big, "the file", limit=4096)
    bomb = tmp_path / "bomb.json.gz"
    bomb.write_bytes(gzip.compress(b" " * 100_000))
    assert bomb.stat().st_size < 4096
    with pytest.raises(BullsCowsError, match="uncompresses to more than 4,096 bytes"):
        readers.read_file(bomb, "the file", limit=4096)
    monkeypatch.setattr(readers, "MAX_FILE_BYTES", 4096)
    with pytest.raises(BullsCowsError, match="uncompresses to more than"):
        load_tree(bomb.read_bytes())


def test_two_gzip_members_read_as_one(small_tree: DecisionTree) -> None:
    text = small_tree.to_json().encode()
    half = len(text) // 2
    assert load_tree(gzip.compress(text[:half]) + gzip.compress(text[half:])) == small_tree


# --- checkpoints (item 3) -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def checkpoint_lines(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    path = tmp_path_factory.mktemp("ckpt") / "mm.ckpt"
    optimal_tree(MM, "total", checkpoint=path)
    lines = path.read_text().splitlines()
    assert any(json.loads(line).get("cost") is not None for line in lines[1:])
    return lines


def _with_answer(lines: list[str], change: str) -> str:
    """The file with its first exact answer changed by ``change`` ('PATTERN=>REPLACEMENT')."""
    exact = next(i for i, line in enumerate(lines) if i and json.loads(line)["cost"] is not None)
    before, after = change.split("=>")
    changed = re.sub(before, after, lines[exact], count=1)
    assert changed != lines[exact], change
    return "\n".join([*lines[:exact], changed, *lines[exact + 1 :], lines[-1]]) + "\n"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ('"weight":1=>"weight":Infinity', "not a number"),
        ('"cost":\\d+=>"cost":1e999', "out of range"),
        ('"weight":1=>"weight":' + HUGE, "more than 18 digits"),
        ('"tree":{"guess":\\d+=>"tree":{"guess":1296', "not a code index"),
        ('"replies":{}=>"replies":[]', "'replies'"),
        ('"tree":{"guess":(\\d+),"replies":{"=>"tree":{"guess":\\1,"replies":{"99', "reply index"),
        ('"weight":1=>"weight":"1"', "'weight' '1' must be a whole number"),
        ('"history":\\[\\[\\d+=>"history":[[5000', "not a code index"),
        ('"depth":=>"depth":-', "'depth' -"),
    ],
)
def test_a_damaged_checkpoint_line_names_the_file_and_line(
    checkpoint_lines: list[str], tmp_path: Path, change: str, message: str
) -> None:
    path = tmp_path / "mm.ckpt"
    path.write_text(_with_answer(checkpoint_lines, change))
    with pytest.raises(BullsCowsError, match=message) as error:
        Checkpoint(path, "mm", "total", None, False)
    assert "mm.ckpt' line " in str(error.value)
    assert len(str(error.value)) < 300


def test_a_checkpoint_nested_deep_is_refused(checkpoint_lines: list[str], tmp_path: Path) -> None:
    path = tmp_path / "deep.ckpt"
    deep = '{"weight":1,"history":[],"depth":1,"window":1,"cost":1,"tree":' + "[" * 100_000
    path.write_text("\n".join([checkpoint_lines[0], deep + "]" * 100_000, checkpoint_lines[1]]))
    with pytest.raises(BullsCowsError, match=r"deep\.ckpt' line 2: nested more than"):
        Checkpoint(path, "mm", "total", None, False)


def test_a_checkpoint_header_with_a_huge_number_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "head.ckpt"
    path.write_text(f'{{"format": "bullscows-search-checkpoint", "version": {HUGE}}}\n')
    with pytest.raises(BullsCowsError, match=r"head\.ckpt' line 1: the number"):
        Checkpoint(path, "mm", "total", None, False)


def test_a_checkpoint_written_reads_back(checkpoint_lines: list[str], tmp_path: Path) -> None:
    path = tmp_path / "mm.ckpt"
    path.write_text("\n".join(checkpoint_lines) + "\n")
    again = Checkpoint(path, "mm", "total", None, False)
    assert again.resumed == len(checkpoint_lines) - 1
    copy = tmp_path / "copy.ckpt"
    store = Checkpoint(copy, "mm", "total", None, False)
    for (weight, history, depth), found in again.exact.items():
        store.record(weight, history, depth, found[0] + 1, found)
    for (weight, history, depth), window in again.failed.items():
        store.record(weight, history, depth, window, None)
    store.close()
    reread = Checkpoint(copy, "mm", "total", None, False)
    assert reread.exact == again.exact and reread.failed == again.failed


# --- specs (item 9) ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec",
    [
        "moo1,1,1,1,1,1,1,1,1,5:symbols=abcde",
        "p8c7r:nolead",
        "p10c5r:allowed=" + "/".join(["a"] * 9 + ["abcde"]) + ":symbols=abcde",
    ],
)
def test_a_variant_narrowed_by_its_limits_round_trips(spec: str) -> None:
    rules = Rules.parse(spec)
    assert Rules.parse(rules.spec) == rules


def test_a_tree_of_a_narrowed_variant_loads_back(tmp_path: Path) -> None:
    rules = Rules.parse("moo1,1,1,1,1,1,1,1,1,5:symbols=abcde")
    tree = build_tree(rules, get_strategy("minimax"))
    path = tmp_path / "narrow.json.gz"
    tree.save(path)
    assert load_tree(path) == tree


def test_a_key_held_twice_is_named_with_where_its_object_is() -> None:
    with pytest.raises(BullsCowsError) as error:
        readers.load_json('{"a": [{"b": 1}, {"c": {"d": 1, "d": 2}}]}', "x")
    assert (
        str(error.value)
        == "x line 1: the object at '/a/1/c' holds the key 'd' twice; a key may appear once"
    )
    with pytest.raises(BullsCowsError) as error:
        readers.load_json('{"~/": 1, "~/": 2}', "x", line=7)
    assert str(error.value) == (
        "x line 7: the top object holds the key '~/' twice; a key may appear once"
    )
    # Over several lines, the pointer alone says where.
    with pytest.raises(BullsCowsError) as error:
        readers.load_json('{"a": 1,\n "b": {"c": 1,\n "c": 1}}', "x")
    assert str(error.value) == (
        "x: the object at '/b' holds the key 'c' twice; a key may appear once"
    )


def test_only_pairs_keep_a_key_held_twice_for_their_caller() -> None:
    pairs = readers.load_json('{"k": 1, "k": 2}', "x", pairs=True)
    assert isinstance(pairs, readers.Pairs) and pairs == [("k", 1), ("k", 2)]
