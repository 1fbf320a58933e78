"""``bullscows card``, and a card played with ``--strategy card:FILE``, run in-process."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from bullscows.cli import main


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


def test_bad_requests_get_one_line() -> None:
    page = run("card", "--format", "pdf")
    assert page.exit_code == 2 and "--format pdf writes a page: give --out FILE.pdf" in page.output
    big = run("card", "--rules", "bc", "--rule", "any")
    assert big.exit_code == 1
    assert big.output == (
        "Error: the any rule's exact expectation is computed for variants of at most 400 "
        "secrets; bc has 5,040\n"
    )
    missing = run("card", "--card", "no-such-card.json")
    assert missing.exit_code == 1 and missing.output.startswith("Error: ")
    assert len(missing.output.splitlines()) == 1
