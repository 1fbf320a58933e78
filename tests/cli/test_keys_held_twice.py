"""Every JSON file a person hands a command (a tree, a checkpoint, a card, a saved game) is
read by ``readers.load_json``: an object that holds a key twice is refused in one line that
names the file and the object (a JSON Pointer), exit 1 (2 where the file is a strategy's
name, ``--strategy card:FILE``, as any strategy refused), the file left as it was. Python's
``json`` would keep the second value and drop the first unseen."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from bullscows.cli import main

ENV = {"COLUMNS": "300", "TTY_COMPATIBLE": "0"}


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), env=ENV)
    assert isinstance(result.exception, SystemExit | None), result.exception  # no traceback
    return result.exit_code, result.output


def _tree(folder: Path) -> tuple[Path, list[str]]:
    path = folder / "tree.json"
    assert run("tree", "--rules", "p3c5n", "--strategy", "minimax", "--out", str(path))[0] == 0
    text = path.read_text()
    path.write_text(text.replace('"rules":"p3c5n"', '"rules":"p3c5n","rules":"p3c6n"', 1))
    return path, ["tree", "--check", str(path)]


def _checkpoint(folder: Path) -> tuple[Path, list[str]]:
    path = folder / "run.ckpt"
    command = ["tree", "--rules", "p3c5n", "--strategy", "optimal", "--checkpoint", str(path)]
    assert run(*command, "--quiet")[0] == 0
    path.write_text(path.read_text().replace('"total"', '"total", "objective": "worst"', 1))
    return path, command


def _card(folder: Path) -> tuple[Path, list[str]]:
    path = folder / "card.json"
    assert run("card", "--rules", "p3c5n", "--lines", "2", "--out", str(path))[0] == 0
    path.write_text(path.read_text().replace('"rule": "first"', '"rule": "any", "rule": "first"'))
    return path, ["card", "--card", str(path)]


def _card_played(folder: Path) -> tuple[Path, list[str]]:
    path, _ = _card(folder)
    return path, ["bench", "--rules", "p3c5n", "--strategy", f"card:{path}"]


def _record(folder: Path) -> tuple[Path, list[str]]:
    path = folder / "game.json"
    path.write_text(
        '{"version":1,"kind":"codebreaker","rules":"mm","seed":1,"strategy":null,'
        '"secret":null,"events":[{"do":"guess","code":"1122","code":"3456"}]}'
    )
    return path, ["analyse", "--record", str(path)]


#: How each kind of file is made with a key held twice, the command that reads it, and
#: where its error says the key is, and the exit status.
FILES: dict[str, tuple[Callable[[Path], tuple[Path, list[str]]], str, int]] = {
    "tree": (_tree, "line 1: the top object holds the key 'rules' twice", 1),
    "checkpoint": (_checkpoint, "line 1: the top object holds the key 'objective' twice", 1),
    "card": (_card, "': the top object holds the key 'rule' twice", 1),
    "card played": (_card_played, "': the top object holds the key 'rule' twice", 2),
    "game record": (_record, "line 1: the object at '/events/0' holds the key 'code' twice", 1),
}


@pytest.mark.parametrize("kind", list(FILES))
def test_a_key_held_twice_is_refused_in_one_line_naming_file_and_object(
    kind: str, tmp_path: Path
) -> None:
    make, where, status = FILES[kind]
    path, command = make(tmp_path)
    before = path.read_bytes()
    code, output = run(*command)
    assert code == status, output
    line = output.splitlines()[-1]
    assert line.startswith("Error: ") and f"'{path}'" in line, output
    assert where in line and line.count("holds the key") == 1, output
    assert "a key may appear once" in line, output
    assert path.read_bytes() == before
