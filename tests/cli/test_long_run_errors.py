"""The options of the long runs (``tree``'s searches, ``tree --opening``, ``bench``) given
wrong values: negative, zero, text, nan and infinity, files that are missing, unreadable,
damaged or of another search. Each is refused before any work with one line that quotes the
value and says what is valid, and a non-zero exit (2: a usage error, 1: a file or value
refused as it is read), never a traceback."""

from __future__ import annotations

import gzip
import os
import socket
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from bullscows import dask_tasks
from bullscows.cli import main
from bullscows.outcomes import build_tree
from bullscows.rules import Rules
from bullscows.search.checkpoint import Checkpoint
from bullscows.strategies import get_strategy
from bullscows.tree import irving

#: A search of a few milliseconds, were it to start.
SEARCH = ["tree", "--rules", "p3c5n", "--strategy", "optimal"]
OPENING = [*SEARCH, "--opening", "root-bound"]
BENCH = ["bench", "--rules", "p3c5n", "--strategy", "simple"]


def refused(args: list[str], quoted: str, valid: str, code: int) -> Result:
    """``bullscows ARGS`` ends with exit ``code`` and its error on one line, which quotes
    ``quoted`` and says ``valid``; no traceback, and (exit 1) nothing else on stderr."""
    result = CliRunner().invoke(main, args, env={"COLUMNS": "300", "TTY_COMPATIBLE": "0"})
    assert isinstance(result.exception, SystemExit), result.exception  # no traceback
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    *before, error = result.stderr.splitlines()
    assert error.startswith("Error: "), result.stderr
    assert quoted in error and valid in error, error
    if code == 1:
        assert before == [], result.stderr  # not even an announcement of the run
    return result


@pytest.mark.parametrize(
    ("args", "quoted", "valid"),
    [
        (["--budget", "-1"], "-1", "x>=1"),
        (["--budget", "0"], "0", "x>=1"),
        (["--budget", "many"], "'many'", "integer"),
        (["--budget", "1.5"], "'1.5'", "integer"),
        (["--time-limit", "-5"], "-5", "x>0"),
        (["--time-limit", "0"], "0", "x>0"),
        (["--time-limit", "soon"], "'soon'", "number"),
        (["--time-limit", "nan"], "'nan'", "is not a number"),
        (["--time-limit", "inf"], "'inf'", "is not a finite number"),
        (["--log-every", "nan"], "'nan'", "is not a number"),
        (["--jobs", "0"], "0", "x>=1"),
        (["--jobs", "-2"], "-2", "x>=1"),
        (["--jobs", "two"], "'two'", "integer"),
        (["--opening", "root-bound", "--jobs", "0"], "0", "x>=1"),
        (["--opening", "root-bound", "--budget", "0"], "0", "x>=1"),
        (["--opening", "root-bound", "--time-limit", "-1"], "-1", "x>0"),
        (["--opening", "root-bound", "--format", "text"], "--opening", "without --format"),
        (["--strategy", "entropy", "--opening", "root-bound"], "'entropy'", "--strategy optimal"),
        (["--strategy", "entropy", "--budget", "9"], "--budget", "optimal strategies"),
        (["--jobs", "2", "--scheduler", "tcp://127.0.0.1:1"], "--scheduler", "not both"),
    ],
)
def test_a_wrong_option_of_a_search_is_a_usage_error(
    args: list[str], quoted: str, valid: str
) -> None:
    refused([*SEARCH, *args], quoted, valid, 2)


