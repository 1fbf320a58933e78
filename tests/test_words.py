"""The article of each word the program puts one before, and the messages that use it."""

from __future__ import annotations

import pytest

from bullscows.errors import RecordError
from bullscows.records import ACTIONS, KINDS, Event, GameRecord
from bullscows.rules import Rules
from bullscows.sessions import Adversary
from bullscows.sessions.common import replay
from bullscows.words import article, with_article

#: Every word a message puts an article before (the kinds of game, the actions of a record,
#: quoted), and numbers as they would be said.
SAID = {
    "codemaker": "a",
    "adversary": "an",
    "codebreaker": "a",
    "duel": "a",
    "'guess'": "a",
    "'reply'": "a",
    "'record'": "a",
    "'undo'": "an",
    "'correct'": "a",
    "'hint'": "a",
    "'commit'": "a",
    "'give-up'": "a",
    "8-colour": "an",
    "8": "an",
    "80": "an",
    "11": "an",
    "11,000": "an",
    "18": "an",
    "18-guess": "an",
    "1": "a",
    "110": "a",
    "1,100": "a",
    "hour": "an",
    "unique": "a",
    "one-line": "a",
    "uploaded": "an",
    ".json": "a",
}


def test_every_kind_and_action_has_its_article_here() -> None:
    assert {*KINDS, *(repr(action) for action in ACTIONS)} <= set(SAID)


@pytest.mark.parametrize(("word", "expected"), SAID.items())
def test_the_article_is_the_one_the_word_is_said_with(word: str, expected: str) -> None:
    assert article(word) == expected
    assert with_article(word) == f"{expected} {word}"


def test_a_record_error_says_an_undo_event() -> None:
    # It said "a 'undo' event": the article was always "a".
    with pytest.raises(RecordError, match="an 'undo' event has no other field"):
        Event.from_json({"do": "undo", "code": "0123"})


def test_an_adversary_record_replayed_as_another_kind_says_an_adversary() -> None:
    # It said "a adversary record".
    game = Adversary(Rules.parse("p3c5n"), seed=1)
    game.guess("012")
    record = GameRecord.from_json(game.to_record().to_json())
    with pytest.raises(RecordError, match=r"^an adversary record is not a codemaker game$"):
        replay(record, "codemaker", {})
    with pytest.raises(RecordError, match=r"^event #1: an adversary game has no 'guess'$"):
        replay(record, "adversary", {})
