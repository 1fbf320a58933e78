"""Game records: every game rebuilds exactly from its record, whatever was played."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bullscows import Code, Feedback, Rules, score
from bullscows.errors import BullsCowsError, RecordError
from bullscows.records import Event, GameRecord, Status
from bullscows.sessions import Adversary, Codebreaker, Codemaker, Duel, Game, restore
from bullscows.strategies import STRATEGIES, StrategySpec

SMALL = Rules.parse("p3c5n")  # 60 codes, no repeats: every strategy plays it, cows included
REPLIES = [Feedback(b, c) for b in range(4) for c in range(4 - b) if (b, c) != (2, 1)]


def every_code(rules: Rules) -> list[str]:
    texts = ("".join(p) for p in itertools.product(rules.symbols, repeat=rules.length))
    return [t for t in texts if rules.repeats or len(set(t)) == len(t)]


CODES = every_code(SMALL)
#: One action: what to do, and a number that picks a code, a reply or a step.
actions = st.lists(
    st.tuples(
        st.sampled_from(["guess", "reply", "true", "record", "undo", "correct", "hint", "quit"]),
        st.integers(0, 10**6),
    ),
    max_size=12,
)


def act(game: Game, action: str, pick: int, secret: str) -> None:
    """Try one action; a move the game refuses changes nothing (that is checked too)."""
    before = (game.to_record(), game.status)
    code, reply = CODES[pick % len(CODES)], REPLIES[pick % len(REPLIES)]
    try:
        if isinstance(game, Codemaker | Adversary):
            {"guess": lambda: game.guess(code), "hint": game.hint,
             "quit": game.give_up}.get(action, lambda: None)()  # fmt: skip
        elif isinstance(game, Codebreaker):
            if action == "true":
                game.reply(score(Code(secret, SMALL), game.suggest()))
            elif action == "reply":
                game.reply(reply)
            elif action == "record":
                game.record(code, reply)
            elif action == "undo":
                game.undo()
            elif action == "correct":
                game.correct(pick % (len(game.history) + 2), reply)
            elif action == "quit" and pick % 3 == 0:
                game.give_up()
        else:
            if action in ("guess", "hint"):
                game.guess(code)
            elif action in ("true", "reply"):
                game.reply(
                    score(Code(secret, SMALL), game.suggest()) if action == "true" else reply
                )
            elif action == "undo":
                game.undo()
            elif action == "correct":
                game.correct(pick % (len(game.breaker.history) + 2), reply)
            elif action == "quit" and pick % 3 == 0:
                game.give_up()
    except BullsCowsError:
        assert (game.to_record(), game.status) == before


def same_game(game: Game, again: Game) -> None:
    assert again.to_record() == game.to_record()
    assert again.status == game.status
    if isinstance(game, Duel):
        assert isinstance(again, Duel)
        assert again.maker.history == game.maker.history
        assert again.breaker.history == game.breaker.history
        assert again.awaiting == game.awaiting and again.winner() == game.winner()
        game, again = game.breaker, again.breaker
    assert again.history == game.history
    if isinstance(game, Codemaker | Adversary):
        assert isinstance(again, Codemaker | Adversary)
        assert again.secret == game.secret and again.hints_given == game.hints_given
        if not game.over:
            assert again.guess(CODES[7]) == game.guess(CODES[7])
    else:
        assert isinstance(again, Codebreaker)
        if game.status is Status.PLAYING:  # the next draw too, for random strategies
            assert outcome(again.suggest) == outcome(game.suggest)


def outcome(call: Callable[[], object]) -> object:
    """What ``call`` returns, or the message of the error it raises (a strategy may refuse
    to continue a game of guesses it did not make)."""
    try:
        return call()
    except BullsCowsError as error:
        return str(error)


@settings(max_examples=60)
@given(
    kind=st.sampled_from(["codemaker", "adversary", "codebreaker", "duel"]),
    strategy=st.sampled_from(sorted(STRATEGIES)),
    seed=st.integers(-(10**18) + 1, 10**18 - 1),
    secret=st.sampled_from(CODES),
    played=actions,
)
def test_every_game_rebuilds_from_its_record(
    kind: str, strategy: str, seed: int, secret: str, played: list[tuple[str, int]]
) -> None:
    spec = StrategySpec(strategy, consistent_only=strategy == "entropy")
    game: Game
    if kind == "codemaker":
        game = Codemaker(SMALL, seed=seed, hints=spec)
    elif kind == "adversary":
        game = Adversary(SMALL, seed, hints=spec)
    elif kind == "codebreaker":
        game = Codebreaker(SMALL, spec, seed)
    else:
        game = Duel(SMALL, spec, seed)
    for action, pick in played:
        act(game, action, pick, secret)
    text = game.to_record().dumps()
    same_game(game, restore(GameRecord.loads(text)))


def test_a_record_is_a_few_hundred_bytes() -> None:
    breaker = Codebreaker(Rules.parse("bc"), seed=1)
    for reply in ("0 1", "1 1", "0 2"):
        breaker.reply(reply)
    text = breaker.to_record().dumps()
    assert len(text) < 400, text
    assert json.loads(text)["events"][0] == {"do": "reply", "code": "0123", "reply": "0 1"}


def test_a_cows_game_goes_on_after_a_restore() -> None:
    # cows plans at its first guess; a game rebuilt later plays on as the first one would have
    secret = Code("2745", Rules.parse("bc"))
    game = Codebreaker(Rules.parse("bc"), "cows", seed=11)
    for _ in range(4):
        game.reply(score(secret, game.suggest()))
    again = restore(game.to_record())
    while not game.solved:
        assert again.suggest() == game.suggest()
        reply = score(secret, game.suggest())
        game.reply(reply)
        again.reply(reply)
    assert again.solved


def test_the_public_view_hides_the_secret_and_seed_until_the_end() -> None:
    game = Codemaker(Rules.parse("bc"), "2745", seed=99)
    game.guess("0123")
    public = json.dumps(game.to_record().public_json(over=game.over))
    assert "2745" not in public and "99" not in public
    game.guess("2745")
    assert "2745" in json.dumps(game.to_record().public_json(over=game.over))


def test_the_adversary_commits_only_when_asked() -> None:
    game = Adversary(Rules.parse("bc"), seed=4)
    game.guess("0123")
    assert game.secret is None and game.to_record().secret is None
    secret = game.commit()
    again = restore(game.to_record())
    assert isinstance(again, Adversary) and again.secret == secret


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[]", "a game record is an object"),
        ("{", "game record line 1"),
        ('{"version": NaN}', "NaN"),
        ("9" * 1_000_001, "at most 1,000,000 characters"),
    ],
)
def test_bad_record_text_is_a_record_error(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        GameRecord.loads(text)


def good() -> dict[str, object]:
    return Codemaker(Rules.parse("bc"), "2745", seed=1).to_record().to_json()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"version": 2}, "version 2"),
        ({"kind": "chess"}, "game kind 'chess'"),
        ({"seed": 10**18}, "seed 1000000000000000000"),
        ({"seed": True}, "seed True"),
        ({"rules": "p99c99"}, "the record does not replay"),
        ({"secret": "1123"}, "the record does not replay"),
        ({"strategy": {"name": "minimax", "max_depth": 0}}, "max_depth"),
        ({"events": [{"do": "dance"}]}, "'do' is one of"),
        ({"events": [{"do": "guess"}]}, "a 'guess' event has code"),
        ({"events": [{"do": "guess", "code": "1123"}]}, r"event #1 \(guess\)"),
        (
            {"events": [{"do": "correct", "step": 1, "reply": "0 0"}]},
            "a codemaker game has no 'correct'",
        ),
        ({"events": [{"do": "correct", "step": 0, "reply": "0 0"}]}, "'step'"),
    ],
)
def test_bad_record_fields_are_record_errors(change: dict[str, object], message: str) -> None:
    data = good() | change
    with pytest.raises(RecordError, match=message):
        restore(GameRecord.from_json(data))


def test_a_codebreaker_record_replays_undo_and_corrections() -> None:
    record = GameRecord(
        "codebreaker",
        "bc",
        seed=0,
        strategy=StrategySpec("simple"),
        events=(
            Event("record", code="1389", reply="0 0"),
            Event("record", code="1234", reply="0 3"),
            Event("record", code="1759", reply="1 1"),
            Event("correct", step=2, reply="0 2"),
            Event("record", code="1785", reply="2 0"),
            Event("undo"),
        ),
    )
    game = restore(record)
    assert isinstance(game, Codebreaker)
    assert [step.feedback for step in game.history] == [Feedback(0, 0), Feedback(0, 2),
                                                         Feedback(1, 1)]  # fmt: skip
    assert game.remaining == 5


def test_hard_mode_is_a_rule_of_the_game_and_travels_in_its_record() -> None:
    from bullscows.errors import CodeError

    game = Codemaker(Rules.parse("bc"), "2745", seed=1, hard=True)
    game.guess("1389")  # 0 bulls, 0 cows: 1, 3, 8 and 9 are out
    with pytest.raises(CodeError, match=r"hard mode: 1234 does not fit reply #1 1389"):
        game.guess("1234")
    again = restore(GameRecord.loads(game.to_record().dumps()))
    assert isinstance(again, Codemaker) and again.hard
    with pytest.raises(CodeError, match="hard mode"):
        again.guess("1234")
    assert str(again.guess("0245")) == "2 bulls, 1 cow"
    assert "hard" not in Codemaker(Rules.parse("bc"), "2745").to_record().to_json()


def test_the_coach_travels_in_the_record_of_either_codemaker() -> None:
    from bullscows.errors import RecordError
    from bullscows.sessions import Adversary

    for game in (Codemaker(Rules.parse("mm"), "1122", coach=True),
                 Adversary(Rules.parse("mm"), seed=3, coach=True)):  # fmt: skip
        game.guess("1234")
        data = game.to_record().to_json()
        assert data["coach"] is True
        again = restore(GameRecord.loads(game.to_record().dumps()))
        assert isinstance(again, Codemaker | Adversary) and again.coach
        assert again.to_record() == game.to_record()
    assert "coach" not in Codemaker(Rules.parse("mm"), "1122").to_record().to_json()
    with pytest.raises(RecordError, match="coach 'yes': true, or left out"):
        GameRecord.from_json({**data, "coach": "yes"})


def test_a_friends_challenge_travels_in_its_record_and_its_copies() -> None:
    """A challenge's game is titled for the friend's code after any replay, and a challenge
    of it is one too; a game of the computer's own code has no title of its own."""
    from bullscows.sessions import challenge
    from bullscows.sessions.making import CHALLENGE_TITLE

    played = Codemaker(Rules.parse("mm"), "1122")
    played.guess("1234")
    played.give_up()
    assert played.title is None and "challenge" not in played.to_record().to_json()
    copy = challenge(played)
    copy.guess("1234")
    data = copy.to_record().to_json()
    assert data["challenge"] is True
    again = restore(GameRecord.loads(copy.to_record().dumps()))
    assert again.to_record() == copy.to_record() and again.title == CHALLENGE_TITLE
    again.give_up()
    assert challenge(again).title == CHALLENGE_TITLE
    with pytest.raises(RecordError, match="challenge 1: true, or left out"):
        GameRecord.from_json({**data, "challenge": 1})


@pytest.mark.parametrize(
    ("game", "option", "why"),
    [
        (Adversary(SMALL, seed=1), "challenge", "a challenge is a friend's fixed secret, and an "
                                                "adversary game has none"),
        (Codebreaker(SMALL, "minimax", seed=1), "hard", "only codemaker and adversary games"),
        (Codebreaker(SMALL, "minimax", seed=1), "challenge", "only codemaker games have it"),
        (Duel(SMALL, "minimax", seed=1, secret="012"), "coach", "only codemaker and adversary"),
    ],
)  # fmt: skip
def test_an_option_the_kind_of_game_lacks_is_refused_not_ignored(
    game: Game, option: str, why: str
) -> None:
    """A record read with an option its game cannot have (an adversary's game holds no
    friend's secret to be a challenge of; a codebreaker's has no hard mode) is refused, in
    one line that names the option and says why, rather than replayed without it."""
    data = game.to_record().to_json() | {option: True}
    with pytest.raises(RecordError, match=rf"^game record 'x\.json': '{option}' in an? ") as error:
        GameRecord.loads(json.dumps(data), "game record 'x.json'")
    assert why in str(error.value) and "\n" not in str(error.value)
