"""Variants of the game: code length, alphabet, repeats and per-position limits.

A variant is a value. Presets are data looked up by name; the compact spec ``p4c10n`` (pegs,
colours, ``r`` repeats / ``n`` none) and the radix form ``moo5,5,5`` (the J ``moo`` universe, where
position i ranges over the first r_i symbols) cover the rest.

>>> Rules.parse("bc")
Rules.parse('bc')
>>> Rules.parse("mm").size
1296
>>> Rules.parse("p5c10n").size
30240
>>> Rules.parse("moo5,5,5").size
125
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Literal, overload

from bullscows.errors import RulesError
from bullscows.readers import quote

DIGITS = "0123456789"
#: Symbols used when a variant names only how many colours it has.
DEFAULT_ALPHABET = DIGITS + "abcdefghijklmnopqrstuvwxyz" + "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MAX_LENGTH = 10
#: The largest universe that is enumerated in memory (10 distinct digits of 10 is 3,628,800).
MAX_CODES = 5_000_000
#: What needs a variant's codes enumerated, and what does not (said when a variant is too large).
ENUMERATION_NEEDED = (
    "games, strategies, candidates, bench and trees enumerate every code; scoring two codes "
    "(bullscows score) needs no enumeration"
)
#: The longest code of a variant made only for scoring (``Rules(..., scoring=True)``).
MAX_SCORED_LENGTH = 200
#: What a spec describes before it is checked: (length, symbols, repeats, allowed).
_Shape = tuple[int, str, bool, "tuple[str, ...] | None"]


def default_symbols(colours: int) -> str:
    """The first ``colours`` symbols of ``0-9a-zA-Z``.

    >>> default_symbols(6)
    '012345'
    """
    if not 1 <= colours <= len(DEFAULT_ALPHABET):
        raise RulesError(
            f"{colours} colours: a variant has from 1 to {len(DEFAULT_ALPHABET)} colours"
        )
    return DEFAULT_ALPHABET[:colours]


def describe_symbols(symbols: str) -> str:
    """Symbols as a person reads them, with runs shortened: ``0-9``, ``1-6``, ``RGBYOP``.

    >>> describe_symbols("0123456789")
    '0-9'
    >>> describe_symbols("RGBYOP")
    'RGBYOP'
    """
    if len(symbols) >= 3 and all(ord(b) - ord(a) == 1 for a, b in itertools.pairwise(symbols)):
        return f"{symbols[0]}-{symbols[-1]}"
    return symbols


@dataclass(frozen=True, slots=True)
class Rules:
    """One variant of Bulls & Cows / Mastermind.

    ``allowed`` (optional) gives, for each position, the symbols that may stand there; it is
    kept in alphabet order, and is ``None`` when every symbol is allowed everywhere.

    ``guesses`` (optional) is a wider variant of the same length and alphabet whose codes may
    all be played as guesses, while the secret is still a code of this one (Codeforces 753B:
    a secret of 4 distinct digits, any 4 digits as a try). ``size`` counts the secrets.

    >>> wide = Rules.parse("bc:guesses=p4c10r")
    >>> wide.size, wide.guess_rules.size, wide.spec
    (5040, 10000, 'bc:guesses=digits')
    """

    length: int = 4
    symbols: str = DIGITS
    repeats: bool = False
    allowed: tuple[str, ...] | None = None
    guesses: Rules | None = None
    size: int = field(init=False, compare=False, repr=False)
    #: Made only to read and score codes: no limit on the number of codes, and codes up to
    #: ``MAX_SCORED_LENGTH`` long. It stays True only for a variant too large to enumerate,
    #: whose ``size`` is then its count of codes, or -1 when that is not worked out.
    scoring: bool = field(default=False, kw_only=True, compare=False, repr=False)

    def __post_init__(self) -> None:
        _check_length(self.length, MAX_SCORED_LENGTH if self.scoring else MAX_LENGTH)
        _check_symbols(self.symbols)
        object.__setattr__(self, "allowed", _normalise_allowed(self))
        if not self.repeats and self.length > len(self.symbols):
            raise RulesError(f"no code fits {self.describe()}: {_why_empty(self)}")
        counted = self.length <= MAX_LENGTH or self.repeats or self.allowed is None
        size = count_codes(self) if counted else -1
        if size == 0:
            raise RulesError(f"no code fits {self.describe()}: {_why_empty(self)}")
        large = size > MAX_CODES or size < 0 or self.length > MAX_LENGTH
        if large and not self.scoring:
            raise RulesError(
                f"{self.describe()} has {size:,} codes; at most {MAX_CODES:,} can be enumerated "
                f"in memory (use fewer positions or symbols): {ENUMERATION_NEEDED}"
            )
        object.__setattr__(self, "scoring", large)
        object.__setattr__(self, "size", size)
        object.__setattr__(self, "guesses", _check_guesses(self))

    # --- construction -------------------------------------------------------------------
    @classmethod
    def parse(cls, spec: str) -> Rules:
        """Read a preset name, a compact spec (``p4c6r``) or a radix spec (``moo5,5,5``)."""
        return parse_spec(spec)

    @classmethod
    @overload
    def from_radix(
        cls, radix: Iterable[int], symbols: str | None = None, *, check: Literal[True] = True
    ) -> Rules: ...

    @classmethod
    @overload
    def from_radix(
        cls, radix: Iterable[int], symbols: str | None = None, *, check: Literal[False]
    ) -> _Shape: ...

    @classmethod
    def from_radix(
        cls, radix: Iterable[int], symbols: str | None = None, *, check: bool = True
    ) -> Rules | _Shape:
        """The J ``moo`` universe: position i holds one of the first ``r_i`` symbols (repeats).

        With ``check=False``, only its shape ``(length, symbols, repeats, allowed)``, for a
        spec whose modifiers narrow it further.

        >>> Rules.from_radix([2, 2]).size
        4
        """
        radix = tuple(radix)
        if not radix:
            raise RulesError("a radix list needs at least one position, e.g. 5,5,5")
        for r in radix:  # a radix list has at most MAX_LENGTH positions (_read_radix)
            if r < 1:
                raise RulesError(f"radix {r} in {radix}: each position needs at least 1 symbol")
        alphabet = symbols if symbols is not None else default_symbols(max(radix))
        if len(alphabet) < max(radix):
            raise RulesError(
                f"radix {max(radix)} needs {max(radix)} symbols, got {len(alphabet)}: {alphabet!r}"
            )
        alphabet = alphabet[: max(radix)]
        shape = (len(radix), alphabet, True, tuple(alphabet[:r] for r in radix))
        return cls(*shape) if check else shape

    @classmethod
    def from_options(
        cls,
        spec: str = "bc",
        *,
        length: int | None = None,
        symbols: str | None = None,
        repeats: bool | None = None,
        no_leading_zero: bool = False,
        radix: str | None = None,
        scoring: bool = False,
    ) -> Rules:
        """The variant a command's options describe: ``spec`` changed by the others, or the
        radix list ``radix`` (text such as ``5,5,5``) with ``symbols``; then, if asked, no
        leading zero. A variant changed in length, symbols or repeats loses its per-position
        limits.

        >>> Rules.from_options("mm", length=5).spec, Rules.from_options(radix="2,2").spec
        ('p5c6r:symbols=123456', 'p2c2r')
        >>> Rules.from_options("bc", no_leading_zero=True).size
        4536
        """
        if radix is not None:
            shape = cls.from_radix(_read_radix(radix, "moo" + radix), symbols, check=False)
            rules = cls(*shape, scoring=scoring)
        else:
            base = parse_spec(spec, scoring)
            changed = length is not None or symbols is not None or repeats is not None
            rules = cls(
                base.length if length is None else length,
                base.symbols if symbols is None else symbols,
                base.repeats if repeats is None else repeats,
                None if changed else base.allowed,
                base.guesses,
                scoring=scoring,
            )
        return rules.with_no_leading() if no_leading_zero else rules

    def with_no_leading(self) -> Rules:
        """The same variant with its first symbol (the zero) barred from the first position."""
        allowed = list(self.allowed or (self.symbols,) * self.length)
        allowed[0] = allowed[0].replace(self.symbols[0], "")
        if not allowed[0]:
            raise RulesError(f"{self.describe()}: barring {self.symbols[0]!r} leaves no symbol")
        return Rules(
            self.length, self.symbols, self.repeats, tuple(allowed), self.guesses,
            scoring=self.scoring,
        )  # fmt: skip

    def with_guesses(self, guesses: Rules | None) -> Rules:
        """The same secrets, guessed with every code of ``guesses`` (``None``: only secrets).

        >>> Rules.parse("bc").with_guesses(Rules.parse("digits")).describe()
        '4 distinct symbols of 0-9; guesses: 4 symbols of 0-9, repeats allowed'
        """
        return Rules(
            self.length, self.symbols, self.repeats, self.allowed, guesses, scoring=self.scoring
        )

    @property
    def secret_rules(self) -> Rules:
        """The variant of the secrets alone (itself when guesses are no wider)."""
        return self if self.guesses is None else self.with_guesses(None)

    @property
    def guess_rules(self) -> Rules:
        """The variant whose codes may be played as guesses (a superset of the secrets)."""
        return self if self.guesses is None else self.guesses

    # --- description --------------------------------------------------------------------
    @property
    def spec(self) -> str:
        """A string that ``Rules.parse`` turns back into this variant."""
        return format_spec(self)

    def allowed_at(self, position: int) -> str:
        """The symbols that may stand at ``position`` (0-based)."""
        return self.symbols if self.allowed is None else self.allowed[position]

    def describe(self) -> str:
        """One line for people: ``4 distinct symbols of 0-9``.

        >>> Rules.parse("mm").describe()
        '4 symbols of 1-6, repeats allowed'
        """
        text = (
            f"{self.length} {_symbol_word(self.length)} of {describe_symbols(self.symbols)}, "
            "repeats allowed"
            if self.repeats
            else f"{self.length} distinct {_symbol_word(self.length)} of "
            f"{describe_symbols(self.symbols)}"
        )
        if self.allowed is not None:
            limits = ", ".join(
                f"{i + 1}: {describe_symbols(a)}"
                for i, a in enumerate(self.allowed)
                if a != self.symbols
            )
            text += f" (allowed at position {limits})"
        if self.guesses is not None:
            text += f"; guesses: {self.guesses.describe()}"
        return text

    def __repr__(self) -> str:
        return f"Rules.parse({self.spec!r})"

    @property
    def reply_slots(self) -> int:
        """The size of the space of reply indices, ``(length + 1) ** 2`` (more than the replies
        any guess can get: see ``feedback.reply_count``)."""
        return (self.length + 1) ** 2


def _symbol_word(length: int) -> str:
    return "symbol" if length == 1 else "symbols"


def _check_length(length: int, limit: int = MAX_LENGTH) -> None:
    if isinstance(length, bool) or not isinstance(length, int) or not 1 <= length <= limit:
        more = f" (up to {MAX_SCORED_LENGTH} to score two codes)" if limit == MAX_LENGTH else ""
        raise RulesError(f"length {length!r}: a code has from 1 to {limit} positions{more}")


def _check_symbols(symbols: str) -> None:
    if not isinstance(symbols, str) or not symbols:
        raise RulesError(
            f"symbols {quote(symbols)}: an alphabet needs at least one symbol, e.g. 0123456789"
        )
    if len(symbols) > len(DEFAULT_ALPHABET):
        raise RulesError(
            f"symbols {quote(symbols)}: {len(symbols)} symbols; an alphabet has at most "
            f"{len(DEFAULT_ALPHABET)}"
        )
    bad = [s for s in symbols if s.isspace() or not s.isprintable() or s in ",;:/"]
    if bad:
        raise RulesError(
            f"symbols {quote(symbols)}: {bad[0]!r} cannot be a symbol "
            "(use printable characters other than space , ; : /)"
        )
    seen: set[str] = set()
    for s in symbols:
        if s in seen:
            raise RulesError(
                f"symbols {quote(symbols)}: {s!r} appears twice; symbols must be distinct"
            )
        seen.add(s)


def _check_guesses(rules: Rules) -> Rules | None:
    """The guess variant of ``rules``, checked to hold every secret (``None`` when it is
    the secrets' own variant)."""
    wide = rules.guesses
    if wide is None:
        return None
    if not isinstance(wide, Rules) or wide.guesses is not None:
        raise RulesError(f"guesses {wide!r}: give a variant without guesses of its own")
    own = Rules(rules.length, rules.symbols, rules.repeats, rules.allowed, scoring=rules.scoring)
    if wide == own:
        return None
    if wide.length != rules.length or wide.symbols != rules.symbols:
        raise RulesError(
            f"guesses {wide.describe()!r}: guesses need the secrets' length and alphabet "
            f"({own.describe()})"
        )
    narrower = [
        i + 1 for i in range(rules.length) if set(rules.allowed_at(i)) - set(wide.allowed_at(i))
    ]
    if narrower or (rules.repeats and not wide.repeats):
        why = f"position {narrower[0]} allows fewer symbols" if narrower else "repeats are barred"
        raise RulesError(
            f"guesses {wide.describe()!r}: every secret must be a valid guess, but {why}"
        )
    return wide


def _normalise_allowed(rules: Rules) -> tuple[str, ...] | None:
    allowed = rules.allowed
    if allowed is None:
        return None
    if isinstance(allowed, str) or len(allowed) != rules.length:
        raise RulesError(
            f"allowed symbols {quote(str(allowed))}: give one string of symbols per position "
            f"({rules.length} positions)"
        )
    normal = []
    for position, symbols in enumerate(allowed):
        unknown = [s for s in symbols if s not in rules.symbols]
        if unknown:
            raise RulesError(
                f"allowed symbols {quote(symbols)} at position {position + 1}: {unknown[0]!r} "
                f"is not in the alphabet {rules.symbols!r}"
            )
        if not symbols:
            raise RulesError(f"position {position + 1} allows no symbol at all")
        normal.append("".join(s for s in rules.symbols if s in symbols))
    if all(a == rules.symbols for a in normal):
        return None
    return tuple(normal)


def count_codes(rules: Rules) -> int:
    """How many codes the variant has, without enumerating them.

    Without repeats, a dynamic programme over the symbols tracks which positions are filled
    (at most 2**10 states): each symbol stays out or takes one free position that allows it.

    >>> count_codes(Rules.parse("bc-nolead"))
    4536
    """
    allowed = [rules.allowed_at(i) for i in range(rules.length)]
    if rules.repeats:
        return math.prod(len(a) for a in allowed)
    if rules.allowed is None:
        return math.perm(len(rules.symbols), rules.length)
    ways = [0] * (1 << rules.length)
    ways[0] = 1
    for symbol in rules.symbols:
        places = [1 << i for i, a in enumerate(allowed) if symbol in a]
        after = ways.copy()
        for filled, n in enumerate(ways):
            if n:
                for place in places:
                    if not filled & place:
                        after[filled | place] += n
        ways = after
    return ways[-1]


def _why_empty(rules: Rules) -> str:
    if not rules.repeats and rules.length > len(rules.symbols):
        return (
            f"{rules.length} distinct symbols cannot be drawn from {len(rules.symbols)} "
            "(allow repeats, or use a shorter code)"
        )
    return "the per-position limits leave no way to fill every position with distinct symbols"


# --- presets and spec strings -----------------------------------------------------------

#: Presets by name: (length, symbols, repeats, no leading zero, what it is).
PRESETS: dict[str, tuple[int, str, bool, bool, str]] = {
    "bc": (4, DIGITS, False, False, "Bulls & Cows / MOO: 4 distinct digits"),
    "bc-nolead": (4, DIGITS, False, True, "Bulls & Cows with no leading zero"),
    "bc-1to9": (4, DIGITS[1:], False, False, "Bulls & Cows with digits 1-9"),
    "bc5": (5, DIGITS, False, False, "5 distinct digits"),
    "mm": (4, "123456", True, False, "Mastermind: 4 pegs of 6 colours, repeats allowed"),
    "mm-colours": (4, "RGBYOP", True, False, "Mastermind with colour letters"),
    "logik": (5, "12345678", True, False, "Logik: 5 pegs of 8 colours, repeats allowed"),
    "digits": (4, DIGITS, True, False, "4 digits, repeats allowed (the uLisp game)"),
}


@cache
def preset(name: str) -> Rules:
    """The preset called ``name``.

    >>> preset("logik").size
    32768
    """
    try:
        length, symbols, repeats, nolead, _ = PRESETS[name]
    except KeyError:
        raise RulesError(f"unknown preset {quote(name)}; presets: {', '.join(PRESETS)}") from None
    rules = Rules(length, symbols, repeats)
    return rules.with_no_leading() if nolead else rules


SPEC_HELP = (
    "a preset (" + ", ".join(PRESETS) + "), a compact spec such as p4c10n or p4c6r "
    "(pegs, colours, r = repeats, n = none; add :nolead or :symbols=RGBYOP), "
    "or a radix spec such as moo5,5,5; any of them may end in :guesses=SPEC, a wider variant "
    "whose codes may be guessed (bc:guesses=p4c10r)"
)
#: What separates the secrets' spec from the spec of the guesses (the rest of the text).
GUESSES = ":guesses="


def parse_spec(spec: str, scoring: bool = False) -> Rules:
    """Read any spec string (see ``SPEC_HELP``); with ``scoring``, a variant too large to
    enumerate is made all the same, to score its codes (``Rules.scoring``).

    >>> parse_spec("p4c6r:symbols=RGBYOP").describe()
    '4 symbols of RGBYOP, repeats allowed'
    >>> parse_spec("p4c10n:nolead").size
    4536
    """
    try:
        return _parse_spec(spec, scoring)
    except RulesError as error:
        if quote(spec) in str(error):
            raise
        raise RulesError(f"rules spec {quote(spec)}: {error}") from None


def _parse_spec(spec: str, scoring: bool = False) -> Rules:
    text = spec.strip()
    if not text:
        raise RulesError(f"empty rules spec; expected {SPEC_HELP}")
    if GUESSES in text:
        secrets, _, guesses = text.partition(GUESSES)
        if GUESSES in guesses:
            raise RulesError(f"rules spec {spec!r}: give :guesses= once")
        return _parse_spec(secrets, scoring).with_guesses(_parse_spec(guesses, scoring))
    if text in PRESETS:
        return preset(text)
    base, *modifiers = text.split(":")
    options = dict(_read_modifier(m, spec) for m in modifiers)
    symbols = options.get("symbols")
    if base.lower().startswith("moo"):
        radix = _read_radix(base[3:], spec)
        shape = Rules.from_radix(radix, symbols, check=False)
    else:
        shape = _read_compact(base, spec, symbols)
    length, alphabet, repeats, allowed = shape
    if "allowed" in options:
        allowed = tuple(options["allowed"].split("/"))
    if "nolead" in options:
        allowed = _no_leading(length, alphabet, allowed, scoring)
    # The variant is made once, with its limits: a base too large to enumerate may be narrowed
    # by them (moo1,1,1,1,1,1,1,1,1,5 prints as p10c5r with limits: its base has 5**10 codes).
    return Rules(length, alphabet, repeats, allowed, scoring=scoring)


def _no_leading(
    length: int, symbols: str, allowed: tuple[str, ...] | None, scoring: bool = False
) -> tuple[str, ...]:
    """``allowed`` with the first symbol (the zero) barred from the first position."""
    _check_length(length, MAX_SCORED_LENGTH if scoring else MAX_LENGTH)
    _check_symbols(symbols)
    limits = list(allowed or (symbols,) * length)
    if limits:
        limits[0] = limits[0].replace(symbols[0], "")
        if not limits[0]:
            raise RulesError(f"barring {symbols[0]!r} from the first position leaves no symbol")
    return tuple(limits)


def _read_modifier(modifier: str, spec: str) -> tuple[str, str]:
    key, _, value = modifier.partition("=")
    if key == "nolead" and not value:
        return key, ""
    if key in ("symbols", "allowed") and value:
        return key, value
    raise RulesError(
        f"rules spec {quote(spec)}: cannot read {quote(modifier)}; modifiers are :nolead, "
        ":symbols=SYMBOLS, :allowed=SYMBOLS/SYMBOLS/... and, last, :guesses=SPEC"
    )


def _read_radix(text: str, spec: str) -> list[int]:
    parts = [p for p in text.replace(" ", ",").strip(",").split(",") if p]
    if len(parts) > MAX_LENGTH or any(
        len(p) > 3 or not (p.isascii() and p.isdigit()) for p in parts
    ):
        raise RulesError(
            f"rules spec {quote(spec)}: a radix spec looks like moo5,5,5 (at most {MAX_LENGTH} "
            f"positions of at most {len(DEFAULT_ALPHABET)} symbols)"
        )
    return [int(p) for p in parts]


def _read_compact(base: str, spec: str, symbols: str | None) -> _Shape:
    text = base.lower()
    match = re.fullmatch(r"p([0-9]{1,6})c([0-9]{1,6})([rn])", text)
    if match is None:
        raise RulesError(f"unknown rules {quote(spec)}; expected {SPEC_HELP}")
    pegs, colours = int(match[1]), int(match[2])
    if symbols is None:
        symbols = default_symbols(colours)
    elif len(symbols) != colours:
        raise RulesError(
            f"rules spec {quote(spec)}: {colours} colours but {len(symbols)} symbols given"
        )
    return pegs, symbols, match[3] == "r", None


def format_spec(rules: Rules) -> str:
    """The shortest spec that reads back as ``rules``.

    >>> format_spec(Rules(3, "01234", True, ("01234", "012", "0123")))
    'moo5,3,4'
    """
    if rules.guesses is not None:
        return format_spec(rules.secret_rules) + GUESSES + format_spec(rules.guesses)
    for name in PRESETS:
        if preset(name) == rules:
            return name
    n = len(rules.symbols)
    default = rules.symbols == default_symbols(n) if n <= len(DEFAULT_ALPHABET) else False
    if rules.repeats and default and rules.allowed is not None:
        radix = [len(a) for a in rules.allowed]
        if max(radix) == n and all(a == rules.symbols[: len(a)] for a in rules.allowed):
            return "moo" + ",".join(map(str, radix))
    text = f"p{rules.length}c{n}{'r' if rules.repeats else 'n'}"
    if not default:
        text += f":symbols={rules.symbols}"
    if rules.allowed is not None:
        nolead = [rules.symbols.replace(rules.symbols[0], "")] + [rules.symbols] * (
            rules.length - 1
        )
        if list(rules.allowed) == nolead:
            text += ":nolead"
        else:
            text += ":allowed=" + "/".join(rules.allowed)
    return text
