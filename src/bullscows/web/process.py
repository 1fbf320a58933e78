"""``bullscows serve`` in a process of its own, for the tests, the benchmark and the
screenshots: on 127.0.0.1 and a free port, over the database given, stopped on leaving.

Stopping it is a SIGKILL of its whole process group (its workers too): no goodbye, as when a
machine fails; every committed move survives.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO

#: The ``bullscows`` command of the Python running this.
BULLSCOWS = Path(sys.executable).parent / "bullscows"


@contextmanager
def serving(database: str, *options: str, seconds: float = 60) -> Iterator[str]:
    """The base URL of a server over ``database`` (with more ``serve`` options, such as
    ``--workers 2``), up and answering; killed on leaving. It listens on a port it chose
    itself (``--port 0``), named by its first line: no other program can take it meanwhile."""
    env = {**os.environ, "BULLSCOWS_DATABASE": database}
    with tempfile.TemporaryFile() as output:  # a file, not a pipe: it never fills up
        process = subprocess.Popen(
            [str(BULLSCOWS), "serve", "--host", "127.0.0.1", "--port", "0", *options],
            env=env, stdout=output, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        try:
            yield _wait(process, output, seconds)
        finally:
            with suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)


#: Asks 127.0.0.1 directly, whatever proxy the environment names.
_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))
#: The line ``serve`` prints once it listens, with the port it chose.
_LINE = re.compile(rb"serving on (http://127\.0\.0\.1:\d+)/")


def _wait(process: subprocess.Popen[bytes], output: IO[bytes], seconds: float) -> str:
    """The server's base URL once it answers (its port read from its first line)."""
    deadline, base = time.monotonic() + seconds, None
    while time.monotonic() < deadline:
        if process.poll() is not None:
            output.seek(0)
            raise RuntimeError(f"the server stopped: {output.read().decode(errors='replace')}")
        if base is None:  # read where it stands: the server writes on at the file's offset
            found = _LINE.search(os.pread(output.fileno(), 1 << 16, 0))
            base = None if found is None else found.group(1).decode()
        if base is not None:
            with suppress(OSError), _DIRECT.open(f"{base}/api/health", timeout=2) as answer:
                if answer.status == 200:
                    return base
        time.sleep(0.1)
    raise RuntimeError(f"the server did not answer within {seconds} s")
