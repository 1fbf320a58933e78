"""Ctrl-C and Ctrl-D at every prompt of every interactive mode, in a real terminal: Ctrl-C ends
the command with one line and exit 130, Ctrl-D ends the game as ``quit`` does (exit 0); never
a traceback (``Session.finish`` checks)."""

from __future__ import annotations

import signal
import threading

import pytest

from bullscows._kernels import compiled
from bullscows.cli.common import warm_up_in_background
from bullscows.cli.streams import TYPE_HISTORY

from .conftest import Spawn

#: Each prompt: the command, the lines typed before it, and the prompt's last words.
PROMPTS = [
    (["play", "--seed", "1"], [], "[1] Your guess: "),
    (["solve", "--seed", "1"], [], "reply: "),
    (["solve", "--seed", "1"], ["0 0", "0 0"], "or 'quit': "),  # at a contradiction
    (["duel", "--seed", "1"], [], "[1] Your guess: "),
    (["duel", "--seed", "1"], ["0123"], "reply: "),
    (["assist"], [], "> "),
    (["assist"], ["0123"], "Reply to 0123: "),
    (["candidates"], [], TYPE_HISTORY),
    (["analyse"], [], TYPE_HISTORY),
]


def reach(terminal: Spawn, args: list[str], typed: list[str], prompt: str) -> Spawn:
    """The command at ``prompt``, after ``typed`` (each line once its own prompt is shown)."""
    game = terminal(*args)
    for line in typed:
        game.expect_any([r"[:>] $"])
        game.send(line)
    game.expect_text(prompt)
    return game


@pytest.mark.parametrize(("args", "typed", "prompt"), PROMPTS)
def test_ctrl_c_at_a_prompt_is_one_line_and_130(
    terminal: Spawn, args: list[str], typed: list[str], prompt: str
) -> None:
    game = reach(terminal, args, typed, prompt)
    game.interrupt()
    assert game.finish() == 130
    assert game.transcript.rstrip().endswith("Interrupted."), game.transcript


@pytest.mark.parametrize(("args", "typed", "prompt"), PROMPTS)
def test_ctrl_d_at_a_prompt_ends_it_quietly(
    terminal: Spawn, args: list[str], typed: list[str], prompt: str
) -> None:
    game = reach(terminal, args, typed, prompt)
    game.send_eof()
    status = game.finish()
    if args[0] == "analyse":  # nothing typed: nothing to analyse, said in one line
        assert status == 1
        said = "Error: no guess to analyse: give a history of guesses and replies"
        assert game.transcript.rstrip().endswith(said), game.transcript
    else:
        assert status == 0, game.transcript


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signal masks")
def test_the_warm_up_thread_leaves_ctrl_c_to_the_main_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Linux gives a Ctrl-C to any thread that does not block it: given to the thread that
    compiles the kernels while a game starts, it left the main thread asleep in the prompt's
    read (a duel's reply prompt under load: ``^C`` echoed, no end until the next key)."""
    masks: list[set[signal.Signals]] = []
    done = threading.Event()

    def warm_up() -> None:
        masks.append(signal.pthread_sigmask(signal.SIG_BLOCK, set()))
        done.set()

    monkeypatch.setattr(compiled, "warm_up", warm_up)
    warm_up_in_background()
    assert done.wait(60)
    assert signal.SIGINT in masks[0]
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())
