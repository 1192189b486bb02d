"""Small builders for engine inputs, so economics tests state only what they are about."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from quotetui.domain.economics.inputs import (
    DiscountTerm,
    Evidence,
    ExtraTerm,
    OfferInput,
    PriceOption,
    Revision,
    ScenarioInput,
)
from quotetui.domain.enums import BillingBasis, InterFabric, IntraFabric, OfferStatus, PriceUnit
from quotetui.domain.fx import FxRateFact, FxTable
from quotetui.domain.gpus import builtin_catalog

TODAY = date(2026, 11, 30)


def option(amount: str, unit: PriceUnit = PriceUnit.NODE_MONTH, term: int = 1, **kw) -> PriceOption:  # type: ignore[no-untyped-def]
    return PriceOption(term, unit, Decimal(amount), kw.pop("currency", "CNY"), **kw)


def offer(  # type: ignore[no-untyped-def]
    *options: PriceOption,
    id: int = 1,
    provider: str = "P",
    gpu: str = "H100 SXM",
    gpn: int = 8,
    discounts: tuple[DiscountTerm, ...] = (),
    extras: tuple[ExtraTerm, ...] = (),
    availability: str | None = None,
    evidence: tuple[Evidence, ...] = (),
    billing: BillingBasis = BillingBasis.MONTHLY,
    inter: InterFabric = InterFabric.INFINIBAND_NDR,
    **kw,
) -> OfferInput:
    opts = options or (option("80000"),)
    return OfferInput(
        id=id,
        provider=provider,
        name=kw.pop("name", f"offer {id}"),
        gpu=builtin_catalog().lookup(gpu),
        gpus_per_node=gpn,
        billing_basis=billing,
        status=kw.pop("status", OfferStatus.QUOTED),
        options=opts,
        intra_fabric=kw.pop("intra", IntraFabric.NVSWITCH),
        inter_fabric=inter,
        discounts=discounts,
        extras=extras,
        availability=None if availability is None else Decimal(availability),
        evidence=evidence,
        revisions=kw.pop("revisions", (Revision(1, "provider", TODAY, opts),)),
        **kw,
    )


def scenario(gpus: int = 8, months: int = 12, utilisation: str = "1", currency: str = "CNY", **kw) -> ScenarioInput:  # type: ignore[no-untyped-def]
    return ScenarioInput("test", gpus, months, Decimal(utilisation), currency, **kw)


def fx(*rates: tuple[str, str, str]) -> FxTable:
    return FxTable([FxRateFact(b, q, Decimal(r), TODAY, "test") for b, q, r in rates], TODAY)
