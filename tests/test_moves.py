"""The move language: one reader for every front end, typed outcomes, move numbers, and the
game options (hard mode, a guess limit) the sessions own."""

from __future__ import annotations

import pytest

from bullscows import Rules, score
from bullscows.errors import (
    BullsCowsError,
    CodeError,
    FeedbackError,
    GameOverError,
    StaleMoveError,
    TurnError,
)
from bullscows.knowledge import Knowledge
from bullscows.sessions import (
    HIDDEN,
    Adversary,
    Candidates,
    Codebreaker,
    Codemaker,
    Duel,
    Fix,
    Fixed,
    GaveUp,
    GiveUp,
    Guess,
    Help,
    Helped,
    Hint,
    Hinted,
    History,
    Listed,
    Noted,
    Record,
    Reply,
    Scored,
    Shown,
    Status,
    Suggest,
    Suggested,
    Undo,
    Undone,
    named_move,
    read_move,
    restore,
)
from bullscows.sessions.moves import fix_usage, refusal
from bullscows.sessions.outcomes import SCREENFUL

BC = Rules.parse("bc")


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("0123", Guess("0123")),
        ("  quit ", GiveUp()),
        ("Give  Up", GiveUp()),
        ("give-up", GiveUp()),
        ("exit", GiveUp()),
        ("hint", Hint()),
        ("history", History()),
        ("?", Help()),
        ("undo", Undo()),
        ("list", Candidates()),
        ("List  All", Candidates(every=True)),
        ("next", Guess("next")),  # play takes no suggestion: it is read as a guess, and refused
        ("fix 1 0 0", Guess("fix 1 0 0")),
    ],
)
def test_play_reads_guesses_and_its_words(text: str, move: object) -> None:
    assert read_move(Codemaker(BC, "2745"), text) == move


def test_solve_and_assist_read_their_own_lines() -> None:
    solve = Codebreaker(BC, "minimax", seed=1)
    assert read_move(solve, "1 2") == Reply("1 2")
    assert read_move(solve, "1 2", impossible=True) == Reply("1 2", impossible=True)
    assert read_move(solve, "u") == Undo()
    assert read_move(solve, "correct #2 0 1") == Fix(2, "0 1")
    assert read_move(solve, "") == Reply("")  # only assist suggests on an empty line
    assist = Codebreaker(BC, "minimax", seed=1, assist=True)
    assert read_move(assist, "1234 1 2", number=3) == Record("1234", "1 2", number=3)
    assert read_move(assist, "") == Suggest() == read_move(assist, "next")
    assert read_move(assist, "list") == Candidates()
    assert read_move(assist, "list all") == Candidates(every=True)
    assert read_move(solve, "list all") == Reply("list all")  # solve lists nothing


def test_list_shows_a_screenful_and_list_all_every_code() -> None:
    game = Codebreaker(BC, "minimax", assist=True)
    rows = game.apply(Candidates()).lines(width=100)
    assert len(rows) == SCREENFUL
    assert rows[-1] == "  ... and 4,679 more: 'list all' shows them all"
    assert " ".join(rows[:-1]).split() == [c.text for c in game.knowledge.candidate_codes(361)]
    every = game.apply(Candidates(every=True)).lines(width=100)
    assert " ".join(every).split() == [c.text for c in game.knowledge.candidate_codes()]
    game.apply(Record("0123", "0 0"))  # 360 codes: 19 rows of 19 codes, all shown
    assert " ".join(game.apply(Candidates()).lines(width=100)).split() == [
        c.text for c in game.knowledge.candidate_codes()
    ]


@pytest.mark.parametrize("text", ["fix 1", "fix x 1 1", "FIX 99", "correct", "fix #1"])
def test_a_badly_formed_fix_is_refused_saying_what_a_fix_looks_like(text: str) -> None:
    solve = Codebreaker(BC, "minimax", seed=1)
    solve.record("0123", "0 1")
    move = read_move(solve, text, number=2)
    assert move == Fix(0, "", typed=text, number=2)
    with pytest.raises(FeedbackError) as caught:
        solve.apply(move)
    assert str(caught.value) == fix_usage(text, 1)
    assert str(caught.value).endswith("N a reply number (1 to 1) and REPLY in any notation")
    assert len(solve.history) == 1
    assert read_move(solve, "fixed") == Reply("fixed")  # only the word itself


def test_a_contradiction_is_mended_by_a_bare_reply() -> None:
    solve = Codebreaker(BC, "minimax", seed=1)
    for guess in ("0123", "4567", "8901"):  # none of the ten symbols in the code
        solve.record(guess, "0 0")
    assert solve.contradiction is not None
    assert read_move(solve, "0 1") == Fix(3, "0 1")
    assert isinstance(solve.apply(read_move(solve, "0 1")), Fixed)


