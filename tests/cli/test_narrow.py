"""A narrow terminal: the codes listed take its width, in a pseudo-terminal of 40 columns."""

from __future__ import annotations

from bullscows import Rules

from .conftest import Session, still_possible

NARROW = 40


def _lines_of(command: list[str]) -> list[str]:
    """The lines ``bullscows COMMAND`` prints at ``NARROW`` columns (it must exit 0)."""
    session = Session(command, columns=NARROW)
    try:
        assert session.finish() == 0
    finally:
        session.kill()
    return session.transcript.splitlines()


def test_list_at_the_prompt_takes_the_terminal_width() -> None:
    session = Session(["play", "--seed", "3"], columns=NARROW)
    try:
        session.expect_text("[1] Your guess: ")
        session.send("0123")
        session.expect_text("[2] Your guess: ")
        session.send("list all")
        session.expect_text("[2] Your guess: ")
        listed = session.output_since_last_expect().splitlines()[1:]
        session.send("quit")
        assert session.finish() == 0
    finally:
        session.kill()
    reply = next(line for line in session.transcript.splitlines() if "bulls" in line)
    bulls, cows = (int(word) for word in reply.split() if word.isdigit())
    expected = still_possible(Rules.parse("bc"), [("0123", (bulls, cows))])
    assert len(listed) > 1
    assert all(len(line) <= NARROW and line.startswith("  ") for line in listed), listed
    # full rows (none cut short by the terminal wrapping a wider one), then the rest
    assert len({len(line.split()) for line in listed[:-1]}) == 1, listed
    assert " ".join(listed).split() == expected


def test_candidates_lists_codes_as_wide_as_the_terminal() -> None:
    lines = _lines_of(["candidates", "0123 1 1", "--limit", "30"])
    assert lines[0] == "Undetermined: 720 codes possible."
    assert all(len(line) <= NARROW for line in lines), lines
    words = " ".join(lines[1:]).split()
    assert words[:30] == still_possible(Rules.parse("bc"), [("0123", (1, 1))])[:30]
    assert words[30:] == ["...", "and", "690", "more"]


def test_candidates_count_of_the_rest_fits_the_terminal() -> None:
    # the default --limit 20 leaves a short last row that the count does not fit on
    lines = _lines_of(["candidates", "0123 1 1"])
    assert all(len(line) <= NARROW for line in lines), lines
    assert lines[-1] == "  ... and 700 more"
    words = " ".join(lines[1:-1]).split()
    assert words == still_possible(Rules.parse("bc"), [("0123", (1, 1))])[:20]


def test_strategies_and_rules_wrap_under_their_first_column() -> None:
    from click.testing import CliRunner

    from bullscows.cli import main

    for command, indent in (["strategies"], 21), (["rules"], 13):
        whole = CliRunner().invoke(main, command).stdout  # no terminal: a row a line
        lines = _lines_of(command)
        assert all(len(line) <= NARROW for line in lines), lines
        rows = [line for line in lines if not line.startswith(" ")]
        assert len(rows) == len(whole.splitlines()) > 5
        more = [line for line in lines if line.startswith(" ")]
        assert more and all(line.startswith(" " * indent) for line in more), lines
        assert " ".join(lines).split() == whole.split()
