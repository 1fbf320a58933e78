"""Where decision trees are kept between runs: the trees shipped with the package, and a store
of searched trees (a folder of files by default, the user's cache; a server may put one of its
own in its place with ``use_tree_store``).

Every tree is named by ``tree_file_name`` (variant, strategy and options) and labelled by
``tree_label``; ``stored_tree`` finds an optimal strategy's tree (shipped, else stored) and
``keep_tree`` stores a searched one. A stored tree is
not trusted as it is: ``cache_problem`` checks it (its variant, strategy and options, its play
of every secret, its stated summary, the options' limits, and the key its search wrote). The
key is an HMAC under this installation's secret (``cache_secret``): a tree that another
strategy made, relabelled with a key recomputed from public data, is refused. A shipped tree
is read through ``read_shipped``: its bytes must match the SHA-256 recorded when it was built.

>>> store = FileTreeStore(Path("/nonexistent"))
>>> store.read("mm--optimal.json") is None
True
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import re
import secrets
import warnings
from dataclasses import replace
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Protocol

from bullscows.atomic import write_atomic
from bullscows.errors import BullsCowsError, BullsCowsWarning
from bullscows.readers import quote, quote_path
from bullscows.rules import Rules
from bullscows.tree.check import check_tree
from bullscows.tree.files import load_tree
from bullscows.tree.model import DecisionTree, Node

#: Changes when the search changes what it finds: cached trees of older searches are redone.
KEY_VERSION = 2
#: The file of the shipped trees' folder that lists their SHA-256 digests (``shipped_digests``).
DIGESTS = "SHA256SUMS"
#: The file of the cache folder that holds this installation's secret (``cache_secret``).
SECRET_NAME = "secret.key"
#: The secret's length in bytes.
SECRET_BYTES = 32
#: The secret of this process, where the cache folder cannot hold one.
_PROCESS_SECRET = secrets.token_bytes(SECRET_BYTES)


def cache_dir() -> Path:
    """Where searched trees are kept: ``$BULLSCOWS_CACHE``, else ``$XDG_CACHE_HOME/bullscows``,
    else ``~/.cache/bullscows``."""
    if os.environ.get("BULLSCOWS_CACHE"):
        return Path(os.environ["BULLSCOWS_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "bullscows"


def tree_file_name(
    rules: Rules, name: str, consistent_only: bool, max_depth: int | None, suffix: str = ".json"
) -> str:
    """The file name of one variant's optimal tree: the spec made safe for a file name, the
    strategy and its options, for the cache (``.json``) and the shipped trees (``.json.gz``).

    >>> tree_file_name(Rules.parse("mm"), "optimal-worst", False, None, ".json.gz")
    'mm--optimal-worst.json.gz'
    >>> tree_file_name(Rules.parse("moo3,3,2"), "optimal", True, 4)
    'moo3%2c3%2c2--optimal--consistent-only--depth-4.json'
    """
    spec = re.sub(r"[^A-Za-z0-9._-]", lambda m: f"%{ord(m.group()):02x}", rules.spec)
    options = ("--consistent-only" if consistent_only else "") + (
        f"--depth-{max_depth}" if max_depth is not None else ""
    )
    return f"{spec}--{name}{options}{suffix}"


def tree_label(name: str, consistent_only: bool, max_depth: int | None) -> str:
    """An optimal strategy's label, which its trees carry: its name and the options that
    shape its tree.

    >>> tree_label("optimal", False, None), tree_label("optimal-worst", True, 5)
    ('optimal', 'optimal-worst (consistent only, at most 5 guesses)')
    """
    options = (["consistent only"] if consistent_only else []) + (
        [f"at most {max_depth} guesses"] if max_depth is not None else []
    )
    return f"{name} ({', '.join(options)})" if options else name


def cache_file(
    rules: Rules, name: str, consistent_only: bool, max_depth: int | None = None
) -> Path:
    """The user's cached copy of one variant's optimal tree (it may not exist yet)."""
    return cache_dir() / tree_file_name(rules, name, consistent_only, max_depth)


def shipped_dir() -> Traversable:
    """The folder of the trees shipped with the package (``bullscows/data/trees``)."""
    return resources.files("bullscows") / "data" / "trees"


def shipped_file(
    rules: Rules, name: str, consistent_only: bool, max_depth: int | None = None
) -> Traversable | None:
    """The shipped tree of one variant, strategy and options, or ``None`` if none is shipped."""
    found = shipped_dir().joinpath(
        tree_file_name(rules, name, consistent_only, max_depth, ".json.gz")
    )
    return found if found.is_file() else None


def shipped_digests(folder: Traversable | None = None) -> dict[str, str]:
    """The SHA-256 of each shipped tree by file name, as ``scripts/ship_trees.py`` recorded it
    when it built the tree (the folder's ``SHA256SUMS``, which ``sha256sum -c`` reads too).

    >>> len(shipped_digests()["mm--optimal.json.gz"])
    64
    """
    try:
        text = (folder or shipped_dir()).joinpath(DIGESTS).read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError):
        return {}
    digests = {}
    for line in text.splitlines():
        digest, _, name = line.partition("  ")
        if re.fullmatch(r"[0-9a-f]{64}", digest) and name:
            digests[name] = digest
    return digests


def read_shipped(name: str, folder: Traversable | None = None) -> bytes:
    """The bytes of the shipped tree file ``name``, once they match the digest recorded when
    it was built: a ``BullsCowsError`` if none was recorded or they differ (a damaged or
    changed installation), an ``OSError`` if the file cannot be read."""
    where = folder or shipped_dir()
    data = where.joinpath(name).read_bytes()
    recorded = shipped_digests(where).get(name)
    if recorded is None:
        raise BullsCowsError(
            f"the shipped tree {quote(name)}: no digest was recorded for it when the trees "
            "were built"
        )
    if not hmac.compare_digest(hashlib.sha256(data).hexdigest(), recorded):
        raise BullsCowsError(
            f"the shipped tree {quote(name)} does not match the digest recorded when it was "
            "built (a damaged or changed installation)"
        )
    return data


def record_digest(folder: Path, name: str, data: bytes) -> None:
    """Record in ``folder``'s ``SHA256SUMS`` the digest of the tree file ``name`` holding
    ``data`` (the others kept, those of files no longer there dropped), written whole."""
    digests = shipped_digests(folder)
    digests[name] = hashlib.sha256(data).hexdigest()
    lines = [f"{digests[n]}  {n}\n" for n in sorted(digests) if (folder / n).is_file()]
    write_atomic(folder / DIGESTS, "".join(lines).encode("ascii"))


def secret_file() -> Path:
    """Where this installation's secret is kept: ``secret.key`` in ``cache_dir()``."""
    return cache_dir() / SECRET_NAME


def cache_secret() -> bytes:
    """This installation's secret for the keys of its cached trees: 32 random bytes made on
    first use and kept in ``secret_file()``, readable by the user alone. Where the folder
    cannot hold it (read-only, not a folder), a secret of this process: its own entries still
    verify, those of other processes are searched again.

    >>> len(cache_secret())
    32
    """
    path = secret_file()
    try:
        held: bytes | None = path.read_bytes()
    except FileNotFoundError:
        held = None
    except OSError:
        return _PROCESS_SECRET  # there but unreadable: left alone
    if held is not None and len(held) == SECRET_BYTES:
        return held
    made = secrets.token_bytes(SECRET_BYTES)
    try:  # the first made is kept (``exclusive``); a damaged one is replaced
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, made, replace_links=True, private=True, exclusive=held is None)
        held = path.read_bytes()
    except OSError:
        return _PROCESS_SECRET
    return held if len(held) == SECRET_BYTES else _PROCESS_SECRET


