"""The ``bullscows`` command: a thin layer that parses input, calls the library and renders.

Only the modules of the command being run are imported, so ``bullscows --help`` stays fast.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click

from bullscows.cli import streams
from bullscows.errors import BullsCowsError

#: command name -> (module, function, one-line help)
COMMANDS = {
    "play": ("bullscows.cli.play", "play", "Break the computer's secret code."),
    "solve": ("bullscows.cli.solve", "solve", "The computer breaks your secret code."),
    "duel": (
        "bullscows.cli.duel",
        "duel",
        "Both at once: you guess its code while it guesses yours.",
    ),
    "assist": ("bullscows.cli.assist", "assist", "Help with a game played elsewhere."),
    "candidates": (
        "bullscows.cli.candidates",
        "candidates",
        "Does a history of replies fix the secret, or contradict itself?",
    ),
    "score": ("bullscows.cli.info", "score", "Print the reply a guess gets against a secret."),
    "rules": ("bullscows.cli.info", "rules", "List the preset variants, or describe one."),
    "strategies": ("bullscows.cli.info", "strategies", "List the strategies."),
    "bench": ("bullscows.cli.bench", "bench", "Measure the strategies over every secret."),
    "tree": ("bullscows.cli.tree", "tree", "Build, print or check a strategy's decision tree."),
    "serve": ("bullscows.cli.serve", "serve", "Serve the web app: every mode in a browser."),
}


class LazyGroup(click.Group):
    """Loads a command's module only when that command runs (or shows its help)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module, attribute, _ = COMMANDS[name]
        command: click.Command = getattr(importlib.import_module(module), attribute)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, short) for name, (_, _, short) in COMMANDS.items()]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Run the command with the standard streams set up (``streams.prepare``); a write
        that fails, even the last one when the program ends, is handled here once."""
        streams.prepare()
        try:
            try:
                return super().main(*args, **kwargs)
            finally:
                streams.flush()
        except OSError as error:
            sys.exit(streams.failed(error))

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BullsCowsError as error:
            click.echo(f"Error: {error}", err=True)
            sys.exit(1)
        except KeyboardInterrupt:
            click.echo("", err=True)
            sys.exit(130)
        except OSError as error:  # a broken pipe, a full disk, a closed stream
            sys.exit(streams.failed(error))


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="bullscows")
def main() -> None:
    """Bulls & Cows (MOO), Mastermind and their whole family: play, solve, duel, assist.

    Every command takes --rules (bc, bc-nolead, mm, logik, p4c10n, moo5,5,5, ...) and --help.
    """
