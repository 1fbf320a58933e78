"""A player's record: the games they finished against the computer's code, by variant.

Games are kept as records (``records.GameRecord``) where the web app keeps its games (the
user's data folder: ``web.storage``); ``finished`` replays one to see how it ended, and
``standings`` gives, per variant, the games played and won, the current and best streak of
wins, and how many guesses the wins took. A game given up before its first guess was never
started: it counts neither as won nor as lost (``ABANDONED`` says so to the player).

>>> from bullscows.sessions import Codemaker, Rules
>>> won = Codemaker(Rules.parse("p3c4n"), secret="012", seed=1)
>>> _ = won.guess("013"), won.guess("012")
>>> lost = Codemaker(Rules.parse("p3c4n"), secret="321", seed=2)
>>> _ = lost.guess("012"), lost.give_up()
>>> unstarted = Codemaker(Rules.parse("p3c4n"), secret="321", seed=3)
>>> _ = unstarted.give_up()
>>> records = [won.to_record(), lost.to_record(), unstarted.to_record()]
>>> [row["played"] for row in standings(records)]
[2]
>>> standings([won.to_record(), lost.to_record()])[0]["distribution"]
{2: 1}
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bullscows.errors import BullsCowsError
from bullscows.feedback import counted
from bullscows.records import GameRecord
from bullscows.sessions import Adversary, Codemaker, Status, restore

#: The kinds of game in which the person breaks the computer's code: those a record counts.
COUNTED = ("codemaker", "adversary")
#: What a player is told of a game given up before its first guess.
ABANDONED = "Given up before the first guess: this game does not count in your record."


@dataclass(frozen=True, slots=True)
class Finished:
    """How a game against the computer's code ended: its variant, the guesses made, and
    whether the code was broken (won) rather than given up or out of guesses (lost)."""

    rules: str
    guesses: int
    won: bool


def finished(record: GameRecord) -> Finished | None:
    """How the game of ``record`` ended, or ``None`` when it is not over, was given up
    before its first guess (``counts``), is not a game against the computer's code, or
    cannot be replayed."""
    if record.kind not in COUNTED:
        return None
    try:
        game = restore(record)
    except BullsCowsError:
        return None
    assert isinstance(game, Codemaker | Adversary)
    if not counts(game):
        return None
    return Finished(game.rules.spec, len(game.history), game.status is Status.SOLVED)


def counts(game: Codemaker | Adversary) -> bool:
    """Whether ``game`` counts in a player's record: it is over (broken, given up, or out of
    guesses) and was not given up before its first guess."""
    return game.over and not game.abandoned


def win_percent(won: int, played: int) -> int:
    """The share of ``played`` games that were ``won``, in whole per cent rounded to the
    nearest (a half up): what ``bullscows record`` and the web's record page show.

    >>> win_percent(1, 6), win_percent(2, 3), win_percent(1, 8), win_percent(0, 0)
    (17, 67, 13, 0)
    """
    return (200 * won + played) // (2 * played) if played else 0


def wins_text(distribution: dict[int, int]) -> str:
    """How many guesses the wins took, in words: ``distribution`` maps guesses to the wins
    that took that many (``standings``), as a record's line shows it.

    >>> wins_text({3: 1, 4: 2}), wins_text({1: 1}), wins_text({})
    ('wins: 1 in 3 guesses, 2 in 4 guesses', 'wins: 1 in 1 guess', 'no win yet')
    """
    if not distribution:
        return "no win yet"
    return "wins: " + ", ".join(
        f"{wins} in {counted(n, 'guess')}" for n, wins in distribution.items()
    )


def played_text(played: int, won: int) -> str:
    """Games played and won, in words, as the web's record page heads a variant's wins.

    >>> played_text(3, 2)
    '3 played, 2 won'
    """
    return f"{played} played, {won} won"


def standings(records: Iterable[GameRecord]) -> list[dict[str, Any]]:
    """Per variant, in the order first played (records oldest first): games finished
    (``played``), ``won``, ``win_percent`` (to the nearest), the current and the best
    ``streak`` of wins, ``distribution``: guesses -> wins that took that many, and the
    words a front end shows of them: ``summary`` (``played_text``) and ``wins``
    (``wins_text``)."""
    return tally(game for game in map(finished, records) if game is not None)


def tally(finished_games: Iterable[Finished]) -> list[dict[str, Any]]:
    """``standings`` of games already known to be finished (oldest first), such as those a
    browser keeps for the web app's record page."""
    by_rules: dict[str, list[Finished]] = {}
    for game in finished_games:
        by_rules.setdefault(game.rules, []).append(game)
    rows = []
    for rules, games in by_rules.items():
        streak = best = 0
        spread: dict[int, int] = {}
        for game in games:
            streak = streak + 1 if game.won else 0
            best = max(best, streak)
            if game.won:
                spread[game.guesses] = spread.get(game.guesses, 0) + 1
        won, distribution = sum(spread.values()), dict(sorted(spread.items()))
        rows.append({
            "rules": rules, "played": len(games), "won": won,
            "win_percent": win_percent(won, len(games)), "streak": streak, "best_streak": best,
            "distribution": distribution, "summary": played_text(len(games), won),
            "wins": wins_text(distribution),
        })  # fmt: skip
    return rows