@pytest.mark.parametrize(
    ("args", "quoted", "valid"),
    [
        (["--jobs", "0"], "0", "x>=1"),
        (["--jobs", "-1"], "-1", "x>=1"),
        (["--jobs", "some"], "'some'", "integer"),
        (["--log-every", "-1"], "-1", "x>=0"),
        (["--log-every", "nan"], "'nan'", "is not a number"),
        (["--log-every", "Infinity"], "'Infinity'", "is not a finite number"),
        (["--sample", "-3"], "-3", "x>=1"),
        (["--max-guesses", "0"], "0", "x>=1"),
        (["--max-guesses", "ten"], "'ten'", "integer"),
        (["--seed", "abc"], "'abc'", "integer"),
        (["--seed", "1e3"], "'1e3'", "integer"),
        (["--seed", "-1000000000000000000"], "-1000000000000000000", "at most 18 digits"),
        (["--sample", "9" * 5000], "'999", "(5,000 characters) is not a valid integer"),
        (["--log-every", "9" * 400], "'999", "(400 characters) is not a valid number"),
        (["--plot", "chart.gif"], "'chart.gif'", "name it with .png or .svg"),
        (["--plot", "chart"], "'chart'", "a file without an extension; name it with .png"),
    ],
)
def test_a_wrong_option_of_a_bench_is_a_usage_error(
    args: list[str], quoted: str, valid: str
) -> None:
    refused([*BENCH, *args], quoted, valid, 2)


@pytest.mark.parametrize(
    ("opening", "quoted", "valid"),
    [
        ("12", "'12'", "a code has 3"),
        ("top", "'top'", "symbols are 0-4"),
        ("0055", "'0055'", "a code has 3"),
        ("007", "'007'", "'0' appears twice"),
    ],
)
def test_a_wrong_opening_is_refused_in_one_line(opening: str, quoted: str, valid: str) -> None:
    refused([*SEARCH, "--opening", opening], quoted, valid, 1)


COMMANDS = [SEARCH, OPENING, [*BENCH, "--quiet"]]
COMMAND_IDS = ["search", "opening", "bench"]
#: What a scheduler's address looks like, said with every address refused.
ADDRESS = "give tcp://HOST:PORT of a running Dask scheduler"


@pytest.mark.parametrize("command", COMMANDS, ids=COMMAND_IDS)
@pytest.mark.parametrize(
    ("address", "problem"),
    [
        ("nowhere", "no port"),
        ("tcp://host", "no port"),
        ("tcp://127.0.0.1:", "no port"),
        ("tcp://127.0.0.1:99999", "the port '99999' is not one of 1 to 65535"),
        ("tcp://127.0.0.1:0", "the port '0' is not one of 1 to 65535"),
        ("http://127.0.0.1:8786", "the scheme 'http' is not one of tcp, tls, ws, wss"),
        ("tcp://127.0.0.1:port", "not an address"),
        ("", "not an address"),
    ],
)
def test_a_scheduler_address_of_a_wrong_form_is_a_usage_error(
    command: list[str], address: str, problem: str
) -> None:
    error = refused([*command, "--scheduler", address], repr(address), ADDRESS, 2).stderr
    assert f"'--scheduler': {address!r}: {problem}; " in error, error


@pytest.mark.parametrize("command", COMMANDS, ids=COMMAND_IDS)
def test_an_address_where_nothing_listens_is_refused_at_once(command: list[str]) -> None:
    with socket.socket() as held:  # bound, not listening: refused, and no one else takes it
        held.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{held.getsockname()[1]}"
        refused([*command, "--scheduler", address], repr(address), "nothing listens there", 1)


#: Commands that announce their run on stderr before it starts (a long search or bench).
ANNOUNCING = [
    ["tree", "--rules", "bc", "--strategy", "optimal"],
    ["tree", "--rules", "p4c9r", "--strategy", "optimal", "--opening", "root-bound"],
    ["bench", "--rules", "bc5", "--strategy", "simple"],
]


@pytest.mark.parametrize("command", ANNOUNCING, ids=COMMAND_IDS)
def test_a_refused_scheduler_is_refused_before_the_announcement(command: list[str]) -> None:
    # The refusal is the whole output: no announcement of a run that never starts.
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{held.getsockname()[1]}"
        result = refused([*command, "--scheduler", address], repr(address), "nothing listens", 1)
    assert result.stdout == "", result.stdout


