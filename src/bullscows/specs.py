"""Spec strings of variants, read into shapes and written back from them.

A shape is what a spec describes before ``rules.Rules`` checks it: ``(length, symbols,
repeats, allowed)``, with ``allowed`` one string of symbols per position or ``None``. A spec is
a preset name (``PRESETS``), the compact form ``p4c10n`` (pegs, colours, ``r`` repeats / ``n``
none), or the radix form ``moo5,5,5`` (position i ranges over the first r_i symbols), with
modifiers ``:nolead``, ``:symbols=...``, ``:allowed=.../...`` and, last, ``:guesses=SPEC``.

>>> read_spec("p3c5r")
[(3, '01234', True, None)]
>>> read_spec("bc-nolead")
[(4, '0123456789', False, ('123456789', '0123456789', '0123456789', '0123456789'))]
>>> format_shape((3, "01234", True, ("01234", "012", "0123")))
'moo5,3,4'
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable

from bullscows.errors import RulesError
from bullscows.readers import closest, did_you_mean, normal_symbols, quote

DIGITS = "0123456789"
#: Symbols used when a variant names only how many colours it has.
DEFAULT_ALPHABET = DIGITS + "abcdefghijklmnopqrstuvwxyz" + "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MAX_LENGTH = 10
#: The longest code of a variant made only for scoring (``Rules(..., scoring=True)``).
MAX_SCORED_LENGTH = 200
#: What a spec describes before it is checked: (length, symbols, repeats, allowed).
Shape = tuple[int, str, bool, "tuple[str, ...] | None"]

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

#: Names people give the presets (letters and digits only), suggested for a spec that is none.
KNOWN_AS = {
    "mastermind": "mm",
    "moo": "bc",
    "bullsandcows": "bc",
    "bullscows": "bc",
    "cowsandbulls": "bc",
    "bullscowsnolead": "bc-nolead",
}

SPEC_HELP = (
    "a preset (" + ", ".join(PRESETS) + "), a compact spec such as p4c10n or p4c6r "
    "(pegs, colours, r = repeats, n = none; add :nolead or :symbols=RGBYOP), "
    "or a radix spec such as moo5,5,5; any of them may end in :guesses=SPEC, a wider variant "
    "whose codes may be guessed (bc:guesses=p4c10r)"
)
#: What separates the secrets' spec from the spec of the guesses (the rest of the text).
GUESSES = ":guesses="


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


def check_length(length: int, limit: int = MAX_LENGTH) -> None:
    """Refuse a length that is not a whole number from 1 to ``limit``."""
    if isinstance(length, bool) or not isinstance(length, int) or not 1 <= length <= limit:
        more = f" (up to {MAX_SCORED_LENGTH} to score two codes)" if limit == MAX_LENGTH else ""
        raise RulesError(f"length {length!r}: a code has from 1 to {limit} positions{more}")


def check_symbols(symbols: str) -> None:
    """Refuse an alphabet that is empty, too long, repeats a symbol or has an unreadable one."""
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


def radix_shape(radix: Iterable[int], symbols: str | None = None) -> Shape:
    """The J ``moo`` universe's shape: position i holds one of the first ``r_i`` symbols.

    >>> radix_shape([2, 3])
    (2, '012', True, ('01', '012'))
    """
    radix = tuple(radix)
    if not radix:
        raise RulesError("a radix list needs at least one position, e.g. 5,5,5")
    for r in radix:  # a radix list read from text has at most MAX_LENGTH positions
        if r < 1:
            listed = ",".join(map(str, radix))
            raise RulesError(f"radix {r} in {listed}: each position needs at least 1 symbol")
    alphabet = symbols if symbols is not None else default_symbols(max(radix))
    if len(alphabet) < max(radix):
        raise RulesError(
            f"radix {max(radix)} needs {max(radix)} symbols; symbols {quote(alphabet)} has "
            f"{len(alphabet)}"
        )
    alphabet = alphabet[: max(radix)]
    return len(radix), alphabet, True, tuple(alphabet[:r] for r in radix)


def no_leading(
    length: int, symbols: str, allowed: tuple[str, ...] | None, scoring: bool = False
) -> tuple[str, ...]:
    """``allowed`` with the first symbol (the zero) barred from the first position."""
    check_length(length, MAX_SCORED_LENGTH if scoring else MAX_LENGTH)
    check_symbols(symbols)
    limits = list(allowed or (symbols,) * length)
    limits[0] = limits[0].replace(symbols[0], "")
    if not limits[0]:
        raise RulesError(f"barring {symbols[0]!r} from the first position leaves no symbol")
    return tuple(limits)


def preset_shape(name: str) -> Shape:
    """The shape of the preset called ``name``.

    >>> preset_shape("mm")
    (4, '123456', True, None)
    """
    try:
        length, symbols, repeats, nolead, _ = PRESETS[name]
    except KeyError:
        raise RulesError(f"unknown preset {quote(name)}; presets: {', '.join(PRESETS)}") from None
    return length, symbols, repeats, no_leading(length, symbols, None) if nolead else None


def read_spec(spec: str, scoring: bool = False, whole: str | None = None) -> list[Shape]:
    """The shapes a spec string describes: the secrets', then the guesses' if it names them.
    ``whole``: the spec ``spec`` is part of (before or after ``:guesses=``), which errors quote
    once, naming the part that is wrong. Full-width and other compatibility forms read as
    their plain selves (``readers.normal_symbols``), as in codes.

    >>> read_spec("bc:guesses=p4c10r")
    [(4, '0123456789', False, None), (4, '0123456789', True, None)]
    >>> read_spec("bc:guesses=p4c10r:symbols=abc")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bullscows.errors.RulesError: rules spec 'bc:guesses=p4c10r:symbols=abc': 10 colours but 3 ...
    """
    text = normal_symbols(spec).strip()
    whole = spec if whole is None else whole
    if not text:
        if whole.strip():
            raise RulesError(
                f"rules spec {quote(whole)}: a variant's spec is needed on each side of "
                f":guesses=, e.g. bc:guesses=p4c10r"
            )
        raise RulesError(f"empty rules spec; expected {SPEC_HELP}")
    at = text.lower().find(GUESSES)  # keys in any case; symbols keep theirs
    if at >= 0:
        secrets, guesses = text[:at], text[at + len(GUESSES) :]
        if GUESSES in guesses.lower():
            raise RulesError(f"rules spec {quote(whole)}: give :guesses= once")
        return read_spec(secrets, scoring, whole) + read_spec(guesses, scoring, whole)
    if text.lower() in PRESETS:
        return [preset_shape(text.lower())]
    base, *modifiers = text.split(":")
    options: dict[str, str] = {}
    for modifier in modifiers:
        key, value = _read_modifier(modifier, whole)
        if key in options:
            raise RulesError(
                f"rules spec {quote(whole)}: {quote(modifier)} repeats :{key}; "
                "each modifier may appear once"
            )
        options[key] = value
    symbols = options.get("symbols")
    if base.lower() in PRESETS:
        shape = _read_preset(base.lower(), whole, symbols)
    elif base.lower().startswith("moo") and base[3:]:
        shape = radix_shape(read_radix(base[3:], f"rules spec {quote(whole)}"), symbols)
    else:
        shape = _read_compact(base, spec, symbols, whole)
    length, alphabet, repeats, allowed = shape
    if "allowed" in options:
        allowed = tuple(options["allowed"].split("/"))
    if "nolead" in options:
        allowed = no_leading(length, alphabet, allowed, scoring)
    return [(length, alphabet, repeats, allowed)]


def read_radix(text: str, where: str) -> list[int]:
    """The radix list ``text`` (``5,5,5``, or ``5 5 5`` as J writes it); ``where`` names it
    in errors (the spec or the option it was given in, quoted as typed).

    >>> read_radix("5, 3 ,4", "--radix")
    [5, 3, 4]
    >>> read_radix("5,,5", "--radix '5,,5'")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bullscows.errors.RulesError: --radix '5,,5': a radix list is 1 to 10 whole numbers ...
    """
    parts = re.split(r"\s*,\s*|\s+", normal_symbols(text).strip())
    most = len(DEFAULT_ALPHABET)
    if not 0 < len(parts) <= MAX_LENGTH or not all(
        len(p) <= 3 and p.isascii() and p.isdigit() and 0 < int(p) <= most for p in parts
    ):
        raise RulesError(
            f"{where}: a radix list is 1 to {MAX_LENGTH} whole numbers from 1 to "
            f"{len(DEFAULT_ALPHABET)} (how many symbols each position holds), separated by "
            "commas, e.g. 5,5,5"
        )
    return [int(p) for p in parts]


def _read_modifier(modifier: str, spec: str) -> tuple[str, str]:
    key, _, value = modifier.partition("=")
    key = key.lower()
    if key == "nolead" and not value:
        return key, ""
    if key in ("symbols", "allowed") and value:
        return key, value
    meant = did_you_mean(key, ["nolead", "symbols", "allowed", "guesses"])
    raise RulesError(
        f"rules spec {quote(spec)}: cannot read {quote(modifier)}{meant}; modifiers are :nolead, "
        ":symbols=SYMBOLS, :allowed=SYMBOLS/SYMBOLS/... and, last, :guesses=SPEC"
    )


def _read_preset(name: str, spec: str, symbols: str | None) -> Shape:
    """A preset's shape with its symbols renamed ``symbols`` (one for one, in order).

    >>> _read_preset("bc-nolead", "bc-nolead:symbols=abcdefghij", "abcdefghij")[1:]
    ('abcdefghij', False, ('bcdefghij', 'abcdefghij', 'abcdefghij', 'abcdefghij'))
    """
    length, alphabet, repeats, allowed = preset_shape(name)
    if symbols is None:
        return length, alphabet, repeats, allowed
    if len(symbols) != len(alphabet):
        raise RulesError(
            f"rules spec {quote(spec)}: {name} has {len(alphabet)} symbols but {len(symbols)} given"
        )
    renamed = str.maketrans(alphabet, symbols)
    limits = None if allowed is None else tuple(a.translate(renamed) for a in allowed)
    return length, symbols, repeats, limits


def _read_compact(base: str, spec: str, symbols: str | None, whole: str) -> Shape:
    """The shape of the compact spec ``base`` (of ``spec``, part of ``whole``)."""
    text = base.lower()
    match = re.fullmatch(r"p([0-9]{1,6})c([0-9]{1,6})([rn])", text)
    if match is None:
        raise RulesError(f"unknown rules {quote(spec)}{_meant(base)}; expected {SPEC_HELP}")
    pegs, colours = int(match[1]), int(match[2])
    if symbols is None:
        symbols = default_symbols(colours)
    elif len(symbols) != colours:
        raise RulesError(
            f"rules spec {quote(whole)}: {colours} colours but {len(symbols)} symbols given"
        )
    return pegs, symbols, match[3] == "r", None


def _meant(base: str) -> str:
    """What the spec ``base``, which is none, may have meant: `` (did you mean 'bc'?)``.

    >>> _meant("p4c6")
    " (did you mean 'p4c6r', repeats, or 'p4c6n', none?)"
    >>> _meant("Mastermind"), _meant("bc-nolaed"), _meant("xyz")
    (" (did you mean 'mm'?)", " (did you mean 'bc-nolead'?)", '')
    """
    text = base.lower()
    if re.fullmatch(r"p[0-9]{1,6}c[0-9]{1,6}", text):
        return f" (did you mean '{text}r', repeats, or '{text}n', none?)"
    name = closest(re.sub(r"[^a-z0-9-]", "", text), [*PRESETS, *KNOWN_AS])
    return "" if name is None else f" (did you mean {KNOWN_AS.get(name, name)!r}?)"


def format_shape(shape: Shape) -> str:
    """The shortest spec that reads back as the checked shape ``shape`` (its ``allowed`` in
    alphabet order, ``None`` when every symbol is allowed everywhere).

    >>> format_shape((4, "0123456789", False, None)), format_shape((4, "RGBY", False, None))
    ('bc', 'p4c4n:symbols=RGBY')
    """
    for name in PRESETS:
        if preset_shape(name) == shape:
            return name
    length, symbols, repeats, allowed = shape
    n = len(symbols)
    default = symbols == default_symbols(n) if n <= len(DEFAULT_ALPHABET) else False
    if repeats and default and allowed is not None:
        radix = [len(a) for a in allowed]
        if max(radix) == n and all(a == symbols[: len(a)] for a in allowed):
            return "moo" + ",".join(map(str, radix))
    text = f"p{length}c{n}{'r' if repeats else 'n'}"
    if not default:
        text += f":symbols={symbols}"
    if allowed is not None:
        if list(allowed) == [symbols.replace(symbols[0], "")] + [symbols] * (length - 1):
            text += ":nolead"
        else:
            text += ":allowed=" + "/".join(allowed)
    return text
