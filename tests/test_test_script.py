"""``scripts/test``, the README's test command: it installs the package into ``.venv`` when
what the installation builds from changed, and otherwise runs pytest at once.

The script runs in a copy of the files it reads, with stand-ins on ``PATH`` for ``python3``
(which makes ``.venv``: it records its call and writes a stand-in ``pip`` and ``pytest``),
``chromium`` and ``initdb`` (so that nothing is installed from the system).
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Writes stand-ins for .venv's pip (records its arguments) and pytest (prints its own).
FAKE_PYTHON = """#!/usr/bin/env bash
echo "python3 $*" >> calls.txt
mkdir -p .venv/bin
printf '#!/usr/bin/env bash\\necho "pip $*" >> calls.txt\\n' > .venv/bin/pip
printf '#!/usr/bin/env bash\\necho "pytest $*"\\n' > .venv/bin/pytest
chmod +x .venv/bin/pip .venv/bin/pytest
"""


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
    executable(bin_ / "python3", FAKE_PYTHON)
    for name in ("chromium", "initdb"):
        executable(bin_ / name, "#!/usr/bin/env bash\n")
    return copy


def run(copy: Path, *args: str, **env: str) -> tuple[str, list[str]]:
    """What ``scripts/test ARGS`` prints, and the calls of python3 and pip it made."""
    calls = copy / "calls.txt"
    calls.unlink(missing_ok=True)
    path = f"{copy.parent / 'bin'}{os.pathsep}{os.environ['PATH']}"
    completed = subprocess.run(
        ["bash", "scripts/test", *args],
        cwd=copy,
        env={**os.environ, "PATH": path, **env},
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
    assert made == ["python3 -m venv .venv", "pip install -e .[test]"]
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
    assert run(copy)[1] == ["python3 -m venv .venv", "pip install -e .[test]"]
    assert run(copy)[1] == []
    with open(copy / "pyproject.toml", "a") as project:
        project.write("\n# edited\n")
    assert run(copy)[1] == ["python3 -m venv .venv", "pip install -e .[test]"]


def test_asked_to_or_without_pytest_it_installs_again(tmp_path: Path) -> None:
    copy = clone(tmp_path)
    run(copy)
    assert run(copy, BULLSCOWS_REINSTALL="1")[1] == [
        "python3 -m venv .venv",
        "pip install -e .[test]",
    ]
    (copy / ".venv/bin/pytest").unlink()
    assert run(copy)[1] == ["python3 -m venv .venv", "pip install -e .[test]"]
    assert run(copy)[1] == []
