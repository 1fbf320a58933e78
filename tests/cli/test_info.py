"""``score``, ``rules``, ``strategies``, ``--version`` and ``--help``, run in-process."""

from __future__ import annotations

import importlib.metadata
import json
import subprocess

import pytest
from click.testing import CliRunner, Result

import bullscows
from bullscows.cli import COMMANDS, main
from bullscows.rules import PRESETS
from bullscows.strategies import DEFAULT_STRATEGY, STRATEGIES

from .conftest import bulls_cows, python


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), env={"COLUMNS": "200", "NO_COLOR": "1"})


def assert_one_line_error(result: Result, *quoted: str) -> None:
    """Exit 1, nothing on stdout, one 'Error: ...' line on stderr quoting each of ``quoted``."""
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ")
    for text in quoted:
        assert repr(text) in lines[0]
    assert "Traceback" not in result.output
    # a BullsCowsError becomes an exit status, not an escaped exception
    assert isinstance(result.exception, SystemExit)


# --- score ------------------------------------------------------------------------------------

# (rules, secret, guess, bulls, cows) from /work/shared/reference/known-results.md
KNOWN_SCORES = [
    ("digits", "1234", "4324", 1, 2),  # uLisp bullcow 4 #x1234 #x4324 = #x12
    ("bc", "2745", "1389", 0, 0),  # uLisp sample game
    ("bc", "2745", "1234", 0, 2),
    ("bc", "2745", "1759", 1, 1),
    ("bc", "2745", "1785", 2, 0),
    ("bc", "2745", "2745", 4, 0),
    ("bc", "4271", "1234", 1, 2),  # kuniga.me
    ("bc", "1234", "4130", 1, 2),  # Adam Richardson, scored with 0-9
    ("digits", "8217", "1234", 1, 1),  # uLisp duel, the computer's code
    ("digits", "8217", "5678", 0, 2),
    ("digits", "8217", "3456", 0, 0),
    ("digits", "8217", "1782", 0, 4),
    ("digits", "8217", "7218", 2, 2),
    ("digits", "8217", "8217", 4, 0),
    ("digits", "1234", "2396", 0, 2),  # uLisp duel, the player's code
    ("digits", "1234", "3002", 0, 2),
    ("digits", "1234", "4123", 0, 4),
    ("digits", "1234", "1234", 4, 0),
    ("mm", "1122", "1234", 1, 1),
]


@pytest.mark.parametrize(("spec", "secret", "guess", "bulls", "cows"), KNOWN_SCORES)
def test_score_json_matches_published_examples(
    spec: str, secret: str, guess: str, bulls: int, cows: int
) -> None:
    result = run("score", "--rules", spec, "--json", secret, guess)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"bulls": bulls, "cows": cows}
    assert bulls_cows(secret, guess) == (bulls, cows)  # the table itself is self-consistent


def test_score_default_text() -> None:
    result = run("score", "1234", "4130")
    assert result.exit_code == 0
    assert result.stdout == "1 bull, 2 cows\n"


@pytest.mark.parametrize(
    ("style", "text"),
    [
        ("words", "1 bull, 2 cows"),
        ("bc", "1B2C"),
        ("ab", "1A2B"),
        ("pegs", "1B2W"),
        ("digits", "12"),
        ("pair", "1 2"),
        ("letters", "bcc"),
    ],
)
def test_score_every_reply_style(style: str, text: str) -> None:
    result = run("score", "4271", "1234", "--reply-style", style)
    assert result.exit_code == 0, result.output
    assert result.stdout == text + "\n"


def test_score_nothing_in_common_in_every_style() -> None:
    expected = {
        "words": "0 bulls, 0 cows",
        "bc": "0B0C",
        "ab": "0A0B",
        "pegs": "0B0W",
        "digits": "00",
        "pair": "0 0",
        "letters": "-",
    }
    for style, text in expected.items():
        result = run("score", "0123", "4567", "--reply-style", style)
        assert (result.exit_code, result.stdout) == (0, text + "\n"), style


def test_score_every_style_is_covered() -> None:
    # a new style must be added to the tests above
    from bullscows.feedback import STYLES

    assert set(STYLES) == {"words", "bc", "ab", "pegs", "digits", "pair", "letters"}


def test_score_mastermind_with_pegs() -> None:
    result = run("score", "--rules", "mm", "1122", "1234", "--reply-style", "pegs")
    assert result.exit_code == 0, result.output
    assert result.stdout == "1B1W\n"


