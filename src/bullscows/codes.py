"""Codes: what a codemaker hides and a codebreaker guesses.

A ``Code`` is the value people see. In the hot paths a code is an index into the variant's
universe (see ``universe.py``), and its *digits* are the indices of its symbols in the alphabet.

>>> Code("0123")
Code('0123')
>>> Code("1 1 2 2", Rules.parse("mm"))
Code('1122', Rules.parse('mm'))
>>> Code("0123", Rules.parse("bc-nolead"))
Traceback (most recent call last):
...
bullscows.errors.CodeError: code '0123': '0' cannot stand at position 1; allowed there: 1-9
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bullscows.errors import CodeError
from bullscows.readers import normal_text, quote
from bullscows.rules import Rules, describe_symbols

DEFAULT_RULES = Rules()
#: Longer text is no code, even with separators between its symbols.
MAX_CODE_TEXT = 200
#: What may stand between a code's symbols (unless it is a symbol).
_SEPARATORS = " ,-_."


@dataclass(frozen=True, slots=True)
class Code:
    """A code of a variant, made from text such as ``'0123'`` or ``'1 2 3'``.

    Any code that may be guessed is a ``Code``; when a variant's guesses are wider than its
    secrets, ``as_secret`` checks that a code may be the secret too.
    """

    text: str
    rules: Rules = DEFAULT_RULES
    digits: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        digits = parse_digits(self.text, self.rules)
        object.__setattr__(self, "digits", digits)
        object.__setattr__(self, "text", "".join(self.rules.symbols[d] for d in digits))

    @classmethod
    def from_digits(cls, digits: Sequence[int], rules: Rules = DEFAULT_RULES) -> Code:
        """The code whose symbols have these alphabet indices.

        >>> Code.from_digits([1, 1, 2, 2], Rules.parse("mm"))
        Code('2233', Rules.parse('mm'))
        """
        if any(not 0 <= d < len(rules.symbols) for d in digits):
            raise CodeError(
                f"digits {list(digits)}: each must be from 0 to {len(rules.symbols) - 1}"
            )
        return cls("".join(rules.symbols[d] for d in digits), rules)

    @classmethod
    def of_index(cls, index: int, rules: Rules) -> Code:
        """The code at ``index`` in the variant's order, built without parsing its text.

        >>> Code.of_index(5039, Rules.parse("bc"))
        Code('9876')
        """
        from bullscows.universe import universe

        digits = tuple(int(d) for d in universe(rules).codes[index])
        code = object.__new__(cls)
        object.__setattr__(code, "text", "".join(rules.symbols[d] for d in digits))
        object.__setattr__(code, "rules", rules)
        object.__setattr__(code, "digits", digits)
        return code

    def as_secret(self) -> Code:
        """This code, checked to be one the secret may be (else a ``CodeError`` saying why).

        >>> Code("1123", Rules.parse("bc:guesses=p4c10r")).as_secret()  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        bullscows.errors.CodeError: code '1123': '1' appears twice; a secret's symbols ...
        """
        secrets = self.rules.secret_rules
        if secrets is not self.rules:
            parse_digits(self.text, secrets, "a secret's ")
        return self

    @property
    def index(self) -> int:
        """The code's position in the variant's order (its universe index)."""
        from bullscows.universe import universe

        return universe(self.rules).index(self.digits)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        if self.rules == DEFAULT_RULES:
            return f"Code({self.text!r})"
        return f"Code({self.text!r}, {self.rules!r})"


def parse_digits(text: str, rules: Rules, whose: str = "") -> tuple[int, ...]:
    """Read a code's text into alphabet indices, or say exactly what is wrong with it.

    Spaces, commas and dashes between symbols are ignored unless they are symbols; letters match
    regardless of case when the alphabet has no letter in both cases; full-width digits and
    letters are their plain symbols (``readers.normal_text``). Any code that may be
    guessed is read (``rules.guess_rules``); ``whose`` names the codes in messages.

    >>> parse_digits("3-1-2-0", Rules.parse("bc"))
    (3, 1, 2, 0)
    >>> parse_digits("0000", Rules.parse("bc"))
    Traceback (most recent call last):
    ...
    bullscows.errors.CodeError: code '0000': '0' appears 4 times; symbols may not repeat
    """
    rules = rules.guess_rules
    if not isinstance(text, str):
        raise CodeError(f"code {text!r}: expected text such as {example_code(rules)!r}")
    raw = text.strip()
    if len(raw) > MAX_CODE_TEXT:
        raise CodeError(
            f"code {quote(raw)} is too long; a code has {rules.length} symbols, "
            f"e.g. {example_code(rules)!r}"
        )
    cleaned = "".join(
        ch
        for ch in normal_text(raw, rules.symbols)
        if ch in rules.symbols or not (ch.isspace() or ch in _SEPARATORS)
    )
    cleaned = _fold_case(cleaned, rules.symbols)
    where = f"code {quote(raw)}"
    if len(cleaned) != rules.length:
        raise CodeError(
            f"{where} has {len(cleaned)} symbol{'s' if len(cleaned) != 1 else ''}; "
            f"a code has {rules.length}, e.g. {example_code(rules)!r}"
        )
    digits = []
    for position, symbol in enumerate(cleaned):
        digit = rules.symbols.find(symbol)
        if digit < 0:
            raise CodeError(
                f"{where}: {symbol!r} is not a symbol; symbols are "
                f"{describe_symbols(rules.symbols)}"
            )
        allowed = rules.allowed_at(position)
        if symbol not in allowed:
            raise CodeError(
                f"{where}: {symbol!r} cannot stand at position {position + 1}; "
                f"allowed there: {describe_symbols(allowed)}"
            )
        if not rules.repeats and digit in digits:
            times = cleaned.count(symbol)
            often = "twice" if times == 2 else f"{times} times"
            raise CodeError(f"{where}: {symbol!r} appears {often}; {whose}symbols may not repeat")
        digits.append(digit)
    return tuple(digits)


def code_and_rest(text: str, rules: Rules) -> tuple[str, str]:
    """The code at the head of a line and what follows it (its reply): the first word, or,
    where the code's symbols are typed apart as a code may be ('2 1 9 9 1 2'), its first
    ``rules.length`` words of one symbol each. A line that begins with one symbol and holds
    fewer is all code, to be refused whole: no prefix of it is taken for the code.

    >>> bc = Rules.parse("bc")
    >>> code_and_rest("0123 1 2", bc), code_and_rest("2 1 9 9", bc)
    (('0123', '1 2'), ('2 1 9 9', ''))
    >>> code_and_rest("0, 1, 2, 3 1B2C", bc), code_and_rest("2 1 9 1 2", bc)
    (('0, 1, 2, 3', '1B2C'), ('2 1 9 1', '2'))
    >>> code_and_rest("1 2", bc)
    ('1 2', '')
    """
    words = text.split()
    if not words or len(words[0].strip(_SEPARATORS)) != 1:
        first, _, rest = text.strip().partition(" ")
        return first, rest.strip()
    spaced = words[: rules.length]
    if len(spaced) < rules.length or any(len(w.strip(_SEPARATORS)) != 1 for w in spaced):
        return text.strip(), ""
    return " ".join(spaced), " ".join(words[rules.length :])


def _fold_case(text: str, symbols: str) -> str:
    if symbols.lower() == symbols or symbols.upper() == symbols:
        folded = (symbols.lower() == symbols and text.lower()) or text.upper()
        if all(ch in symbols for ch in folded) and not all(ch in symbols for ch in text):
            return folded
    return text


def example_code(rules: Rules) -> str:
    """A code of the variant, to show what a code looks like: the lowest code of distinct
    symbols where the variant has one, repeats allowed or not (so that it shows several of the
    variant's symbols: 'RGBY', not 'RRRR'); else each position's symbol used least so far.

    Found position by position, without enumerating the variant (an error on a variant of
    millions of codes is worded at once).

    >>> example_code(Rules.parse("bc-nolead")), example_code(Rules.parse("mm-colours"))
    ('1023', 'RGBY')
    >>> example_code(Rules(3, "abc", False, ("abc", "a", "ab")))
    'cab'
    >>> example_code(Rules.parse("p5c3r"))
    '01201'
    """
    options = [[rules.symbols.index(s) for s in rules.allowed_at(i)] for i in range(rules.length)]
    chosen: list[int] = []
    if rules.repeats and not _fillable(options, set()):
        for digits in options:
            chosen.append(min(digits, key=chosen.count))
    else:
        for position, digits in enumerate(options):
            for digit in digits:
                if digit not in chosen and _fillable(options[position + 1 :], {*chosen, digit}):
                    chosen.append(digit)
                    break
    return "".join(rules.symbols[d] for d in chosen)


def _fillable(options: list[list[int]], used: set[int]) -> bool:
    """Whether each position can take one of its digits, all distinct and none in ``used``
    (a bipartite matching, by augmenting paths)."""
    holder: dict[int, int] = {}  # digit -> the position that holds it

    def place(position: int, seen: set[int]) -> bool:
        for digit in options[position]:
            if digit in used or digit in seen:
                continue
            seen.add(digit)
            if digit not in holder or place(holder[digit], seen):
                holder[digit] = position
                return True
        return False

    return all(place(position, set()) for position in range(len(options)))


def of_variant(code: Code, rules: Rules) -> Code:
    """``code`` itself if it is a code of ``rules``; a code of another variant is a
    ``CodeError`` (its index would name another code there).

    >>> of_variant(Code("1122", Rules.parse("mm")), Rules.parse("bc"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bullscows.errors.CodeError: code '1122' belongs to 4 symbols of 1-6, ..., not 4 distinct ...
    """
    if code.rules != rules:
        raise CodeError(
            f"code {code.text!r} belongs to {code.rules.describe()}, not {rules.describe()}"
        )
    return code
