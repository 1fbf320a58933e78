"""The one family of errors the library raises for bad input.

Every message quotes the offending input and says what would be valid, so the command line and
the web layer can show it to a person as it is.
"""

from __future__ import annotations


class BullsCowsError(ValueError):
    """Base class of every error caused by input a person gave."""


class RulesError(BullsCowsError):
    """A variant that cannot exist or is too large to enumerate."""


class CodeError(BullsCowsError):
    """A code that is not valid for the variant."""


class FeedbackError(BullsCowsError):
    """A reply that cannot be read, or that cannot occur in the variant."""


class ContradictionError(BullsCowsError):
    """A history of replies that no secret of the variant satisfies.

    ``explanation`` carries the structured account (see ``knowledge.explain_contradiction``).
    """

    def __init__(self, message: str, explanation: object = None) -> None:
        super().__init__(message)
        self.explanation = explanation


class StrategyError(BullsCowsError):
    """An unknown strategy name or a strategy that cannot play the variant."""


class GameOverError(BullsCowsError):
    """A move in a game that has ended (its code broken, or given up)."""


class NothingToUndoError(BullsCowsError):
    """An undo, or a correction, of a reply that was never given."""


class RecordError(BullsCowsError):
    """A game record that cannot be read, or that does not replay."""


class TurnError(BullsCowsError):
    """A move made out of turn (in a duel, a guess while a reply is awaited, or the reverse)."""


class SearchError(BullsCowsError):
    """An optimal search asked for what it cannot give: an unknown objective, a depth within
    which no tree fits, a variant past its limit."""


class StaleMoveError(BullsCowsError):
    """A move that answers an earlier state of the game (sent twice, or from an old page)."""


class BullsCowsWarning(UserWarning):
    """Something the program passed over and did without (a damaged cache entry); the command
    line shows it as one line."""


#: The exit status of a command stopped by Ctrl-C (128 + SIGINT), as shells report it; the
#: console command exits with it on SIGTERM too (``bullscows.__main__``).
INTERRUPTED = 130


def interrupted(message: str = "Interrupted.") -> int:
    """Say on a line of its own that a command was stopped by Ctrl-C (or, in the console
    command, SIGTERM). Returns the status to exit with (``INTERRUPTED``). The console command
    then ends at once on any further Ctrl-C or SIGTERM while the process ends
    (``bullscows.__main__``); a caller in the same process is left alone."""
    import sys

    try:
        sys.stderr.write(f"\n{message}\n")
        sys.stderr.flush()
    except (OSError, ValueError):  # stderr closed or gone: the status says it
        pass
    return INTERRUPTED
