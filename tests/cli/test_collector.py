"""The garbage collector around a command: off while the command's modules are imported,
what they made then set aside (frozen) and the young generation collected less often while the
command runs, and all as it was once the command is done (the tests run many commands in one
process)."""

from __future__ import annotations

import gc

import pytest
from click.testing import CliRunner

from bullscows import cli


def test_start_up_runs_without_collections_and_the_collector_is_restored(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = gc.get_threshold()
    seen: list[tuple[bool, int]] = []
    real_import = cli.importlib.import_module

    def importing(name: str) -> object:
        seen.append((gc.isenabled(), gc.get_threshold()[0]))
        module = real_import(name)
        return module

    real_freeze = gc.freeze
    frozen: list[bool] = []

    def freezing() -> None:
        frozen.append(gc.isenabled())
        real_freeze()

    monkeypatch.setattr(cli.importlib, "import_module", importing)
    monkeypatch.setattr(gc, "freeze", freezing)
    result = CliRunner().invoke(cli.main, ["rules", "bc"])
    assert result.exit_code == 0, result.output
    assert seen == [(False, before[0])]  # the command's module imported with no collections
    assert frozen == [False]  # what it made set aside once, before collections resume
    assert gc.isenabled() and gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_the_command_runs_with_a_raised_young_threshold(monkeypatch: pytest.MonkeyPatch) -> None:
    during: list[tuple[bool, int]] = []
    real_echo = cli.click.echo

    def echo(*args: object, **kwargs: object) -> None:
        during.append((gc.isenabled(), gc.get_threshold()[0]))
        real_echo(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(cli.click, "echo", echo)
    result = CliRunner().invoke(cli.main, ["score", "--rules", "bc", "0123", "0132"])
    assert result.exit_code == 0, result.output
    assert during and set(during) == {(True, cli._YOUNG_THRESHOLD)}
