"""The compiled kernels equal the pure-Python reference, and scores behave as a player expects."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bullscows._kernels import reference
from bullscows.errors import RulesError
from bullscows.feedback import Feedback
from bullscows.rules import DEFAULT_ALPHABET, Rules
from bullscows.universe import Universe, universe

MAX_SIZE = 20_000
SAMPLE = 40


@st.composite
def variants(draw: st.DrawFn) -> Rules:
    """Length 1-7, 1-20 symbols, repeats or not. Per-position limits keep variants with many
    symbols small; the "wide" ones have more than 64 positional bits, so masks span two words."""
    shape = draw(st.sampled_from(["full", "limited", "wide"]))
    repeats = draw(st.booleans())
    if shape == "full":
        length = draw(st.integers(1, 7))
        fits = [
            k
            for k in range(1, 21)
            if (k**length if repeats else math.perm(k, length)) in range(1, MAX_SIZE + 1)
        ]
        return Rules(length, DEFAULT_ALPHABET[: draw(st.sampled_from(fits))], repeats)
    if shape == "limited":
        length = draw(st.integers(1, 7))
        colours = draw(st.integers(1 if repeats else length, 20))
    else:
        length = draw(st.integers(4, 7))
        colours = draw(st.integers(-(-65 // length), 20))
    widest = max(1, min(colours, math.floor(MAX_SIZE ** (1 / length))))
    symbols = DEFAULT_ALPHABET[:colours]
    allowed = tuple(
        "".join(draw(st.sets(st.sampled_from(symbols), min_size=1, max_size=widest)))
        for _ in range(length)
    )
    try:
        return Rules(length, symbols, repeats, allowed)
    except RulesError:
        assume(False)  # limits that leave no code of distinct symbols
        raise


def _sample(data: st.DataObject, u: Universe, n: int = SAMPLE) -> npt.NDArray[np.int64]:
    seed = data.draw(st.integers(0, 2**32 - 1))
    return np.random.default_rng(seed).integers(0, len(u), size=n).astype(np.int64)


def _reference_matrix(
    u: Universe, rows: npt.NDArray[np.int64], cols: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    codes = u.codes.tolist()
    return np.array(
        [[reference.score_index(codes[i], codes[j]) for j in cols] for i in rows], dtype=np.int64
    ).reshape(len(rows), len(cols))


@settings(max_examples=80)
@given(variants(), st.data())
def test_compiled_equals_reference(rules: Rules, data: st.DataObject) -> None:
    u = Universe(rules)
    rows, cols = _sample(data, u, 12), _sample(data, u)
    expected = _reference_matrix(u, rows, cols)
    assert np.array_equal(u.score_matrix(rows, cols), expected)
    codes = u.codes.tolist()
    for k, guess in enumerate(rows):
        assert u.score_row(int(guess), cols).tolist() == reference.score_row(
            codes[guess], [codes[j] for j in cols]
        )
        assert np.array_equal(u.score_row(int(guess), cols), expected[k])
    assert u.partition_sizes(rows, cols).tolist() == reference.partition_sizes(
        [codes[i] for i in rows], [codes[j] for j in cols], rules.length
    )


@pytest.mark.parametrize(
    "spec", ["p7c10n", "p3c30r", "p2c62r", "p6c11n:allowed=01/12/23/34/45/a", "bc", "mm"]
)
def test_compiled_equals_reference_on_named_variants(spec: str) -> None:
    rules = Rules.parse(spec)
    u = Universe(rules)
    rng = np.random.default_rng(2024)
    rows, cols = rng.integers(0, len(u), 30), rng.integers(0, len(u), SAMPLE)
    rows[0], cols[-1] = 0, len(u) - 1
    expected = _reference_matrix(u, rows, cols)
    assert np.array_equal(u.score_matrix(rows, cols), expected)
    assert np.array_equal(u.score_row(int(rows[1]), cols), expected[1])
    sizes = u.partition_sizes(rows, cols)
    assert sizes.shape == (30, rules.reply_slots)
    for k in range(len(rows)):
        assert np.array_equal(sizes[k], np.bincount(expected[k], minlength=rules.reply_slots))


@pytest.mark.parametrize("spec", ["p7c10n", "p3c30r", "p2c62r"])
def test_wide_variants_use_several_mask_words(spec: str) -> None:
    u = Universe(Rules.parse(spec))
    assert max(u.pos_masks.shape[1], u.sym_masks.shape[1]) > 1


def test_score_row_against_every_code() -> None:
    u = Universe(Rules.parse("mm"))
    codes = u.codes.tolist()
    guess = u.index((0, 0, 1, 1))
    assert u.score_row(guess).tolist() == reference.score_row(codes[guess], codes)
    assert u.partition_sizes(np.array([guess]), u.all())[0].sum() == 1296


def test_empty_inputs() -> None:
    u = Universe(Rules.parse("bc"))
    empty = np.array([], dtype=np.int64)
    assert u.score_matrix(empty, u.all()[:5]).shape == (0, 5)
    assert u.score_matrix(u.all()[:5], empty).shape == (5, 0)
    assert u.score_row(0, empty).shape == (0,)
    assert u.partition_sizes(empty, u.all()).shape == (0, 25)
    assert not u.partition_sizes(u.all()[:3], empty).any()


# --- properties of a score -----------------------------------------------------------------


@settings(max_examples=60)
@given(variants(), st.data())
def test_score_properties(rules: Rules, data: st.DataObject) -> None:
    u = Universe(rules)
    n = rules.length
    codes = _sample(data, u)
    matrix = u.score_matrix(codes, codes).astype(np.int64)
    assert (np.diag(matrix) == Feedback.win(n).index(n)).all()  # score(a, a) is all bulls
    assert np.array_equal(matrix, matrix.T)  # symmetric
    bulls, cows = np.divmod(matrix, n + 1)
    assert (bulls + cows <= n).all()
    same = codes[:, None] == codes[None, :]
    assert ((bulls == n) == same).all()  # all bulls only for the code itself
    for reply in np.unique(matrix):
        assert Feedback.from_index(int(reply), n).problem(rules) is None


@settings(max_examples=60)
@given(variants(), st.data())
def test_filtering_never_drops_the_secret(rules: Rules, data: st.DataObject) -> None:
    u = Universe(rules)
    secret = int(_sample(data, u, 1)[0])
    candidates = u.all()
    for guess in _sample(data, u, 6):
        reply = Feedback(*reference.score(u.codes[guess].tolist(), u.codes[secret].tolist()))
        kept = candidates[u.score_row(int(guess), candidates) == reply.index(rules.length)]
        assert secret in kept
        # Every survivor really gives that reply, and no consistent code was dropped.
        gone = np.setdiff1d(candidates, kept)
        for code in kept[:SAMPLE]:
            assert reference.score(u.codes[guess].tolist(), u.codes[code].tolist()) == (
                reply.bulls,
                reply.cows,
            )
        for code in gone[:SAMPLE]:
            assert Feedback(*reference.score(u.codes[guess], u.codes[code])) != reply
        candidates = kept


def test_warm_up_compiles_every_kernel_a_game_uses() -> None:
    from bullscows._kernels import compiled

    compiled.warm_up()
    for kernel in (
        compiled._score_block_1,
        compiled._score_parallel_1,
        compiled._partition_block_1,
        compiled._partition_parallel_1,
        compiled._pairwise_block_1,
        compiled._pairwise_parallel_1,
        compiled._canonical_block,
        compiled._canonical_parallel,
    ):
        assert kernel.signatures, kernel


def test_serial_and_parallel_paths_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    from bullscows._kernels import drivers
    from bullscows.symmetry import _relabelling_classes

    u = universe(Rules.parse("bc"))
    guesses, candidates = u.all()[::7], u.all()[::3]
    results = []
    # Two threads taking blocks in turn, whatever the machine has.
    monkeypatch.setattr(drivers, "cores", lambda: 2)
    for threshold in (0, 1 << 62):  # everything parallel, then everything serial
        monkeypatch.setattr(drivers, "SERIAL_PAIRS", threshold)
        _relabelling_classes.cache_clear()
        results.append(
            (
                u.score_matrix(guesses, candidates),
                u.partition_sizes(guesses, candidates),
                u.guess_costs(guesses, candidates[:20], "entropy"),
                u.guess_costs(guesses, candidates, "most-parts"),
                _relabelling_classes(u.rules, ((4, 5, 6, 7, 8, 9),)),
            )
        )
    for parallel, serial in zip(*results, strict=True):
        assert np.array_equal(parallel, serial)


@settings(max_examples=60)
@given(
    spec=st.sampled_from(["bc", "mm", "p5c8r", "p3c4n", "p3c30r"]),
    heuristic=st.sampled_from(sorted(reference.HEURISTIC_COSTS)),
    size=st.sampled_from([1, 2, 31, 32, 33, 63, 64, 65, 200]),
    data=st.data(),
)
def test_heuristic_costs_equal_their_reference_on_every_path(
    spec: str, heuristic: str, size: int, data: st.DataObject
) -> None:
    # Candidates at the edges of the pairwise (at most 32), few (under 64) and tally paths.
    u = universe(Rules.parse(spec))
    seed = data.draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    candidates = np.sort(rng.choice(len(u), size=min(size, len(u)), replace=False))
    guesses = np.sort(rng.choice(len(u), size=min(40, len(u)), replace=False))
    codes = u.codes.tolist()
    sizes = reference.partition_sizes(
        [codes[g] for g in guesses], [codes[c] for c in candidates], u.length
    )
    cost = reference.HEURISTIC_COSTS[heuristic]
    assert u.guess_costs(guesses, candidates, heuristic).tolist() == [cost(s) for s in sizes]
