"""A figure that rests on an estimated price says so: demo #3 is costed at its annual prepaid price, which
the seed article marks as an estimate, so its figures are estimates even though its monthly headline is not."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import Cli, execute


def _offers(cli: Cli, db: Path) -> dict[int, dict]:  # type: ignore[type-arg]
    return {o["id"]: o for o in json.loads(cli("--db", str(db), "offers", "--json").out)}


def test_figures_costed_at_an_estimated_price_are_marked(cli: Cli, demo_db_path: Path) -> None:
    offers = _offers(cli, demo_db_path)
    three = offers[3]
    assert three["best_option"]["term"] == "annual prepaid"
    assert three["quoted_price"]["is_estimate"] is False  # the monthly headline is quoted
    assert three["is_estimate"] is True
    assert three["estimates"] == ["the annual prepaid price it is costed at is an estimate"]
    assert offers[2]["is_estimate"] is False and offers[2]["estimates"] == []


def test_an_estimated_round_or_offer_marks_its_figures(cli: Cli, demo_db_path: Path) -> None:
    execute(demo_db_path, "UPDATE quote_revision SET is_estimate = TRUE WHERE offer_id = 2")
    execute(demo_db_path, "UPDATE offer SET is_estimate = TRUE WHERE id = 18")
    offers = _offers(cli, demo_db_path)
    assert offers[2]["estimates"] == ["the current round's figures are marked as estimates"]
    assert offers[18]["estimates"] == ["the offer is marked as an estimate"]
