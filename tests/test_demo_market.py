"""The demo market: the seed articles' facts, kept with their sources, loaded all or nothing."""

from __future__ import annotations

import shutil
from decimal import Decimal
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlmodel import select

import quotetui.services.demo as demo_service
from quotetui.domain.enums import Metric, Provenance
from quotetui.domain.errors import BadInput
from quotetui.resources import demo_dir
from quotetui.services.demo import load_demo
from quotetui.store.engine import Database
from quotetui.store.models import (
    BenchmarkResult,
    Discount,
    ExtraCost,
    Offer,
    Provider,
    PurchaseOption,
    QuoteRevision,
    RevisionPrice,
    Scenario,
    SlaTerm,
    Source,
)


def _prices(db: Database, offer_name: str) -> list[RevisionPrice]:
    with db.session() as session:
        return list(
            session.exec(
                select(RevisionPrice)
                .join(QuoteRevision)
                .join(Offer)
                .where(Offer.name == offer_name)
                .order_by(RevisionPrice.term_months)
            )
        )


def test_seed_prices_are_kept_exactly_with_ranges(demo_db: Database) -> None:
    a100 = _prices(demo_db, "8×A100 80GB SXM4 整机")
    assert [(p.term_months, p.unit.value, p.amount, p.prepay) for p in a100] == [
        (1, "node_month", Decimal("88000"), False),
        (12, "term_total", Decimal("750000"), True),
    ]
    web = _prices(demo_db, "8×H100 SXM5 整机（官网价）")
    assert (web[0].amount, web[0].amount_high) == (Decimal("80000"), Decimal("120000"))
    estimate = _prices(demo_db, "8×A100 80GB SXM4 整机（预估价）")
    assert estimate[0].is_estimate
    assert _prices(demo_db, "ecs.gn7e 8×A100 80GB（按量）")[0].amount == Decimal("85")


def test_fine_print_is_modelled(demo_db: Database) -> None:
    with demo_db.session() as session:
        annual = session.exec(select(Discount).join(Offer).where(Offer.name == "8×H100 SXM5 整机（官网价）")).one()
        assert (annual.rate, annual.min_term_months, annual.requires_prepay) == (Decimal("0.15"), 12, True)
        egress = session.exec(select(ExtraCost).where(ExtraCost.kind == "egress")).first()
        assert egress is not None and egress.amount == Decimal("0.5") and egress.basis.value == "per_gb"
        pai = session.exec(select(ExtraCost).where(ExtraCost.kind == "platform_fee")).first()
        assert pai is not None and pai.amount is None  # charged, price unknown: kept as unknown, not zero
        sla = session.exec(select(SlaTerm).join(Offer).where(Offer.name == "8×H100 SXM5 整机")).one()
        assert (sla.availability, sla.response_minutes, sla.replacement_hours) == (Decimal("0.999"), 5, 4)
        tianxia = session.exec(select(Provider).where(Provider.name == "天下数据")).one()
        assert any("等保" in c for c in tianxia.certifications)
        owning = session.exec(select(PurchaseOption)).one()
        assert (owning.capex, owning.capex_high, owning.power_kw) == (
            Decimal(2200000),
            Decimal(2800000),
            Decimal("5.6"),
        )
        default = session.exec(select(Scenario).where(Scenario.is_default)).one()
        assert default.gpu_count == 8


def test_claims_are_claimed_with_their_source_and_words(demo_db: Database) -> None:
    with demo_db.session() as session:
        claims = list(session.exec(select(BenchmarkResult)))
        sources = {s.id: s for s in session.exec(select(Source))}
    assert claims and all(c.provenance == Provenance.CLAIMED and c.source_id in sources for c in claims)
    assert all(c.quote for c in claims)
    mfu = next(c for c in claims if c.metric == Metric.MFU and c.value == Decimal("0.543"))
    assert "54.3%" in (mfu.quote or "")
    gpt3 = [c for c in claims if c.metric == Metric.TRAINING_DAYS and c.workload == "GPT-3 175B"]
    assert {(c.gpu_count, c.value) for c in gpt3} >= {(32, Decimal(21)), (325, Decimal(34)), (8, Decimal(14))}
    assert all(c.flops == Decimal("3.14E+23") for c in gpt3)
    for source in sources.values():  # the articles themselves ship with the demo
        assert source.reference and (demo_dir().parent.parent / source.reference).is_file()


