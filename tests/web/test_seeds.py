"""A seed in the web app is what it is on the command line: a whole number of at most 18
digits, either sign, refused with the same words."""

from __future__ import annotations

from fastapi.testclient import TestClient

from bullscows.seeding import MAX_SEED


def test_the_bench_page_takes_a_negative_seed_and_refuses_a_long_one(client: TestClient) -> None:
    params = {"rules": "p3c4n", "strategy": "random"}
    assert client.get("/bench", params={**params, "seed": "-1"}).status_code == 200
    assert client.get("/api/bench", params={**params, "seed": str(-MAX_SEED)}).status_code == 200
    refused = client.get("/bench", params={**params, "seed": str(MAX_SEED + 1)})
    assert refused.status_code == 400
    assert "give a whole number of at most 18 digits, either sign" in refused.text
    assert client.get("/api/bench", params={**params, "seed": str(MAX_SEED + 1)}).status_code in (
        400, 422,
    )  # fmt: skip
