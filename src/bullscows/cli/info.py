"""``bullscows score``, ``rules`` and ``strategies``: answers without a game."""

from __future__ import annotations

import json

import click

from bullscows.cli.common import Command, reply_style_option, scoring_variant_options
from bullscows.cli.streams import echo_wrapped
from bullscows.codes import Code
from bullscows.readers import quote
from bullscows.rules import PRESETS, Rules, parse_spec, preset

#: What can be done with a variant too large to enumerate.
SCORE_ONLY = "bullscows score scores its codes"


@click.command(cls=Command, takes="a secret and a guess")
@click.argument("secret")
@click.argument("guess")
@scoring_variant_options
@reply_style_option()
@click.option("--json", "as_json", is_flag=True, help='Print {"bulls": B, "cows": C}.')
def score(secret: str, guess: str, rules: Rules, reply_style: str, as_json: bool) -> None:
    """Print the reply GUESS gets when the secret is SECRET.

    \b
    bullscows score 1234 4130          ->  1 bull, 2 cows
    bullscows score --rules mm 1122 1234 --reply-style pegs  ->  1B1W
    bullscows score --rules bc:guesses=p4c10r 1234 1111  ->  1 bull, 0 cows
    bullscows score --rules p5c26r:symbols=abcdefghijklmnopqrstuvwxyz crane react
    bullscows score --rules p12c10r 123456789012 210987654321

    Any length (up to 200) and any number of codes: scoring two codes enumerates nothing.
    """
    from bullscows import score as score_codes

    feedback = score_codes(Code(secret, rules).as_secret(), Code(guess, rules))
    if as_json:
        click.echo(json.dumps({"bulls": feedback.bulls, "cows": feedback.cows}))
    else:
        click.echo(feedback.format(reply_style))


@click.command(cls=Command, takes="at most one variant")
@click.argument("spec", required=False)
@click.option(
    "--rules", "option_spec", metavar="SPEC", help="The variant to describe, as other commands "
    "take it (the same as SPEC).",
)  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def rules(spec: str | None, option_spec: str | None, as_json: bool) -> None:
    """List the preset variants, or describe the variant SPEC (e.g. p5c10n, moo5,5,5).

    \b
    bullscows rules
    bullscows rules p5c8r:nolead
    bullscows play --rules p5c8r:nolead
    """
    from bullscows.errors import BullsCowsError

    if spec is not None and option_spec not in (None, spec):
        raise click.UsageError(
            f"SPEC {quote(spec)} and --rules {quote(option_spec)} each name a variant; give one"
        )
    spec = spec if option_spec is None else option_spec

    if spec is None:
        rows = [(name, preset(name), text) for name, (*_, text) in PRESETS.items()]
    else:
        try:  # describing enumerates nothing: any variant that scores is described
            described = parse_spec(spec, scoring=True)
        except BullsCowsError as error:
            raise click.UsageError(str(error)) from None
        rows = [(spec, described, PRESETS[spec][-1] if spec in PRESETS else "")]
    if as_json:
        click.echo(json.dumps([_as_dict(name, r, text) for name, r, text in rows], indent=2))
        return
    for name, r, text in rows:
        codes = (
            f"{r.size:>9,} {'code ' if r.size == 1 else 'codes'}"
            if r.size >= 0
            else "uncounted codes"
        )
        scored = f" (too many to play: {SCORE_ONLY})" if r.scoring else ""
        line = f"{name:<12} {codes}  {r.describe()}" + (f"  ({text})" if text else "") + scored
        echo_wrapped(line, max(len(name), 12) + 1)


def _as_dict(name: str, r: Rules, text: str) -> dict[str, object]:
    return {
        "name": name, "spec": r.spec, "length": r.length, "symbols": r.symbols,
        "repeats": r.repeats, "allowed": list(r.allowed) if r.allowed else None,
        "codes": r.size if r.size >= 0 else None, "playable": not r.scoring,
        "description": text or r.describe(),
        "guesses": r.guesses.spec if r.guesses else None, "guess_codes": r.guess_rules.size,
    }  # fmt: skip


@click.command(cls=Command)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def strategies(as_json: bool) -> None:
    """List the strategies the computer can play, each with what it does.

    A name goes to --strategy of play, solve, duel, assist, analyse, bench and tree.

    \b
    bullscows strategies
    bullscows strategies --json
    bullscows solve --rules mm --strategy entropy
    """
    from bullscows.strategies import DEFAULT_STRATEGY, STRATEGIES

    if as_json:
        click.echo(
            json.dumps([{"name": n, "summary": s.summary} for n, s in STRATEGIES.items()], indent=2)
        )
        return
    width = max(map(len, STRATEGIES))
    for name, cls in STRATEGIES.items():
        mark = " (default)" if name == DEFAULT_STRATEGY else ""
        echo_wrapped(f"{name:<{width}}  {cls.summary}{mark}", width + 2)