def _broken_copy(tmp_path: Path, file: str, old: str, new: str) -> Path:
    folder = tmp_path / "demo"
    shutil.copytree(demo_dir(), folder)
    path = folder / file
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    return folder


@pytest.mark.parametrize(
    ("file", "old", "new", "message"),
    [
        (
            "providers/05_huawei.toml",
            'amount = "72"',
            "amount = 72.5",
            "imports/demo/providers/05_huawei.toml: offer 1 › revision 1 › price 1 › amount: 72.5 is a float",
        ),
        (
            "providers/05_huawei.toml",
            'gpu = "A100 80GB SXM4"',
            'gpu = "A1000"',
            "imports/demo/providers/05_huawei.toml: offer hw-a100x8-od: unknown GPU model 'A1000'",
        ),
        ("providers/05_huawei.toml", 'source = "s004"', 'source = "s999"', "unknown source 's999'"),
        (
            "providers/05_huawei.toml",
            'billing_basis = "on_demand"',
            'billing_basis = "weekly"',
            "offer 1 › billing_basis: 'weekly' is not one of: on_demand, monthly, reserved, spot",
        ),
        ("providers/02_tianxia.toml", 'amount = "220000"', 'amount = "220000.1234567"', "more than 6 decimal places"),
        ("scenarios.toml", 'utilisation = "0.6"', 'utilisation = "60"', "utilisation: must be at most 100 %"),
        (
            "providers/03_aliyun.toml",
            "[[offer]]",
            '[[offer]]\ncolour = "red"',
            "colour: Extra inputs are not permitted",
        ),
        ("providers/04_tencent.toml", "[provider]", "[provider", "not valid TOML"),
        (
            "providers/05_huawei.toml",
            'name = "G1 8×A100 80GB（包月）"',
            'name = "g1 8×a100 80gb(按量)"',
            "imports/demo/providers/05_huawei.toml: offer 'g1 8×a100 80gb(按量)': already declared at "
            "imports/demo/providers/05_huawei.toml: offer 'G1 8×A100 80GB（按量）'",
        ),
        (
            "providers/05_huawei.toml",
            'name = "华为云"',
            'name = "腾讯云"',
            "05_huawei.toml: provider: already declared at imports/demo/providers/04_tencent.toml",
        ),
    ],
)
def test_a_broken_demo_file_is_named_and_nothing_is_loaded(
    empty_db: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, file: str, old: str, new: str, message: str
) -> None:
    monkeypatch.setattr(demo_service, "demo_dir", lambda: _broken_copy(tmp_path, file, old, new))
    tables = (Provider, Offer, Source, BenchmarkResult, Scenario)

    def counts() -> list[int]:
        with empty_db.session() as session:
            return [session.exec(sa.select(sa.func.count()).select_from(t)).scalar_one() for t in tables]

    before = counts()
    with pytest.raises(BadInput) as excinfo:
        load_demo(empty_db)
    assert message in str(excinfo.value)
    assert counts() == before == [0, 0, 0, 0, 1]  # only the automatic default scenario


def test_reset_keeps_the_users_own_providers(demo_db: Database) -> None:
    from quotetui.domain.enums import ProviderKind

    with demo_db.write() as session:
        session.add(Provider(name="Lambda", kind=ProviderKind.GPU_CLOUD))
    load_demo(demo_db, reset=True)
    with demo_db.session() as session:
        names = set(session.exec(select(Provider.name)))
        assert "Lambda" in names and "一万网络" in names
        assert session.exec(sa.select(sa.func.count()).select_from(Offer)).scalar_one() == 20
        assert session.exec(sa.select(sa.func.count()).select_from(Source)).scalar_one() == 2
        assert (
            session.exec(sa.select(sa.func.count()).select_from(Scenario).where(Scenario.is_default)).scalar_one() == 1
        )


def test_reset_refuses_when_a_demo_provider_holds_an_offer_the_user_added(demo_db: Database) -> None:
    with demo_db.write() as session:
        demo_offer = session.exec(select(Offer)).first()
        assert demo_offer is not None
        mine = Offer(**demo_offer.model_dump(exclude={"id", "version"}))
        mine.name = "My own negotiated box"
        session.add(mine)
    with pytest.raises(BadInput) as excinfo:
        load_demo(demo_db, reset=True)
    assert "My own negotiated box" in str(excinfo.value) and "Nothing was changed" in str(excinfo.value)
    with demo_db.session() as session:
        assert session.exec(sa.select(sa.func.count()).select_from(Offer)).scalar_one() == 21
