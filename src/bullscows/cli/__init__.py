"""The ``bullscows`` command: a thin layer that parses input, calls the library and renders.

Only the modules of the command being run are imported, so ``bullscows --help`` stays fast;
the garbage collector rests while they are (``_quiet_collector``).
"""

from __future__ import annotations

import gc
import importlib
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from bullscows.cli import streams
from bullscows.errors import BullsCowsError, interrupted

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
        "Say what a history of guesses and replies leaves possible.",
    ),
    "analyse": (
        "bullscows.cli.analyse",
        "analyse",
        "Each guess of a game against the best guess at that moment.",
    ),
    "record": (
        "bullscows.cli.record",
        "record",
        "Your record against the computer's code, per variant.",
    ),
    "score": ("bullscows.cli.info", "score", "Print the reply a guess gets against a secret."),
    "rules": ("bullscows.cli.info", "rules", "List the preset variants, or describe one."),
    "strategies": ("bullscows.cli.info", "strategies", "List the strategies."),
    "bench": ("bullscows.cli.bench", "bench", "Measure the strategies over every secret."),
    "tree": ("bullscows.cli.tree", "tree", "Build, print or check a strategy's decision tree."),
    "card": ("bullscows.cli.card", "card", "Print a strategy a person can follow, as a card."),
    "serve": ("bullscows.cli.serve", "serve", "Serve the web app: every mode in a browser."),
}


#: What ``bullscows`` typed alone prints: what the program is, the commands to start with.
WELCOME = """\
bullscows: Bulls & Cows, Mastermind and their whole family, in a terminal or a browser.

Start with:
  bullscows play     break the computer's secret code (4 distinct digits)
  bullscows solve    the computer breaks your secret code
  bullscows rules    the variants (--rules mm plays Mastermind)
  bullscows serve    every mode in a browser

bullscows --help lists every command."""


#: The youngest generation's threshold of the garbage collector once a command's modules are
#: imported (Python's default is 700): start-up makes hundreds of thousands of objects, nearly
#: none of them in cycles, and with the default a tree command spends about a tenth of a second
#: in some 280 collections that free next to nothing.
_YOUNG_THRESHOLD = 20_000


@contextmanager
def _quiet_collector() -> Iterator[None]:
    """No garbage collection while a command's modules are imported (``LazyGroup.get_command``
    then freezes what they made and collects the young generation less often); as it was
    afterwards."""
    enabled, thresholds = gc.isenabled(), gc.get_threshold()
    gc.disable()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
        if enabled:
            gc.enable()


def _one_blas_thread() -> None:
    """Keep the BLAS library NumPy loads (OpenBLAS) to the calling thread, unless the user says
    otherwise: nothing here multiplies matrices, and its own threads, started as NumPy is
    imported, would only spin on the cores a command's work needs (a tenth of a second of CPU
    per command on 2 cores). Runs before any command's module, so before NumPy is imported."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


class LazyGroup(click.Group):
    """Loads a command's module only when that command runs (or shows its help)."""

    #: Whether ``main`` has begun and no command's module is imported yet.
    starting = False
    #: Whether the collector was on when ``main`` began (it is turned on again then).
    collecting = True

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module, attribute, _ = COMMANDS[name]
        command: click.Command = getattr(importlib.import_module(module), attribute)
        if self.starting:  # the modules made now live as long as the process: set them aside
            self.starting = False
            gc.freeze()
            gc.set_threshold(_YOUNG_THRESHOLD, *gc.get_threshold()[1:])
            if self.collecting:
                gc.enable()
        return command

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """The command ``args`` names; a name that is none says which it may have meant.
        ``help`` and ``help COMMAND`` are read as ``--help`` and ``COMMAND --help``."""
        name = args[0] if args else ""
        if name == "help" and not ctx.resilient_parsing:
            if len(args) == 1:
                click.echo(ctx.get_help())
                ctx.exit()
            return self.resolve_command(ctx, [args[1], "--help"])
        if name in COMMANDS or name.startswith("-") or ctx.resilient_parsing:
            return super().resolve_command(ctx, args)
        import difflib

        close = difflib.get_close_matches(name, COMMANDS, n=1)
        meant = f" Did you mean {close[0]!r}?" if close else f" Commands: {', '.join(COMMANDS)}."
        ctx.fail(f"No such command {name!r}.{meant}")

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """No command given: the welcome on standard output, and done (exit 0)."""
        if not args and not ctx.resilient_parsing:
            click.echo(WELCOME)
            ctx.exit()
        return super().parse_args(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, short) for name, (_, _, short) in COMMANDS.items()]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Run the command with the standard streams set up (``streams.prepare``); a write
        that fails, even the last one when the program ends, is handled here once."""
        streams.prepare()
        _one_blas_thread()
        self.starting, self.collecting = True, gc.isenabled()
        try:
            try:
                with _quiet_collector():
                    return super().main(*args, **kwargs)
            finally:
                self.starting = False
                streams.flush()
        except OSError as error:
            sys.exit(streams.failed(error))

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        """The options read (Ctrl-C meanwhile ends the command as it does later)."""
        try:
            return super().make_context(info_name, args, parent, **extra)
        except KeyboardInterrupt:
            sys.exit(interrupted())

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BullsCowsError as error:
            click.echo(f"Error: {error}", err=True)
            sys.exit(1)
        except KeyboardInterrupt:
            sys.exit(interrupted())
        except OSError as error:  # a broken pipe, a full disk, a closed stream
            sys.exit(streams.failed(error))


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="bullscows")
def main() -> None:
    """Bulls & Cows (MOO), Mastermind and their whole family: play, solve, duel, assist.

    New here? `bullscows play` starts a game: guess the computer's secret, 4 distinct digits;
    each reply counts bulls (right symbol, right place) and cows (right symbol, elsewhere).

    Every command that plays or measures a variant takes --rules (bc, bc-nolead, mm, logik,
    p4c10n, moo5,5,5, ...; `bullscows rules SPEC` describes one), and every command takes
    --help (also `bullscows help COMMAND`).
    """