def _made(tree: DecisionTree, consistent_only: bool, max_depth: int | None) -> bytes:
    """What a key binds: the variant, strategy, objective, options and the tree's nodes."""
    made = [KEY_VERSION, tree.rules.spec, tree.strategy, tree.objective, consistent_only, max_depth]
    text = json.dumps([made, tree.nodes_dict()], sort_keys=True, separators=(",", ":"))
    return text.encode("utf-8")


def public_digest(tree: DecisionTree, consistent_only: bool, max_depth: int | None) -> str:
    """The SHA-256 of what a key binds: anyone can compute it, so it proves nothing of who
    made the tree (``cache_key`` does)."""
    return hashlib.sha256(_made(tree, consistent_only, max_depth)).hexdigest()


def cache_key(tree: DecisionTree, consistent_only: bool, max_depth: int | None) -> str:
    """What binds a searched tree to this installation's search: an HMAC-SHA256 under
    ``cache_secret()`` of the variant, the strategy, the options and the tree itself, written
    into the cached file by the search. A tree made otherwise (by another strategy, with other
    options, or elsewhere) and relabelled does not carry it, and without the secret it cannot
    be recomputed.

    >>> from bullscows.search.found import search_tree
    >>> found = search_tree(Rules.parse("p2c3n"), "optimal", "total", False, None)
    >>> key = cache_key(found, False, None)
    >>> len(key), key == cache_key(found, True, 3), key == public_digest(found, False, None)
    (64, False, False)
    """
    made = _made(tree, consistent_only, max_depth)
    return hmac.new(cache_secret(), made, hashlib.sha256).hexdigest()


