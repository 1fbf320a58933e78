"""The moves of a game, typed, and the one reader every front end uses.

A front end reads what a person typed with ``read_move(game, text)`` and hands the move to
``game.apply(move)``, which returns a typed outcome (``sessions.outcomes``) that says what
it tells in words. Every move may carry ``number``, the
number of the move it answers (``game.move_number`` when the person saw the game): a move
whose number is not the game's is refused with a ``StaleMoveError``, so a form sent twice
is never applied twice.

>>> from bullscows.sessions import Codemaker, Rules
>>> game = Codemaker(Rules.parse("bc"), secret="2745")
>>> move = read_move(game, "1389", number=game.move_number)
>>> move
Guess(number=1, code='1389')
>>> game.apply(move).feedback.format("pair")
'0 0'
>>> game.apply(move)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bullscows.errors.StaleMoveError: move #1 does not answer the game as it is now (at move #2)...
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import ClassVar, Protocol

from bullscows.codes import Code, code_and_rest
from bullscows.errors import BullsCowsError, StaleMoveError
from bullscows.feedback import NOTATIONS_HELP, Feedback
from bullscows.readers import did_you_mean, normal_text, quote
from bullscows.rules import Rules
from bullscows.sessions.outcomes import LIST_ALL
from bullscows.words import with_article

# --- the moves ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Move:
    """A move of a game; ``number``: the move it answers (``None``: whatever the game is at).

    ``Reply`` and ``Record`` also carry ``impossible``: a reply no secret can give is kept
    (and explained as a contradiction) instead of refused.
    """

    number: int | None = field(default=None, kw_only=True)
    #: The move's name in forms, routes and records.
    name: ClassVar[str] = ""
    #: Whether it changes the game (a move that only shows something is never stale).
    changes: ClassVar[bool] = True
    #: Whether it is a command (a guess or a reply is none: refused, it is a line that
    #: cannot be used, where a command refused is only warned about).
    command: ClassVar[bool] = True
    #: Whether it stops the game (giving up; also what ends a prompt for a reply).
    stops: ClassVar[bool] = False
    #: Whether it asks a strategy for a guess (on a large variant, the work of a search).
    asks_strategy: ClassVar[bool] = False

    @property
    def refused_as_a_line(self) -> bool:
        """Whether refusing it refuses the line typed (a guess or a reply that cannot be
        used, or a line no command can be read from: from a script, the run then fails),
        rather than only warning about a command the game cannot carry out now."""
        return not self.command

    @property
    def unanswered(self) -> str | None:
        """The guess of a ``Record`` typed without its reply (for the front end to ask the
        reply); ``None`` for any other move."""
        return None


@dataclass(frozen=True)
class Guess(Move):
    """A guess at the computer's code (play, duel)."""

    code: str
    name = "guess"
    command = False


@dataclass(frozen=True)
class Reply(Move):
    """A reply to the computer's guess (solve, duel)."""

    reply: str
    impossible: bool = field(default=False, kw_only=True)
    name = "reply"
    command = False


@dataclass(frozen=True)
class Record(Move):
    """A guess made elsewhere and the reply it got (assist)."""

    code: str
    reply: str
    impossible: bool = field(default=False, kw_only=True)
    name = "record"
    command = False

    @property
    def unanswered(self) -> str | None:
        return None if self.reply else self.code


@dataclass(frozen=True)
class Fix(Move):
    """Replace reply number ``step`` (from 1) by ``reply``, keeping the guesses after it.

    ``typed``: the line, when it began with ``fix`` but was no fix command (``fix 1``,
    ``fix x 1 1``): the game refuses it, saying what a fix command looks like (``fix_usage``).
    A fix refused for any reason (no reply #N, a reply that cannot be read) refuses its line,
    as a reply would be: from a script, the replies would otherwise not be what it says.
    """

    step: int
    reply: str
    typed: str = field(default="", kw_only=True)
    name = "correct"

    @property
    def refused_as_a_line(self) -> bool:
        return True


@dataclass(frozen=True)
class Undo(Move):
    """Take back the last reply."""

    name = "undo"


@dataclass(frozen=True)
class GiveUp(Move):
    """Stop; the computer's code, if it holds one, is shown."""

    name = "give-up"
    stops = True


@dataclass(frozen=True)
class Hint(Move):
    """The hint strategy's next guess, explained (play: counted once per guess)."""

    name = "hint"
    asks_strategy = True


