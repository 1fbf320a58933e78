"""Options shared by the commands, and the pieces of terminal input and output they share."""

from __future__ import annotations

import functools
import math
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from bullscows.atomic import check_folder
from bullscows.cli import streams
from bullscows.errors import BullsCowsError
from bullscows.feedback import STYLES
from bullscows.readers import QUOTE_LENGTH, did_you_mean, quote, quote_path, read_text
from bullscows.rules import MAX_LENGTH, MAX_SCORED_LENGTH, SPEC_HELP, Rules
from bullscows.strategy_spec import CHOICES, NAMES

if TYPE_CHECKING:  # the strategies import NumPy: not needed for --help
    from bullscows.strategies import Strategy

F = TypeVar("F", bound=Callable[..., Any])


class _Short(click.ParamType[Any, Any]):
    """Refuses text longer than any number of the program, quoted short: click would quote
    it whole, and Python refuses to read an integer of more than 4,300 digits."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and len(value) > QUOTE_LENGTH:
            self.fail(f"{quote(value)} is not a valid {self.name}.", param, ctx)
        return super().convert(value, param, ctx)


class Command(click.Command):
    """``click.Command`` that refuses arguments beyond its own in one line quoting them and
    saying what it takes (``takes``, in words), not click's bare "unexpected extra argument":
    ``'1234 5678 9012': score takes a secret and a guess (SECRET GUESS); '9012' is one too
    many``. Every command is one (``@click.command(cls=Command)``)."""

    #: Extra arguments are let through click's own check, to be refused here.
    allow_extra_args = True

    def __init__(self, *args: Any, takes: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.takes = takes

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        rest = super().parse_args(ctx, args)
        if rest and not ctx.resilient_parsing:
            ctx.fail(self.extra_arguments(ctx, rest))
        return rest

    def extra_arguments(self, ctx: click.Context, extra: list[str]) -> str:
        """Why the arguments ``extra`` are refused, quoting every argument given."""
        arguments = [p for p in self.get_params(ctx) if isinstance(p, click.Argument)]
        given = [str(ctx.params[p.name]) for p in arguments if p.name and ctx.params.get(p.name)]
        quoted = quote(" ".join([*given, *extra]))
        if not arguments:
            meant = _option_meant(self.get_params(ctx), extra)
            return f"{quoted}: {self.name} takes no arguments, only options{meant} (see --help)"
        usage = " ".join(p.make_metavar(ctx) for p in arguments)
        takes = f"{self.takes} ({usage})" if self.takes else usage
        many = "is one" if len(extra) == 1 else f"are {len(extra)}"
        return f"{quoted}: {self.name} takes {takes}; {quote(' '.join(extra))} {many} too many"


def _option_meant(params: list[click.Parameter], extra: list[str]) -> str:
    """``; did you mean '--rules mm'?`` when the one argument ``extra`` is a variant or a
    strategy that a command of ``params`` takes as an option's value (``bullscows play mm``).

    >>> _option_meant([click.Option(["--rules"]), click.Option(["--strategy"])], ["MM"])
    "; did you mean '--rules MM'?"
    >>> _option_meant([click.Option(["--strategy"])], ["entropy"]), _option_meant([], ["mm"])
    ("; did you mean '--strategy entropy'?", '')
    """
    options = {name for param in params for name in getattr(param, "opts", ())}
    [value] = extra if len(extra) == 1 else [""]
    if "--strategy" in options and value in NAMES:
        return f"; did you mean '--strategy {value}'?"
    if "--rules" in options and value:
        try:
            Rules.parse(value)
        except BullsCowsError:
            return ""
        return f"; did you mean '--rules {value}'?"
    return ""


class Choice(click.Choice):  # type: ignore[type-arg]
    """``click.Choice`` that says which value a misspelt one meant, and quotes it short:
    ``'peg' is not one of 'words', 'bc', ... (did you mean 'pegs'?).``"""

    def get_invalid_choice_message(self, value: Any, ctx: click.Context | None) -> str:
        text = str(value)
        choices = ", ".join(map(repr, self.choices))
        return f"{quote(text)} is not one of {choices}{did_you_mean(text, map(str, self.choices))}."


class Whole(_Short, click.IntRange):
    """``click.IntRange`` that calls what it wants a whole number: ``'x' is not a valid
    integer.``, not click's ``integer range`` (and ``INTEGER`` in the help)."""

    name = "integer"

    def _describe_range(self) -> str:
        """No range in the help where the number has no bound (click shows ``x<=None``)."""
        return "" if self.min is None and self.max is None else super()._describe_range()


