"""The real command against hostile streams: a full disk, closed and broken pipes, bytes that
are not UTF-8, an output encoding without the alphabet's symbols, a terminal width of 0, and
replies of thousands of digits. No traceback ever; one line of error; the right status."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pexpect
import pytest

from bullscows.sessions import HIDDEN

from .conftest import BULLSCOWS, TIMEOUT, private_env


def bullscows(
    *args: str,
    stdin: bytes | None = b"",
    env: dict[str, str] | None = None,
    stdin_file: object = None,
    **options: object,
) -> subprocess.CompletedProcess[bytes]:
    """Run the real command (stdin the bytes ``stdin``, or ``stdin_file``) with the test
    run's own record and cache (``private_env``); fail on any traceback."""
    if stdin_file is not None:
        options["stdin"] = stdin_file
    result = subprocess.run(
        [str(BULLSCOWS), *args],
        input=stdin,
        capture_output="stdout" not in options,
        env={**private_env(), **(env or {})},
        timeout=120,
        check=False,
        **options,  # type: ignore[call-overload]
    )
    assert b"Traceback" not in (result.stderr or b""), result.stderr.decode()
    return result


def one_error_line(result: subprocess.CompletedProcess[bytes]) -> str:
    lines = result.stderr.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr.decode()
    return lines[0]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_is_a_one_line_error() -> None:
    with open("/dev/full", "wb") as full:
        result = bullscows("rules", stdout=full, stderr=subprocess.PIPE)
    assert result.returncode == 1
    assert "cannot write the output: No space left on device" in one_error_line(result)


@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        (["rules"], b""),
        # no progress line in the log, which a loaded machine's minute would bring
        (["tree", "--rules", "mm", "--format", "text", "--log-every", "0"], b""),
        (["solve", "--plain"], b""),
        (["record"], b""),  # printed by rich, which ended with status 1
        (["analyse", "0123 1 2"], b""),
        (["play", "--seed", "1"], b"0123\nquit\n"),
    ],
)
def test_a_broken_pipe_ends_quietly(args: list[str], stdin: bytes) -> None:
    """As with ``| head -1``: the reader has gone (here before the first write)."""
    read, write = os.pipe()
    os.close(read)
    try:
        result = bullscows(*args, stdin=stdin, stdout=write, stderr=subprocess.PIPE)
    finally:
        os.close(write)
    assert result.stderr == b""
    assert result.returncode == 141


@pytest.mark.parametrize(
    ("redirect", "args", "message"),
    [
        (">&-", ["rules"], "standard output is closed"),
        ("<&-", ["solve", "--plain"], "standard input is closed"),
        ("<&-", ["play"], "standard input is closed"),
    ],
)
def test_a_closed_stream_is_a_one_line_error(
    redirect: str, args: Sequence[str], message: str
) -> None:
    shell = f"'{BULLSCOWS}' {' '.join(args)} {redirect}"
    result = subprocess.run(
        ["bash", "-c", shell], capture_output=True, env=private_env(), timeout=120, check=False
    )
    assert result.returncode == 1
    assert b"Traceback" not in result.stderr
    assert result.stderr.decode().splitlines()[-1] == f"Error: {message}"


def test_bytes_that_are_not_utf8_are_refused_clearly() -> None:
    result = bullscows("solve", "--plain", stdin=b"\xff\n", env={"PYTHONIOENCODING": "utf-8"})
    assert result.returncode == 1
    assert one_error_line(result) == (
        "Error: line 1: the reply is not UTF-8 text: byte 0xff at character 1"
    )
    played = bullscows("assist", "--rules", "mm", stdin=b"\xfe\xff\n1122 0 0\nquit\n")
    assert played.returncode == 1  # from a pipe: the line is refused, the next one used
    out = played.stdout.decode()
    assert one_error_line(played) == (
        "Error: line 1: the line is not UTF-8 text: byte 0xfe at character 1"
    )
    assert "256 codes possible" in out
    assert "256 codes possible" in out  # the next line was read as usual


def test_symbols_the_output_cannot_encode_are_escaped() -> None:
    faces = "\N{GRINNING FACE}\N{GRINNING FACE WITH SMILING EYES}\N{FACE WITH TEARS OF JOY}"
    spec = f"p2c3r:symbols={faces}"
    ascii_only = {"PYTHONIOENCODING": "ascii"}
    played = bullscows("play", "--rules", spec, "--seed", "1", stdin=b"quit\n", env=ascii_only)
    assert played.returncode == 0, played.stderr
    assert b"\\U0001f600-\\U0001f602" in played.stdout
    # click writes UTF-8 to a stream it finds set to ASCII: no failure either way
    described = bullscows("rules", spec, env=ascii_only)
    assert described.returncode == 0 and faces in described.stdout.decode(), described.stderr