@dataclass(frozen=True)
class Suggest(Move):
    """The computer's suggested next guess (assist)."""

    name = "suggest"
    changes = False
    asks_strategy = True


@dataclass(frozen=True)
class Candidates(Move):
    """The codes still possible (play, assist): a screenful, or ``every`` one (``list all``)."""

    every: bool = False
    name = "list"
    changes = False


@dataclass(frozen=True)
class History(Move):
    """The guesses and replies so far."""

    name = "history"
    changes = False


@dataclass(frozen=True)
class Help(Move):
    """What may be typed at this prompt."""

    name = "help"
    changes = False


# --- the words ----------------------------------------------------------------------------------

#: The words that give up (stop) a game, at any prompt.
QUIT = frozenset({"quit", "q", "exit", "give up", "give-up"})
HELP = frozenset({"help", "?"})
#: ``fix N REPLY`` (or ``correct #N REPLY``) replaces reply number N.
FIX = re.compile(r"(?:fix|correct)\s+#?(\d{1,9})\s+(\S.*)", re.IGNORECASE)
#: A line that begins with a fix command's word, well formed or not.
FIX_WORD = re.compile(r"(?:fix|correct)(?:\s|$)", re.IGNORECASE)
FIX_HELP = "'fix N REPLY' replaces reply #N"
REPLY_HELP = f"Replies are written {NOTATIONS_HELP}."
#: What may be typed at a prompt for a reply to the computer's guess (solve, duel).
REPLY_PROMPT_HELP = f"{REPLY_HELP} Commands: undo, {FIX_HELP}, quit."
#: How to leave the prompt for the reply to a guess typed alone (assist).
NO_REPLY_HELP = "Enter alone, 'undo' or 'quit' records no reply"
#: The other command words; each is a move only in the games that accept it.
WORDS: dict[str, type[Move]] = {
    "undo": Undo, "u": Undo, "hint": Hint, "history": History, "list": Candidates,
    "next": Suggest, "n": Suggest, "suggest": Suggest, "": Suggest,
}  # fmt: skip
#: The moves a form or a route names (``Move.name``).
NAMED: dict[str, type[Move]] = {m.name: m for m in (Guess, Reply, Record, Fix, Undo, GiveUp, Hint)}


class Playable(Protocol):
    """What ``read_move`` and ``check_move`` ask of a game."""

    @property
    def accepts(self) -> tuple[type[Move], ...]:
        """The moves this game takes now."""
        ...

    @property
    def move_number(self) -> int:
        """The number of the next move: one more than the moves made so far."""
        ...

    @property
    def rules(self) -> Rules:
        """The game's variant."""
        ...

    def bare_move(self, text: str) -> Move:
        """The move a line that is no command word asks for (a guess, a reply, ...)."""
        ...


def read_move(
    game: Playable, text: str, number: int | None = None, *, impossible: bool = False
) -> Move:
    """The move ``text`` asks for at ``game``'s prompt, as every front end reads it.

    A command word the game does not take is read as the game reads any other line (in play,
    'undo' is a guess, and refused as one). With ``impossible`` a reply no secret can give
    is kept (the replies then contradict each other) rather than refused: a script has nobody
    to ask again. Full-width forms read as their plain selves (``readers.normal_text``).
    """
    words = normal_text(text).strip()
    lowered = spoken(text)
    if lowered in QUIT:
        return GiveUp(number=number)
    if lowered in HELP:
        return Help(number=number)
    if Fix in game.accepts and FIX_WORD.match(words):
        fix = FIX.fullmatch(words)
        if fix is None:
            return Fix(0, "", typed=words, number=number)
        return Fix(int(fix.group(1)), fix.group(2).strip(), number=number)
    if lowered == LIST_ALL and Candidates in game.accepts:
        return Candidates(every=True, number=number)
    word = WORDS.get(lowered)
    if word is not None and word in game.accepts:
        return word(number=number)
    move = game.bare_move(words)
    if isinstance(move, Reply | Record):
        move = replace(move, impossible=impossible)
    return replace(move, number=number)


def spoken(text: str) -> str:
    """``text`` as a command word is looked up: full-width forms plain, lower case, one space
    between words.

    >>> spoken("  Give   UP ")
    'give up'
    """
    return " ".join(normal_text(text).lower().split())


