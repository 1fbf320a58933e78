"""Candidates from a history, contradictions explained, replies audited."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bullscows import Code, Feedback, Rules, score
from bullscows.knowledge import Knowledge, Step, audit, explain_contradiction

BC = Rules.parse("bc")


def steps(rules: Rules, pairs: list[tuple[str, str]]) -> list[Step]:
    return [Step(Code(g, rules), Feedback.parse(r, rules)) for g, r in pairs]


def test_ulisp_sample_game_narrows_to_the_secret() -> None:
    history = steps(BC, [("1389", "0 0"), ("1234", "0 2"), ("1759", "1 1"), ("1785", "2 0")])
    knowledge = Knowledge.from_history(BC, history)
    assert Code("2745") in knowledge.candidate_codes()
    assert all(score(c, Code("1785")) == Feedback(2, 0) for c in knowledge.candidate_codes())


def test_j_moo_transcript_counts() -> None:
    rules = Rules.parse("moo5,5,5")
    k = Knowledge.start(rules)
    counts = []
    for guess, reply in [("330", "c"), ("413", "bc"), ("243", "bc")]:
        k = k.after(Code(guess, rules), Feedback.parse(reply, rules))
        counts.append(len(k))
    assert counts == [30, 4, 1]
    assert k.candidate_codes() == [Code("123", rules)]


def test_j_moo_two_by_two() -> None:
    rules = Rules.from_radix([2, 2])
    k = Knowledge.start(rules).after(Code("00", rules), Feedback.parse("b", rules))
    assert [c.text for c in k.candidate_codes()] == ["01", "10"]
    k = k.after(Code("10", rules), Feedback.parse("cc", rules))
    assert [c.text for c in k.candidate_codes()] == ["01"]


@settings(max_examples=40)
@given(st.integers(0, 5039), st.lists(st.integers(0, 5039), min_size=1, max_size=6))
def test_filtering_never_drops_the_secret(secret_index: int, guess_indices: list[int]) -> None:
    k = Knowledge.start(BC)
    secret = k.code(secret_index)
    for g in guess_indices:
        guess = k.code(g)
        k = k.after(guess, score(secret, guess))
    assert secret_index in k.candidates.tolist()
    assert all(score(c, s.guess) == s.feedback for c in k.candidate_codes(20) for s in k.history)


def test_single_impossible_reply_is_its_own_core() -> None:
    rules = Rules.parse("moo2,2")
    # In the universe 00 01 10 11, the guess 11 shares both its symbols with no code but itself.
    history = steps(rules, [("00", "b"), ("11", "cc")])
    explained = explain_contradiction(rules, history)
    assert explained.core == (1,)
    assert explained.smallest
    assert explained.describe()[0] == "No code can give reply #2 11 -> 0 bulls, 2 cows."


def test_two_replies_that_clash_and_their_fixes() -> None:
    # The secret 4271 was answered with a lie at the second step.
    secret = Code("4271")
    history = [
        Step(Code("0123"), score(secret, Code("0123"))),
        Step(Code("1204"), Feedback(3, 0)),  # the truth is 1 bull, 2 cows
        Step(Code("4271"), Feedback(4, 0)),
    ]
    explained = explain_contradiction(BC, history)
    assert 1 in explained.core and len(explained.core) == 2
    fixes = {(f.step, f.feedback) for f in explained.fixes}
    assert (1, Feedback(1, 2)) in fixes
    text = "\n".join(explained.describe())
    assert "1204" in text and "cannot all be true" in text


def test_fixes_really_make_the_history_consistent() -> None:
    history = steps(BC, [("0123", "2 0"), ("4567", "1 1"), ("0145", "4 0")])
    explained = explain_contradiction(BC, history)
    assert explained.fixes
    for fix in explained.fixes:
        repaired = list(history)
        repaired[fix.step] = Step(history[fix.step].guess, fix.feedback)
        assert len(Knowledge.from_history(BC, repaired)) == fix.codes > 0


def test_core_is_smallest() -> None:
    # Steps 0 and 2 alone already clash (0123 all bulls, then 0 shared with 0123's symbols).
    history = steps(BC, [("0123", "4 0"), ("4567", "0 0"), ("3210", "0 0")])
    explained = explain_contradiction(BC, history)
    assert explained.core == (0, 2)
    for i in range(3):
        assert len(Knowledge.from_history(BC, [history[i]])) > 0


def test_consistent_history_has_nothing_to_explain() -> None:
    with pytest.raises(ValueError):
        explain_contradiction(BC, steps(BC, [("0123", "1 1")]))


def test_audit_names_every_wrong_reply() -> None:
    secret = Code("2745")
    history = steps(BC, [("1389", "0 0"), ("1234", "0 1"), ("1759", "1 1"), ("1785", "2 1")])
    mistakes = audit(BC, history, secret)
    assert [(m.step, m.given, m.true) for m in mistakes] == [
        (1, Feedback(0, 1), Feedback(0, 2)),
        (3, Feedback(2, 1), Feedback(2, 0)),
    ]


def test_a_code_of_another_variant_is_refused() -> None:
    from bullscows.errors import CodeError

    with pytest.raises(CodeError, match="belongs to"):
        Knowledge.start(Rules.parse("bc")).after(Code("1122", Rules.parse("mm")), Feedback(0, 0))
