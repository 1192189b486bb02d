"""The engine's inputs as a contract signed them, kept in its snapshot (``terms``) so an amendment is costed on
the terms agreed — the round's price options, the discounts and extras on the table, the node size sold, the
hours a month and the exchange rates the charge was made with — and never on the offer, the settings or the
rates as they read later (a discount added since, a node size edited since, a rate replaced since)."""

from __future__ import annotations

from dataclasses import fields, replace
from datetime import date
from decimal import Decimal
from enum import Enum
from typing import Any

from quotetui.domain.economics.assumptions import Assumptions
from quotetui.domain.economics.inputs import DiscountTerm, ExtraTerm, OfferInput, PriceOption
from quotetui.domain.enums import DiscountKind, ExtraBasis, ExtraKind, PriceUnit
from quotetui.domain.fx import FxRateFact, FxTable

_CONVERT: dict[type, dict[str, Any]] = {
    PriceOption: {"unit": PriceUnit, "amount": Decimal, "amount_high": Decimal, "discount_kind": DiscountKind},
    DiscountTerm: {"kind": DiscountKind, "rate": Decimal},
    ExtraTerm: {"kind": ExtraKind, "basis": ExtraBasis, "amount": Decimal},
}


def _dump(item: Any) -> dict[str, Any]:
    out = {}
    for f in fields(item):
        if not f.compare:  # a link the engine keeps for itself (``PriceOption.priced_as``), not a term signed
            continue
        value = getattr(item, f.name)
        out[f.name] = value.value if isinstance(value, Enum) else str(value) if isinstance(value, Decimal) else value
    return out


def _load(cls: type, data: dict[str, Any]) -> Any:
    convert = _CONVERT[cls]
    known = {f.name for f in fields(cls)}
    values = {k: (convert[k](v) if k in convert and v is not None else v) for k, v in data.items() if k in known}
    return cls(**values)


def terms_record(
    offer: OfferInput, options: tuple[PriceOption, ...], assumptions: Assumptions, fx: FxTable
) -> dict[str, Any]:
    """What ``as_signed`` needs, as JSON keeps it (amounts and rates as exact decimal text)."""
    currencies = {o.currency for o in options} | {x.currency for x in offer.extras}
    return {
        "gpus_per_node": offer.gpus_per_node,
        "options": [_dump(o) for o in options],
        "discounts": [_dump(d) for d in offer.discounts],
        "extras": [_dump(x) for x in offer.extras],
        "hours_per_month": assumptions.hours_per_month,
        "fx_on": fx.on.isoformat(),
        "fx": [_dump(f) | {"as_of": f.as_of.isoformat()} for f in fx.facts_among(currencies)],
    }


def signed_assumptions(assumptions: Assumptions, terms: dict[str, Any]) -> Assumptions:
    """``assumptions`` with the hours a month the contract was costed with."""
    return replace(assumptions, hours_per_month=int(terms.get("hours_per_month", assumptions.hours_per_month)))


def signed_fx(terms: dict[str, Any]) -> FxTable:
    """The exchange rates the contract was costed with, as of the day it was."""
    facts = [FxRateFact(f["base"], f["quote"], Decimal(f["rate"]), date.fromisoformat(f["as_of"]), f["source"])
             for f in terms.get("fx", [])]  # fmt: skip
    return FxTable(facts, date.fromisoformat(terms["fx_on"]))


def as_signed(offer: OfferInput, terms: dict[str, Any]) -> tuple[OfferInput, tuple[PriceOption, ...]]:
    """``offer`` with the terms a contract signed in place of its current ones, and the round's options."""
    options = tuple(_load(PriceOption, o) for o in terms["options"])
    signed = replace(
        offer,
        gpus_per_node=int(terms["gpus_per_node"]),
        options=options,
        discounts=tuple(_load(DiscountTerm, d) for d in terms["discounts"]),
        extras=tuple(_load(ExtraTerm, x) for x in terms["extras"]),
    )
    return signed, options
