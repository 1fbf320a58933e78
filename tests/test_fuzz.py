"""Fuzzing every public parser: arbitrary text and bytes given to rules specs, codes, replies,
tree files, checkpoints and the JSON and text readers raise nothing but ``BullsCowsError``;
every spec and every file the program writes reads back.

A few hundred examples each by default (a CI run); ``BULLSCOWS_FUZZ_EXAMPLES=20000 pytest
tests/test_fuzz.py`` runs longer. The real command fed random lines is in
``tests/cli/test_fuzz_commands.py``.
"""

from __future__ import annotations

import gzip
import json
import os
import string
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bullscows import readers
from bullscows.codes import Code
from bullscows.errors import BullsCowsError, RulesError
from bullscows.feedback import Feedback
from bullscows.outcomes import build_tree
from bullscows.rules import DEFAULT_ALPHABET, MAX_LENGTH, PRESETS, Rules
from bullscows.search.checkpoint import FORMAT, VERSION, Checkpoint
from bullscows.strategies import get_strategy
from bullscows.tree import Node, load_tree
from variants import variant_with_limits

EXAMPLES = int(os.environ.get("BULLSCOWS_FUZZ_EXAMPLES", "300"))
FUZZ = settings(
    max_examples=EXAMPLES,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
VARIANTS = [Rules.parse(spec) for spec in ("bc", "mm", "p3c4n", "moo3,2,4", "p10c10n")]

#: Pieces of specs, codes and replies, so that random text reaches past the first check.
SPEC_WORDS = ["p", "c", "r", "n", "moo", ":", ",", "=", "/", "nolead", "symbols", "allowed"]
REPLY_WORDS = ["b", "c", "w", "a", "bull", "cows", " ", ",", "-", "and", "none", "9" * 40]


def pieces(words: list[str]) -> st.SearchStrategy[str]:
    """Text made of ``words``, digits and a few arbitrary characters."""
    token = st.one_of(
        st.sampled_from(words + list(PRESETS)),
        st.integers(-5, 10**6).map(str),
        st.text(max_size=3),
    )
    return st.lists(token, max_size=12).map("".join)


any_text = st.one_of(st.text(max_size=200), st.binary(max_size=200).map(
    lambda b: b.decode("utf-8", "surrogateescape")
))  # fmt: skip


# --- specs ------------------------------------------------------------------------------------


@FUZZ
@given(st.one_of(any_text, pieces(SPEC_WORDS)))
def test_any_spec_text_is_a_variant_or_a_rules_error(text: str) -> None:
    try:
        rules = Rules.parse(text)
    except RulesError as error:
        assert "\n" not in str(error) and len(str(error)) < 1000
    else:
        assert Rules.parse(rules.spec) == rules


@st.composite
def variants(draw: st.DrawFn) -> Rules:
    """Any variant: length, an alphabet of any printable symbols, repeats, per-position limits."""
    length = draw(st.integers(1, MAX_LENGTH))
    symbol = st.characters(
        blacklist_categories=("Cs", "Cc", "Cf", "Zs", "Zl", "Zp", "Co", "Cn"),
        blacklist_characters=",;:/",
    ).filter(lambda ch: ch.isprintable() and not ch.isspace())
    default = draw(st.booleans())
    count = draw(st.integers(1, len(DEFAULT_ALPHABET)))
    symbols = (
        DEFAULT_ALPHABET[:count]
        if default
        else "".join(draw(st.lists(symbol, min_size=1, max_size=count, unique=True)))
    )
    repeats = draw(st.booleans())
    try:
        return variant_with_limits(draw, length, symbols, repeats)
    except RulesError:
        assume(False)  # too many codes, or none
        raise


@FUZZ
@given(variants())
def test_every_variant_prints_a_spec_that_parses_back(rules: Rules) -> None:
    assert Rules.parse(rules.spec) == rules


# --- codes and replies ------------------------------------------------------------------------


@FUZZ
@given(st.sampled_from(VARIANTS), st.one_of(any_text, pieces(list(string.digits + " ,-"))))
def test_any_code_text_is_a_code_or_a_bullscows_error(rules: Rules, text: str) -> None:
    try:
        code = Code(text, rules)
    except BullsCowsError as error:
        assert len(str(error)) < 500
    else:
        assert Code(code.text, rules) == code


@FUZZ
@given(st.sampled_from(VARIANTS), st.one_of(any_text, pieces(REPLY_WORDS)))
def test_any_reply_text_is_a_reply_or_a_bullscows_error(rules: Rules, text: str) -> None:
    try:
        feedback = Feedback.parse(text, rules)
    except BullsCowsError as error:
        assert len(str(error)) < 500
    else:
        assert Feedback.parse(feedback.format("pair"), rules) == feedback


# --- JSON, text and files ---------------------------------------------------------------------

json_values = st.recursive(
    st.one_of(
        st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=20),
        st.sampled_from(["0123", "1 2", "0 0", "guess", "replies", "tree", 10**30]),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(st.sampled_from(["guess", "replies", "0 1", "1 0", "x"]), inner,
                        max_size=4),
    ),
    max_leaves=20,
)  # fmt: skip


@FUZZ
@given(st.one_of(any_text, json_values.map(json.dumps)))
def test_any_json_text_is_read_or_refused(text: str) -> None:
    try:
        readers.load_json(text, "x")
    except BullsCowsError as error:
        assert len(str(error)) < 500


