"""Guesses from a wider set than the secrets (``bc:guesses=p4c10r``): scoring, knowledge,
contradictions, games, heuristics, naive strategies, outcomes and trees.

The expected figures are worked out with itertools over every code (``bulls_cows`` is the
textbook definition), not with the library's universe or knowledge code.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter

import numpy as np
import pytest

from bullscows import Code, Feedback, Rules, score
from bullscows.errors import BullsCowsError, CodeError
from bullscows.feedback import valid_replies
from bullscows.knowledge import Knowledge, Step, audit, explain_contradiction
from bullscows.outcomes import build_tree, guess_counts, targets_of
from bullscows.sessions import Adversary, Codebreaker, Codemaker, random_secret
from bullscows.strategies import get_strategy
from bullscows.tree import check_tree, load_tree
from bullscows.universe import universe

WIDE = Rules.parse("bc:guesses=p4c10r")
SECRETS = ["".join(p) for p in itertools.permutations("0123456789", 4)]
GUESSES = ["".join(p) for p in itertools.product("0123456789", repeat=4)]


def bulls_cows(secret: str, guess: str) -> tuple[int, int]:
    bulls = sum(s == g for s, g in zip(secret, guess, strict=True))
    return bulls, sum((Counter(secret) & Counter(guess)).values()) - bulls


def possible(history: list[tuple[str, tuple[int, int]]]) -> list[str]:
    return [s for s in SECRETS if all(bulls_cows(s, g) == r for g, r in history)]


def test_the_universe_holds_every_guess_and_marks_the_secrets() -> None:
    u = universe(WIDE)
    assert [u.text(i) for i in range(len(u))] == GUESSES
    assert [u.text(int(i)) for i in u.secrets] == SECRETS
    assert u.is_secret(int(u.secrets[7])) and not u.is_secret(0)


def test_scoring_a_guess_with_repeats() -> None:
    rng = random.Random(5)
    u = universe(WIDE)
    for _ in range(300):
        secret, guess = rng.choice(SECRETS), rng.choice(GUESSES)
        reply = score(Code(secret, WIDE), Code(guess, WIDE))
        assert (reply.bulls, reply.cows) == bulls_cows(secret, guess)
        index = int(u.score_row(Code(guess, WIDE).index, np.array([Code(secret, WIDE).index]))[0])
        assert Feedback.from_index(index, 4) == reply


def test_codes_may_repeat_as_guesses_but_not_as_secrets() -> None:
    assert Code("0000", WIDE).index == 0
    with pytest.raises(CodeError, match="'0' appears 4 times; a secret's symbols may not repeat"):
        Code("0000", WIDE).as_secret()
    assert Code("0123", WIDE).as_secret().text == "0123"
    with pytest.raises(CodeError, match="appears twice; symbols may not repeat"):
        Code("1123", Rules.parse("bc"))


def test_replies_only_repeated_guesses_can_get() -> None:
    # Two codes of 4 distinct symbols out of 6 share at least 2; 1111 may share 0 or 1.
    narrow, wide = Rules.parse("p4c6n"), Rules.parse("p4c6n:guesses=p4c6r")
    assert Feedback(0, 0).problem(narrow) is not None
    assert Feedback(0, 0).problem(wide) is None
    seen = {
        bulls_cows(s, g)
        for s in ("".join(p) for p in itertools.permutations("012345", 4))
        for g in ("".join(p) for p in itertools.product("012345", repeat=4))
    }
    assert {Feedback(b, c).index(4) for b, c in seen} == set(valid_replies(wide))


def test_knowledge_after_guesses_with_repeats() -> None:
    rng = random.Random(3)
    for _ in range(20):
        secret = rng.choice(SECRETS)
        history = [(g, bulls_cows(secret, g)) for g in rng.sample(GUESSES, 3)]
        knowledge = Knowledge.start(WIDE)
        assert len(knowledge) == 5040
        for guess, (b, c) in history:
            knowledge = knowledge.after(Code(guess, WIDE), Feedback(b, c))
        assert [c.text for c in knowledge.candidate_codes()] == possible(history)


def test_a_contradiction_is_explained_over_the_secrets_only() -> None:
    # 0000 and 1111 -> nothing rules '0' and '1' out; then 0123 cannot share 3 symbols, and
    # no two of the three replies contradict each other.
    history = [("0000", (0, 0)), ("1111", (0, 0)), ("0123", (0, 3))]
    assert possible(history) == []
    steps = [Step(Code(g, WIDE), Feedback(*r)) for g, r in history]
    explained = explain_contradiction(WIDE, steps)
    assert explained.core == (0, 1, 2)
    assert all(possible(history[:i] + history[i + 1 :]) for i in range(3))
    for fix in explained.fixes:
        changed = [(g, (fix.feedback.bulls, fix.feedback.cows) if i == fix.step else r)
                   for i, (g, r) in enumerate(history)]  # fmt: skip
        assert fix.codes == len(possible(changed)) > 0


def test_games_take_repeated_guesses_and_keep_the_secret_distinct() -> None:
    game = Codemaker(WIDE, "2745")
    assert str(game.guess("2222")) == "1 bull, 0 cows"
    assert game.remaining == len(possible([("2222", (1, 0))]))
    with pytest.raises(CodeError, match="secret's symbols may not repeat"):
        Codemaker(WIDE, "2225")
    for seed in range(30):
        assert random_secret(WIDE, random.Random(seed)).as_secret()
    adversary = Adversary(WIDE, 1)
    adversary.guess("0000")
    adversary.commit().as_secret()
    breaker = Codebreaker(WIDE, "minimax")
    breaker.record("0011", "1 1")
    assert audit(WIDE, breaker.history, Code("0123", WIDE)) == []
    with pytest.raises(BullsCowsError, match="secret's symbols may not repeat"):
        breaker.audit("0011")


def _knuth(candidates: list[str], guesses: list[str], heuristic: str) -> str:
    """Knuth's rule by brute force over every allowed guess (minimax or most-parts)."""

    def cost(guess: str) -> tuple[int, bool, str]:
        parts = Counter(bulls_cows(s, guess) for s in candidates)
        value = max(parts.values()) if heuristic == "minimax" else -len(parts)
        return value, guess not in candidates, guess

    return min(guesses, key=cost)


