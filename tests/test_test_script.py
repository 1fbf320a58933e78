"""``scripts/test``, the README's test command: it installs the package into ``.venv`` when
what the installation builds from changed, makes ``.venv`` anew when it does not run this
clone's package, and otherwise runs pytest at once.

The script runs in a copy of the files it reads, with stand-ins on ``PATH`` for ``python3``,
``chromium`` and ``initdb`` (so that nothing is installed from the system). The stand-in
``python3`` prints ``$FAKE_VERSION`` as its version and makes a ``.venv`` whose ``pip`` records
where it installed the package, whose ``python`` imports it only from there and only under the
``python3`` that made it (as a real one, whose packages are under its version's folder), and
whose ``pytest`` prints its arguments.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Stand-ins by name: python3 on PATH, and what it copies into .venv (pip copies pytest).
STAND_INS = {
    "python3": """#!/usr/bin/env bash
if [ "$1" = -c ]; then echo "${FAKE_VERSION:-3.11}"; exit; fi
echo "python3 $*" >> calls.txt
if [ "$3" = --clear ]; then rm -rf .venv; fi
mkdir -p .venv/bin
echo "${FAKE_VERSION:-3.11}" > .venv/version
cp "$STAND_INS/venv-pip" .venv/bin/pip
cp "$STAND_INS/venv-python" .venv/bin/python
""",
    "venv-pip": """#!/usr/bin/env bash
echo "pip $*" >> calls.txt
echo "$(pwd -P)/src" > .venv/package
cp "$STAND_INS/venv-pytest" .venv/bin/pytest
""",
    "venv-python": """#!/usr/bin/env bash
# -c CODE SRC [pytest]: this clone's package, under the python3 that made .venv
here=$(dirname "$0")/..
[ "$(cat "$here/version")" = "${FAKE_VERSION:-3.11}" ] || exit 1
[ "$(cat "$here/package" 2>/dev/null)" = "$(cd "$3" && pwd -P)" ] || exit 1
[ "$4" != pytest ] || [ -x "$here/bin/pytest" ]
""",
    "venv-pytest": '#!/usr/bin/env bash\necho "pytest $*"\n',
    "chromium": "#!/usr/bin/env bash\n",
    "initdb": "#!/usr/bin/env bash\n",
}

INSTALL = ["python3 -m venv .venv", "pip install -e .[test]"]
ANEW = ["python3 -m venv --clear .venv", "pip install -e .[test]"]


def executable(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def clone(tmp_path: Path) -> Path:
    """The files the script reads, copied under ``tmp_path``, and stand-ins on a folder of
    their own."""
    copy = tmp_path / "clone"
    for name in ("scripts/test", "pyproject.toml", "setup.py"):
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, copy / name)
    shutil.copytree(
        ROOT / "src/bullscows/_kernels",
        copy / "src/bullscows/_kernels",
        ignore=shutil.ignore_patterns("*.so", "__pycache__"),
    )
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    for name, text in STAND_INS.items():
        executable(bin_ / name, text)
    return copy


def run(copy: Path, *args: str, **env: str) -> tuple[str, list[str]]:
    """What ``scripts/test ARGS`` prints, and the calls of python3 and pip it made."""
    calls = copy / "calls.txt"
    calls.unlink(missing_ok=True)
    stand_ins = copy.parent / "bin"
    path = f"{stand_ins}{os.pathsep}{os.environ['PATH']}"
    completed = subprocess.run(
        ["bash", "scripts/test", *args],
        cwd=copy,
        env={**os.environ, "PATH": path, "STAND_INS": str(stand_ins), **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    made = calls.read_text().splitlines() if calls.exists() else []
    return completed.stdout, made


def test_a_fresh_clone_is_installed_then_a_second_run_tests_at_once(tmp_path: Path) -> None:
    copy = clone(tmp_path)
    out, made = run(copy, "-q", "tests/test_rules.py")
    assert made == INSTALL
    assert out.strip().endswith("pytest -q tests/test_rules.py")
    out, made = run(copy, "-x")
    assert made == []
    assert "installed from these sources" in out
    assert out.strip().endswith("pytest -x")


def test_a_changed_kernel_or_dependency_installs_again(tmp_path: Path) -> None:
    copy = clone(tmp_path)
    run(copy)
    with open(copy / "src/bullscows/_kernels/scoring.py", "a") as kernel:
        kernel.write("\n# edited\n")
    assert run(copy)[1] == INSTALL
    assert run(copy)[1] == []
    with open(copy / "pyproject.toml", "a") as project:
        project.write("\n# edited\n")
    assert run(copy)[1] == INSTALL


def test_asked_to_or_without_pytest_it_installs_again(tmp_path: Path) -> None:
    copy = clone(tmp_path)
    run(copy)
    assert run(copy, BULLSCOWS_REINSTALL="1")[1] == INSTALL
    (copy / ".venv/bin/pytest").unlink()
    assert run(copy)[1] == INSTALL
    assert run(copy)[1] == []


def test_a_moved_or_copied_clone_or_a_new_python_makes_venv_anew(tmp_path: Path) -> None:
    copy = clone(tmp_path)
    run(copy)
    moved = copy.rename(tmp_path / "moved")
    assert run(moved)[1] == ANEW
    assert run(moved)[1] == []
    copied = tmp_path / "copied"
    shutil.copytree(moved, copied, symlinks=True)
    assert run(copied)[1] == ANEW
    assert run(moved)[1] == []
    assert run(moved, FAKE_VERSION="3.12")[1] == ANEW
    assert run(moved, FAKE_VERSION="3.12")[1] == []
