"""Replies: bulls and cows, read in every notation people type and printed in a chosen style.

Bulls always come first. In the hot paths a reply is an integer, its *index*
``bulls * (length + 1) + cows``, so that a partition of codes by reply is a ``bincount``.

>>> rules = Rules.parse("bc")
>>> Feedback.parse("1B2C", rules)
Feedback(bulls=1, cows=2)
>>> Feedback.parse("1 bull, 2 cows", rules) == Feedback.parse("bcc", rules)
True
>>> Feedback(1, 2).format("ab")
'1A2B'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bullscows.errors import FeedbackError
from bullscows.readers import normal_text, quote
from bullscows.rules import Rules

#: Reply styles for printing, with an example of each.
STYLES: dict[str, str] = {
    "words": "1 bull, 2 cows",
    "bc": "1B2C",
    "ab": "1A2B",
    "pegs": "1B2W",
    "digits": "12",
    "pair": "1 2",
    "letters": "bcc",
}

NOTATIONS_HELP = (
    "bulls first: '1 2', '1,2', '12', '1B2C', '1b 2c', '1 bull 2 cows', '1A2B', '2b1w', "
    "'bcc', or '0' / '-' / 'none' for nothing"
)

_BULL_WORDS = {"b", "bull", "bulls", "black", "blacks", "a"}
_COW_WORDS = {"c", "cow", "cows", "w", "white", "whites"}
_NOTHING = {"-", "none", "nothing", "zero", "0", "00", "0 0", "0,0", "0b0c", "0a0b", "0b0w"}
#: A count in a reply has at most this many digits (a code has at most 10 positions).
MAX_COUNT_DIGITS = 3
#: Counts written as words before a word ("one bull, two cows", "no bulls"), read as digits.
_NUMBER_WORDS = dict(
    no=0, zero=0, one=1, two=2, three=3, four=4, five=5, six=6, seven=7, eight=8, nine=9, ten=10
)
_NUMBER_WORD = re.compile(rf"\b({'|'.join(_NUMBER_WORDS)})\b(?=\s*[a-z])")
#: A reply of words alone, one per symbol ("bull cow cow", "black white"), as letters.
_ONE_EACH = {"bull": "b", "black": "b", "cow": "c", "white": "w"}
_TOKEN = re.compile(r"(\d+)\s*([a-z]*)")
_SEPARATORS = re.compile(r"[\s,;:/+&-]+|\band\b")
#: A minus sign before a count ("-1 2", "1 -2"); '1-2' is a separator.
_NEGATIVE = re.compile(r"(?:^|[\s,;:/+&])-\d")


@dataclass(frozen=True, slots=True, order=True)
class Feedback:
    """A reply: how many symbols are in place (bulls) and how many more are shared (cows)."""

    bulls: int
    cows: int

    def __post_init__(self) -> None:
        if self.bulls < 0 or self.cows < 0:
            raise FeedbackError(f"reply {self.bulls}/{self.cows}: counts cannot be negative")

    # --- integers -----------------------------------------------------------------------
    def index(self, length: int) -> int:
        """The reply's index for codes of ``length``: ``bulls * (length + 1) + cows``.

        >>> Feedback(1, 2).index(4)
        7
        """
        return self.bulls * (length + 1) + self.cows

    @classmethod
    def from_index(cls, index: int, length: int) -> Feedback:
        """The reply with this index.

        >>> Feedback.from_index(7, 4)
        Feedback(bulls=1, cows=2)
        """
        return cls(*divmod(int(index), length + 1))

    @classmethod
    def win(cls, length: int) -> Feedback:
        """All bulls."""
        return cls(length, 0)

    def is_win(self, length: int) -> bool:
        return self.bulls == length

    # --- validity -----------------------------------------------------------------------
    def problem(self, rules: Rules) -> str | None:
        """Why this reply can never occur in the variant, or ``None`` if no general rule forbids it.

        A reply that passes here may still be impossible for a particular guess; the history
        then has no candidate left, and ``knowledge.explain_contradiction`` says why.

        >>> Feedback(3, 1).problem(Rules.parse("bc"))  # doctest: +ELLIPSIS
        '3 bulls and 1 cow cannot happen: with 3 symbols in place the last one is in place...'
        """
        b, c, n = self.bulls, self.cows, rules.length
        if b + c > n:
            return f"{counted(b, 'bull')} and {counted(c, 'cow')} make {b + c}, but a code has {n}"
        if b == n - 1 and c == 1:
            return (
                f"{counted(b, 'bull')} and 1 cow cannot happen: with {b} symbols in place the "
                "last one is in place too or absent"
            )
        least = 2 * n - len(rules.symbols)
        if not rules.guess_rules.repeats and b + c < least:
            return (
                f"{counted(b, 'bull')} and {counted(c, 'cow')} cannot happen: two codes of "
                f"{n} distinct symbols from {len(rules.symbols)} share at least {least}"
            )
        return None

    # --- text ---------------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str, rules: Rules, impossible: bool = False) -> Feedback:
        """Read a reply typed in any common notation (see ``NOTATIONS_HELP``).

        A reply no secret can give (``problem``) is refused, unless ``impossible`` lets one
        within the code's length through (a history holding it is contradictory).

        >>> Feedback.parse("3 1", Rules.parse("bc"), impossible=True)
        Feedback(bulls=3, cows=1)
        """
        feedback = _read(text, rules.length)
        problem = feedback.problem(rules)
        if problem and not (impossible and feedback.bulls + feedback.cows <= rules.length):
            raise FeedbackError(f"reply {quote(text.strip())}: {problem}")
        return feedback

    def format(self, style: str = "words") -> str:
        """The reply in one of ``STYLES``.

        >>> [Feedback(2, 1).format(s) for s in ("words", "bc", "pegs", "digits", "letters")]
        ['2 bulls, 1 cow', '2B1C', '2B1W', '21', 'bbc']
        """
        b, c = self.bulls, self.cows
        match style:
            case "words":
                return f"{counted(b, 'bull')}, {counted(c, 'cow')}"
            case "bc":
                return f"{b}B{c}C"
            case "ab":
                return f"{b}A{c}B"
            case "pegs":
                return f"{b}B{c}W"
            case "digits":
                return f"{b}{c}" if b < 10 and c < 10 else f"{b} {c}"
            case "pair":
                return f"{b} {c}"
            case "letters":
                return "b" * b + "c" * c or "-"
        raise FeedbackError(f"reply style {style!r}: styles are {', '.join(STYLES)}")

    def __str__(self) -> str:
        return self.format("words")


def default_style(rules: Rules) -> str:
    """The reply style a variant's players expect: black and white pegs where a code may
    repeat a symbol, as in Mastermind (``1B2W``), else bulls and cows in words.

    >>> default_style(Rules.parse("mm")), default_style(Rules.parse("bc"))
    ('pegs', 'words')
    """
    return "pegs" if rules.repeats else "words"


def counted(n: int, word: str, grouped: bool = False) -> str:
    """``n`` and ``word``, plural unless ``n`` is 1: ``counted(2, "guess")`` is '2 guesses';
    ``grouped``: ``n`` with its thousands separated by commas.

    >>> counted(1, "reply"), counted(3, "reply"), counted(2, "branch"), counted(2, "code")
    ('1 reply', '3 replies', '2 branches', '2 codes')
    >>> counted(5040, "secret", grouped=True), counted(1, "secret", grouped=True)
    ('5,040 secrets', '1 secret')
    """
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "o", "u"):
        plural = word[:-1] + "ies"
    else:
        plural = word + ("es" if word.endswith(("s", "sh", "ch", "x")) else "s")
    number = f"{n:,}" if grouped else str(n)
    return f"{number} {word}" if n == 1 else f"{number} {plural}"


def _read(text: str, length: int) -> Feedback:
    raw = text.strip()
    t = normal_text(raw).lower()
    if t in _NOTHING:
        return Feedback(0, 0)
    if _NEGATIVE.search(t):
        raise FeedbackError(
            f"cannot read reply {quote(raw)}: a count cannot be negative; write it {NOTATIONS_HELP}"
        )
    t = _NUMBER_WORD.sub(lambda word: str(_NUMBER_WORDS[word.group(1)]), t)
    words = [_ONE_EACH.get(word, word) for word in _SEPARATORS.split(t) if word]
    squeezed = "".join(words)
    if squeezed and set(squeezed) <= set("bcw"):
        return Feedback(squeezed.count("b"), len(squeezed) - squeezed.count("b"))
    tokens = _TOKEN.findall(t)
    leftover = _SEPARATORS.sub("", _TOKEN.sub("", t))
    if not tokens or leftover:
        raise FeedbackError(f"cannot read reply {quote(raw)}; write it {NOTATIONS_HELP}")
    for digits, _ in tokens:
        read_count(digits, raw)
    tagged = [(int(n), w) for n, w in tokens if w]
    plain = [n for n, w in tokens if not w]
    if tagged and plain:
        raise FeedbackError(
            f"reply {quote(raw)} mixes counts with and without letters; write it {NOTATIONS_HELP}"
        )
    if tagged:
        return _read_tagged(tagged, raw)
    if len(plain) == 2:
        return Feedback(int(plain[0]), int(plain[1]))
    if len(plain) == 1 and len(plain[0]) == 2:
        if length >= 10:
            raise FeedbackError(
                f"reply {quote(raw)} is ambiguous for codes of {length}: write bulls and cows "
                "apart, e.g. '1 0'"
            )
        return Feedback(int(plain[0][0]), int(plain[0][1]))
    raise FeedbackError(f"cannot read reply {quote(raw)}; write it {NOTATIONS_HELP}")


def read_count(digits: str, raw: str) -> int:
    """The count ``digits`` of the reply ``raw``; more than ``MAX_COUNT_DIGITS`` digits are
    refused before they are converted (a number of thousands of digits is slow to convert).

    >>> read_count("12345", "12345 0")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bullscows.errors.FeedbackError: reply '12345 0': '12345' is too large for a count of ...
    >>> read_count("12345", "12345")  # the reply is the count: quoted once
    Traceback (most recent call last):
    ...
    bullscows.errors.FeedbackError: reply '12345' is too large for a count of bulls or cows
    """
    if len(digits) > MAX_COUNT_DIGITS:
        count = "" if digits == raw.strip() else f": {quote(digits)}"
        raise FeedbackError(f"reply {quote(raw)}{count} is too large for a count of bulls or cows")
    return int(digits)


def _read_tagged(tagged: list[tuple[int, str]], raw: str) -> Feedback:
    a_style = any(w == "a" for _, w in tagged)
    bulls = cows = 0
    seen: set[str] = set()
    for n, word in tagged:
        if a_style and word in ("a", "b"):
            kind = "bulls" if word == "a" else "cows"
        elif word in _BULL_WORDS:
            kind = "bulls"
        elif word in _COW_WORDS:
            kind = "cows"
        else:
            raise FeedbackError(
                f"reply {quote(raw)}: {quote(word)} is neither bulls nor cows; "
                f"write it {NOTATIONS_HELP}"
            )
        if kind in seen:
            raise FeedbackError(f"reply {quote(raw)} gives {kind} twice")
        seen.add(kind)
        if kind == "bulls":
            bulls = n
        else:
            cows = n
    return Feedback(bulls, cows)


def valid_replies(rules: Rules) -> list[int]:
    """The indices of the replies the variant allows (a superset of those any guess gets).

    >>> len(valid_replies(Rules.parse("bc")))
    14
    """
    n = rules.length
    return [
        Feedback(b, c).index(n)
        for b in range(n + 1)
        for c in range(n + 1 - b)
        if Feedback(b, c).problem(rules) is None
    ]


def reply_count(rules: Rules) -> int:
    """How many replies the variant allows (at least as many as any guess can get)."""
    return len(valid_replies(rules))