@pytest.mark.parametrize("heuristic", ["minimax", "most-parts"])
def test_heuristics_score_every_allowed_guess(heuristic: str) -> None:
    rules = Rules.parse("p4c6n:guesses=p4c6r")
    secrets = ["".join(p) for p in itertools.permutations("012345", 4)]
    guesses = ["".join(p) for p in itertools.product("012345", repeat=4)]
    rng = random.Random(heuristic)
    outside = 0
    for steps in [0, 1, 1, 1, 2, 2, 2, 2]:
        secret = rng.choice(secrets)
        history = [(g, bulls_cows(secret, g)) for g in rng.sample(guesses, steps)]
        left = [s for s in secrets if all(bulls_cows(s, g) == r for g, r in history)]
        if len(left) < 3:
            continue
        breaker = Codebreaker(rules, heuristic)
        for guess, (b, c) in history:
            breaker.record(guess, Feedback(b, c))
        chosen = breaker.suggest().text
        assert chosen == _knuth(left, guesses, heuristic)
        outside += len(set(chosen)) < 4
    if heuristic == "minimax":  # some of its best guesses repeat a symbol: no secret can
        assert outside


def test_naive_strategies_play_secrets_and_outcomes_count_secrets() -> None:
    rules = Rules.parse("p3c4n:guesses=p3c4r")
    u = universe(rules)
    counts = guess_counts(rules, get_strategy("brute-force"))
    assert sorted(counts.tolist()) == list(range(1, 25))
    draws = get_strategy("random").sequence(rules, random.Random(1), 0, 50)  # type: ignore[attr-defined]
    assert np.isin(draws, u.secrets).all()
    with pytest.raises(CodeError, match="secret index 0 is no code"):
        targets_of(rules, np.array([0]))  # 000 may be guessed, never hidden


def test_trees_with_repeated_guesses_round_trip_and_check() -> None:
    rules = Rules.parse("p3c5n:guesses=p3c5r")
    tree = build_tree(rules, get_strategy("optimal"))
    assert load_tree(tree.to_json()) == tree
    report = check_tree(tree)
    assert report.valid, report.problems
    assert report.summary is not None and report.summary.secrets == 60
    assert tree.summary().total == 196  # as without repeated guesses (searched: 196 either way)


def test_the_checker_refuses_a_leaf_no_secret_can_be() -> None:
    rules = Rules.parse("p2c3n:guesses=p2c3r")

    def leaf(code: str) -> dict[str, object]:
        return {"guess": code}

    # After 00 -> 1 0 and 01 -> 1 0 only 02 is left; the leaf guesses 22 instead.
    after_01 = {"0 2": leaf("10"), "0 1": leaf("20"), "1 0": leaf("22")}
    root = {
        "guess": "00",
        "replies": {
            "0 0": {"guess": "12", "replies": {"0 2": leaf("21")}},
            "1 0": {"guess": "01", "replies": after_01},
        },
    }
    data = {"format": "bullscows-tree", "version": 1, "rules": rules.spec, "strategy": "hand",
            "objective": "strategy", "summary": None, "tree": root}  # fmt: skip
    report = check_tree(load_tree(json.dumps(data)))
    assert report.problems == [
        "1 reply leaves the tree: after 00 '1 0' 01 '1 0' 22, reply '1 0' (secrets 02) "
        "has no branch"
    ]
    after_01["1 0"] = leaf("02")
    assert check_tree(load_tree(json.dumps(data))).valid
