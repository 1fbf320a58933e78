"""Settings for the whole suite."""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from bullscows import seeding
from bullscows.sessions import common, duel  # noqa: F401  # loaded before a test: patched

# The property tests draw the same examples each run ("repeatable"): a run fails by what
# changed, not by what was drawn. ``pytest --hypothesis-profile explore`` draws new ones. Slow
# drawing or a slow example on a loaded machine is no failure in either (no deadline).
SLOW_IS_NO_FAILURE = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("repeatable", derandomize=True, **SLOW_IS_NO_FAILURE)
settings.register_profile("explore", **SLOW_IS_NO_FAILURE)
settings.load_profile("repeatable")


@pytest.fixture(autouse=True, scope="session")
def private_record(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Games kept by the commands go to a database of the test run's, not the user's."""
    before = os.environ.get("BULLSCOWS_DATABASE")
    folder = tmp_path_factory.mktemp("record")
    os.environ["BULLSCOWS_DATABASE"] = f"sqlite:///{folder / 'games.sqlite3'}"
    yield
    if before is None:
        del os.environ["BULLSCOWS_DATABASE"]
    else:
        os.environ["BULLSCOWS_DATABASE"] = before


@pytest.fixture(autouse=True, scope="session")
def private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Searched trees go to a folder of the test run's, not the user's cache."""
    before = os.environ.get("BULLSCOWS_CACHE")
    os.environ["BULLSCOWS_CACHE"] = str(tmp_path_factory.mktemp("cache"))
    yield
    if before is None:
        del os.environ["BULLSCOWS_CACHE"]
    else:
        os.environ["BULLSCOWS_CACHE"] = before


@pytest.fixture(autouse=True)
def seeded_games(request: pytest.FixtureRequest) -> Iterator[None]:
    """The games a test starts in this process without a seed draw their seeds (so their
    secrets) from the test's name: the same each run, so that no rare secret changes a test's
    path (a first guess that wins, a hint that is the secret). Processes draw as a user's do.
    (A patch of its own: a test's ``monkeypatch.undo()`` leaves it.)"""
    draws = random.Random(request.node.nodeid)

    def new_seed() -> int:
        return draws.randrange(seeding.SEED_BOUND)

    original = seeding.new_seed
    with pytest.MonkeyPatch.context() as patch:
        for module in list(sys.modules.values()):  # seeding, and every module that imported it
            if getattr(module, "__dict__", {}).get("new_seed") is original:  # no __getattr__
                patch.setattr(module, "new_seed", new_seed)
        yield
