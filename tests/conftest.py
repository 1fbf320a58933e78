"""Settings for the whole suite."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


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