def spells_code(game: Playable, text: str) -> bool:
    """Whether ``game`` reads ``text`` as a code (a guess) made only of its variant's symbols:
    refused, it was refused as a code, whatever command word it also spells.

    >>> from bullscows.sessions import Codemaker, Rules
    >>> game = Codemaker(Rules.parse("p4c12n:symbols=dehilnostuxg"))
    >>> spells_code(game, "suggest"), spells_code(game, "history"), spells_code(game, "1 2")
    (True, False, False)
    """
    move = game.bare_move(normal_text(text).strip())
    if not isinstance(move, Guess | Record):
        return False
    symbols = game.rules.guess_rules.symbols
    typed = "".join(move.code.split())
    return bool(typed) and any(all(s in symbols for s in case)
                               for case in (typed, typed.lower(), typed.upper()))  # fmt: skip


def command_meant(game: Playable, text: str) -> str:
    """`` (did you mean 'history'?)`` when ``text``, a line ``game`` refused, is a word close
    to a command it takes now (a misspelt command read as a guess or a reply); else nothing,
    and nothing for the command itself (``undo`` refused before any guess).

    >>> from bullscows.sessions import Codemaker, Rules
    >>> game = Codemaker(Rules.parse("bc"), secret="2745")
    >>> command_meant(game, "hsitory"), command_meant(game, "12x4"), command_meant(game, "undo")
    (" (did you mean 'history'?)", '', '')
    """
    word = spoken(text)
    if len(word) < 3 or not word.replace(" ", "").isalpha():
        return ""
    names = [w for w, move in WORDS.items() if len(w) > 1 and move in game.accepts]
    names += ["quit", "help", *(["fix"] if Fix in game.accepts else [])]
    return "" if word in names else did_you_mean(word, names)


def refusal(game: Playable, text: str, error: BullsCowsError) -> str:
    """What a front end says when ``game`` refused the line ``text`` with ``error``: a command
    word of other games that this one does not take ('hint' in assist, 'next' in play) is
    said to be no command here, with the commands it takes (and the one that does that job
    here); any other line gets the error, and the command it may have meant (``command_meant``).

    >>> from bullscows.sessions import Codebreaker, Rules
    >>> game = Codebreaker(Rules.parse("bc"), assist=True)
    >>> said = refusal(game, "hint", BullsCowsError("code 'hint': 'h' is not a symbol"))
    >>> for part in said.split("; "):
    ...     print(part)
    'hint' is no command here: 'next' (or Enter) suggests a guess
    the commands are undo, history, list, next, fix N REPLY, quit, help
    >>> print(refusal(game, "lsit", BullsCowsError("code 'lsit': 'l' is not a symbol")))
    code 'lsit': 'l' is not a symbol (did you mean 'list'?)
    """
    word = spoken(text)
    kind = WORDS.get(word)
    if not word or kind is None or kind in game.accepts:
        return f"{error}{command_meant(game, text)}"
    instead = COUNTERPARTS.get(kind)
    does = f": {instead[1]}" if instead is not None and instead[0] in game.accepts else ""
    none = f"{quote(word)} is no command here{does}; the commands are {', '.join(commands(game))}"
    return f"{error}; and {none}" if spells_code(game, text) else none


#: A command and the one that does its job in the games that take the other (a hint in play,
#: a suggested guess in assist), with the words that say what it does.
COUNTERPARTS: dict[type[Move], tuple[type[Move], str]] = {
    Hint: (Suggest, "'next' (or Enter) suggests a guess"),
    Suggest: (Hint, "'hint' suggests a guess, explained"),
}


def commands(game: Playable) -> list[str]:
    """The commands ``game`` takes now, each once, by its first name.

    >>> from bullscows.sessions import Codemaker, Rules
    >>> commands(Codemaker(Rules.parse("bc")))
    ['undo', 'hint', 'history', 'list', 'quit', 'help']
    """
    taken = {move: word for word, move in reversed(WORDS.items())
             if len(word) > 1 and move in game.accepts}  # fmt: skip
    shown = sorted(taken.values(), key=list(WORDS).index)
    return [*shown, *(["fix N REPLY"] if Fix in game.accepts else []), "quit", "help"]


