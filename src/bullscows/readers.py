"""Bounded, total readers: every byte, number and file a person hands the program goes through
here (``quote``, ``did_you_mean``, ``normal_text``, ``normal_symbols``, ``read_file``,
``unpack``, ``load_json``, ``read_text``, ``read_named``), so that bad input is a one-line
``BullsCowsError`` and no input takes unbounded memory.

>>> quote("0123")
"'0123'"
>>> quote("9" * 5000)
"'99999999999999999999999999999999999999999999999999...' (5,000 characters)"
>>> load_json('{"n": 1e999}', "tree")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bullscows.errors.BullsCowsError: tree line 1: the number '1e999' is out of range (a finite ...
"""

from __future__ import annotations

import difflib
import json
import math
import os
import re
import stat
import unicodedata
import zlib
from collections.abc import Iterable
from pathlib import Path

from bullscows.errors import BullsCowsError

#: The most bytes a file may hold, raw or uncompressed: far above any real tree (Bulls &
#: Cows' minimax tree takes 146,632 bytes; ``DecisionTree.to_json`` refuses a longer one).
MAX_FILE_BYTES = 64 * 2**20
_CHUNK = 2**20
#: The first bytes of a gzip file.
GZIP_MAGIC = b"\x1f\x8b"
#: Input is quoted in errors up to this many characters (file names up to the second).
QUOTE_LENGTH = 50
PATH_QUOTE_LENGTH = 240
#: A JSON integer has at most this many digits (beyond, it is no count or index of this program).
MAX_JSON_DIGITS = 18
#: JSON is nested at most this deep (a tree of ``tree.MAX_DEPTH`` guesses nests twice that).
MAX_JSON_NESTING = 640
_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")


def normal_text(text: str, keep: str = "") -> str:
    """``text`` as codes, replies and commands are read: in Unicode's NFKC form, so that
    full-width digits, letters and spaces (as a phone's or an East-Asian keyboard types
    them) and other compatibility forms are their plain selves. Characters of ``keep`` (an
    alphabet whose symbols include such a form, one character whose plain form is several:
    ``normal_symbols``) are left as they are.

    >>> normal_text("\uff11\uff12\uff13\uff14"), normal_text("\uff11\uff22\uff12\uff23")
    ('1234', '1B2C')
    >>> normal_text("\uff4c\uff49\uff53\uff54\u3000all")  # full-width letters and space
    'list all'
    >>> normal_text("\uff11\u2469", keep="123\u2469") == "1\u2469"  # a circled 10 kept
    True
    """
    if text.isascii():  # already in NFKC form: the usual case, at once
        return text
    if all(unicodedata.is_normalized("NFKC", symbol) for symbol in keep):
        return unicodedata.normalize("NFKC", text)
    return "".join(ch if ch in keep else unicodedata.normalize("NFKC", ch) for ch in text)


def normal_symbols(text: str) -> str:
    """``text`` as a variant's spec or alphabet is read: each character in its NFKC form
    (``normal_text``), so that ``\uff42\uff43`` is ``bc`` and full-width ``\uff32\uff27\uff22`` is
    ``RGB``, except a character whose form is several (``\u2469`` is ``10``, ``\ufb01`` is ``fi``):
    it stays one symbol, as typed, and codes keep it (``normal_text``'s ``keep``). Read again,
    the text is the same.

    >>> normal_symbols("p\uff14c\uff16r:symbols=\uff32\uff27\uff22\uff39\uff2f\uff30")
    'p4c6r:symbols=RGBYOP'
    >>> normal_symbols("\u2467\u2468\u2469") == "89\u2469"  # circled 8, 9 and 10
    True
    """
    if text.isascii():
        return text
    return "".join(
        form if len(form := unicodedata.normalize("NFKC", ch)) == 1 else ch for ch in text
    )


def quote(text: str, limit: int = QUOTE_LENGTH) -> str:
    """``repr(text)``, cut after ``limit`` characters with an ellipsis and the full length.

    >>> quote("abcdef", limit=3)
    "'abc...' (6 characters)"
    """
    if len(text) <= limit:
        return repr(text)
    shown = repr(text[:limit])
    return f"{shown[:-1]}...{shown[-1]} ({len(text):,} characters)"


