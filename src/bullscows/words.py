"""The English of the messages: the article a word takes, by how it is said, not how it is
spelled ("an 8-colour game", "a unique code", "an 'undo' event").

>>> [with_article(word) for word in ("adversary", "duel", "'undo'", "8-colour", "11", "1,100")]
['an adversary', 'a duel', "an 'undo'", 'an 8-colour', 'an 11', 'a 1,100']
"""

from __future__ import annotations

import re

#: Beginnings of words spelled with a vowel and said with a consonant ("a unique", "a one").
_SAID_WITH_A_CONSONANT = ("one", "once", "uni", "use", "usu", "uti", "eu", "ewe")
#: Beginnings of words spelled with a consonant and said with a vowel ("an hour").
_SAID_WITH_A_VOWEL = ("hour", "honest", "honour", "heir")
#: The letters said as vowels at the start of a word.
_VOWELS = frozenset("aeiou")
#: The leading number of a word: digits, with thousands' separators.
_NUMBER = re.compile(r"\d[\d,]*")


def article(word: str) -> str:
    """``"an"`` where ``word`` is said beginning with a vowel, else ``"a"``; quotes around the
    word are skipped. A number is said as its leading group ("an 18", "an 11,000", "a 110",
    "an 8"); a suffix is said "dot" ("a .json file").

    >>> [article(word) for word in ("codemaker", "hint", "hour", "unique", "'undo'", ".svg")]
    ['a', 'a', 'an', 'a', 'an', 'a']
    >>> [article(number) for number in ("8", "80", "800", "11", "18", "18,000", "110", "1")]
    ['an', 'an', 'an', 'an', 'an', 'an', 'a', 'a']
    """
    said = word.lstrip("'\"").lower()
    number = _NUMBER.match(said)
    if number:
        leading = number.group().split(",")[0]
        return "an" if leading.startswith("8") or leading in ("11", "18") else "a"
    if said.startswith(_SAID_WITH_A_VOWEL):
        return "an"
    if said[:1] in _VOWELS and not said.startswith(_SAID_WITH_A_CONSONANT):
        return "an"
    return "a"


def with_article(word: str) -> str:
    """``word`` after its article: ``"an adversary"``, ``"a duel"``."""
    return f"{article(word)} {word}"
