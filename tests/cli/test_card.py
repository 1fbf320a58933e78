"""``bullscows card``, a card played with ``--strategy card:FILE``, and ``play --coach``, run
in-process."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from bullscows import Rules, score
from bullscows.cli import main
from bullscows.knowledge import Knowledge
from bullscows.sessions import seeded_secret
from bullscows.strategies.card import load_card, read_card
from bullscows.strategies.card_coach import advise
from bullscows.strategies.card_strategy import best_card


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), env={"COLUMNS": "200", "NO_COLOR": "1"})


def test_the_shipped_bc_card_is_printed_with_its_figures() -> None:
    result = run("card", "--rules", "bc")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("Card for bc: ")
    assert "20 lines; average 5.387 guesses over all 5,040 secrets, worst 8" in lines[1]
    assert lines[3].startswith("  1. Start with ")
    assert "Then: guess the first code, in reading order, that fits every reply." in lines


def test_fewer_lines_and_json() -> None:
    result = run("card", "--rules", "mm", "--lines", "3", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["rules"] == "mm" and data["rule"] == "first" and len(data["book"]) <= 3
    assert data["figures"]["secrets"] == 1296
    assert [line["after"] for line in data["book"]] == [[], ["1B0W"], ["2B0W"]]  # pegs
    text = run("card", "--rules", "mm", "--lines", "3").output
    assert "  2. After 1132 1B0W: guess 1465." in text


def test_a_card_of_one_line_says_so_in_the_singular() -> None:
    result = run("card", "--rules", "p2c3r")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[1].startswith("1 line; average 2.333 guesses over all 9 ")


def test_a_card_written_plays_in_bench(tmp_path: Path) -> None:
    out = tmp_path / "card.json"
    assert run("card", "--rules", "p3c5n", "--lines", "2", "--out", str(out)).exit_code == 0
    total = json.loads(out.read_text())["figures"]["total"]
    result = run("bench", "--rules", "p3c5n", "--strategy", f"card:{out}", "--json")
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.stdout)["strategies"]
    assert row["total"] == total
    shown = run("card", "--card", str(out))
    assert shown.exit_code == 0 and "Start with" in shown.output


def test_pages(tmp_path: Path) -> None:
    svg, pdf = tmp_path / "card.svg", tmp_path / "card.pdf"
    assert run("card", "--rules", "mm", "--format", "svg", "--out", str(svg)).exit_code == 0
    assert run("card", "--rules", "mm", "--format", "pdf", "--out", str(pdf)).exit_code == 0
    assert svg.read_bytes().startswith(b"<?xml") and pdf.read_bytes().startswith(b"%PDF")


def test_any_rule_on_a_small_variant() -> None:
    result = run("card", "--rules", "p3c5n", "--rule", "any", "--lines", "3")
    assert result.exit_code == 0, result.output
    assert "expected average 3.281 guesses over all 60 secrets" in result.output
    assert "Then: guess any code that fits every reply." in result.output


def test_any_rule_past_400_secrets_where_sets_are_kept_up_to_symmetry(tmp_path: Path) -> None:
    out = tmp_path / "card.json"
    result = run("card", "--rules", "p3c9n", "--rule", "any", "--lines", "2", "--out", str(out))
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["rule"] == "any" and len(data["book"]) == 2
    assert data["figures"]["secrets"] == 504 and 4 < data["figures"]["average"] < 5
    again = load_card(out.read_text(), "card").figures()  # not the search's kept figures
    assert (round(again.average, 6), again.worst) == (
        data["figures"]["average"],
        data["figures"]["worst"],
    )


def test_bad_requests_get_one_line() -> None:
    page = run("card", "--format", "pdf")
    assert page.exit_code == 2 and "--format pdf writes a page: give --out FILE.pdf" in page.output
    for spec, size in (("bc-nolead", "4,536"), ("p5c8n", "6,720")):  # 0 unlike 1; too large
        big = run("card", "--rules", spec, "--rule", "any")
        assert big.exit_code == 1
        assert big.output == (
            "Error: the any rule's exact expectation is computed for variants of at most 5,040 "
            f"secrets whose every position allows every symbol, else 400; {spec} has {size}\n"
        )
    missing = run("card", "--card", "no-such-card.json")
    assert missing.exit_code == 1 and missing.output.startswith("Error: ")
    assert len(missing.output.splitlines()) == 1


def test_play_with_the_coach() -> None:
    rules = Rules.parse("mm")
    secret = seeded_secret(rules, 7)
    card = best_card(rules)
    knowledge, guesses = Knowledge.start(rules), []
    while not guesses or guesses[-1] != secret.text:
        guess = advise(card, knowledge).guess
        guesses.append(guess.text)
        knowledge = knowledge.after(guess, score(secret, guess))
    result = CliRunner().invoke(
        main,
        ["play", "--rules", "mm", "--seed", "7", "--coach"],
        input="".join(f"{g}\n" for g in guesses),
        env={"COLUMNS": "200", "NO_COLOR": "1"},
    )
    assert result.exit_code == 0, result.output
    says = [line for line in result.output.splitlines() if line.startswith("The card says")]
    assert len(says) == len(guesses)
    assert says[0] == "The card says 1124 (line 1: the first guess); 1,296 codes fit."
    n = len(guesses)
    assert f"You took {n} guesses; {n} of them were the card's. The card takes {n}" in result.output
    assert ", the optimal strategy " in result.output


def test_coach_needs_a_card() -> None:
    result = run("play", "--rules", "p5c10n", "--coach")
    assert result.exit_code == 2 and "--coach: no card ships for bc5" in result.output


def test_the_coach_reviews_a_game_given_up_off_the_card() -> None:
    result = CliRunner().invoke(
        main, ["play", "--rules", "mm", "--seed", "7", "--coach"], input="1234\n5566\nquit\n",
        env={"COLUMNS": "200", "NO_COLOR": "1"},
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    summary = next(i for i, line in enumerate(lines) if line.startswith("You took 2 guesses"))
    assert lines[summary].startswith("You took 2 guesses; 0 of them were the card's.")
    assert lines[summary + 1].startswith(
        "Guess 1, 1234: the card says 1124 (line 1: the first guess); the optimal strategy plays "
    )
    assert lines[summary + 2].startswith("Guess 2, 5566: the card says ")


def test_the_way_to_a_coach_for_a_variant_without_a_card_leads_to_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The error said to make a card and play card:card.json, but --coach followed only the
    # shipped card: the command it gave led back to the same error.
    monkeypatch.chdir(tmp_path)
    refused = run("play", "--rules", "p3c9n", "--coach")
    assert refused.exit_code == 2
    made = re.search(r"`bullscows (card [^`]*)` and play it with --strategy (card:\S+)$",
                     refused.stderr.strip())  # fmt: skip
    assert made is not None, refused.stderr
    assert run(*made[1].split()).exit_code == 0
    result = CliRunner().invoke(
        main, ["play", "--rules", "p3c9n", "--coach", "--strategy", made[2]], input="quit\n",
        env={"COLUMNS": "200", "NO_COLOR": "1"},
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    card = read_card(tmp_path / "card.json")
    first = advise(card, Knowledge.start(card.rules)).guess.text
    assert f"The card says {first} (line 1: the first guess); 504 codes fit." in result.output
