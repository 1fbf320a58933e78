"""A file handed to a command that is not what it should be is one line that names the file
and says what it should hold: a saved game (``analyse --record``) whatever is wrong with it,
a card file that holds no JSON, and a tree file that holds JSON but not an object."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from bullscows.cli import main

RECORDS = {
    "empty": ("", "is empty; a game record file holds one game as JSON"),
    "blank": (" \n\n", "is empty; a game record file holds one game as JSON"),
    "not JSON": ("hello\n", "starts with 'hello\\n', not JSON; a game record file holds one"),
    "broken JSON": ('{"version": 1,', "line 1 is not JSON: Expecting property name"),
    "a list": ("[]", "a game record is an object with events, kind"),
    "a header only": ('{"version": 1}', "a game record is an object with events, kind"),
    "a later version": (
        '{"version":9,"kind":"codebreaker","rules":"mm","seed":1,"strategy":null,'
        '"secret":null,"events":[]}',
        "game record version 9: this program reads version 1",
    ),
    "an odd event": (
        '{"version":1,"kind":"codebreaker","rules":"mm","seed":1,"strategy":null,'
        '"secret":null,"events":[{"do":"dance"}]}',
        "an event is an object whose 'do' is one of guess",
    ),
    "too long": ("x" * 1_000_001, "a game record is at most 1,000,000 characters"),
}


@pytest.mark.parametrize("case", sorted(RECORDS))
def test_a_saved_game_that_does_not_read_names_its_file(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text, words = RECORDS[case]
    monkeypatch.chdir(tmp_path)
    Path("game.json").write_text(text)
    result = CliRunner().invoke(main, ["analyse", "--record", "game.json"])
    assert result.exit_code == 1, result.output
    assert result.output.startswith("Error: game record 'game.json'"), result.output
    assert words in result.output and result.output.count("\n") == 1, result.output


@pytest.mark.parametrize(
    ("text", "said"),
    [("", "is empty"), ("hello\n", "starts with 'hello\\n', not JSON")],
)
@pytest.mark.parametrize("args", [["card", "--card"], ["bench", "--rules", "bc", "--strategy"]])
def test_a_card_file_that_holds_no_json_says_what_it_should_hold(
    text: str, said: str, args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not json's 'Expecting value': the file, what it starts with, what a card file holds."""
    monkeypatch.chdir(tmp_path)
    Path("card.json").write_text(text)
    named = "card.json" if args[0] == "card" else "card:card.json"
    result = CliRunner().invoke(main, [*args, named])
    assert result.exit_code in (1, 2), result.output
    line = (
        f"card file 'card.json' {said}; a card file holds a card as JSON, as `bullscows card "
        "--out FILE.json` writes it"
    )
    assert result.output.splitlines()[-1].endswith(line), result.output


@pytest.mark.parametrize(("text", "shown"), [("[1]", "[1]"), ("null", "None"), ('"x"', "'x'")])
def test_a_tree_file_of_json_that_is_no_object_says_what_it_holds(
    text: str, shown: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("tree.json").write_text(text)
    result = CliRunner().invoke(main, ["tree", "--check", "tree.json"])
    assert result.exit_code == 1
    assert result.output == (
        f"Error: tree file 'tree.json': expected a JSON object, got {shown}; not a decision tree\n"
    )


@pytest.mark.parametrize("form", ["--check", "--compare"])
@pytest.mark.parametrize("variant", [["--rules", "bc"], ["--rules", "p4c6r"], ["--length", "5"]])
def test_a_variant_the_tree_file_contradicts_is_a_usage_error(
    form: str, variant: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tree of ``mm`` checked with another variant named is refused, not checked as mm's
    while the variant given is passed over; the file's own variant is accepted."""
    monkeypatch.chdir(tmp_path)
    built = CliRunner().invoke(main, ["tree", "--rules", "mm", "--strategy", "entropy",
                                      "--out", "mm.json"])  # fmt: skip
    assert built.exit_code == 0, built.output
    files = ["mm.json"] * (2 if form == "--compare" else 1)
    result = CliRunner().invoke(main, ["tree", *variant, form, *files])
    assert result.exit_code == 2 and "tree file 'mm.json' is of mm, not of " in result.output
    assert "leave the variant out, or give the file's" in result.output
    same = CliRunner().invoke(main, ["tree", "--rules", "mm", form, *files])
    assert same.exit_code == 0, same.output


def test_a_card_file_of_another_variant_than_the_one_given_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    made = CliRunner().invoke(main, ["card", "--rules", "mm", "--out", "mm.json"])
    assert made.exit_code == 0, made.output
    result = CliRunner().invoke(main, ["card", "--rules", "bc", "--card", "mm.json"])
    assert result.exit_code == 2
    assert "Error: card file 'mm.json' is of mm, not of bc (--rules)" in result.output
    for same in (["--rules", "mm"], []):
        shown = CliRunner().invoke(main, ["card", *same, "--card", "mm.json"])
        assert shown.exit_code == 0, shown.output