def test_score_mastermind_colour_letters() -> None:
    result = run("score", "--rules", "mm-colours", "--json", "RRGB", "GRRY")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"bulls": 1, "cows": 2}


def test_score_radix_variant() -> None:
    # J moo 5 5 5, secret 1 2 3: guess 4 1 3 gets bc
    result = run("score", "--radix", "5,5,5", "--reply-style", "letters", "123", "413")
    assert result.exit_code == 0, result.output
    assert result.stdout == "bc\n"


@pytest.mark.parametrize(
    ("args", "bad"),
    [
        (["1134", "1234"], "1134"),  # a repeated digit in Bulls & Cows
        (["1234", "12345"], "12345"),  # too long
        (["1234", "12a4"], "12a4"),  # not a symbol
        (["--rules", "mm", "1234", "1270"], "1270"),  # 7 and 0 are not Mastermind colours
        (["--rules", "bc-nolead", "0123", "1234"], "0123"),  # leading zero
    ],
)
def test_score_bad_code_is_a_one_line_error(args: list[str], bad: str) -> None:
    assert_one_line_error(run("score", *args), bad)


@pytest.mark.parametrize(
    "options",
    [
        ["--rules", "zz"],
        ["--rules", "p4c6x"],
        ["--rules", ""],
        ["--radix", "5,x"],
        ["--symbols", "abc"],  # 4 distinct symbols from 3
        ["--length", "11"],
    ],
)
def test_score_bad_rules_is_a_usage_error(options: list[str]) -> None:
    result = run("score", *options, "1234", "1234")
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert "Usage: " in result.stderr
    assert "Error: " in result.stderr
    assert "Traceback" not in result.output


def test_score_unknown_rules_names_the_spec_and_the_presets() -> None:
    result = run("score", "--rules", "zz", "1234", "1234")
    assert result.exit_code == 2
    assert "'zz'" in result.stderr
    for name in ("bc", "mm", "logik"):
        assert name in result.stderr


def test_score_needs_two_codes() -> None:
    result = run("score", "1234")
    assert result.exit_code == 2
    assert "GUESS" in result.stderr


# --- rules ------------------------------------------------------------------------------------


def test_rules_lists_every_preset_with_its_size() -> None:
    result = run("rules")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines] == list(PRESETS)
    sizes = {line.split()[0]: line.split()[1] for line in lines}
    assert sizes["bc"] == "5,040"
    assert sizes["bc-nolead"] == "4,536"
    assert sizes["bc-1to9"] == "3,024"
    assert sizes["mm"] == "1,296"
    assert sizes["mm-colours"] == "1,296"
    assert sizes["logik"] == "32,768"
    assert sizes["digits"] == "10,000"
    assert sizes["bc5"] == "30,240"


def test_rules_describes_one_spec() -> None:
    result = run("rules", "p4c6r:symbols=RGBYOP")
    assert result.exit_code == 0, result.output
    assert len(result.stdout.splitlines()) == 1
    assert "1,296 codes" in result.stdout
    assert "4 symbols of RGBYOP, repeats allowed" in result.stdout


def test_rules_takes_the_variant_as_other_commands_do() -> None:
    """`--rules SPEC`, as every command that plays a variant takes it, is SPEC; the two
    naming different variants is one usage error."""
    assert run("rules", "--rules", "bc-nolead").stdout == run("rules", "bc-nolead").stdout
    assert run("rules", "mm", "--rules", "mm").stdout == run("rules", "mm").stdout
    both = run("rules", "bc", "--rules", "mm")
    assert both.exit_code == 2 and both.stdout == ""
    assert both.stderr.splitlines()[-1] == (
        "Error: SPEC 'bc' and --rules 'mm' each name a variant; give one"
    )
    main_help = run("--help").stdout
    assert "Every command that plays or measures a variant takes --rules" in main_help


@pytest.mark.parametrize(
    ("spec", "codes"), [("p5c26r", "11,881,376"), ("p11c10r", "100,000,000,000")]
)
def test_rules_describes_a_variant_too_large_to_play(spec: str, codes: str) -> None:
    result = run("rules", spec)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"{spec}")
    assert f"{codes} codes" in result.stdout
    assert "too many to play: bullscows score scores its codes" in result.stdout
    [entry] = json.loads(run("rules", spec, "--json").stdout)
    assert (entry["codes"], entry["playable"]) == (int(codes.replace(",", "")), False)


