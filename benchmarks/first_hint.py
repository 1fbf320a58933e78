"""A fresh server's first hint, with numba's cache empty: how long start-up takes and how
long the first game and hint wait.

Run: python benchmarks/first_hint.py [--workers 1] [--rules mm]

It starts ``bullscows serve`` on a free port over a fresh SQLite file with
``NUMBA_CACHE_DIR`` set to an empty folder (as on a machine that never ran the package), and
prints when the server said it listens, how long after that line its first game was
answered, and how long that game's first hint took (and its status: 422 when it waited out
the server's budget).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from bullscows.cli.serve import GETTING_READY

#: Asks 127.0.0.1 directly, whatever proxy the environment names.
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def post(url: str, body: object = None) -> tuple[int, Any]:
    """The status and JSON answer of a POST of ``body`` as JSON."""
    data = json.dumps(body or {}).encode()
    request = urllib.request.Request(url, data=data, method="POST",
                                     headers={"Content-Type": "application/json"})  # fmt: skip
    try:
        with DIRECT.open(request, timeout=120) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=1, help="server processes (1)")
    parser.add_argument("--rules", default="mm", help="the variant of the game (mm)")
    args = parser.parse_args()
    command = [str(Path(sys.executable).parent / "bullscows"), "serve", "--port", "0",
               "--workers", str(args.workers)]  # fmt: skip
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        start = time.perf_counter()
        server = subprocess.Popen(
            [*command, "--database", f"sqlite:///{folder}/games.sqlite3"], env=env,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
        )  # fmt: skip
        try:
            assert server.stdout is not None
            ready = server.stdout.readline()  # stderr's "Getting ready ...", then stdout's
            assert ready == f"{GETTING_READY}\n", ready
            line = server.stdout.readline()
            said = time.perf_counter()
            base = line.split()[3].rstrip("/")
            while True:
                try:
                    _, game = post(f"{base}/api/games", {"mode": "play", "rules": args.rules})
                    break
                except OSError:  # not listening yet
                    time.sleep(0.05)
            made = time.perf_counter()
            status, _ = post(f"{base}/api/games/{game['id']}/hint")
            hinted = time.perf_counter()
        finally:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
    print(f"--workers {args.workers}: serving line after {said - start:.1f} s; first game "
          f"answered {made - said:.2f} s after it; first hint {hinted - made:.2f} s "
          f"(status {status})")  # fmt: skip


if __name__ == "__main__":
    main()
