"""Long work given up (domain/cancel.py): the TUI quit, or a newer load replaced this one. The work stops at
its next check and keeps nothing: no cached ranking, no kept table. Work started anywhere else is never
stopped."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from quotetui.domain.cancel import Cancelled, cancellable, check_cancelled
from quotetui.services import economics, listing_store
from quotetui.services.market_view import complete_market_view, load_offers_view
from quotetui.services.ranking_cache import RANKINGS
from quotetui.store.engine import Database
from quotetui.tui.offer_preview import save_preview
from quotetui.tui.offer_rows import FIGURES, figure_keys

DAY = date(2026, 11, 20)


def test_a_check_raises_only_inside_work_whose_owner_gave_it_up() -> None:
    check_cancelled()  # outside: nobody asks
    with cancellable(lambda: False):
        check_cancelled()
    with cancellable(lambda: True), pytest.raises(Cancelled):
        check_cancelled()
    check_cancelled()  # the question ends with its block
    assert not isinstance(Cancelled(), Exception)  # `except Exception` (error reports) never takes it


def test_a_ranking_given_up_half_way_is_not_cached(demo_db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    RANKINGS.clear()
    monkeypatch.setattr(economics, "EVERY", 1)
    evaluated = []
    real = economics.evaluate
    monkeypatch.setattr(economics, "evaluate", lambda *a: evaluated.append(1) or real(*a))
    with cancellable(lambda: len(evaluated) >= 5), pytest.raises(Cancelled):
        economics.rank_offers(demo_db, on=DAY)
    assert len(evaluated) == 5  # it stopped at the check after the fifth offer, not at the end
    assert len(RANKINGS) == 0
    ranking = economics.rank_offers(demo_db, on=DAY)  # asked again, outside: the whole market
    assert len(ranking.evaluations) + len(ranking.skipped) == 20


def test_a_kept_table_given_up_half_way_is_not_written(
    demo_db: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(listing_store.ENV, str(tmp_path / "cache"))
    monkeypatch.setattr("quotetui.tui.offer_preview.EVERY", 1)
    view = complete_market_view(demo_db, load_offers_view(demo_db, None, on=DAY))
    places = {k: figure_keys(view.rows, k) for k in FIGURES}
    asked = []
    with cancellable(lambda: asked.append(1) or len(asked) > 10), pytest.raises(Cancelled):
        save_preview(view, places)
    folder = tmp_path / "cache"
    assert not folder.exists() or not any(folder.iterdir())  # neither an entry nor a temporary file
    save_preview(view, places)
    assert len(list(folder.glob("*" + listing_store.SUFFIX))) == 2  # the table, and its first page on its own