def test_duel_reads_by_turn() -> None:
    duel = Duel(BC, "simple", seed=1, secret="0123")
    assert read_move(duel, "4567") == Guess("4567")
    duel.apply(Guess("4567"))
    assert read_move(duel, "0 1") == Reply("0 1")
    with pytest.raises(TurnError):
        duel.apply(Guess("0123"))
    assert isinstance(duel.apply(Reply("0 0")), Noted)
    assert isinstance(duel.apply(Undo()), Undone)  # undo at the guess turn too
    assert isinstance(duel.apply(GiveUp()), GaveUp) and duel.over


def test_outcomes_are_typed() -> None:
    game = Codemaker(BC, "2745", hints="minimax")
    scored = game.apply(Guess(" 1389 "))
    assert isinstance(scored, Scored) and scored.guess.text == "1389"
    assert scored.feedback.format("pair") == "0 0"
    assert isinstance(game.apply(Hint()), Hinted)
    shown = game.apply(History())
    assert isinstance(shown, Shown) and len(shown.history) == 1
    assert isinstance(game.apply(Help()), Helped)
    gave_up = game.apply(GiveUp())
    assert isinstance(gave_up, GaveUp) and gave_up.secret is not None
    assert gave_up.secret.text == "2745"
    assist = Codebreaker(BC, "minimax", assist=True)
    assert isinstance(assist.apply(Record("0123", "0 0")), Noted)
    listed = assist.apply(Candidates())
    assert isinstance(listed, Listed) and listed.remaining == 360 and len(listed.codes) == 360
    assert isinstance(assist.apply(Suggest()), Suggested)
    fixed = assist.apply(Fix(1, "0 1"))
    assert isinstance(fixed, Fixed) and fixed.before.format("pair") == "0 0"
    with pytest.raises(BullsCowsError, match="has no reply: give a guess and its reply"):
        assist.apply(Record("4567", ""))
    with pytest.raises(BullsCowsError, match="a codemaker game has no move 'correct'"):
        Codemaker(BC, "2745").apply(Fix(1, "0 0"))
    with pytest.raises(BullsCowsError, match=r"^an adversary game has no move 'correct'"):
        Adversary(BC, seed=1).apply(Fix(1, "0 0"))


def test_a_stale_or_repeated_move_is_refused_never_applied() -> None:
    game = Codebreaker(BC, "minimax", seed=1)
    number = game.move_number
    assert number == 1
    game.apply(Reply("0 1", number=number))
    with pytest.raises(StaleMoveError, match=r"move #1 does not answer the game .* #2"):
        game.apply(Reply("0 1", number=number))  # the same form sent twice
    assert len(game.history) == 1
    game.apply(Reply("1 1", number=game.move_number))
    assert len(game.history) == 2
    game.apply(History(number=1))  # a move that changes nothing is never stale


def test_named_moves_are_the_forms_buttons() -> None:
    assert named_move("correct", 4, reply="1 2", step=2) == Fix(2, "1 2", number=4)
    assert named_move("give-up") == GiveUp()
    with pytest.raises(BullsCowsError, match="move 'dance': one of guess, reply"):
        named_move("dance")


def test_hard_mode_hints_are_guesses_hard_mode_takes() -> None:
    # With minimax's hints, a hard game played by its hints alone: every hint is taken.
    for seed in range(15):
        game = Codemaker(BC, seed=seed, hints="minimax", hard=True)
        while not game.over:
            hint = game.apply(Hint())
            assert isinstance(hint, Hinted) and hint.hint.is_candidate
            game.apply(Guess(hint.hint.guess.text))  # refused if it did not fit
        assert game.status is Status.SOLVED


def test_a_guess_limit_loses_the_game_and_reveals_the_secret() -> None:
    game = Codemaker(BC, "2745", seed=3, max_guesses=2)
    game.apply(Guess("0123"))
    assert game.status is Status.PLAYING
    game.apply(Guess("4567"))
    assert game.over and game.lost and game.status is Status.LOST
    with pytest.raises(GameOverError, match="all 2 guesses are used"):
        game.apply(Guess("2745"))
    again = restore(game.to_record())
    assert isinstance(again, Codemaker) and again.status is Status.LOST
    assert again.max_guesses == 2 and game.to_record().to_json()["max_guesses"] == 2
    adversary = Adversary(BC, seed=5, max_guesses=1)
    adversary.apply(Guess("0123"))
    secret = adversary.secret
    assert adversary.lost and secret is not None
    assert score(secret, adversary.history[0].guess) == adversary.history[0].feedback
    assert restore(adversary.to_record()).secret == secret
    with pytest.raises(BullsCowsError, match="a guess limit of 0"):
        Codemaker(BC, max_guesses=0)