def closest(text: str, names: Iterable[str]) -> str | None:
    """The one of ``names`` closest to the misspelt ``text`` (case aside), or ``None``.

    >>> closest("Logic", ["bc", "logik"]), closest("zz", ["bc", "logik"])
    ('logik', None)
    """
    choices = {name.lower(): name for name in names}
    close = difflib.get_close_matches(text.lower()[:QUOTE_LENGTH], choices, n=1)
    return choices[close[0]] if close else None


def did_you_mean(text: str, names: Iterable[str]) -> str:
    """`` (did you mean 'NAME'?)`` for the one of ``names`` closest to ``text``, or nothing:
    for an error that then lists what is valid.

    >>> did_you_mean("minmax", ["simple", "minimax", "entropy"])
    " (did you mean 'minimax'?)"
    """
    name = closest(text, names)
    return "" if name is None else f" (did you mean {name!r}?)"


def quote_value(value: object) -> str:
    """A value read from JSON, in an error: text quoted, anything else as Python shows it,
    cut to a line's worth.

    >>> print(quote_value("1"), quote_value(None), quote_value(list(range(30))))
    '1' None [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,... (110 characters)
    """
    if isinstance(value, str):
        return quote(value)
    text = repr(value)
    return (
        text
        if len(text) <= QUOTE_LENGTH
        else f"{text[:QUOTE_LENGTH]}... ({len(text):,} characters)"
    )


def quote_path(path: str | Path) -> str:
    """A file name in an error: quoted whole unless it is very long.

    >>> quote_path(Path("trees/mm.json"))
    "'trees/mm.json'"
    """
    return quote(str(path), PATH_QUOTE_LENGTH)


def read_file(
    path: str | Path, where: str, limit: int | None = None, *, unpacked: bool = True
) -> bytes:
    """The bytes of the regular file at ``path`` (uncompressed if gzip, unless not
    ``unpacked``), at most ``limit`` (``MAX_FILE_BYTES`` by default).

    Devices, pipes and folders are refused before anything is read (``/dev/zero`` never
    ends); a link is followed to what it points to and judged by that. ``where`` names the
    file in errors (``"tree file 'mm.json'"``).

    >>> read_file("/dev/zero", "the file")
    Traceback (most recent call last):
    ...
    bullscows.errors.BullsCowsError: the file is not a regular file (a character device)
    """
    limit = MAX_FILE_BYTES if limit is None else limit
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise BullsCowsError(f"cannot read {where}: {error.strerror or error}") from None
    except ValueError:  # a NUL in the name
        raise BullsCowsError(f"cannot read {where}: a file name holds no NUL character") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise BullsCowsError(f"{where} is not a regular file ({_kind(mode)})")
        with os.fdopen(os.dup(fd), "rb") as stream:
            data = stream.read(limit + 1)
    except OSError as error:
        raise BullsCowsError(f"cannot read {where}: {error.strerror or error}") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise BullsCowsError(f"{where} is larger than {limit:,} bytes: it is not a file of ours")
    return unpack(data, where, limit) if unpacked else data