def cache_problem(
    saved: DecisionTree,
    wanted: tuple[Rules, str, str],
    consistent_only: bool,
    max_depth: int | None,
) -> str | None:
    """Why a cached tree cannot stand for the one ``wanted`` (variant, strategy label with its
    options, objective), or ``None``. Cheap next to a search: every secret is played down the
    tree once (``check_tree``), so a damaged tree, a stated summary that is not the tree's, a
    tree of other options (deeper than ``max_depth``, or guessing non-candidates when
    ``consistent_only``) are all refused; and a valid tree without the key this installation's
    search wrote (``cache_key``: another strategy's tree relabelled, another installation's
    entry) is refused too.

    >>> from bullscows.outcomes import build_tree
    >>> from bullscows.strategies import get_strategy
    >>> rules = Rules.parse("p3c4n")
    >>> planted = build_tree(rules, get_strategy("simple"))
    >>> print(cache_problem(planted, (rules, "optimal", "optimal-total"), False, None))
    it is a tree of simple (strategy) on p3c4n, not of optimal (optimal-total) on p3c4n
    """
    rules, label, objective = wanted
    if (saved.rules, saved.strategy, saved.objective) != wanted:
        return (
            f"it is a tree of {saved.strategy[:60]} ({saved.objective[:60]}) on "
            f"{saved.rules.spec}, not of {label} ({objective}) on {rules.spec}"
        )
    if saved.stated is None:
        return "it has no summary to check"
    report = check_tree(saved, consistent_only)
    if report.summary is None or report.problems:
        return report.problems[0]
    if max_depth is not None and report.summary.worst > max_depth:
        return f"it needs {report.summary.worst} guesses, more than {max_depth}"
    expected = cache_key(saved, consistent_only, max_depth).encode()
    if not hmac.compare_digest((saved.key or "").encode(), expected):
        return (
            "its key is not one this installation's search wrote with these options (a tree "
            "made otherwise, or elsewhere)"
        )
    return None


class TreeStore(Protocol):
    """Searched trees by file name (``tree_file_name``)."""

    def read(self, name: str) -> DecisionTree | None:
        """The tree stored under ``name``, ``None`` if none is; a ``BullsCowsError`` if what
        is stored cannot be read as a tree."""

    def write(self, name: str, tree: DecisionTree) -> None:
        """Keep ``tree`` under ``name`` (an ``OSError`` or ``BullsCowsError`` if it cannot)."""

    def has(self, name: str) -> bool:
        """Whether something is stored under ``name``."""


