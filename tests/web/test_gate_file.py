"""The gate's file (``web/gate.py``) lasts as long as a process of the server uses it: for a
database other than SQLite it lives in the temporary folder, and the last process to close
its gate removes it; a process killed leaves it, for the next server to use and remove."""

from __future__ import annotations

import subprocess
import sys
import uuid
from collections.abc import Iterator

import pytest

from bullscows.web.gate import Gate, gate_path

#: Holds a gate on the database ``argv[1]`` until its input ends, then closes it.
HOLDER = """
import sys
from bullscows.web.gate import Gate
gate = Gate(sys.argv[1], 1)
print("holding", flush=True)
sys.stdin.read()
gate.close()
"""


@pytest.fixture
def url() -> Iterator[str]:
    """A database URL of its own (not SQLite: no database is reached, its gate's file is in
    the temporary folder)."""
    name = f"postgresql://nobody@localhost/test-{uuid.uuid4().hex}"
    yield name
    path = gate_path(name)
    assert path is not None
    path.unlink(missing_ok=True)


def holder(url: str) -> subprocess.Popen[str]:
    process = subprocess.Popen([sys.executable, "-c", HOLDER, url], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)  # fmt: skip
    assert process.stdout is not None and process.stdout.readline() == "holding\n"
    return process


def test_the_last_process_to_close_its_gate_removes_the_file(url: str) -> None:
    path = gate_path(url)
    assert path is not None and path.parent.name.startswith("bullscows-")
    mine = Gate(url, 1)
    also_mine = Gate(url, 1)
    assert path.exists()
    other = holder(url)
    mine.close()
    also_mine.close()
    assert path.exists()  # the other process holds it still
    other.communicate("", timeout=60)
    assert other.returncode == 0
    assert not path.exists()


def test_a_killed_process_leaves_the_file_for_the_next_server(url: str) -> None:
    path = gate_path(url)
    assert path is not None
    killed = holder(url)
    killed.kill()
    killed.wait()
    assert path.exists()
    again = Gate(url, 1)
    again.busy()
    again.close()
    assert not path.exists()


def test_a_gate_opened_after_the_file_was_removed_shares_a_new_one(url: str) -> None:
    first = Gate(url, 1)
    first.close()  # removed: this process forgets the old file
    path = gate_path(url)
    assert path is not None and not path.exists()
    second = Gate(url, 1)
    other = holder(url)  # another process on the same new file: it sees this one's requests
    second.enter()
    try:
        assert path.exists()
        probe = subprocess.run(
            [sys.executable, "-c", "import sys; from bullscows.web.gate import Gate; "
             "print(Gate(sys.argv[1], 1).busy())", url],
            capture_output=True, text=True, timeout=60, check=True,
        )  # fmt: skip
        assert probe.stdout.strip() == "1"
    finally:
        second.leave()
        second.close()
        other.communicate("", timeout=60)
    assert not path.exists()


def test_a_gate_closed_twice_or_used_after_closing_touches_no_newer_file(url: str) -> None:
    # an app served by several test clients runs its shutdown, which closes its gate, each time
    path = gate_path(url)
    assert path is not None
    old = Gate(url, 1)
    old.close()
    newer = Gate(url, 1)  # the file anew
    old.enter()
    old.leave()
    old.close()
    assert path.exists()
    assert newer.busy() == 0
    newer.close()
    assert not path.exists()
