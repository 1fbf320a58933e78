"""The typed shapes of what the web shows of a game: the JSON API answers with them, and the
pages render their data (``model_dump``). A field left unset is left out of the answer: a
game's state holds ``secret`` only once it is over."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel


class ReplyOut(BaseModel):
    """A reply: its counts, in words (``text``) and as a pair (``pair``, '1 2')."""

    bulls: int
    cows: int
    text: str
    pair: str
    win: bool


class StepOut(BaseModel):
    """A guess and the reply it got."""

    guess: str
    reply: ReplyOut


class PartOut(BaseModel):
    """A reply a guess can get, and how many of the codes left give it."""

    reply: str
    pair: str
    codes: int


class HintOut(BaseModel):
    """A suggested guess and how its replies would split the codes still possible."""

    guess: str
    remaining: int
    could_be_secret: bool
    largest: int
    expected: float
    parts: list[PartOut]
    lines: list[str]


class FixOut(BaseModel):
    """A reply that would mend a contradiction: ``step`` (from 1), the reply, codes left."""

    step: int
    reply: str
    text: str
    codes: int
    guess: str


class ContradictionOut(BaseModel):
    lines: list[str]
    core: list[int]
    fixes: list[FixOut]


class ChoiceOut(BaseModel):
    """A reply the person may give to the computer's guess, and the codes it would leave."""

    pair: str
    text: str
    codes: int


class AskingOut(BaseModel):
    """The computer's guess awaiting a reply: its number and only the replies still possible."""

    number: int
    guess: str
    choices: list[ChoiceOut]


class BreakerOut(BaseModel):
    """The computer's side as codebreaker."""

    steps: list[StepOut]
    remaining: int
    solved: bool
    known: str | None
    candidates: list[str] | None
    contradiction: ContradictionOut | None
    asking: AskingOut | None


class AdviceOut(BaseModel):
    """What the card says before a guess: its guess, the line (``None``: the rule) and why,
    and how many codes fit (``strategies.card_coach.Advice``)."""

    guess: str
    line: int | None
    why: str
    where: str
    brief: str
    left: int
    fit: str
    text: str


class CoachedOut(BaseModel):
    """One guess of a coached game beside the card's advice and the optimum's guess there."""

    number: int
    guess: str
    followed: bool
    card: AdviceOut
    optimum: str | None
    text: str


class ReviewOut(BaseModel):
    """A finished coached game beside the card and the optimum for its secret: guesses taken,
    how many were the card's, what the card and the optimum take, and each move."""

    played: int
    followed: int
    card: int
    optimum: int | None
    text: str
    moves: list[CoachedOut]


class StateOut(BaseModel):
    """Everything the person may see of a game now; ``move`` is the number the next move
    carries (see ``sessions.moves``)."""

    mode: str
    kind: str
    rules: str
    variant: str
    length: int
    symbols: list[str]
    repeats: bool
    status: str
    over: bool
    playing: bool
    move: int
    record: dict[str, Any]
    hard: bool
    max_guesses: int | None = None
    # play: what the replies tell of each symbol (placed, in, out, ""), the daily puzzle's day
    keypad: dict[str, str] | None = None
    day: int | None = None
    # play, duel: the person's guesses at the computer's code
    guesses: list[StepOut] | None = None
    remaining: int | None = None
    hints: bool | None = None
    hints_given: int | None = None
    secret: str | None = None
    grid: str | None = None  # over and counted: the result to share (analysis.result_to_share)
    counted: bool | None = None  # over: whether the game counts in a record (standings.counts)
    # play with the coach: the card's advice before the next guess, and the review at the end
    coach: bool | None = None
    advice: AdviceOut | None = None
    review: ReviewOut | None = None
    # play, duel: the words that confirm giving up (the code shown, or kept hidden)
    giving_up: str | None = None
    # play, duel: every name of a command the game reads now ('hint', 'give up', 'q', ...)
    commands: list[str] | None = None
    # play: the game's heading where it is not the mode's (a friend's challenge)
    title: str | None = None
    # duel
    broken: bool | None = None
    awaiting: str | None = None
    winner: str | None = None
    # solve, assist, duel: the computer's guesses at the person's code
    breaker: BreakerOut | None = None
    suggestion: HintOut | None = None


class GameOut(BaseModel):
    """A game as the person may see it, and what the last move told (``reply``, ``hint``,
    ``undone``)."""

    id: str
    state: StateOut
    reply: ReplyOut | None = None
    hint: HintOut | None = None
    undone: StepOut | None = None


class AnalysedMoveOut(BaseModel):
    """One of your guesses against the best at that moment (``analysis.analyse``)."""

    number: int
    guess: str
    reply: str
    bulls: int
    cows: int
    codes: int
    fits: bool
    best: str
    cost: float
    best_cost: float
    by: str
    exact: bool
    measure: str
    left: int
    sentence: str


class AnalysisOut(BaseModel):
    id: str
    moves: list[AnalysedMoveOut]


class ChallengeOut(BaseModel):
    """A challenge's id, and the page that starts it."""

    challenge: str
    link: str
