"""Loading the demo market (``imports/demo``) into a database, all or nothing."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, col, delete, select

from quotetui.domain.enums import Provenance
from quotetui.domain.errors import BadInput
from quotetui.domain.gpus import GpuCatalog
from quotetui.io.demo_files import ClaimEntry, DemoMarket, ProviderFile, load_demo_files
from quotetui.resources import demo_dir
from quotetui.store.catalog import load_catalog
from quotetui.store.engine import Database
from quotetui.store.models import (
    BenchmarkResult,
    Contract,
    Discount,
    ExtraCost,
    Offer,
    Provider,
    PurchaseOption,
    QuoteRevision,
    RevisionPrice,
    Scenario,
    SlaCreditTier,
    SlaTerm,
    Source,
)
from quotetui.store.rows import insert


@dataclass(frozen=True, slots=True)
class DemoSummary:
    providers: int
    offers: int
    revisions: int
    claims: int
    scenarios: int

    def __str__(self) -> str:
        return (
            f"{self.providers} providers, {self.offers} offers, {self.revisions} quote revisions, "
            f"{self.claims} claimed benchmarks, {self.scenarios} scenarios"
        )


class DemoAlreadyLoaded(BadInput):
    pass


def load_demo(db: Database, *, reset: bool = False) -> DemoSummary:
    """Load the demo market. With ``reset``, first remove what an earlier demo load created.

    Refuses (changing nothing) when demo providers already exist and ``reset`` is not given.
    """
    market = load_demo_files(demo_dir())
    with db.write() as session:
        names = [pf.provider.name for _, pf in market.providers]
        existing = list(session.exec(select(Provider.name).where(col(Provider.name).in_(names))))
        if existing and not reset:
            raise DemoAlreadyLoaded(
                f"the demo market is already loaded ({', '.join(existing)}); use `quotetui demo --reset` to reload it"
            )
        if reset:
            _remove_demo(session, market)
        return _Loader(session, market).run()


def _remove_demo(session: Session, market: DemoMarket) -> None:
    names = [pf.provider.name for _, pf in market.providers]
    provider_ids = list(session.exec(select(Provider.id).where(col(Provider.name).in_(names))))
    offer_ids = list(session.exec(select(Offer.id).where(col(Offer.provider_id).in_(provider_ids))))
    signed = session.exec(select(Contract.id).where(col(Contract.offer_id).in_(offer_ids))).first()
    if signed is not None:
        raise BadInput("contracts refer to demo offers; remove them before resetting the demo market")
    refs = [s.reference for s in market.sources if s.reference]
    source_ids = list(session.exec(select(Source.id).where(col(Source.reference).in_(refs))))
    session.exec(delete(BenchmarkResult).where(col(BenchmarkResult.source_id).in_(source_ids)))
    session.exec(delete(Offer).where(col(Offer.id).in_(offer_ids)))
    session.exec(delete(Provider).where(col(Provider.id).in_(provider_ids)))
    session.exec(delete(Scenario).where(col(Scenario.name).in_([s.name for s in market.scenarios])))
    session.exec(delete(PurchaseOption).where(col(PurchaseOption.name).in_([p.name for p in market.purchases])))
    session.exec(delete(Source).where(col(Source.id).in_(source_ids)))
    session.flush()


class _Loader:
    def __init__(self, session: Session, market: DemoMarket) -> None:
        self.session = session
        self.market = market
        self.catalog: GpuCatalog
        self.catalog, self.gpu_ids = load_catalog(session)
        self.sources: dict[str, int] = {}
        self.offers: dict[str, Offer] = {}
        self.revisions = 0
        self.claims = 0

    def run(self) -> DemoSummary:
        for entry in self.market.sources:
            row = Source(
                kind=entry.kind,
                title=entry.title,
                reference=entry.reference,
                published=entry.published,
                note=entry.note,
            )
            self.sources[entry.key] = insert(self.session, row)
        for origin, pf in self.market.providers:
            self._provider(origin, pf)
        for claim in self.market.claims:
            self._claim("imports/demo/claims.toml", claim, None)
        self._scenarios()
        self._purchases()
        return DemoSummary(
            len(self.market.providers), len(self.offers), self.revisions, self.claims, len(self.market.scenarios)
        )

    def _source(self, origin: str, key: str | None) -> int | None:
        if key is None:
            return None
        if key not in self.sources:
            raise BadInput(f"{origin}: unknown source {key!r} (sources.toml defines {', '.join(self.sources)})")
        return self.sources[key]

    def _gpu(self, origin: str, name: str) -> int:
        try:
            return self.gpu_ids[self.catalog.lookup(name).key]
        except BadInput as exc:
            raise BadInput(f"{origin}: {exc}") from None

    def _provider(self, origin: str, pf: ProviderFile) -> None:
        p = pf.provider
        provider = Provider(
            name=p.name,
            kind=p.kind,
            parent=p.parent,
            regions=list(p.regions),
            certifications=list(p.certifications),
            contacts=p.contacts,
            website=p.website,
            notes=p.notes,
        )
        provider_id = insert(self.session, provider)
        for o in pf.offer:
            where = f"{origin}: offer {o.key}"
            if o.key in self.offers:
                raise BadInput(f"{where}: the key is used twice")
            offer = Offer(
                provider_id=provider_id,
                gpu_model_id=self._gpu(where, o.gpu),
                name=o.name,
                form_factor=o.form_factor,
                gpus_per_node=o.gpus_per_node,
                nodes_available=o.nodes_available,
                cpu=o.cpu,
                ram_gb=o.ram_gb,
                nvme_tb=o.nvme_tb,
                intra_fabric=o.intra_fabric,
                inter_fabric=o.inter_fabric,
                inter_gbps_per_gpu=o.inter_gbps_per_gpu,
                bare_metal=o.bare_metal,
                region=o.region,
                stock_note=o.stock_note,
                lead_time_days=o.lead_time_days,
                billing_basis=o.billing_basis,
                status=o.status,
                valid_until=o.valid_until,
                source_id=self._source(where, o.source),
                is_estimate=o.is_estimate,
                notes=o.notes,
            )
            offer_id = insert(self.session, offer)
            self.offers[o.key] = offer
            for seq, r in enumerate(o.revision, start=1):
                revision = QuoteRevision(
                    offer_id=offer_id,
                    seq=seq,
                    quoted_at=r.quoted_at,
                    mover=r.mover,
                    source_id=self._source(where, r.source),
                    is_estimate=r.is_estimate,
                    note=r.note,
                )
                revision_id = insert(self.session, revision)
                self.revisions += 1
                for price in r.price:
                    self.session.add(
                        RevisionPrice(
                            revision_id=revision_id,
                            term_months=price.term_months,
                            unit=price.unit,
                            amount=price.amount,
                            amount_high=price.amount_high,
                            currency=price.currency or p.currency,
                            prepay=price.prepay,
                            is_estimate=price.is_estimate,
                            note=price.note,
                        )
                    )
            for d in o.discount:
                self.session.add(
                    Discount(
                        offer_id=offer_id,
                        kind=d.kind,
                        rate=d.rate,
                        min_term_months=d.min_term_months,
                        min_gpus=d.min_gpus,
                        requires_prepay=d.requires_prepay,
                        description=d.description,
                        is_estimate=d.is_estimate,
                        source_id=self._source(where, d.source),
                    )
                )
            for x in o.extra:
                self.session.add(
                    ExtraCost(
                        offer_id=offer_id,
                        kind=x.kind,
                        basis=x.basis,
                        amount=x.amount,
                        currency=x.currency or p.currency,
                        refundable=x.refundable,
                        description=x.description,
                        is_estimate=x.is_estimate,
                        source_id=self._source(where, x.source),
                    )
                )
            if o.sla is not None:
                s = o.sla
                sla = SlaTerm(
                    offer_id=offer_id,
                    availability=s.availability,
                    response_minutes=s.response_minutes,
                    replacement_hours=s.replacement_hours,
                    support_hours=s.support_hours,
                    return_days=s.return_days,
                    dc_tier=s.dc_tier,
                    pue=s.pue,
                    power_redundancy=s.power_redundancy,
                    preemption=s.preemption,
                    notes=s.notes,
                    is_estimate=s.is_estimate,
                    source_id=self._source(where, s.source),
                )
                sla_id = insert(self.session, sla)
                for tier in s.credits:
                    self.session.add(SlaCreditTier(sla_term_id=sla_id, below=tier.below, credit=tier.credit))
        for claim in pf.claim:
            self._claim(origin, claim, provider_id)

    def _claim(self, origin: str, c: ClaimEntry, provider_id: int | None) -> None:
        where = f"{origin}: claim {c.metric.value}"
        offer = None
        if c.offer is not None:
            offer = self.offers.get(c.offer)
            if offer is None:
                raise BadInput(f"{where}: unknown offer key {c.offer!r}")
            provider_id = offer.provider_id
        self.session.add(
            BenchmarkResult(
                offer_id=offer.id if offer else None,
                provider_id=provider_id,
                gpu_model_id=self._gpu(where, c.gpu) if c.gpu else None,
                provenance=Provenance.CLAIMED,
                metric=c.metric,
                value=c.value,
                value_high=c.value_high,
                unit=c.unit,
                qualifier=c.qualifier,
                gpu_count=c.gpu_count,
                workload=c.workload,
                model_params=c.model_params,
                tokens=c.tokens,
                flops=c.flops,
                claimed_mfu=c.claimed_mfu,
                seq_len=c.seq_len,
                dtype=c.dtype,
                conditions=c.conditions,
                quote=c.quote,
                source_id=self._source(where, c.source),
            )
        )
        self.claims += 1

    def _scenarios(self) -> None:
        has_default = self.session.exec(select(Scenario).where(col(Scenario.is_default))).first() is not None
        for s in self.market.scenarios:
            where = f"imports/demo/scenarios.toml: scenario {s.name}"
            make_default = s.default and not has_default
            has_default = has_default or make_default
            self.session.add(
                Scenario(
                    name=s.name,
                    description=s.description,
                    gpu_model_id=self._gpu(where, s.gpu) if s.gpu else None,
                    gpu_count=s.gpu_count,
                    months=s.months,
                    utilisation=s.utilisation,
                    egress_tb_month=s.egress_tb_month,
                    storage_tb=s.storage_tb,
                    train_flops=s.train_flops,
                    train_params=s.train_params,
                    train_tokens=s.train_tokens,
                    home_currency=s.home_currency,
                    is_default=make_default,
                )
            )

    def _purchases(self) -> None:
        for p in self.market.purchases:
            where = f"imports/demo/ownership.toml: purchase {p.name}"
            self.session.add(
                PurchaseOption(
                    name=p.name,
                    gpu_model_id=self._gpu(where, p.gpu),
                    gpu_count=p.gpu_count,
                    currency=p.currency,
                    capex=p.capex,
                    capex_high=p.capex_high,
                    colocation_month=p.colocation_month,
                    colocation_month_high=p.colocation_month_high,
                    power_kw=p.power_kw,
                    pue=p.pue,
                    tariff_per_kwh=p.tariff_per_kwh,
                    power_month=p.power_month,
                    power_month_high=p.power_month_high,
                    ops_month=p.ops_month,
                    spares_pct_year=p.spares_pct_year,
                    residual_pct=p.residual_pct,
                    horizon_months=p.horizon_months,
                    source_id=self._source(where, p.source),
                    notes=p.notes,
                )
            )
