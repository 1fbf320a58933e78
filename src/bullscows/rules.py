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

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

from bullscows.errors import RulesError
from bullscows.readers import normal_symbols, quote
from bullscows.specs import (
    DEFAULT_ALPHABET,
    DIGITS,
    GUESSES,
    MAX_LENGTH,
    MAX_SCORED_LENGTH,
    PRESETS,
    SPEC_HELP,
    check_length,
    check_symbols,
    default_symbols,
    describe_symbols,
    format_shape,
    preset_shape,
    radix_shape,
    read_radix,
    read_spec,
)

__all__ = [
    "DEFAULT_ALPHABET", "DIGITS", "ENUMERATION_NEEDED", "MAX_CODES", "MAX_LENGTH",
    "MAX_SCORED_LENGTH", "PRESETS", "SPEC_HELP", "Rules", "count_codes", "default_symbols",
    "describe_symbols", "format_spec", "parse_spec", "preset",
]  # fmt: skip

#: The largest universe that is enumerated in memory (10 distinct digits of 10 is 3,628,800).
MAX_CODES = 5_000_000
#: What needs a variant's codes enumerated, and what does not (said when a variant is too large).
ENUMERATION_NEEDED = (
    "games, strategies, candidates, bench and trees enumerate every code; scoring two codes "
    "(bullscows score) needs no enumeration"
)


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
        check_length(self.length, MAX_SCORED_LENGTH if self.scoring else MAX_LENGTH)
        check_symbols(self.symbols)
        object.__setattr__(self, "symbols", _plain_symbols(self.symbols))
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
    def from_radix(cls, radix: Iterable[int], symbols: str | None = None) -> Rules:
        """The J ``moo`` universe: position i holds one of the first ``r_i`` symbols (repeats).

        >>> Rules.from_radix([2, 2]).size
        4
        """
        return cls(*radix_shape(radix, symbols))

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
        leading zero. A variant with no leading zero (``bc-nolead``, ``:nolead``) keeps it
        whatever its new length and symbols (its zero barred by name: a new alphabet must
        hold it); other per-position limits (``:allowed=``,
        ``moo5,3,4``) are kept through a change of repeats or a renaming of the symbols one
        for one, and refused with a new length or number of symbols (no rule says what they
        would become). The spec, ``symbols`` and ``radix`` read full-width and other
        compatibility forms as their plain selves (``readers.normal_symbols``).

        >>> Rules.from_options("mm", length=5).spec, Rules.from_options(radix="2,2").spec
        ('p5c6r:symbols=123456', 'p2c2r')
        >>> Rules.from_options("bc", no_leading_zero=True).size
        4536
        >>> Rules.from_options("bc-nolead", length=3).describe()
        '3 distinct symbols of 0-9 (allowed at position 1: 1-9)'
        >>> Rules.from_options("moo5,3,4", length=4)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        bullscows.errors.RulesError: a length of 4: 'moo5,3,4' limits the symbols of each of ...
        """
        symbols = None if symbols is None else normal_symbols(symbols)
        if radix is not None:
            where = f"--radix {quote(radix)}"
            shape = radix_shape(read_radix(radix, where), symbols)
            if length not in (None, shape[0]):
                raise RulesError(f"{where} has {shape[0]} positions, not {length} (--length)")
            if repeats is False:
                raise RulesError(f"{where}: a radix universe allows repeats (drop --no-repeats)")
            rules = cls(*shape, scoring=scoring)
        else:
            base = parse_spec(spec, scoring)
            new_symbols = base.symbols if symbols is None else symbols
            nolead = base.allowed == (base.symbols[1:], *(base.symbols,) * (base.length - 1))
            zero = _kept_zero(base, spec, new_symbols) if nolead else None
            rules = cls(
                base.length if length is None else length,
                new_symbols,
                base.repeats if repeats is None else repeats,
                None if nolead else _carried_limits(base, spec, length, new_symbols),
                base.guesses,
                scoring=scoring,
            )
            if zero is not None:
                return rules.with_no_leading(zero)
        return rules.with_no_leading() if no_leading_zero else rules

    def with_no_leading(self, zero: str | None = None) -> Rules:
        """The same variant with ``zero`` (default: its first symbol) barred from the first
        position."""
        zero = self.symbols[0] if zero is None else zero
        allowed = list(self.allowed or (self.symbols,) * self.length)
        allowed[0] = allowed[0].replace(zero, "")
        if not allowed[0]:
            raise RulesError(
                f"{self.describe()}: barring {zero!r} from the first position leaves "
                "no symbol there; allow a second symbol there, or drop the no-leading-zero limit"
            )
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


def _plain_symbols(symbols: str) -> str:
    """The checked alphabet ``symbols`` with each symbol in its plain form (a full-width letter
    is its plain letter: ``readers.normal_symbols``), so that its spec reads back as the same
    variant; two symbols of one plain form, or one whose plain form cannot be a symbol (a
    full-width comma is a comma), are refused."""
    plain = normal_symbols(symbols)
    if plain == symbols:  # checked already: the usual case
        return plain
    for at, symbol in enumerate(plain):
        if symbol in plain[:at]:
            first = symbols[plain.index(symbol)]
            raise RulesError(
                f"symbols {quote(symbols)}: {first!r} and {symbols[at]!r} are both "
                f"{symbol!r}; symbols must be distinct"
            )
    try:
        check_symbols(plain)
    except RulesError as error:
        raise RulesError(f"{error}; {quote(symbols)} reads as {quote(plain)}") from None
    return plain


def _normalise_allowed(rules: Rules) -> tuple[str, ...] | None:
    allowed = rules.allowed
    if allowed is None:
        return None
    if isinstance(allowed, str) or len(allowed) != rules.length:
        given = allowed if isinstance(allowed, str) else "/".join(map(str, allowed))
        raise RulesError(
            f"allowed symbols {quote(given)}: give one string of symbols per position, "
            f"{rules.length} in all (in a spec, separated by /: :allowed=123/0123/...)"
        )
    normal = []
    for position, given in enumerate(allowed):
        symbols = normal_symbols(given) if isinstance(given, str) else given
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


# --- presets and spec strings (read and written by ``specs``) ----------------------------


@cache
def preset(name: str) -> Rules:
    """The preset called ``name``.

    >>> preset("logik").size
    32768
    """
    return Rules(*preset_shape(name))


def _kept_zero(base: Rules, spec: str, symbols: str) -> str:
    """The symbol that ``base`` (read from ``spec``, with no leading zero) bars from the first
    position, barred by name in the alphabet ``symbols`` too (``bc-nolead`` keeps ``0`` out,
    wherever ``0`` is in the new alphabet); a ``RulesError`` where ``symbols`` lacks it."""
    zero = base.symbols[0]
    if zero in symbols:
        return zero
    raise RulesError(
        f"the symbols {quote(symbols)} hold no {zero!r}, which {quote(spec)} bars from the "
        f"first position: a variant with no leading zero needs its zero ({zero!r}) among its "
        "symbols"
    )


def _carried_limits(
    base: Rules, spec: str, length: int | None, symbols: str
) -> tuple[str, ...] | None:
    """The per-position limits of ``base`` (read from ``spec``) in the variant of ``length``
    positions (``None``: the same) and ``symbols``: the same limits, renamed one for one
    with the symbols; a new length or number of symbols is a ``RulesError``."""
    if base.allowed is None:
        return None
    if length not in (None, base.length):
        changed = f"a length of {length}"
    elif len(symbols) != len(base.symbols):
        changed = f"the symbols {quote(symbols)}"
    else:
        renamed = str.maketrans(base.symbols, symbols)
        return tuple(limit.translate(renamed) for limit in base.allowed)
    raise RulesError(  # read by the terminal and the web alike: no option names
        f"{changed}: {quote(spec)} limits the symbols of each of its {base.length} positions, "
        "and no rule carries those limits over; give the whole variant as one spec, its limits "
        "as :allowed=SYMBOLS/SYMBOLS/... (one per position)"
    )


def parse_spec(spec: str, scoring: bool = False) -> Rules:
    """Read any spec string (see ``SPEC_HELP``); with ``scoring``, a variant too large to
    enumerate is made all the same, to score its codes (``Rules.scoring``).

    >>> parse_spec("p4c6r:symbols=RGBYOP").describe()
    '4 symbols of RGBYOP, repeats allowed'
    >>> parse_spec("p4c10n:nolead").size
    4536
    """
    try:
        # The variant is made once, with its limits: a base too large to enumerate may be
        # narrowed by them (moo1,1,1,1,1,1,1,1,1,5 prints as p10c5r with limits: its base has
        # 5**10 codes).
        secrets, *guesses = (Rules(*shape, scoring=scoring) for shape in read_spec(spec, scoring))
        return secrets.with_guesses(guesses[0]) if guesses else secrets
    except RulesError as error:
        if quote(spec) in str(error):
            raise
        raise RulesError(f"rules spec {quote(spec)}: {error}") from None


def format_spec(rules: Rules) -> str:
    """The shortest spec that reads back as ``rules``.

    >>> format_spec(Rules(3, "01234", True, ("01234", "012", "0123")))
    'moo5,3,4'
    """
    if rules.guesses is not None:
        return format_spec(rules.secret_rules) + GUESSES + format_spec(rules.guesses)
    return format_shape((rules.length, rules.symbols, rules.repeats, rules.allowed))