@pytest.mark.parametrize("columns", ["0", "-5", "x", "99999999999"])
def test_a_senseless_terminal_width_is_ignored(columns: str) -> None:
    env = {"COLUMNS": columns}
    bench = bullscows("bench", "--rules", "p3c4n", "--strategy", "minimax", env=env)
    assert bench.returncode == 0 and b"minimax" in bench.stdout, bench.stderr
    play = bullscows("play", "--seed", "1", stdin=b"quit\n", env=env)
    assert play.returncode == 0 and HIDDEN.encode() in play.stdout, play.stderr


@pytest.mark.parametrize("reply", [b"9" * 5000 + b" 0", b"9" * 5000 + b"b 0c"])
def test_a_reply_of_thousands_of_digits_is_a_short_error(reply: bytes) -> None:
    result = bullscows("solve", "--plain", stdin=reply + b"\n")
    assert result.returncode == 1
    line = one_error_line(result)
    assert "too large for a count" in line and len(line) < 300
    for command in ("solve", "duel", "assist"):
        typed = reply + b"\nquit\n" if command != "assist" else b"0123 " + reply + b"\nquit\n"
        if command == "duel":
            typed = b"0123\n" + typed
        played = bullscows(command, "--seed", "1", stdin=typed)
        assert played.returncode == 1, played.stderr  # from a pipe: a line was refused
        # Said once, on stderr, by every command.
        assert b"too large for a count" in played.stderr
        assert b"too large for a count" not in played.stdout
        assert max(len(line) for line in played.stderr.splitlines()) < 300


@pytest.mark.parametrize("seed", ["-1", "0", "123456789012345678"])
def test_any_integer_seed_of_up_to_18_digits_is_taken(seed: str) -> None:
    result = bullscows("bench", "--rules", "p3c4n", "--strategy", "random", "--sample", "5",
                       "--seed", seed)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert f"seed{seed}".encode() in b"".join(result.stdout.split())
    again = bullscows("bench", "--rules", "p3c4n", "--strategy", "random", "--sample", "5",
                      "--seed", seed)  # fmt: skip
    assert again.stdout.split(b"seconds")[1][:60] == result.stdout.split(b"seconds")[1][:60]


def test_score_refuses_a_bad_code_of_a_huge_variant_with_a_short_error(tmp_path: Path) -> None:
    result = bullscows("score", "--rules", "p7c9r", "123", "1234567")
    assert result.returncode == 1
    assert one_error_line(result).startswith("Error: code '123' has 3 symbols; a code has 7")


# --- refusals decided from sizes (no test of time: the work is not done at all) ---------------


def test_a_brute_force_tree_too_deep_to_keep_is_refused_before_it_is_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bullscows import outcomes
    from bullscows.errors import StrategyError
    from bullscows.rules import Rules
    from bullscows.strategies import get_strategy

    def no_walk(*args: object, **options: object) -> None:
        raise AssertionError("the tree was started")

    monkeypatch.setattr(outcomes, "walk_strategy", no_walk)
    with pytest.raises(StrategyError, match="5,040 guesses deep: a tree holds at most 300"):
        outcomes.build_tree(Rules.parse("bc"), get_strategy("brute-force"))
    result = bullscows("tree", "--rules", "bc", "--strategy", "brute-force")
    assert result.returncode == 1
    assert "bullscows bench --strategy brute-force" in one_error_line(result)


def test_list_in_assist_is_bounded_on_a_huge_variant() -> None:
    result = bullscows("assist", "--rules", "p10c10n", stdin=b"list all\nquit\n")
    assert result.returncode == 0, result.stderr
    listed = result.stdout.decode()
    assert "0123456789 0123456798" in listed
    assert "... and 3,618,800 more" in " ".join(listed.split())


def test_a_line_that_is_not_utf8_at_a_terminal_is_asked_again() -> None:
    # A bytes session (the terminal echoes the bad bytes back, which text could not hold).
    child = pexpect.spawn(
        str(BULLSCOWS), ["play", "--seed", "1"], env=private_env(), timeout=TIMEOUT
    )
    try:
        child.expect_exact(b"[1] Your guess: ")
        child.send(b"\xff\xfe12\r")
        child.expect_exact(b"the line is not UTF-8 text: byte 0xff at character 1; type it again")
        child.expect_exact(b"[1] Your guess: ")
        child.sendline(b"quit")
        child.expect_exact(HIDDEN.encode())
        child.expect(pexpect.EOF)
        assert b"Traceback" not in child.before
    finally:
        child.close(force=True)
    assert child.exitstatus == 0


@pytest.mark.parametrize("args", [["solve", "--plain"], ["play"], ["assist"], ["duel"]])
def test_an_endless_line_on_stdin_is_refused_in_bounded_memory(args: list[str]) -> None:
    with open("/dev/zero", "rb") as zero:
        result = bullscows(*args, stdin=None, stdin_file=zero)
    assert result.returncode == 1
    assert result.stderr.decode().splitlines() == [
        "Error: input line longer than 65,536 characters: no code or reply is that long"
    ]