@FUZZ
@given(st.binary(max_size=300))
def test_any_bytes_are_unpacked_and_decoded_or_refused(data: bytes) -> None:
    for raw in (data, b"\x1f\x8b" + data, gzip.compress(data)[: len(data) // 2 + 10]):
        try:
            readers.read_text(readers.unpack(raw, "x", limit=10_000), "x")
        except BullsCowsError as error:
            assert len(str(error)) < 500


@st.composite
def damaged_trees(draw: st.DrawFn) -> str:
    """A saved tree with one value somewhere replaced by arbitrary JSON (or its text cut)."""
    data = json.loads(SMALL_TREE)
    places: list[tuple[object, object]] = []
    stack: list[object] = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            places.extend((node, key) for key in node)
            stack.extend(node.values())
    if draw(st.booleans()):
        where, key = draw(st.sampled_from(places))
        assert isinstance(where, dict)
        where[key] = draw(json_values)
        return json.dumps(data)
    text = json.dumps(data)
    return text[: draw(st.integers(0, len(text)))]


SMALL_TREE = build_tree(Rules.parse("p2c3n"), get_strategy("minimax")).to_json()


@FUZZ
@given(st.one_of(damaged_trees(), any_text.map(lambda t: "{" + t)))
def test_any_tree_text_is_a_tree_or_a_bullscows_error(text: str) -> None:
    for source in (text, text.encode("utf-8", "surrogateescape")):
        try:
            load_tree(gzip.compress(source) if isinstance(source, bytes) else source)
        except BullsCowsError as error:
            assert len(str(error)) < 1000


@FUZZ
@given(st.lists(st.one_of(json_values.map(json.dumps), any_text), min_size=1, max_size=3))
def test_any_checkpoint_line_is_read_or_refused(lines: list[str]) -> None:
    header = {"format": FORMAT, "version": VERSION, "rules": "mm", "objective": "total",
              "max_depth": None, "consistent_only": False}  # fmt: skip
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz.ckpt"
        path.write_text(
            "\n".join([json.dumps(header), *lines]) + "\n",
            encoding="utf-8",
            errors="surrogateescape",
        )
        try:
            Checkpoint(path, "mm", "total", None, False)
        except BullsCowsError as error:
            assert len(str(error)) < 1000


# --- what is written reads back ---------------------------------------------------------------


@settings(max_examples=max(EXAMPLES // 10, 10))
@given(
    st.sampled_from(["p2c3n", "p3c4n", "p2c4r", "moo3,2,2", "p3c3r:symbols=xyz:nolead"]),
    st.sampled_from(["minimax", "simple", "entropy", "most-parts", "brute-force"]),
    st.booleans(),
)
def test_every_tree_written_loads_back(spec: str, strategy: str, compressed: bool) -> None:
    tree = build_tree(Rules.parse(spec), get_strategy(strategy))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / ("t.json.gz" if compressed else "t.json")
        tree.save(path)
        assert load_tree(path) == tree


@FUZZ
@given(
    st.lists(
        st.tuples(
            st.integers(0, 1),
            st.lists(st.tuples(st.integers(0, 1295), st.integers(0, 24)), max_size=2),
            st.integers(1, 30),
            st.integers(0, 10**9),
            st.one_of(st.none(), st.integers(0, 1295)),
        ),
        max_size=5,
    )
)
def test_every_checkpoint_written_reads_back(
    answers: list[tuple[int, list[tuple[int, int]], int, int, int | None]],
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "mm.ckpt"
        store = Checkpoint(path, "mm", "total", None, False)
        for weight, history, depth, window, leaf in answers:
            found = None if leaf is None else (window, Node(leaf, {3: Node(leaf ^ 1)}))
            store.record(weight, tuple(history), depth, window + 1, found)
        store.close()
        again = Checkpoint(path, "mm", "total", None, False)
        assert again.exact == store.exact and again.failed == store.failed


def _answers(count: int) -> list[tuple[tuple[tuple[int, int], ...], int, Node | None]]:
    """``count`` answers of an ``mm`` checkpoint: (history, window, tree or None)."""
    return [(((i, 3), (i + 1, 4)), 40 + i, Node(i, {2: Node(i + 7)}) if i % 3 else None)
            for i in range(count)]  # fmt: skip


@FUZZ
@given(st.integers(1, 12), st.floats(0, 1), st.integers(0, 3))
def test_a_checkpoint_cut_anywhere_resumes_twice(count: int, share: float, extra: int) -> None:
    # A crash can cut the file at any byte: every resume reads it (the torn line left out and
    # cut off before answers are appended), and the answers appended read back.
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "mm.ckpt"
        store = Checkpoint(path, "mm", "total", None, False)
        for history, window, tree in _answers(count):
            store.record(1, history, 5, window, None if tree is None else (window - 1, tree))
        store.close()
        data = path.read_bytes()
        cut = int(len(data) * share)
        path.write_bytes(data[:cut])
        whole = data[:cut].count(b"\n") - 1  # the answers on whole lines
        for resume in range(2):
            again = Checkpoint(path, "mm", "total", None, False)
            assert again.resumed in (max(whole, 0) + resume * extra,
                                     max(whole, 0) + 1 + resume * extra)  # fmt: skip
            for history, window, _ in _answers(extra):
                again.record(0, history, 6, window, None)
            again.close()
        assert Checkpoint(path, "mm", "total", None, False).resumed >= 2 * extra
