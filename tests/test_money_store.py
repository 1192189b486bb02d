"""Money is exact end to end: Decimal in, the same Decimal out, never a float column."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone
from decimal import Decimal

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quotetui.domain.enums import BillingBasis, FormFactor, Mover, PriceUnit, ProviderKind
from quotetui.domain.errors import BadInput, PrecisionError
from quotetui.domain.money import Money, exact_money_amount, plain
from quotetui.store.engine import Database
from quotetui.store.models import FxRate, GpuModel, Offer, Provider, QuoteRevision, RevisionPrice

amounts = st.decimals(
    min_value=Decimal("-1e12"), max_value=Decimal("1e12"), places=6, allow_nan=False, allow_infinity=False
)


def _offer(session, name: str = "p") -> Offer:  # type: ignore[no-untyped-def]
    provider = Provider(name=name, kind=ProviderKind.LESSOR)
    session.add(provider)
    session.flush()
    gpu_id = session.exec(sa.select(GpuModel.id).where(GpuModel.key == "h100-sxm5")).scalar_one()
    offer = Offer(
        provider_id=provider.id,
        gpu_model_id=gpu_id,
        name="8×H100",
        form_factor=FormFactor.SXM,
        gpus_per_node=8,
        billing_basis=BillingBasis.MONTHLY,
    )
    session.add(offer)
    session.flush()
    return offer


@pytest.fixture
def revision_id(empty_db: Database) -> int:
    with empty_db.write() as session:
        offer = _offer(session)
        rev = QuoteRevision(offer_id=offer.id, seq=1, quoted_at=datetime(2026, 8, 31, tzinfo=UTC), mover=Mover.LIST)
        session.add(rev)
        session.flush()
        assert rev.id is not None
        return rev.id


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(amount=amounts)
def test_money_round_trips_exactly(empty_db: Database, revision_id: int, amount: Decimal) -> None:
    with empty_db.write() as session:
        session.exec(sa.delete(RevisionPrice))
        session.add(
            RevisionPrice(
                revision_id=revision_id,
                term_months=1,
                unit=PriceUnit.NODE_MONTH,
                amount=abs(amount),
                amount_high=abs(amount) + 1,
                currency="CNY",
            )
        )
    with empty_db.session() as session:
        row = session.exec(sa.select(RevisionPrice)).scalar_one()
        assert row.amount == abs(amount)
        assert isinstance(row.amount, Decimal)
        assert row.amount_high == abs(amount) + 1
    # the exact text representation survives as well
    assert Decimal(plain(row.amount)) == abs(amount)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(amount=amounts.filter(lambda d: d != 0))
def test_sum_in_sql_is_exact(empty_db: Database, revision_id: int, amount: Decimal) -> None:
    """Scaled integers let the database itself add amounts without binary rounding."""
    with empty_db.write() as session:
        session.exec(sa.delete(RevisionPrice))
        for term in (1, 3):
            session.add(
                RevisionPrice(
                    revision_id=revision_id,
                    term_months=term,
                    unit=PriceUnit.NODE_MONTH,
                    amount=abs(amount),
                    currency="CNY",
                )
            )
    with empty_db.session() as session:
        total = session.exec(sa.select(sa.func.sum(RevisionPrice.amount))).scalar_one()
    assert isinstance(total, Decimal)
    assert total == 2 * abs(amount)


def test_seventh_decimal_place_is_rejected_not_rounded(empty_db: Database, revision_id: int) -> None:
    with pytest.raises(sa.exc.StatementError) as excinfo, empty_db.write() as session:
        session.add(
            RevisionPrice(
                revision_id=revision_id,
                term_months=1,
                unit=PriceUnit.GPU_HOUR,
                amount=Decimal("2.4900001"),
                currency="USD",
            )
        )
    assert isinstance(excinfo.value.orig, PrecisionError)
    with empty_db.session() as session:
        assert session.exec(sa.select(sa.func.count()).select_from(RevisionPrice)).scalar_one() == 0


def test_trailing_zeros_do_not_count_as_places() -> None:
    assert exact_money_amount("12.500000000") == Decimal("12.5")
    with pytest.raises(PrecisionError):
        exact_money_amount("0.0000001")


def test_floats_are_refused_everywhere(empty_db: Database, revision_id: int) -> None:
    with pytest.raises(BadInput):
        Money.of(0.1, "USD")
    with pytest.raises(sa.exc.StatementError), empty_db.write() as session:
        session.add(
            RevisionPrice(revision_id=revision_id, term_months=1, unit=PriceUnit.GPU_HOUR, amount=0.1, currency="USD")
        )  # type: ignore[arg-type]


def test_money_keeps_its_currency() -> None:
    assert (Money.of("1.10", "usd") + Money.of("2.20", "USD")) == Money(Decimal("3.30"), "USD")
    with pytest.raises(BadInput, match="FX rate"):
        Money.of(1, "USD") + Money.of(1, "CNY")
    with pytest.raises(BadInput, match="unknown currency"):
        Money.of(1, "XYZ")
    assert Money.of("180000", "CNY").to_json() == {"amount": "180000.00", "currency": "CNY"}
    assert Money.of("2.490000", "USD").to_json()["amount"] == "2.49"
    assert Money.of("0.123456", "USD").to_json()["amount"] == "0.123456"
    assert Money.of("1500", "JPY").to_json()["amount"] == "1500"


def test_fx_rates_keep_ten_places(empty_db: Database) -> None:
    with empty_db.write() as session:
        session.add(
            FxRate(base="JPY", quote="USD", rate=Decimal("0.0068493151"), as_of=date(2026, 11, 30), source="test")
        )
    with empty_db.session() as session:
        assert session.exec(sa.select(FxRate.rate)).scalar_one() == Decimal("0.0068493151")


@pytest.mark.sqlite_only  # SQLite storage details
def test_no_money_column_has_a_floating_or_numeric_type(empty_db: Database) -> None:
    """SQLite NUMERIC and REAL are binary floats: no column may be declared that way."""
    with empty_db.engine.connect() as conn:
        tables = [r[0] for r in conn.exec_driver_sql("SELECT name FROM sqlite_master WHERE type='table'")]
        declared = {
            (table, row[1]): row[2].upper()
            for table in tables
            for row in conn.exec_driver_sql(f"PRAGMA table_info('{table}')")
        }
    bad = {k: v for k, v in declared.items() if any(t in v for t in ("REAL", "FLOA", "DOUB", "NUMERIC", "DECIMAL"))}
    assert bad == {}
    assert declared[("revision_price", "amount")] == "BIGINT"
    assert declared[("contract", "price")] == "BIGINT"
    assert declared[("fx_rate", "rate")] == "BIGINT"


@pytest.mark.sqlite_only  # SQLite storage details
def test_timestamps_are_stored_as_utc_and_naive_ones_refused(empty_db: Database) -> None:
    shanghai = timezone(timedelta(hours=8))
    with empty_db.write() as session:
        offer = _offer(session, "tz")
        session.add(
            QuoteRevision(
                offer_id=offer.id, seq=1, quoted_at=datetime(2026, 9, 1, 8, 0, tzinfo=shanghai), mover=Mover.PROVIDER
            )
        )
    with empty_db.engine.connect() as conn:
        raw = conn.exec_driver_sql("SELECT quoted_at FROM quote_revision").scalar_one()
    assert raw.startswith("2026-09-01 00:00:00")
    with empty_db.session() as session:
        stored = session.exec(sa.select(QuoteRevision.quoted_at)).scalar_one()
    assert stored == datetime(2026, 9, 1, 0, 0, tzinfo=UTC) and stored.tzinfo is not None
    with pytest.raises(sa.exc.StatementError, match="no time zone"), empty_db.write() as session:
        session.add(QuoteRevision(offer_id=offer.id, seq=2, quoted_at=datetime(2026, 9, 2), mover=Mover.COUNTER))
