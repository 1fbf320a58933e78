"""The README and the documentation site are tested documents.

Sybil reads every Markdown page: ``python`` blocks run as doctests, and ``console`` blocks are
transcripts of ``bullscows`` commands, each run in this process and its output compared with
the page (``...`` stands for any text, as in a doctest; a transcript of a game types, at each
prompt, the rest of that line of the page; progress is drawn on a terminal only, so none
shows here). ``sh`` blocks show commands to type (installing, serving, benchmarks) and are
not run, and a block after ``<!-- skip: next "why" -->`` is not run either (a search of
minutes, whose time the page gives). ``mkdocs build --strict`` builds the site, so a broken
link or a page missing from the navigation fails here.
"""

from __future__ import annotations

import doctest
import io
import os
import re
import shlex
import subprocess
import sys
import unittest
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path
from typing import TextIO

import pytest
from sybil import Example, Sybil
from sybil.parsers.markdown import CodeBlockParser, PythonCodeBlockParser, SkipParser

from bullscows.search import reporting

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])

#: Plain output, as a person reading the pages sees it (no colour, lines never wrapped).
ENV = {"NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "200", "LINES": "50"}

_CHECKER = doctest.OutputChecker()
_FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


class _Keyboard(io.StringIO):
    """A person at a terminal typing what the page shows after each prompt.

    At each read, the text the command printed so far should begin the page's transcript;
    the rest of that line of the page is typed (and echoed, as a terminal does). Past the end
    of the page, or where the output has left it, input ends.
    """

    def __init__(self, output: io.StringIO, expected: str) -> None:
        super().__init__()
        self.output, self.expected = output, expected

    def isatty(self) -> bool:
        return True

    def readline(self, size: int | None = -1) -> str:
        shown = self.output.getvalue()
        if not self.expected.startswith(shown) or not self.expected[len(shown) :].strip():
            return ""
        typed = self.expected[len(shown) :].split("\n", 1)[0]
        self.output.write(typed + "\n")
        return typed + "\n"


@contextmanager
def _redirected(stdin: io.StringIO, output: io.StringIO, out: TextIO | None) -> Iterator[None]:
    saved = sys.stdin, sys.stdout, sys.stderr, dict(os.environ)
    sys.stdin, sys.stdout, sys.stderr = stdin, output if out is None else out, output
    os.environ.update(ENV)
    try:
        yield
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved[:3]
        os.environ.clear()
        os.environ.update(saved[3])


def _printf(text: str) -> str:
    r"""What ``printf TEXT`` prints, for the escapes the pages use (``\n``, ``\t``, ``%%``)."""
    return text.replace("\\n", "\n").replace("\\t", "\t").replace("%%", "%")


def run(command: str, expected: str) -> str:
    """The output of one transcript's command line: ``bullscows ARGS``, optionally fed by
    ``printf TEXT |``, cut by ``| head -N`` or its standard output written to a file by
    ``> FILE`` (the output is then standard error's)."""
    from bullscows.cli import main

    stages = [shlex.split(stage, comments=True) for stage in command.split(" | ")]
    piped = None
    if stages[0][0] == "printf":
        piped = _printf(stages.pop(0)[1])
    head = int(stages.pop()[1].removeprefix("-")) if stages[-1][0] == "head" else None
    [(program, *args)] = stages
    assert program == "bullscows", f"a transcript runs bullscows, not {program!r}"
    target = None
    if args[-2:-1] == [">"]:
        *args, _, target = args
    output = io.StringIO()
    stdin = io.StringIO(piped) if piped is not None else _Keyboard(output, expected)
    with ExitStack() as files:
        out = None if target is None else files.enter_context(open(target, "w"))
        with _redirected(stdin, output, out), suppress(SystemExit):
            main(args, prog_name="bullscows")
    text = output.getvalue()
    if head is not None:
        text = "".join(text.splitlines(keepends=True)[:head])
    return text


def _transcript(block: str) -> Iterator[tuple[str, str]]:
    """Each ``$ command`` of a console block with the output the page shows for it."""
    for chunk in re.split(r"^\$ ", block, flags=re.MULTILINE)[1:]:
        command, _, expected = chunk.partition("\n")
        yield command, expected


def evaluate_console(example: Example) -> str | None:
    """Run a console block in the page's working folder; a mismatch is the failure's text."""
    os.chdir(example.namespace["folder"])
    for command, expected in _transcript(example.parsed):
        got = run(command, expected)
        if not _CHECKER.check_output(expected, got, _FLAGS):
            return f"$ {command}\nexpected:\n{expected}\ngot:\n{got}"
    return None


SYBIL = Sybil(
    parsers=[
        PythonCodeBlockParser(doctest_optionflags=_FLAGS),
        CodeBlockParser(language="console", evaluator=evaluate_console),
        SkipParser(),
    ]
)


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_examples(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every example of a page, in order, in a fresh folder, with a cache and a record of its
    own."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BULLSCOWS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # games kept in your record
    monkeypatch.delenv("BULLSCOWS_DATABASE", raising=False)
    # A search's budget of sets is seen at its reports, every second by default: the search
    # of a page's --budget may end before the first on a quick machine. Here, at every set.
    monkeypatch.setattr(reporting, "PROGRESS_EVERY", 0.0)
    (tmp_path / "docs").symlink_to(ROOT / "docs")  # the files the pages name, as docs/...
    document = SYBIL.parse(page)
    document.namespace["folder"] = tmp_path
    for example in document:
        with suppress(unittest.SkipTest):  # a block after <!-- skip: next "why" -->
            example.evaluate()


#: A fenced block: its language and its text.
_BLOCK = re.compile(r"^```(\w*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
#: What marks a console block not run: ``<!-- skip: next "why" -->``.
_SKIP = re.compile(r"<!-- skip: (\w+)(.*?)-->")


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_transcript_runs_or_says_why_not(page: Path) -> None:
    """A ``$ bullscows`` command shown with its output is in a console block, run by the
    tests, so that it cannot drift silently; one that is not run (a search of minutes) says
    why, and the page says how long it takes."""
    text = page.read_text(encoding="utf-8")
    for language, block in _BLOCK.findall(text):
        shown = any(line.startswith("$ bullscows") for line in block.splitlines())
        assert language in ("console", "sh") or not shown, f"not run:\n{block}"
    for action, why in _SKIP.findall(text):
        assert action == "next" and why.strip().startswith('"'), f"skip: {action}{why}"


def test_pages_have_examples() -> None:
    """The transcripts are found at all: the pages that show commands hold console blocks."""
    examples = sum(1 for page in PAGES for _ in SYBIL.parse(page))
    assert examples >= 20, examples


def test_site_builds_strictly(tmp_path: Path) -> None:
    """``mkdocs build --strict``: every page in the navigation, every link and reference
    resolves, the command line and API reference generate."""
    mkdocs = Path(sys.executable).parent / "mkdocs"
    result = subprocess.run(
        [str(mkdocs), "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