def test_hard_mode_and_a_limit_together() -> None:
    game = Codemaker(BC, "2745", hard=True, max_guesses=3)
    game.apply(Guess("1389"))
    with pytest.raises(CodeError, match="hard mode"):
        game.apply(Guess("1234"))
    assert len(game.history) == 1 and not game.over


def test_outcomes_say_what_they_tell() -> None:
    game = Codemaker(BC, "2745", hints="minimax")
    scored = game.apply(Guess("1389"))
    assert scored.lines("bc") == ("    0B0C  (360 codes still possible)",)
    assert scored.scored == scored.feedback and scored.hinted is None and scored.undone is None
    assert Codemaker(BC, "2745").apply(Guess("1389")).lines("pair") == ("    0 0",)
    hinted = game.apply(Hint())
    assert hinted.hinted is not None and hinted.lines("pair") == tuple(
        hinted.hinted.describe("pair")
    )
    assert game.apply(History()).lines("pair") == ("  [1] 1389  0 0",)
    undone = game.apply(Undo())
    assert undone.lines("pair") == ("    took back 1389 -> 0 0",) and undone.undone is not None
    assert game.apply(History()).lines() == ("  Nothing yet.",)
    assert game.apply(GiveUp()).lines() == ("The secret was 2745.",)  # a guess was made
    unstarted = Codemaker(BC, "2745").apply(GiveUp())  # costs nothing: the secret stays hidden
    assert unstarted.lines() == (HIDDEN,) and unstarted.secret is None
    adversary = Adversary(BC, seed=1)
    assert adversary.apply(GiveUp()).lines()[0] == "There was no secret: I never picked one."
    assist = Codebreaker(Rules.parse("mm"), "minimax", seed=1, assist=True)
    assert assist.apply(Record("1122", "0 0")).lines() == ()
    listed = assist.apply(Candidates())
    assert listed.lines()[0].startswith("  3333 3334 3335") and len(listed.codes) == 256
    many = Adversary(Rules.parse("mm"), seed=1).apply(Candidates(every=True)).lines()
    assert len(many) == 69 and max(map(len, many)) <= 100  # every code, none on a long line
    every = Knowledge.start(Rules.parse("mm")).candidate_codes(2000)
    assert " ".join(many).split() == [code.text for code in every]
    assert assist.apply(Suggest()).lines() == (f"Suggested guess: {assist.suggest()}",)
    fixed = assist.apply(Fix(1, "0 1"))
    assert fixed.lines("pair") == ("    #1 1122: 0 0 is now 0 1",)
    assert assist.apply(Help()).lines() == assist.apply(Help()).text


def test_outcomes_and_moves_say_what_comes_next() -> None:
    assist = Codebreaker(BC, "minimax", seed=1, assist=True)
    noted, fixed = assist.apply(Record("0123", "0 0")), assist.apply(Fix(1, "0 1"))
    undone, gave_up = assist.apply(Undo()), assist.apply(GiveUp())
    flags = [(o.stops, o.gives_reply, o.changes_replies) for o in (noted, fixed, undone, gave_up)]
    assert flags == [(False, True, True), (False, True, True), (False, False, True),
                     (True, False, False)]  # fmt: skip
    assert [m.command for m in (Guess("0"), Reply("0"), Record("0", "0"), Undo(), Hint())] == [
        False, False, False, True, True,
    ]  # fmt: skip
    assert [m for m in (GiveUp(), Undo(), Hint()) if m.stops] == [GiveUp()]
    assert [m.asks_strategy for m in (Hint(), Suggest(), Guess("0"))] == [True, True, False]
    assert Record("1234", "").unanswered == "1234"
    assert Record("1234", "0 0").unanswered is None and Guess("1234").unanswered is None


@pytest.mark.parametrize("ending", ["given up", "won"])
@pytest.mark.parametrize("text", ["fix 1", "fix x 1 1", "correct"])
def test_a_badly_formed_fix_after_the_end_is_told_why_not(text: str, ending: str) -> None:
    """Given up, as a reply is then; won, how to fix (a fix is still taken), a reply refused."""
    solve = Codebreaker(BC, "minimax", seed=1)
    if ending == "won":
        solve.reply("4 0")
    else:
        solve.reply("0 1")
        solve.give_up()
    for line in (text, "1 2"):
        refused = FeedbackError if ending == "won" and line == text else GameOverError
        with pytest.raises(refused) as caught:
            solve.apply(read_move(solve, line))
        said = str(caught.value)
        if refused is FeedbackError:  # a broken code may still be fixed: told how
            assert said == fix_usage(text, 1), said
        else:
            assert said.startswith("the code is already broken" if ending == "won" else
                                   "the game is over: it was given up"), said  # fmt: skip


