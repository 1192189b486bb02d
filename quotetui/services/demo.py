"""Loading the demo market (``imports/demo``) into a database, all or nothing."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, col, delete, select

from quotetui.domain.entities import offer_form_factor
from quotetui.domain.enums import Provenance
from quotetui.domain.errors import BadInput
from quotetui.domain.gpus import GpuCatalog
from quotetui.io.demo_files import ClaimEntry, DemoMarket, ProviderFile, load_demo_files
from quotetui.io.file_models import Strict
from quotetui.language import _
from quotetui.language.lists import clauses, listed, quoted
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
    Rfq,
    RfqInvite,
    Scenario,
    SlaCreditTier,
    SlaTerm,
    Source,
)
from quotetui.store.origin import source
from quotetui.store.rows import insert


@dataclass(frozen=True, slots=True)
class DemoSummary:
    providers: int
    offers: int
    revisions: int
    claims: int
    scenarios: int

    def __str__(self) -> str:
        return _(
            "{providers} providers, {offers} offers, {revisions} quote revisions, {claims} claimed benchmarks, "
            "{scenarios} scenarios"
        ).format(
            providers=self.providers,
            offers=self.offers,
            revisions=self.revisions,
            claims=self.claims,
            scenarios=self.scenarios,
        )


class DemoAlreadyLoaded(BadInput):
    pass


def load_demo(db: Database, *, reset: bool = False) -> DemoSummary:
    """Load the demo market. With ``reset``, first remove what an earlier demo load created.

    Refuses (changing nothing) when demo providers already exist and ``reset`` is not given.
    """
    market = load_demo_files(demo_dir())
    with db.write() as session, source("the demo market"):
        names = [pf.provider.name for _, pf in market.providers]
        existing = list(session.exec(select(Provider.name).where(col(Provider.name).in_(names))))
        if existing and not reset:
            raise DemoAlreadyLoaded(
                _("the demo market is already loaded ({providers}); use `quotetui demo --reset` to reload it").format(
                    providers=listed(existing)
                )
            )
        if reset:
            _remove_demo(session, market)
        return _Loader(session, market).run()


def _remove_demo(session: Session, market: DemoMarket) -> None:
    names = [pf.provider.name for _, pf in market.providers]
    provider_ids = list(session.exec(select(Provider.id).where(col(Provider.name).in_(names))))
    demo_offers = {(pf.provider.name, o.name) for _, pf in market.providers for o in pf.offer}
    offers = session.exec(
        select(Offer.id, Provider.name, Offer.name).join(Provider).where(col(Offer.provider_id).in_(provider_ids))
    ).all()
    own = [f"{provider} / {name}" for _, provider, name in offers if (provider, name) not in demo_offers]
    if own:  # a reset removes the demo's providers with every offer they hold: never the buyer's own
        raise BadInput(
            _(
                "the demo providers also hold offers you added ({offers}); a reset would delete them: move or delete "
                "them first. Nothing was changed"
            ).format(offers=clauses(own[:5]) + (" …" if len(own) > 5 else ""))
        )
    offer_ids = [offer_id for offer_id, _, _ in offers]
    signed = session.exec(select(Contract.id).where(col(Contract.offer_id).in_(offer_ids))).first()
    if signed is not None:
        raise BadInput(_("contracts refer to demo offers; remove them before resetting the demo market"))
    invited = sorted(
        set(
            session.exec(
                select(Rfq.name)
                .join(RfqInvite, col(RfqInvite.rfq_id) == col(Rfq.id))
                .where(col(RfqInvite.provider_id).in_(provider_ids))
            )
        )
    )
    if invited:  # the buyer's own record of whom they asked: never forgotten by a reset
        raise BadInput(
            _(
                "RFQs were sent to demo providers ({providers}); a reset would forget those invitations. Nothing was "
                "changed"
            ).format(providers=listed(invited))
        )
    refs = [s.reference for s in market.sources if s.reference]
    source_ids = list(session.exec(select(Source.id).where(col(Source.reference).in_(refs))))
    session.exec(delete(BenchmarkResult).where(col(BenchmarkResult.source_id).in_(source_ids)))
    session.exec(delete(Offer).where(col(Offer.id).in_(offer_ids)))
    session.exec(delete(Provider).where(col(Provider.id).in_(provider_ids)))
    session.exec(delete(Scenario).where(col(Scenario.name).in_([s.name for s in market.scenarios])))
    session.exec(delete(PurchaseOption).where(col(PurchaseOption.name).in_([p.name for p in market.purchases])))
    session.exec(delete(Source).where(col(Source.id).in_(source_ids)))
    session.flush()


def _columns(entry: Strict, *skip: str) -> dict[str, Any]:
    """The entry's fields that are table columns of the same name (the schema mirrors the tables)."""
    return entry.model_dump(exclude={"source", *skip})


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
            self.sources[entry.key] = insert(self.session, Source(**_columns(entry, "key")))
        claims: list[tuple[str, ClaimEntry, int | None]] = []
        for origin, pf in self.market.providers:
            owner = self._provider(origin, pf)
            claims += [(origin, claim, owner) for claim in pf.claim]
        claims += [("imports/demo/claims.toml", claim, None) for claim in self.market.claims]
        for origin, claim, claimant in claims:  # after every offer exists: claims may compare offers
            self._claim(origin, claim, claimant)
        self._scenarios()
        self._purchases()
        return DemoSummary(
            len(self.market.providers), len(self.offers), self.revisions, self.claims, len(self.market.scenarios)
        )

    def _source(self, origin: str, key: str | None) -> int | None:
        if key is None:
            return None
        if key not in self.sources:
            raise BadInput(
                _("{where}: unknown source {key} (sources.toml defines {keys})").format(
                    where=origin, key=quoted(key), keys=listed(self.sources)
                )
            )
        return self.sources[key]

    def _gpu(self, origin: str, name: str) -> int:
        try:
            return self.gpu_ids[self.catalog.lookup(name).key]
        except BadInput as exc:
            raise BadInput(_("{where}: {problem}").format(where=origin, problem=exc)) from None

    def _provider(self, origin: str, pf: ProviderFile) -> int:
        currency = pf.provider.currency  # the default for the file's prices and extras
        provider_id = insert(self.session, Provider(**_columns(pf.provider, "currency")))
        for o in pf.offer:
            where = _("{file}: offer {key}").format(file=origin, key=o.key)
            if o.key in self.offers:
                raise BadInput(_("{where}: the key is used twice").format(where=where))
            gpu_id = self._gpu(where, o.gpu)
            fields = _columns(o, "key", "gpu", "revision", "discount", "extra", "sla")
            offer_form_factor(fields, self.catalog.lookup(o.gpu).form_factor)
            offer = Offer(
                **fields, provider_id=provider_id, gpu_model_id=gpu_id, source_id=self._source(where, o.source)
            )
            offer_id = insert(self.session, offer)
            self.offers[o.key] = offer
            for seq, r in enumerate(o.revision, start=1):
                revision = QuoteRevision(
                    **_columns(r, "price"), offer_id=offer_id, seq=seq, source_id=self._source(where, r.source)
                )
                revision_id = insert(self.session, revision)
                self.revisions += 1
                for price in r.price:
                    fields = _columns(price) | {"currency": price.currency or currency}
                    self.session.add(RevisionPrice(**fields, revision_id=revision_id))
            for d in o.discount:
                self.session.add(Discount(**_columns(d), offer_id=offer_id, source_id=self._source(where, d.source)))
            for x in o.extra:
                fields = _columns(x) | {"currency": x.currency or currency}
                self.session.add(ExtraCost(**fields, offer_id=offer_id, source_id=self._source(where, x.source)))
            if o.sla is not None:
                sla = SlaTerm(
                    **_columns(o.sla, "credits"), offer_id=offer_id, source_id=self._source(where, o.sla.source)
                )
                sla_id = insert(self.session, sla)
                for tier in o.sla.credits:
                    self.session.add(SlaCreditTier(**_columns(tier), sla_term_id=sla_id))
        return provider_id

    def _claim(self, origin: str, c: ClaimEntry, provider_id: int | None) -> None:
        where = _("{file}: claim {metric}").format(file=origin, metric=c.metric.value)
        offer = None
        if c.offer is not None:
            offer = self.offers.get(c.offer)
            if offer is None:
                raise BadInput(_("{where}: unknown offer key {key}").format(where=where, key=quoted(c.offer)))
            provider_id = offer.provider_id
        fields = _columns(c, "offer", "gpu", "compared")
        fields["qualifier"] = c.qualifier.value if c.qualifier else ""
        if c.compared:
            missing = [key for key in c.compared if key not in self.offers]
            if missing:
                raise BadInput(
                    _("{where}: compares unknown offer keys {keys}").format(where=where, keys=listed(missing))
                )
            fields["conditions"] = json.dumps({"compared_offer_ids": [self.offers[k].id for k in c.compared]})
        self.session.add(
            BenchmarkResult(
                **fields,
                offer_id=offer.id if offer else None,
                provider_id=provider_id,
                gpu_model_id=self._gpu(where, c.gpu) if c.gpu else None,
                provenance=Provenance.CLAIMED,
                source_id=self._source(where, c.source),
            )
        )
        self.claims += 1

    def _scenarios(self) -> None:
        """The demo's default scenario becomes the database's default, so its figures follow the demo."""
        defaults = [s for s in self.market.scenarios if s.default][:1]
        if defaults:
            for other in self.session.exec(select(Scenario).where(col(Scenario.is_default))):
                other.is_default = False
        for s in self.market.scenarios:
            where = _("{file}: scenario {name}").format(file="imports/demo/scenarios.toml", name=s.name)
            gpu_id = self._gpu(where, s.gpu) if s.gpu else None
            self.session.add(Scenario(**_columns(s, "gpu", "default"), gpu_model_id=gpu_id, is_default=s in defaults))

    def _purchases(self) -> None:
        for p in self.market.purchases:
            where = _("{file}: purchase {name}").format(file="imports/demo/ownership.toml", name=p.name)
            self.session.add(
                PurchaseOption(
                    **_columns(p, "gpu"), gpu_model_id=self._gpu(where, p.gpu), source_id=self._source(where, p.source)
                )
            )
