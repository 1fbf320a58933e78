"""A terminal game typed with full-width digits, letters and spaces, as a phone's or an
East-Asian keyboard types them: each line reads as its plain self."""

from __future__ import annotations

from click.testing import CliRunner

from bullscows.cli import main
from bullscows.rules import Rules
from bullscows.sessions import seeded_secret


def wide(text: str) -> str:
    return "".join("\u3000" if ch == " " else chr(ord(ch) + 0xFEE0) for ch in text)


def test_play_takes_full_width_guesses_and_commands(tmp_path: str) -> None:
    secret = seeded_secret(Rules.parse("bc"), 7).text
    typed = [wide("0123"), wide("history"), wide(secret)]
    result = CliRunner().invoke(
        main, ["play", "--seed", "7"], input="".join(f"{line}\n" for line in typed),
        env={"BULLSCOWS_DATABASE": "sqlite://"},
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "  [1] 0123  " in result.stdout  # the history, asked in full width
    assert f"You broke it in 2 guesses: {secret}." in result.stdout


def test_assist_takes_a_full_width_guess_and_reply() -> None:
    typed = CliRunner().invoke(main, ["assist"], input=f"{wide('0123 1B2C')}\nquit\n")
    plain = CliRunner().invoke(main, ["assist"], input="0123 1B2C\nquit\n")
    assert typed.exit_code == 0, typed.output
    assert "216 codes possible." in typed.stdout
    assert typed.output == plain.output


def test_a_full_width_variant_reads_as_its_plain_self() -> None:
    """``--rules``, ``--symbols`` and ``--radix`` typed in full width, as the codes are."""
    pairs = [
        (["--rules", wide("bc")], ["--rules", "bc"]),
        (["--rules", wide("p4c6r")], ["--rules", "p4c6r"]),
        (["--rules", "mm", "--symbols", wide("RGBYOP")], ["--rules", "mm-colours"]),
        (["--rules", f"p4c6r:symbols={wide('RGBYOP')}"], ["--rules", "mm-colours"]),
        (["--radix", wide("5,5,5")], ["--radix", "5,5,5"]),
    ]
    for typed, plain in pairs:
        result = CliRunner().invoke(main, ["candidates", *typed])
        assert result.exit_code == 0, result.output
        assert result.output == CliRunner().invoke(main, ["candidates", *plain]).output