def command_words(game: Playable) -> list[str]:
    """Every name of a command ``game`` reads now, as ``spoken`` writes it: lines a page's
    typed row does not show as a code.

    >>> from bullscows.sessions import Codemaker, Rules
    >>> words = command_words(Codemaker(Rules.parse("bc")))
    >>> "give up" in words and "history" in words and "fix" not in words
    True
    """
    names = sorted({*WORDS, *QUIT, *HELP, LIST_ALL} - {""})
    return [name for name in names if read_move(game, name).command]


def named_move(name: str, number: int | None = None, code: str = "", reply: str = "",
               step: int = 0) -> Move:  # fmt: skip
    """The move a form's button names (``Move.name``), with the fields it sends."""
    kind = NAMED.get(name)
    if kind is None:
        raise BullsCowsError(f"move {name[:40]!r}: one of {', '.join(NAMED)}")
    if kind is Guess:
        return Guess(code, number=number)
    if kind is Reply:
        return Reply(reply, number=number)
    if kind is Record:
        return Record(code, reply, number=number)
    if kind is Fix:
        return Fix(step, reply, number=number)
    return kind(number=number)


def fix_usage(typed: str, given: int) -> str:
    """Why ``typed`` is no fix command, and what one looks like; ``given``: the replies so far.

    >>> fix_usage("fix 1", 2).partition(": ")[2]
    "write 'fix N REPLY', N a reply number (1 to 2) and REPLY in any notation"
    """
    numbers = f"1 to {given}" if given else "none given yet"
    return (
        f"cannot read fix command {quote(typed)}: write 'fix N REPLY', N a reply number "
        f"({numbers}) and REPLY in any notation"
    )


def check_move(game: Playable, move: Move) -> None:
    """Refuse a move the game does not take, or one that answers another state of it."""
    if type(move) not in game.accepts:
        kind = getattr(game, "kind", None)
        which = f"{with_article(kind)} game" if kind else "this game"
        raise BullsCowsError(f"{which} has no move {move.name!r}")
    if move.number is not None and move.changes and move.number != game.move_number:
        raise StaleMoveError(
            f"move #{move.number} does not answer the game as it is now (at move "
            f"#{game.move_number}): it was sent twice, or from an old page; nothing was done"
        )


def reply_to(code: Code, text: str) -> str:
    """The reply in ``text``, typed at the prompt for the reply to ``code``: the guess typed
    again before it (the whole line, as at the first prompt, in any spelling of the code) is
    left out.

    >>> from bullscows.codes import Code
    >>> reply_to(Code("0123"), "0123 1 2"), reply_to(Code("0123"), "1 2")
    ('1 2', '1 2')
    """
    words = normal_text(text).strip()
    guess, reply = code_and_rest(words, code.rules)
    if not reply:
        return words
    try:
        same = Code(guess, code.rules) == code
    except BullsCowsError:
        same = False
    return reply if same else words


def reads_as_step(text: str, rules: Rules) -> bool:
    """Whether ``text`` is a code of ``rules`` and a reply after it, as assist takes a line.

    >>> reads_as_step("0123 1B2C", Rules.parse("bc")), reads_as_step("0123", Rules.parse("bc"))
    (True, False)
    """
    guess, reply = code_and_rest(normal_text(text), rules)
    try:
        Code(guess, rules), Feedback.parse(reply, rules)
    except BullsCowsError:
        return False
    return True


def another_step(code: Code, text: str) -> str:
    """What to add when ``text``, refused at the prompt for the reply to ``code``, is another
    guess and its reply (typed as at assist's first prompt); else nothing.

    >>> another_step(Code("4567"), "8901 0 0")
    "; '8901 0 0' is another guess and its reply: first the reply to 4567"
    """
    if not reads_as_step(text, code.rules):
        return ""
    return f"; {quote(text.strip())} is another guess and its reply: first the reply to {code}"


def instead_of_reply(move: Move) -> Move | None:
    """What to carry out when ``move``, a command typed at the prompt for a guess's reply,
    leaves that prompt (the guess is not recorded): a fix still corrects its reply; undo,
    quit and the like only leave it (``None``).

    >>> instead_of_reply(Fix(1, "1 2")) is not None, instead_of_reply(Undo())
    (True, None)
    """
    return move if isinstance(move, Fix) else None


def given(value: str, what: str) -> str:
    """``value`` stripped, or a ``BullsCowsError`` if there is nothing to read."""
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        raise BullsCowsError(f"give a {what}, e.g. {'0123' if what == 'code' else '1 2'}")
    return text[:200]
