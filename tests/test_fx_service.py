"""FX rates through the one service both front ends call: the declared fields, a date not after today, the
same pair on the same day replaced by ``add``, never duplicated by an edit."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from quotetui.domain.errors import FieldErrors
from quotetui.domain.fx import dated_by
from quotetui.services.fx import add_rate, list_rates, rate_form, save_rate
from quotetui.store.engine import Database
from tests.conftest import Cli

TODAY = date(2026, 11, 30)


def test_a_rate_date_after_today_is_refused_naming_the_date(empty_db: Database) -> None:
    assert dated_by(TODAY, TODAY) == {}
    raw = {"base": "USD", "quote": "CNY", "rate": "7.1", "as_of": "2026-12-01", "source": "PBOC"}
    with pytest.raises(FieldErrors) as caught:
        save_rate(empty_db, raw, today=TODAY)
    assert caught.value.errors == {"as_of": "2026-12-01 is after today (2026-11-30): record a rate once it is known"}
    assert list_rates(empty_db) == []


def test_add_replaces_the_same_pair_on_the_same_day_and_edit_changes_one_row(empty_db: Database) -> None:
    add_rate(empty_db, "USD", "CNY", "7.1", "2026-11-01", "PBOC", today=TODAY)
    add_rate(empty_db, "USD", "CNY", "7.15", "2026-11-01", "PBOC fix", today=TODAY)
    [first] = list_rates(empty_db)
    assert (first.rate, first.source) == (Decimal("7.15"), "PBOC fix")
    second = add_rate(empty_db, "USD", "CNY", "7.2", "2026-11-20", "PBOC", today=TODAY)
    assert rate_form(empty_db, first.id).values == {
        "base": "USD", "quote": "CNY", "rate": "7.15", "as_of": "2026-11-01", "source": "PBOC fix"
    }  # fmt: skip
    raw = {"base": "USD", "quote": "CNY", "rate": "7.3", "as_of": "2026-11-20", "source": "x"}
    with pytest.raises(FieldErrors) as caught:  # moved onto the other rate's day: refused, not merged
        save_rate(empty_db, raw, first.id, today=TODAY)
    assert caught.value.errors == {"as_of": "another rate of USD→CNY is recorded on 2026-11-20"}
    edited = save_rate(empty_db, raw | {"as_of": "2026-11-10"}, first.id, today=TODAY)
    assert edited.id == first.id
    rates = [(r.as_of.isoformat(), r.rate) for r in list_rates(empty_db)]
    assert rates == [("2026-11-10", Decimal("7.3")), ("2026-11-20", second.rate)]


def test_every_bad_field_is_named_at_once_and_nothing_is_saved(empty_db: Database) -> None:
    raw = {"base": "USD", "quote": "USD", "rate": "0", "as_of": "2026-11-01", "source": ""}
    with pytest.raises(FieldErrors) as caught:
        save_rate(empty_db, raw, today=TODAY)
    assert set(caught.value.errors) >= {"rate", "source"}
    assert list_rates(empty_db) == []


def test_the_cli_refuses_a_future_date_by_its_flag(cli: Cli, db_path: str) -> None:
    result = cli("--db", str(db_path), "fx", "add", "USD", "CNY", "7.1", "--date", "2199-01-01", "--source", "x")
    assert result.code == 2 and "--date: 2199-01-01 is after today" in result.err