@pytest.mark.parametrize(
    ("spec", "codes"),
    [("bc", 5040), ("mm", 1296), ("p5c10n", 30240), ("moo5,5,5", 125), ("moo2,2", 4)],
)
def test_rules_json_size(spec: str, codes: int) -> None:
    result = run("rules", spec, "--json")
    assert result.exit_code == 0, result.output
    [entry] = json.loads(result.stdout)
    assert entry["name"] == spec
    assert entry["codes"] == codes


def test_rules_json_radix_with_limits() -> None:
    result = run("rules", "moo5,3,4", "--json")
    assert result.exit_code == 0, result.output
    [entry] = json.loads(result.stdout)
    assert entry["length"] == 3
    assert entry["symbols"] == "01234"
    assert entry["repeats"] is True
    assert entry["allowed"] == ["01234", "012", "0123"]
    assert entry["codes"] == 5 * 3 * 4
    assert entry["spec"] == "moo5,3,4"


def test_rules_json_lists_every_preset() -> None:
    result = run("rules", "--json")
    assert result.exit_code == 0, result.output
    entries = json.loads(result.stdout)
    assert [e["name"] for e in entries] == list(PRESETS)
    mm = next(e for e in entries if e["name"] == "mm")
    assert mm == {
        "name": "mm",
        "spec": "mm",
        "length": 4,
        "symbols": "123456",
        "repeats": True,
        "allowed": None,
        "codes": 1296,
        "playable": True,
        "description": PRESETS["mm"][-1],
        "guesses": None,
        "guess_codes": 1296,
    }
    nolead = next(e for e in entries if e["name"] == "bc-nolead")
    assert nolead["allowed"] == ["123456789", *["0123456789"] * 3]
    assert nolead["codes"] == 4536


@pytest.mark.parametrize("spec", ["zzz", "p4c6", "moo5,x", "p201c10r", "p4c3n"])
def test_rules_bad_spec_is_a_usage_error(spec: str) -> None:
    result = run("rules", spec)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert "Error: " in result.stderr
    assert "Traceback" not in result.output


# --- strategies -------------------------------------------------------------------------------


def test_strategies_text_marks_the_default() -> None:
    result = run("strategies")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines] == list(STRATEGIES)
    defaults = [line for line in lines if line.endswith("(default)")]
    assert len(defaults) == 1
    assert defaults[0].split()[0] == DEFAULT_STRATEGY == "minimax"
    for line in lines:
        name = line.split()[0]
        assert STRATEGIES[name].summary in line


def test_strategies_json() -> None:
    result = run("strategies", "--json")
    assert result.exit_code == 0, result.output
    entries = json.loads(result.stdout)
    assert [e["name"] for e in entries] == list(STRATEGIES)
    assert {"minimax", "simple", "random-consistent"} <= {e["name"] for e in entries}
    for entry in entries:
        assert set(entry) == {"name", "summary"}
        assert entry["summary"] == STRATEGIES[entry["name"]].summary
        assert entry["summary"]


# --- version and help -------------------------------------------------------------------------


def test_version() -> None:
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout.rstrip().endswith(f"version {bullscows.__version__}")
    assert bullscows.__version__ == importlib.metadata.version("bullscows")


@pytest.mark.parametrize("option", ["--help", "-h"])
def test_main_help_lists_every_command(option: str) -> None:
    result = run(option)
    assert result.exit_code == 0
    assert result.stdout.startswith("Usage: ")
    commands = result.stdout.split("Commands:")[1]
    for name, (_, _, short) in COMMANDS.items():
        assert name in commands
        assert short in commands


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_has_help(command: str) -> None:
    result = run(command, "--help")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Usage: ")
    assert f" {command} " in result.stdout.splitlines()[0]
    description = result.stdout.split("Options:")[0].splitlines()[1:]
    assert any(line.strip() for line in description), "no description before the options"
    assert "--help" in result.stdout


def test_unknown_command_is_a_usage_error() -> None:
    result = run("fly")
    assert result.exit_code == 2
    assert "fly" in result.stderr


def run_module(*args: str) -> subprocess.CompletedProcess[str]:
    return python("-m", "bullscows", *args)


def test_python_dash_m() -> None:
    completed = run_module("--help")
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.startswith("Usage: ")
    for name in COMMANDS:
        assert name in completed.stdout


def test_python_dash_m_runs_a_command() -> None:
    completed = run_module("score", "--json", "4271", "1234")
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == {"bulls": 1, "cows": 2}