def test_a_badly_formed_fix_in_a_live_duel_is_told_how_to_fix() -> None:
    """The person's code is broken but they still guess: a fix is taken, so its usage is told."""
    duel = Duel(BC, "minimax", seed=1)
    duel.apply(read_move(duel, "0123"))
    duel.apply(read_move(duel, "4 0"))
    assert not duel.over
    with pytest.raises(FeedbackError) as caught:
        duel.apply(read_move(duel, "fix 1"))
    assert str(caught.value) == fix_usage("fix 1", 1)
    assert duel.apply(read_move(duel, "fix 1 0 1")).lines("pair")[0].endswith("4 0 is now 0 1")


@pytest.mark.parametrize(
    ("game", "typed", "says"),
    [
        (Codebreaker(BC, assist=True), "hint", "'hint' is no command here: 'next' (or Enter) "
         "suggests a guess; the commands are undo, history, list, next, fix N REPLY, quit, help"),
        (Codemaker(BC, "2745"), "Next", "'next' is no command here: 'hint' suggests a guess, "
         "explained; the commands are undo, hint, history, list, quit, help"),
        (Codebreaker(BC), "list", "'list' is no command here; the commands are undo, history, "
         "fix N REPLY, quit, help"),
    ],
)  # fmt: skip
def test_a_command_of_another_game_is_said_to_be_none_here(
    game: Codebreaker | Codemaker, typed: str, says: str
) -> None:
    """Read as a code or a reply, it was refused as one ("'h' is not a symbol"): the words
    both front ends say now name the commands the game takes."""
    with pytest.raises(BullsCowsError) as caught:
        game.apply(read_move(game, typed))
    assert refusal(game, typed, caught.value) == says
    assert refusal(game, "lsit", caught.value).endswith("(did you mean 'list'?)") == (
        Candidates in game.accepts
    )


LETTERS = Rules.parse("p4c12n:symbols=dehilnostuxg")


@pytest.mark.parametrize(
    ("game", "typed", "says"),
    [
        (Codemaker(LETTERS, "dehi"), "suggest", "code 'suggest' has 7 symbols; a code has 4, "
         "e.g. 'dehi'; and 'suggest' is no command here: 'hint' suggests a guess, explained"),
        (Duel(LETTERS, "minimax", seed=1), "suggest", "code 'suggest' has 7 symbols; a code "
         "has 4, e.g. 'dehi'; and 'suggest' is no command here; the commands are undo"),
        (Codebreaker(LETTERS, assist=True), "Hint", "guess 'hint' has no reply: give a guess "
         "and its reply on one line, e.g. 'hint 1 2'; and 'hint' is no command here: 'next'"),
    ],
)  # fmt: skip
def test_a_command_word_spelt_in_the_symbols_is_refused_as_a_code_too(
    game: Codebreaker | Codemaker | Duel, typed: str, says: str
) -> None:
    """Where the symbols are letters, 'suggest' in play or duel is a code of 7 symbols and
    'hint' in assist a guess with no reply: the code's own error comes first, then that the
    word is no command here (once only the latter, as if the line could be no code)."""
    with pytest.raises(BullsCowsError) as caught:
        game.apply(read_move(game, typed))
    assert refusal(game, typed, caught.value).startswith(says)


def test_a_guess_typed_apart_in_assist_is_read_whole() -> None:
    """'2 1 9 9' was read as the code '2' (its first word), and refused as 1 symbol: a code
    typed apart is read as play reads it, and a line too short for one is quoted whole."""
    assist = Codebreaker(BC, assist=True)
    assert read_move(assist, "2 1 9 0 1 2") == Record("2 1 9 0", "1 2")
    assist.apply(read_move(assist, "2 1 9 0 1 2"))
    assert [(str(s.guess), s.feedback.format("pair")) for s in assist.history] == [("2190", "1 2")]
    for typed, says in [
        ("2 1 9 9", "code '2 1 9 9': '9' appears twice; symbols may not repeat"),
        ("2 1 9 9 0 1", "code '2 1 9 9': '9' appears twice; symbols may not repeat"),
        ("1 2", "code '1 2' has 2 symbols; a code has 4, e.g. '0123'"),
        ("2 1 8", "code '2 1 8' has 3 symbols; a code has 4, e.g. '0123'"),
    ]:
        with pytest.raises(BullsCowsError) as caught:
            assist.apply(read_move(assist, typed))
        assert refusal(assist, typed, caught.value) == says
    with pytest.raises(BullsCowsError) as caught:
        assist.apply(read_move(assist, "3 4 5 6"))
    assert str(caught.value).startswith("guess '3456' has no reply")