class Number(_Short, click.FloatRange):
    """``click.FloatRange`` that calls what it wants a number, not a ``float range``, and
    refuses ``nan`` (which every range check lets through) and infinity (no number of
    seconds or hours: leave the option out, or give 0 where it says so)."""

    name = "number"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if number != number:  # nan is the one value not equal to itself
            self.fail(f"{value!r} is not a number.", param, ctx)
        if math.isinf(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return number


def variant_options(function: F) -> F:
    """``--rules`` and the flags that adjust a variant; the command receives ``rules``."""
    return _variant_options(function, scoring=False)


def scoring_variant_options(function: F) -> F:
    """``variant_options`` for a command that only reads and scores codes: a variant too large
    to enumerate, or codes longer than 10, are accepted (``Rules.scoring``)."""
    return _variant_options(function, scoring=True)


def _variant_options(function: F, scoring: bool) -> F:
    longest = MAX_SCORED_LENGTH if scoring else MAX_LENGTH
    options = [
        click.option(
            "--rules",
            "spec",
            default="bc",
            show_default=True,
            metavar="SPEC",
            help=f"The variant: {SPEC_HELP}.",
        ),
        click.option("--length", type=Whole(1, longest), help=f"Code length (1 to {longest})."),
        click.option("--symbols", help="The alphabet, in order, e.g. RGBYOP or 0123456789abcdef."),
        click.option(
            "--repeats/--no-repeats", default=None, help="Whether a symbol may repeat in a code."
        ),
        click.option(
            "--no-leading-zero",
            is_flag=True,
            help="Bar the first symbol (0) from the first position.",
        ),
        click.option(
            "--radix",
            metavar="R1,R2,...",
            help="J moo universe: position i ranges over the first r_i symbols, e.g. 5,5,5.",
        ),
    ]

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        kwargs["rules"] = build_rules(
            kwargs.pop("spec"), kwargs.pop("length"), kwargs.pop("symbols"),
            kwargs.pop("repeats"), kwargs.pop("no_leading_zero"), kwargs.pop("radix"), scoring,
        )  # fmt: skip
        return function(*args, **kwargs)

    for option in reversed(options):
        wrapper = option(wrapper)
    return wrapper  # type: ignore[return-value]


def variant_given() -> bool:
    """Whether the running command was given a variant (``--rules`` or a flag adjusting
    one), not left to its default."""
    context = click.get_current_context()
    return any(
        context.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT
        for name in ("spec", "length", "symbols", "repeats", "no_leading_zero", "radix")
    )


def contradicted(what: str, found: Rules, rules: Rules, whose: str = "the file's") -> None:
    """A usage error if a variant was given (``variant_given``) and ``what`` (a file,
    quoted, or a game: ``whose`` variant is then to be given instead) is of another one,
    ``found``.

    >>> from bullscows.rules import Rules
    >>> contradicted("'x.json'", Rules.parse("mm"), Rules.parse("mm"))  # no command: no error
    """
    if found.spec != rules.spec and click.get_current_context(silent=True) and variant_given():
        raise click.UsageError(
            f"{what} is of {found.spec}, not of {rules.spec} (--rules): leave the variant out, "
            f"or give {whose}"
        )


def build_rules(
    spec: str,
    length: int | None,
    symbols: str | None,
    repeats: bool | None,
    no_leading_zero: bool,
    radix: str | None,
    scoring: bool = False,
) -> Rules:
    """The variant the options describe (``Rules.from_options``); a bad combination is a
    usage error (exit 2)."""
    context = click.get_current_context(silent=True)
    given = context is not None and context.get_parameter_source("spec") not in (
        None, click.core.ParameterSource.DEFAULT,
    )  # fmt: skip
    if radix is not None and given:
        raise click.UsageError(
            f"--rules {quote(spec)} and --radix {quote(radix)} each give the variant; give one"
        )
    try:
        return Rules.from_options(
            spec, length=length, symbols=symbols, repeats=repeats,
            no_leading_zero=no_leading_zero, radix=radix, scoring=scoring,
        )  # fmt: skip
    except BullsCowsError as error:
        raise click.UsageError(str(error)) from None


#: ``--max-depth``, shared by every command that makes a strategy (``strategy_option``, bench).
def executor_options(function: F) -> F:
    """``--jobs N`` (local workers: threads for a search, processes for the bench) and
    ``--scheduler ADDRESS`` (a Dask cluster)."""
    function = click.option(
        "--scheduler",
        metavar="ADDRESS",
        callback=_scheduler,
        help="Run on the Dask cluster of the scheduler at this address (tcp://HOST:PORT).",
    )(function)
    return click.option(
        "--jobs",
        type=Whole(min=1),
        default=1,
        show_default=True,
        help="Run on this many local workers (a search's threads, the bench's processes).",
    )(function)


def _scheduler(ctx: click.Context, param: click.Parameter, address: str | None) -> str | None:
    """``--scheduler``: an address of the form ``tcp://HOST:PORT``, checked before any work
    (whether a scheduler answers there is found when the work starts)."""
    if address is None:
        return None
    from bullscows.dask_tasks import scheduler_address  # not needed for --help

    try:
        scheduler_address(address)
    except BullsCowsError as error:
        raise click.BadParameter(str(error).removeprefix("scheduler ")) from None
    return address


max_depth_option = click.option(
    "--max-depth",
    type=Whole(min=1),
    metavar="D",
    help="With an optimal strategy: no secret may need more than D guesses.",
)


def make_strategy(
    name: str, consistent_only: bool = False, max_depth: int | None = None, other: str = ""
) -> Strategy:
    """``get_strategy`` for a command: an unknown name, or ``--max-depth`` given to a strategy
    that takes no depth cap, is a usage error (exit 2) naming ``--strategy`` (and, after the
    list of names an unknown one gets, ``other`` choices, in brackets)."""
    from bullscows.strategies import STRATEGIES, get_strategy

    try:
        return get_strategy(name, consistent_only=consistent_only, max_depth=max_depth)
    except BullsCowsError as error:
        listed = ":" not in name and name not in STRATEGIES  # the error lists the names
        also = f" ({other})" if other and listed else ""
        raise click.BadParameter(f"{error}{also}", param_hint="--strategy") from None


def _strategy_options(searches: bool) -> Callable[[F], F]:
    """``--strategy``, ``--consistent-only`` and ``--max-depth``: the command receives the
    ``Strategy`` itself.

    An unknown name, or a strategy that cannot play the variant, is a usage error (exit 2);
    with ``searches`` an optimal strategy is let through (the command searches its tree).
    """
    options = [
        click.option(
            "--strategy",
            default="minimax",
            show_default=True,
            metavar="NAME",
            help=f"How the computer guesses (`bullscows strategies` says what each does): "
            f"{CHOICES}.",
        ),
        click.option(
            "--consistent-only",
            is_flag=True,
            help="Heuristic strategies guess only codes that could be the secret.",
        ),
        max_depth_option,
    ]

    def decorate(function: F) -> F:
        @functools.wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            name, consistent_only = kwargs.pop("strategy"), kwargs.pop("consistent_only")
            strategy = make_strategy(name, consistent_only, kwargs.pop("max_depth"))
            rules = kwargs.get("rules")
            searched = searches and hasattr(strategy, "search")
            problem = strategy.problem(rules) if rules is not None and not searched else None
            if problem is not None:
                raise click.BadParameter(problem, param_hint="--strategy")
            kwargs["strategy"] = strategy
            return function(*args, **kwargs)

        for option in reversed(options):
            wrapper = option(wrapper)
        return wrapper  # type: ignore[return-value]

    return decorate


#: The strategy options of the commands that play.
strategy_option = _strategy_options(searches=False)
#: The strategy options of ``tree``, which searches for an optimal strategy's tree itself.
searched_strategy_option = _strategy_options(searches=True)


def ending(path: Path, endings: tuple[str, ...], option: str | None = None) -> Path:
    """``path`` if its name ends in one of ``endings``; else a bad value of ``option`` (the
    option being read, when not given) naming them.

    >>> ending(Path("mm.json.gz"), (".json", ".json.gz", ".txt")).name
    'mm.json.gz'
    """
    if not str(path).endswith(endings):
        named = " or ".join([", ".join(endings[:-1]), endings[-1]] if endings[:-1] else endings)
        raise click.BadParameter(f"{quote_path(path)}: name it with {named}", param_hint=option)
    return path


def writes(
    what: str, *endings: str, in_place: bool = False
) -> Callable[[click.Context, click.Parameter, Path | None], Path | None]:
    """The callback of an option naming a file to write ``what`` to, checked as the options
    are read, before any work: its name ends in one of ``endings`` (when given; else a bad
    option value) and its folder exists (``atomic.check_folder``: no folder is made; with
    ``in_place``, a file appended to where it is, as it is if it exists)."""

    def check(ctx: click.Context, param: click.Parameter, path: Path | None) -> Path | None:
        if path is None:
            return None
        return check_folder(ending(path, endings) if endings else path, what, in_place)

    return check


def reply_style_option(default: str | None = None, when: str = "") -> Callable[[F], F]:
    """``--reply-style``: how replies are printed (``when``: e.g. 'with --format text').
    Without ``default``, the variant's own (``feedback.default_style``: pegs in Mastermind's
    family, else words), for a command whose ``rules`` come from options listed above it."""
    styles = ", ".join(f"{k} ({v})" for k, v in STYLES.items())
    option = click.option(
        "--reply-style",
        type=Choice(list(STYLES)),
        default=default,
        show_default=default or "words; pegs where a code may repeat a symbol (Mastermind)",
        help=f"How replies are printed{' ' + when if when else ''}: {styles}.",
    )

    def decorate(function: F) -> F:
        @functools.wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if kwargs.get("reply_style") is None:
                from bullscows.feedback import default_style

                rules = kwargs.get("rules")
                kwargs["reply_style"] = "words" if rules is None else default_style(rules)
            return function(*args, **kwargs)

        return option(wrapper)  # type: ignore[return-value]

    return decorate


class Seed(Whole):
    """``--seed``: a whole number of at most 18 digits, either sign, refused as every seed is
    (``seeding.check_seed``)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        from bullscows.seeding import check_seed

        try:
            return check_seed(super().convert(value, param, ctx))
        except BullsCowsError as error:
            self.fail(str(error), param, ctx)


def seed_option(text: str) -> Callable[[F], F]:
    """``--seed`` (``Seed``), alike in every command."""
    return click.option("--seed", type=Seed(), help=f"{text} (up to 18 digits, either sign).")


def play_options(function: F) -> F:
    """``--seed`` and ``--reply-style``; the command receives ``seed`` (drawn when not given)."""
    options = [
        seed_option("Seed for reproducible secrets and random choices"),
        reply_style_option(),
    ]

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from bullscows.seeding import new_seed

        seed = kwargs.pop("seed")
        kwargs["seed"] = new_seed() if seed is None else seed
        return function(*args, **kwargs)

    for option in reversed(options):
        wrapper = option(wrapper)
    return wrapper  # type: ignore[return-value]


def computer_player_options(function: F) -> F:
    """The options of a game in which the computer guesses: variant, seed, style, strategy."""
    return variant_options(play_options(strategy_option(function)))


def warm_up_in_background() -> None:
    """Compile the scoring kernels on another thread while the game starts (see
    ``_kernels.compiled.warm_up``): the first run on a machine then waits for nothing.
    The thread (and the kernels' threads it starts) blocks SIGINT: the kernel may give a
    Ctrl-C to any thread that takes it, and one given to this thread would leave the main
    thread asleep in the prompt's read until the next key."""

    from bullscows.universe import sigint_blocked

    def warm() -> None:
        from bullscows._kernels import compiled

        compiled.warm_up()

    with sigint_blocked():  # the thread inherits the caller's mask
        threading.Thread(target=warm, name="bullscows-warm-up", daemon=True).start()


class Terminal:
    """Reads commands and writes lines for an interactive game.

    When standard input is not a terminal (a pasted or piped script), ``interactive`` is
    False: nobody is there to answer a follow-up question, so a command asks none; a line it
    refuses, and an error that ends the run, is said once, on standard error, naming the line
    (not in the transcript on standard output), and the command ends with exit code 1
    (``refused`` counts the lines refused).
    """

    def __init__(self) -> None:
        warm_up_in_background()
        # No markup: what a person typed is printed as typed, brackets and all; written to a
        # file or a pipe, lines are whole (never wrapped at 80 columns).
        self.console = streams.console()
        self.interactive = sys.stdin.isatty()
        self.line = 0
        self.typed = ""  # the last line read
        self.refused = 0
        self.prompting = False  # a prompt's line of the transcript is not ended yet
        self.ended = False  # the input has ended (Ctrl-D at a terminal)

    def refuse(self, text: str) -> None:
        """Refuse the last line read, saying why: in red at a terminal (to be typed again);
        from a script once, on standard error, naming and quoting the line."""
        if self.interactive:
            self.warn(text)
            return
        self.refused += 1
        self.error(f"line {self.line}: {_quoted(self.typed, text)}{text}")

    def error(self, text: str) -> None:
        """An error: in red at a terminal; from a script once, on standard error, where the
        caller looks (after the transcript's open prompt line is ended)."""
        if self.interactive:
            self.warn(text)
            return
        if self.prompting:
            self.say()
        self.console.file.flush()
        print(f"Error: {text}", file=sys.stderr, flush=True)

    @property
    def width(self) -> int:
        """How long a line the library may write: the terminal's width, else its own."""
        from bullscows.sessions.outcomes import WIDTH

        return streams.width(WIDTH, self.console)

    def exit_code(self) -> int:
        """1 when a script had lines refused, else 0."""
        return 1 if self.refused else 0

    def say(self, text: str = "") -> None:
        self.console.print(text)
        self.prompting = False

    def warn(self, text: str) -> None:
        self.console.print(text, style="red")
        self.prompting = False

    def ask(self, prompt: str) -> str | None:
        """One line of input, stripped; ``None`` at end of input, and without asking once it
        has ended (Ctrl-D at a terminal ends the game: no question follows). A line that is
        not UTF-8 text is refused (named, from a script), and asked again."""
        while not self.ended:
            try:
                line = self._read(prompt)
            except EOFError:
                line = None
            if line is None:
                self.say()
                self.ended = True
                break
            self.line += 1
            self.typed = ""  # none that can be quoted, until it is read
            try:
                self.typed = read_text(line, "the line").strip()
                return self.typed
            except BullsCowsError as error:
                self.refuse(f"{error}; type it again" if self.interactive else str(error))
        return None

    def _read(self, prompt: str) -> str | None:
        """A line typed at a terminal (with line editing), or read from a pipe or file up to
        ``streams.MAX_LINE`` characters; ``None`` at the end of input."""
        if sys.stdin.isatty():
            return self.console.input(prompt, markup=False, emoji=False)
        self.console.print(prompt, end="")
        self.console.file.flush()
        self.prompting = True
        return streams.read_line()


def _quoted(typed: str, text: str) -> str:
    """``"'TYPED': "`` to name a refused line, unless ``text`` already shows it (quoted, or
    as a word) or nothing was read.

    >>> _quoted("70x9 1 1", "code '70x9': 'x' is not a symbol"), _quoted("12", "code '12' ...")
    ("'70x9 1 1': ", '')
    """
    if not typed or repr(typed) in text or typed in text.split():
        return ""
    return f"{quote(typed)}: "