PROBE = """
import sys
from bullscows.cli import main
status = main({args!r}, standalone_mode=False)
print(status, 'numba' in sys.modules, 'numpy' in sys.modules, file=sys.stderr)
"""


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["score", "--help"],
        ["rules"],
        ["strategies", "--help"],
        ["score", "1234", "4130"],
    ],
    ids=["help", "score-help", "rules", "strategies-help", "score"],
)
def test_light_commands_do_not_import_numba(args: list[str]) -> None:
    """``bullscows --help`` and the commands without a game stay fast: no numba import."""
    code = PROBE.format(args=args)
    completed = python("-c", code)
    assert completed.returncode == 0, completed.stderr
    status, numba_loaded, _ = completed.stderr.split()
    assert status in ("0", "None")
    assert numba_loaded == "False"


def test_score_says_how_often_a_repeated_symbol_appears() -> None:
    for guess, often in [("0000", "'0' appears 4 times"), ("0012", "'0' appears twice")]:
        result = run("score", "--rules", "bc", "0123", guess)
        assert_one_line_error(result, guess)
        assert often in result.stderr


def test_score_with_guesses_wider_than_the_secrets() -> None:
    # Codeforces 753B: the secret has distinct digits, a try may repeat them.
    wide = "bc:guesses=p4c10r"
    for secret, guess, expected in [
        ("0123", "0000", "1 bull, 0 cows"),
        ("1234", "4411", "0 bulls, 2 cows"),
    ]:
        result = run("score", "--rules", wide, secret, guess)
        assert result.exit_code == 0, result.output
        assert result.stdout == expected + "\n"
    refused = run("score", "--rules", wide, "0000", "0123")  # a secret may not repeat
    assert_one_line_error(refused, "0000")
    assert "a secret's symbols may not repeat" in refused.stderr


def test_rules_with_wider_guesses() -> None:
    result = run("rules", "bc:guesses=p4c10r", "--json")
    assert result.exit_code == 0, result.output
    [entry] = json.loads(result.stdout)
    assert (entry["spec"], entry["codes"], entry["guesses"], entry["guess_codes"]) == (
        "bc:guesses=digits",
        5040,
        "digits",
        10000,
    )
    assert entry["description"] == (
        "4 distinct symbols of 0-9; guesses: 4 symbols of 0-9, repeats allowed"
    )


@pytest.mark.parametrize(
    ("args", "reply"),
    [
        (["--rules", "p5c26r:symbols=abcdefghijklmnopqrstuvwxyz", "crane", "react"], [1, 3]),
        (["--rules", "p7c10r", "1234567", "7654321"], [1, 6]),  # 10,000,000 codes
        (["--rules", "p12c10r", "123456789012", "210987654321"], [0, 12]),
        (["--length", "30", "--repeats", "1" * 30, "1" * 29 + "2"], [29, 0]),
        (["--rules", "p11c62n", "0123456789a", "a9876543210"], [1, 10]),
    ],
)
def test_score_any_length_and_alphabet(args: list[str], reply: list[int]) -> None:
    result = run("score", *args, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"bulls": reply[0], "cows": reply[1]}


def test_large_variants_say_what_needs_enumeration() -> None:
    from bullscows import Code, Rules, score
    from bullscows.errors import RulesError
    from bullscows.universe import universe

    big = Rules.from_options("p7c10r", scoring=True)
    assert big.scoring and big.size == 10_000_000
    assert score(Code("1234567", big), Code("7654321", big)).bulls == 1
    with pytest.raises(RulesError, match="scoring two codes \\(bullscows score\\) needs no"):
        universe(big)
    assert not Rules.from_options("bc", scoring=True).scoring  # small: an ordinary variant
    result = run("candidates", "--rules", "p7c10r", "1234567 1 1")
    assert result.exit_code == 2
    assert "games, strategies, candidates, bench and trees enumerate every code" in result.stderr
    long = run("score", "--rules", "p201c10r", "1", "1")
    assert long.exit_code == 2 and "from 1 to 200 positions" in long.stderr
    bad = run("score", "--rules", "p12c10r", "12345678901x", "123456789012")
    assert_one_line_error(bad, "12345678901x")


@pytest.mark.parametrize(("spec", "codes"), [("p1c1n", "1 code "), ("p1c2n", "2 codes")])
def test_rules_counts_one_code_as_one(spec: str, codes: str) -> None:
    result = CliRunner().invoke(main, ["rules", spec])
    assert result.exit_code == 0 and f" {codes} " in result.output, result.output