class FileTreeStore:
    """Trees as files in a folder (``cache_dir()`` by default, looked up at each use)."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder

    def path(self, name: str) -> Path:
        return (self.folder or cache_dir()) / name

    def read(self, name: str) -> DecisionTree | None:
        path = self.path(name)
        if not (path.exists() or path.is_symlink()):
            return None
        return load_tree(path)

    def write(self, name: str, tree: DecisionTree) -> None:
        """Written beside and then renamed over the entry: a reader never sees half a file,
        and an entry that was a link (to a device, say) is replaced, not written through. A
        stated summary is written as it is (the search counted it; a read checks it,
        ``cache_problem``), without playing every secret down the tree again."""
        path = self.path(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, tree.file_bytes(path, figures=tree.stated), replace_links=True)

    def has(self, name: str) -> bool:
        return self.path(name).is_file()


_store: list[TreeStore] = [FileTreeStore()]


def tree_store() -> TreeStore:
    """The store of searched trees in use."""
    return _store[0]


def use_tree_store(store: TreeStore | None) -> None:
    """Keep searched trees in ``store`` from now on (``None``: the user's cache folder again)."""
    _store[0] = FileTreeStore() if store is None else store


def stored_tree(
    rules: Rules, name: str, objective: str, consistent_only: bool, max_depth: int | None
) -> Node | None:
    """The root of the optimal strategy ``name``'s tree (of ``objective``, with these options)
    for ``rules`` as kept: the shipped one, else the tree store's once ``cache_problem`` finds
    nothing wrong with it; ``None`` if neither. A shipped tree that cannot be read, or a
    stored one refused, is passed over with a ``BullsCowsWarning``.

    >>> from bullscows.codes import Code
    >>> mm = Rules.parse("mm")
    >>> Code.of_index(stored_tree(mm, "optimal", "total", False, None).guess, mm)
    Code('1123', Rules.parse('mm'))
    """
    wanted = (rules, tree_label(name, consistent_only, max_depth), f"optimal-{objective}")
    shipped = shipped_file(rules, name, consistent_only, max_depth)
    try:  # the bytes the tests checked: their digest was recorded when the trees were built
        saved = None if shipped is None else load_tree(read_shipped(shipped.name))
    except (OSError, BullsCowsError) as error:  # a damaged or changed installation
        saved = None
        warnings.warn(f"{error}; it is passed over", BullsCowsWarning, stacklevel=3)
    if saved is not None and (saved.rules, saved.strategy, saved.objective) == wanted:
        return saved.root
    name_in_store = tree_file_name(rules, name, consistent_only, max_depth)
    try:
        cached = tree_store().read(name_in_store)
        problem = (
            None if cached is None else cache_problem(cached, wanted, consistent_only, max_depth)
        )
    except BullsCowsError as error:
        cached, problem = None, str(error)
    if cached is not None and problem is None:
        return cached.root
    if problem is not None:
        warnings.warn(
            f"the stored tree {quote_path(name_in_store)} is passed over: {problem}",
            BullsCowsWarning,
            stacklevel=3,
        )
    return None


def keep_tree(found: DecisionTree, name: str, consistent_only: bool, max_depth: int | None) -> None:
    """Keep the tree the optimal strategy ``name`` searched (with these options) in the tree
    store, with its key (``cache_key``), if the store can take it (the store is a
    convenience: a read-only home still plays)."""
    stored = tree_file_name(found.rules, name, consistent_only, max_depth)
    keyed = replace(found, key=cache_key(found, consistent_only, max_depth))
    with contextlib.suppress(OSError, BullsCowsError):
        tree_store().write(stored, keyed)
