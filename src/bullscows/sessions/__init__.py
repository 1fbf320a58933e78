"""Games as UI-free state machines: the command line and the web only render them.

* ``Codemaker``: the computer hides a secret and scores a person's guesses.
* ``Adversary``: the same game against a computer that commits to no secret and gives, each
  time, the reply that keeps the most codes possible (never a reply that contradicts another).
* ``Codebreaker``: the computer guesses a person's secret from their replies; with ``record``
  it also assists a person who plays elsewhere (any guess, any reply, suggestions, undo).
* ``Duel``: both at once, round by round, until both codes are broken.

Every front end reads a person's line with ``read_move(game, text)`` and plays it with
``game.apply(move)``, which returns a typed outcome (``sessions.moves``) that carries its
own words (``sessions.outcomes``): the front ends print or serialise it as it is.

Every game logs what the person does: ``to_record()`` gives a ``GameRecord`` (a few hundred
bytes of JSON) and ``restore`` rebuilds the game from it exactly, random draws included.

>>> game = Codemaker(Rules.parse("bc"), secret="2745", seed=3)
>>> _ = game.guess("1389")
>>> again = restore(GameRecord.loads(game.to_record().dumps()))
>>> again.history == game.history, again.secret == game.secret
(True, True)
"""

from __future__ import annotations

from typing import Protocol

from bullscows.records import Event, GameRecord, Status, Winner
from bullscows.rules import Rules
from bullscows.sessions.breaking import BreakerViewer, Codebreaker
from bullscows.sessions.common import T_co, as_code, as_feedback, random_secret
from bullscows.sessions.duel import Duel, DuelTurn, DuelViewer
from bullscows.sessions.making import (
    Adversary,
    Codemaker,
    MakerViewer,
    challenge,
    seeded_secret,
)
from bullscows.sessions.moves import (
    Candidates,
    Fix,
    GiveUp,
    Guess,
    Help,
    Hint,
    History,
    Move,
    Record,
    Reply,
    Suggest,
    Undo,
    named_move,
    read_move,
)
from bullscows.sessions.outcomes import (
    HIDDEN,
    Fixed,
    GaveUp,
    Helped,
    Hinted,
    Listed,
    Noted,
    Outcome,
    Scored,
    Shown,
    Suggested,
    Undone,
    revealed,
)

Game = Codemaker | Adversary | Codebreaker | Duel


class Viewer(MakerViewer[T_co], BreakerViewer[T_co], DuelViewer[T_co], Protocol[T_co]):
    """What a front end shows of each kind of game: ``game.shown_by(viewer)`` calls the
    method of the game's kind (``maker``, ``breaker`` or ``duel``), so that front ends never
    ask a game its type."""


_CLASSES: dict[str, type[Codemaker] | type[Adversary] | type[Codebreaker] | type[Duel]] = {
    cls.kind: cls for cls in (Codemaker, Adversary, Codebreaker, Duel)
}


def restore(record: GameRecord, assist: bool = False) -> Game:
    """The game ``record`` describes, replayed event by event (a ``RecordError`` if it
    cannot be); ``assist``: a codebreaker reads lines as ``assist`` does."""
    if record.kind == Codebreaker.kind:
        return Codebreaker.from_record(record, assist=assist)
    return _CLASSES[record.kind].from_record(record)


__all__ = [
    "HIDDEN",
    "Adversary",
    "Candidates",
    "Codebreaker",
    "Codemaker",
    "Duel",
    "DuelTurn",
    "Event",
    "Fix",
    "Fixed",
    "Game",
    "GameRecord",
    "GaveUp",
    "GiveUp",
    "Guess",
    "Help",
    "Helped",
    "Hint",
    "Hinted",
    "History",
    "Listed",
    "Move",
    "Noted",
    "Outcome",
    "Record",
    "Reply",
    "Rules",
    "Scored",
    "Shown",
    "Status",
    "Suggest",
    "Suggested",
    "Undo",
    "Undone",
    "Viewer",
    "Winner",
    "as_code",
    "as_feedback",
    "challenge",
    "named_move",
    "random_secret",
    "read_move",
    "restore",
    "revealed",
    "seeded_secret",
]