def test_a_host_that_does_not_exist_is_named() -> None:
    address = "tcp://no-such-host.invalid:8786"
    error = refused([*SEARCH, "--scheduler", address], repr(address), ADDRESS, 1).stderr
    assert "no host is named 'no-such-host.invalid'" in error, error


def test_a_server_that_does_not_answer_is_refused_after_the_timeout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Something listens but says nothing (Dask's own client would wait for ever)."""
    pytest.importorskip("dask.distributed")
    monkeypatch.setattr(dask_tasks, "SCHEDULER_TIMEOUT", 0.5)
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        address = f"tcp://127.0.0.1:{silent.getsockname()[1]}"
        error = refused([*SEARCH, "--scheduler", address], repr(address), ADDRESS, 1).stderr
    assert "no Dask scheduler answered there within 0.5 s" in error, error


def test_too_many_jobs_for_the_machine_is_refused_in_one_line() -> None:
    jobs = str(10 * (os.cpu_count() or 1) + 10)
    refused([*SEARCH, "--jobs", jobs], f"--jobs {jobs}", "give --jobs", 1)
    refused([*OPENING, "--jobs", jobs], f"--jobs {jobs}", "give --jobs", 1)


@pytest.mark.parametrize("command", [SEARCH, OPENING], ids=["search", "opening"])
def test_a_variant_past_the_search_is_refused_before_it_is_announced(command: list[str]) -> None:
    args = [command[0], "--rules", "p6c9r", *command[3:]]
    refused(args, "531,441 codes", "handles at most 65,536: give a smaller variant", 1)


def _bytes(path: Path) -> None:
    path.write_bytes(b"not text \xff\xfe\n")


def _json(path: Path) -> None:
    path.write_text('{"format": "a tree", "rules": "p3c5n"}\n')


def _header(path: Path) -> None:
    Checkpoint(path, "p3c5n", "total", None, False)  # a header of this search


def _answer(path: Path) -> None:
    _header(path)
    with path.open("a") as out:
        out.write('{"weight": 1, "history": "x"}\n{"weight": 1}\n')


def _other_rules(path: Path) -> None:
    Checkpoint(path, "p3c6n", "total", None, False)


def _other_objective(path: Path) -> None:
    Checkpoint(path, "p3c5n", "worst", None, False)


def _other_version(path: Path) -> None:
    path.write_text('{"format": "bullscows-search-checkpoint", "version": 1, "rules": "p3c5n"}\n')


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _tree(path: Path) -> None:
    """A tree file given as the checkpoint (as `tree --out` writes it)."""
    build_tree(Rules.parse("p3c5n"), get_strategy("minimax")).save(path)


def _irving(path: Path) -> None:
    irving.save_tree(build_tree(Rules.parse("p3c5n"), get_strategy("minimax")), path)


def _gzip(path: Path) -> None:
    """A checkpoint compressed (it would be read, then appended to as text)."""
    _answers(path)
    path.write_bytes(gzip.compress(path.read_bytes()))


def _answers(path: Path) -> None:
    """A checkpoint of this search with two answers."""
    _header(path)
    with path.open("a") as out:
        for weight in (1, 2):
            out.write(f'{{"weight":{weight},"history":[],"depth":3,"window":9,"cost":null,'
                      '"tree":null}\n')  # fmt: skip


def _cut_inside(path: Path) -> None:
    """Cut short, then appended to: the damage is inside the file, not at its end."""
    _answers(path)
    lines = path.read_text().splitlines(keepends=True)
    path.write_text(lines[0] + lines[1][:20] + lines[2])


def _twice_in_header(path: Path) -> None:
    _header(path)
    path.write_text(path.read_text().replace('"rules"', '"rules": "p3c5n", "rules"', 1))


def _twice_in_answer(path: Path) -> None:
    _answers(path)
    path.write_text(path.read_text().replace('"depth":3', '"depth":3,"depth":4', 1))


def _twice_in_last_answer(path: Path) -> None:
    """A whole last line (its newline is there) that holds a key twice: damaged, not cut short."""
    _answers(path)
    text = path.read_text()
    cut = text.rindex('"depth":3')
    path.write_text(text[:cut] + '"depth":3,"depth":4' + text[cut + len('"depth":3') :])


THIS = "give this search's checkpoint, or a new file's name"
ANOTHER = "resume it with those options, or give another file"


def _mend(number: int) -> str:
    return f"mend or remove line {number} to resume from the other answers"


#: Files no search can resume from: how each is made, what its error says, and its advice.
CHECKPOINTS = {
    "not-text": (_bytes, "is not UTF-8 text: byte 0xff", THIS),
    "not-a-checkpoint": (_json, "is not a bullscows search checkpoint", THIS),
    "a-tree-file": (_tree, "is not a bullscows search checkpoint", THIS),
    "a-tree-in-irving-notation": (_irving, "is not a bullscows search checkpoint", THIS),
    "compressed": (_gzip, "is compressed (gzip)", "uncompress it to resume from it"),
    "damaged-answer": (_answer, "line 2: expected an object with the keys", _mend(2)),
    "cut-inside": (_cut_inside, "line 2 is not JSON", _mend(2)),
    "key-twice-in-header": (_twice_in_header, "holds the key 'rules' twice", THIS),
    "key-twice-in-answer": (_twice_in_answer, "line 2: the top object holds the key", _mend(2)),
    "key-twice-last": (_twice_in_last_answer, "line 3: the top object holds the key", _mend(3)),
    "other-rules": (_other_rules, "another search ('p3c6n, total'), not p3c5n, total", ANOTHER),
    "other-objective": (_other_objective, "is for another search ('p3c5n, worst')", ANOTHER),
    "other-version": (_other_version, "another version of bullscows", "with that version"),
    "pipe": (_fifo, "is not a regular file (a pipe)", THIS),
}


@pytest.mark.parametrize("command", [SEARCH, OPENING], ids=["search", "opening"])
@pytest.mark.parametrize("kind", list(CHECKPOINTS))
def test_a_checkpoint_no_search_can_resume_from_is_refused_in_one_line(
    command: list[str], kind: str, tmp_path: Path
) -> None:
    make, says, advice = CHECKPOINTS[kind]
    path = tmp_path / "run.ckpt"
    make(path)
    before = path.read_bytes() if path.is_file() else None
    error = refused([*command, "--checkpoint", str(path)], f"'{path}'", says, 1).stderr
    assert advice in error and "delete" not in error, error
    assert (path.read_bytes() if path.is_file() else None) == before  # left as it was


@pytest.mark.parametrize("kind", ["empty", "header-cut-short"])
def test_an_empty_checkpoint_or_one_whose_header_was_cut_starts_afresh(
    kind: str, tmp_path: Path
) -> None:
    path = tmp_path / "run.ckpt"
    _header(path)
    header = path.read_text()
    path.write_text("" if kind == "empty" else header[:30])
    result = CliRunner().invoke(main, [*SEARCH, "--checkpoint", str(path), "--quiet"])
    assert result.exit_code == 0, result.output
    assert path.read_text() == header


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a file whatever its permissions")
def test_an_unreadable_checkpoint_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "run.ckpt"
    Checkpoint(path, "p3c5n", "total", None, False)
    path.chmod(0)
    refused([*SEARCH, "--checkpoint", str(path)], f"'{path}'", "Permission denied", 1)


def test_one_file_for_the_tree_and_the_checkpoint_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A stopped search writes the tree it found to --out: over its own answers, were they one.
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "run.json"
    for command in (SEARCH, OPENING):
        for same in (str(path), "run.json"):  # one file, however it is named
            args = [*command, "--checkpoint", str(path), "--out", same]
            refused(args, f"'{same}'", "give each its own file", 2)
    assert list(tmp_path.iterdir()) == []


def test_a_missing_folder_of_a_checkpoint_is_refused_before_the_opening(tmp_path: Path) -> None:
    path = tmp_path / "none" / "run.ckpt"
    refused([*OPENING, "--checkpoint", str(path)], f"'{path}'", "No such file or directory", 1)
