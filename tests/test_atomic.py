"""Files are written whole or not at all: a write that fails part way (a full disk, here a
limit on the size of a file this process may write) leaves the file that was there as it was."""

from __future__ import annotations

import os
import resource
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

from bullscows import Rules
from bullscows.atomic import write_atomic
from bullscows.bench import run_bench
from bullscows.charts import plot_report
from bullscows.cli import main
from bullscows.errors import BullsCowsError
from bullscows.strategies import get_strategy
from bullscows.tree import load_tree


@contextmanager
def disk_full_after(size: int) -> Iterator[None]:
    """Writes past ``size`` bytes of a file fail (``EFBIG``; Python ignores ``SIGXFSZ``), as
    on a disk that fills up part way through."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))


def test_tree_out_on_a_full_disk_keeps_the_good_file(tmp_path: Path) -> None:
    good = tmp_path / "tree.json"
    runner = CliRunner()
    first = runner.invoke(main, ["tree", "--rules", "p3c4n", "--out", str(good)])
    assert first.exit_code == 0, first.output
    before = good.read_bytes()
    with disk_full_after(len(before) + 100):  # mm's tree is far larger
        result = runner.invoke(main, ["tree", "--rules", "mm", "--out", str(good)])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"Error: cannot write the tree to '{good}'")
    assert "Traceback" not in result.output
    assert good.read_bytes() == before  # still the p3c4n tree, whole
    assert load_tree(good).rules == Rules.parse("p3c4n")
    assert [p.name for p in tmp_path.iterdir()] == ["tree.json"]  # no part file left


def test_a_chart_on_a_full_disk_keeps_the_good_file(tmp_path: Path) -> None:
    report = run_bench(Rules.parse("p3c4n"), [get_strategy("simple"), get_strategy("minimax")])
    chart = tmp_path / "chart.svg"
    chart.write_bytes(b"<svg/>")
    with disk_full_after(100), pytest.raises(BullsCowsError, match="cannot write the chart"):
        plot_report(report, chart)
    assert chart.read_bytes() == b"<svg/>"
    assert [p.name for p in tmp_path.iterdir()] == ["chart.svg"]
    plot_report(report, chart)
    assert chart.read_bytes().startswith(b"<?xml")


def test_a_rewritten_file_keeps_its_permissions_and_links(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    real.write_bytes(b"old")
    real.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    assert write_atomic(link, b"new")
    assert link.is_symlink() and real.read_bytes() == b"new"  # written through the link
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert write_atomic(link, b"cache", replace_links=True)
    assert not link.is_symlink() and real.read_bytes() == b"new"  # the link replaced


def test_exclusive_and_private_writes(tmp_path: Path) -> None:
    path = tmp_path / "secret"
    assert write_atomic(path, b"first", private=True, exclusive=True)
    assert not write_atomic(path, b"second", private=True, exclusive=True)
    assert path.read_bytes() == b"first"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_what_is_not_a_regular_file_is_written_as_it_is(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        assert write_atomic(fifo, b"through")
        assert os.read(reader, 100) == b"through"
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