def _kind(mode: int) -> str:
    kinds = [
        (stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a pipe"), (stat.S_ISSOCK, "a socket"),
    ]  # fmt: skip
    return next((name for test, name in kinds if test(mode)), "not a file")


def unpack(data: bytes, where: str, limit: int | None = None) -> bytes:
    """``data`` uncompressed if it is gzip (by its first bytes), refused beyond ``limit`` bytes
    (``MAX_FILE_BYTES`` by default).

    >>> import gzip
    >>> unpack(gzip.compress(b"hello"), "file")
    b'hello'
    >>> unpack(gzip.compress(bytes(1000)), "file", limit=999)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bullscows.errors.BullsCowsError: file uncompresses to more than 999 bytes: it is not a ...
    """
    limit = MAX_FILE_BYTES if limit is None else limit
    if data[:2] != GZIP_MAGIC:
        return data
    out = bytearray()
    rest = data
    try:
        while rest:  # a gzip file may hold several members, one after another
            inflate = zlib.decompressobj(wbits=31)
            while True:  # a mebibyte at a time: the cap is never passed by much
                out += inflate.decompress(rest, _CHUNK)
                if len(out) > limit:
                    raise BullsCowsError(
                        f"{where} uncompresses to more than {limit:,} bytes: it is not a file "
                        "of ours"
                    )
                rest = inflate.unconsumed_tail
                if not rest or inflate.eof:
                    break
            if not inflate.eof:
                raise BullsCowsError(f"cannot read {where}: the compressed data is cut short")
            rest = inflate.unused_data.lstrip(b"\0")
    except zlib.error as error:
        raise BullsCowsError(
            f"cannot read {where}: the compressed data is damaged ({error})"
        ) from None
    return bytes(out)


def read_text(data: bytes | str, where: str) -> str:
    """``data`` as UTF-8 text; a byte that is not UTF-8 is named, with where it stands.

    Text read with ``errors="surrogateescape"`` (how the command line reads its input) carries
    such bytes as lone surrogates, and is checked the same way.

    >>> read_text(b"12\\xff", "the line")
    Traceback (most recent call last):
    ...
    bullscows.errors.BullsCowsError: the line is not UTF-8 text: byte 0xff at character 3
    """
    if isinstance(data, str):
        try:
            data.encode("utf-8")
            return data
        except UnicodeEncodeError:
            data = data.encode("utf-8", "surrogateescape")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        at = len(data[: error.start].decode("utf-8", "replace")) + 1
        raise BullsCowsError(
            f"{where} is not UTF-8 text: byte 0x{data[error.start]:02x} at character {at}"
        ) from None


def read_named(path: str | Path, what: str) -> tuple[str, str]:
    """The UTF-8 text of the file at ``path`` that a person named (``read_file``,
    ``read_text``), and how errors name it: ``what`` and the quoted path.

    >>> read_named("missing.json", "card file")
    Traceback (most recent call last):
    ...
    bullscows.errors.BullsCowsError: cannot read card file 'missing.json': No such file or directory
    """
    where = f"{what} {quote_path(path)}"
    return read_text(read_file(path, where), where), where


class _Refused(Exception):
    def __init__(self, literal: str, reason: str) -> None:
        super().__init__(literal)
        self.literal, self.reason = literal, reason


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_JSON_DIGITS:
        raise _Refused(text, f"has more than {MAX_JSON_DIGITS} digits")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(text, "is out of range (a finite number is needed)")
    return value


def _constant(text: str) -> float:
    raise _Refused(text, "is not a number (JSON has no NaN or Infinity)")


class _Twice(Exception):
    """A key that an object of the JSON text holds twice."""


class Pairs(list[tuple[str, object]]):
    """A JSON object as its key-value pairs in order, a key held twice kept twice (for a reader
    that names where a key repeats)."""


def _unique(pairs: list[tuple[str, object]]) -> dict[str, object]:
    found = dict(pairs)
    if len(found) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Twice(key)
            seen.add(key)
    return found


def _twice_at(data: object) -> tuple[str, str]:
    """The JSON Pointer of the first object of ``data`` (read as ``Pairs``) that holds a key
    twice, and the key (without recursion: a tree may be deep)."""
    stack: list[tuple[object, str]] = [(data, "")]
    while stack:
        value, at = stack.pop()
        if isinstance(value, Pairs):
            seen: set[str] = set()
            for key, _ in value:
                if key in seen:
                    return at, key
                seen.add(key)
            named = [(f"{at}/{key.replace('~', '~0').replace('/', '~1')}", v) for key, v in value]
        elif isinstance(value, list):
            named = [(f"{at}/{index}", v) for index, v in enumerate(value)]
        else:
            continue
        stack.extend((v, path) for path, v in reversed(named))
    raise AssertionError("no key held twice")  # pragma: no cover - _unique found one


def load_json(
    text: str,
    where: str,
    max_nesting: int = MAX_JSON_NESTING,
    *,
    line: int = 1,
    pairs: bool = False,
    holds: str | None = None,
) -> object:
    """Strict JSON, or a ``BullsCowsError`` naming ``where`` and the line (``text`` starts on
    line ``line`` of its file). An object that holds a key twice is refused, named by its JSON
    Pointer (a tree's reply held twice would lose one of its branches unseen, a card's or a
    checkpoint's field one of its values), unless ``pairs``: each object is then read as its
    ``Pairs``, for the caller to check. Text that is no JSON object or list from its start
    (empty, or text of another kind) is refused saying what the file ``holds``, where given.

    >>> load_json('[1, 2.5, "x"]', "list")
    [1, 2.5, 'x']
    >>> load_json('[[[1]]]', "list", max_nesting=2)
    Traceback (most recent call last):
    ...
    bullscows.errors.BullsCowsError: list line 1: nested more than 2 deep
    >>> load_json('{"a":\\n NaN}', "file 'x.json'")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bullscows.errors.BullsCowsError: file 'x.json' line 2: the number 'NaN' is not a number ...
    >>> load_json("", "card file 'c.json'", holds="a card file holds a card")
    Traceback (most recent call last):
    ...
    bullscows.errors.BullsCowsError: card file 'c.json' is empty; a card file holds a card
    >>> load_json("1 2\\n", "file 'x.json'", holds="it holds a list")
    Traceback (most recent call last):
    ...
    bullscows.errors.BullsCowsError: file 'x.json' starts with '1 2\\n', not JSON; it holds a list
    >>> load_json('{"a": {"0 1": 1, "0 1": 2}}', "tree", line=3)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bullscows.errors.BullsCowsError: tree line 3: the object at '/a' holds the key '0 1' twice; ...
    """
    deep = _too_deep(text, max_nesting)
    if deep is not None:
        at = _line(text, deep) + line - 1
        raise BullsCowsError(f"{where} line {at}: nested more than {max_nesting} deep")
    try:
        return json.loads(
            text, parse_int=_integer, parse_float=_float, parse_constant=_constant,
            object_pairs_hook=Pairs if pairs else _unique,
        )  # fmt: skip
    except json.JSONDecodeError as error:
        start = text.lstrip()[:20]
        if holds is not None and start[:1] not in ("{", "["):  # no JSON at all: say what is
            said = f"starts with {quote(start)}, not JSON" if start else "is empty"
            raise BullsCowsError(f"{where} {said}; {holds}") from None
        at = error.lineno + line - 1
        raise BullsCowsError(
            f"{where} line {at} is not JSON: {error.msg} (column {error.colno})"
        ) from None
    except _Refused as refused:
        at = _line(text, max(text.find(refused.literal), 0)) + line - 1
        raise BullsCowsError(
            f"{where} line {at}: the number {quote(refused.literal)} {refused.reason}"
        ) from None
    except _Twice:
        # Read again for the place alone: numbers unread (one may be refused further on).
        pairs = json.loads(text, parse_int=len, parse_float=len, object_pairs_hook=Pairs)
        pointer, key = _twice_at(pairs)
        holder = f"the object at {quote(pointer)}" if pointer else "the top object"
        on = "" if "\n" in text.strip() else f" line {line}"  # one line: it is that line
        raise BullsCowsError(
            f"{where}{on}: {holder} holds the key {quote(key)} twice; a key may appear once"
        ) from None
    except RecursionError:  # only when the stack is already deep: the nesting was checked
        raise BullsCowsError(f"{where}: nested too deeply to read") from None


def _too_deep(text: str, limit: int) -> int | None:
    """Where (a character index) the nesting of ``text`` first passes ``limit``, if it does.

    Brackets inside strings do not count; the count is done by NumPy, for long files.
    """
    if text.count("[") + text.count("{") <= limit:
        return None
    import numpy as np  # not needed by the command line's --help

    brackets = _NOT_BRACKETS.sub("", _STRINGS.sub('""', text))
    steps = np.frombuffer(brackets.encode("ascii"), dtype=np.uint8)
    depth = np.cumsum(np.where((steps == ord("[")) | (steps == ord("{")), 1, -1))
    over = np.flatnonzero(depth > limit)
    if not len(over):
        return None
    # The same bracket in the text: skip strings while counting brackets up to it.
    wanted, seen = int(over[0]), -1
    for match in re.finditer(_STRINGS.pattern + r"|[\[\]{}]", text, re.DOTALL):
        if match.group()[0] != '"':
            seen += 1
            if seen == wanted:
                return match.start()
    return len(text)


def _line(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1
