"""Writing a file whole or not at all: its bytes go to a file beside it, which is flushed to
disk and then renamed over it. A reader sees the old file or the new one, never half of one,
and a write that fails (a full disk) leaves the old file as it was.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> write_atomic(folder / "a.txt", b"one"), write_atomic(folder / "a.txt", b"two")
(True, True)
>>> (folder / "a.txt").read_bytes(), [p.name for p in folder.iterdir()]
(b'two', ['a.txt'])
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path

from bullscows.errors import BullsCowsError
from bullscows.readers import quote_path


def part_path(path: Path) -> Path:
    """The file beside ``path`` that this process writes before renaming it over ``path``."""
    return path.with_name(f"{path.name}.{os.getpid()}.part")


def write_atomic(
    path: str | Path,
    data: bytes,
    *,
    replace_links: bool = False,
    private: bool = False,
    exclusive: bool = False,
) -> bool:
    """Write ``data`` to ``path`` whole (see the module); ``False`` if ``exclusive`` and
    ``path`` already exists (it is then left alone), else ``True``. An ``OSError`` if it cannot.

    A link is followed to the file it names (a user's link to a tree stays a link), unless
    ``replace_links`` (a cache entry that is a link is replaced, not written through). What is
    not a regular file (``/dev/null``, a pipe) is written as it is: it cannot be renamed over.
    The new file keeps the old one's permissions; ``private`` makes it readable by the user
    alone.
    """
    target = Path(path)
    if not replace_links:
        with contextlib.suppress(OSError):
            target = target.resolve()
    try:
        old = target.stat() if not replace_links else target.lstat()
    except FileNotFoundError:
        old = None
    if old is not None and exclusive:
        return False
    if old is not None and not replace_links and not stat.S_ISREG(old.st_mode):
        with open(target, "wb") as out:
            out.write(data)
        return True
    part = part_path(target)
    mode = 0o600 if private else 0o666
    try:
        descriptor = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
        with os.fdopen(descriptor, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        if old is not None and stat.S_ISREG(old.st_mode) and not private:
            os.chmod(part, stat.S_IMODE(old.st_mode))
        if exclusive:
            try:
                os.link(part, target)  # fails where another process wrote it first
            except FileExistsError:
                return False
        else:
            os.replace(part, target)
    finally:
        part.unlink(missing_ok=True)
    return True


def write_file(path: str | Path, data: bytes, what: str) -> None:
    """``write_atomic`` for a file a person names: a failure is a ``BullsCowsError`` saying
    ``what`` could not be written where, and why. A file its owner may not write (made
    read-only to keep it) is refused, not replaced.

    >>> try:
    ...     write_file("/dev/null/card.json", b"{}", "the card")
    ... except BullsCowsError as error:
    ...     print(error)
    cannot write the card to '/dev/null/card.json': Not a directory
    """
    try:
        _writable(Path(path))
        write_atomic(path, data)
    except OSError as error:
        raise _unwritable(path, what, error) from None


def _unwritable(path: str | Path, what: str, error: OSError) -> BullsCowsError:
    return BullsCowsError(f"cannot write {what} to {quote_path(path)}: {error.strerror or error}")


def _writable(path: Path, in_place: bool = False) -> None:
    """An ``OSError`` unless ``path`` can be written: a file there that its owner may write,
    or a folder where ``write_atomic`` can make its part file (made and removed here). With
    ``in_place`` (a file appended to where it is, as a checkpoint), a regular file that may
    be written needs no part file: the folder is probed only for a file not made yet."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
    if mode is not None and not os.access(path, os.W_OK):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
    if mode is not None and (in_place or not stat.S_ISREG(mode)):
        return  # written as it is (/dev/null, a checkpoint): no part file
    with contextlib.suppress(OSError):
        path = path.resolve()  # its part file goes beside the file a link names
    part = part_path(path)
    try:
        os.close(os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        return  # this process is writing it
    os.unlink(part)


def check_folder(path: str | Path, what: str, in_place: bool = False) -> Path:
    """``path`` if its folder exists and a file can be written there (``_writable``, with
    ``in_place``), so that ``what`` can be written once it is made; else the
    ``BullsCowsError`` that writing it would raise, before the work. No folder is made: a
    file a person names goes where it is named, or nowhere.

    >>> try:
    ...     check_folder("missing/card.json", "the card")
    ... except BullsCowsError as error:
    ...     print(error)
    cannot write the card to 'missing/card.json': No such file or directory
    >>> check_folder(".", "the card")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bullscows.errors.BullsCowsError: cannot write the card to '.': it is a folder; give a ...
    """
    if Path(path).is_dir():
        raise BullsCowsError(
            f"cannot write {what} to {quote_path(path)}: it is a folder; give a file's name"
        )
    folder = Path(path).parent
    if not folder.is_dir():
        reason = "Not a directory" if folder.exists() else "No such file or directory"
        raise BullsCowsError(f"cannot write {what} to {quote_path(path)}: {reason}")
    try:
        _writable(Path(path), in_place)
    except OSError as error:
        raise _unwritable(path, what, error) from None
    return Path(path)
