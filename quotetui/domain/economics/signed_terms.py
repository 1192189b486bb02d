"""The engine's inputs as a contract signed them, kept in its snapshot (``terms``) so an amendment is costed on
the terms agreed — the round's price options, the discounts and extras on the table, the node size sold — and
never on the offer as it reads later (a discount added since, a node size edited since)."""

from __future__ import annotations

from dataclasses import fields, replace
from decimal import Decimal
from enum import Enum
from typing import Any

from quotetui.domain.economics.inputs import DiscountTerm, ExtraTerm, OfferInput, PriceOption
from quotetui.domain.enums import DiscountKind, ExtraBasis, ExtraKind, PriceUnit

_CONVERT: dict[type, dict[str, Any]] = {
    PriceOption: {"unit": PriceUnit, "amount": Decimal, "amount_high": Decimal, "discount_kind": DiscountKind},
    DiscountTerm: {"kind": DiscountKind, "rate": Decimal},
    ExtraTerm: {"kind": ExtraKind, "basis": ExtraBasis, "amount": Decimal},
}


def _dump(item: Any) -> dict[str, Any]:
    out = {}
    for f in fields(item):
        value = getattr(item, f.name)
        out[f.name] = value.value if isinstance(value, Enum) else str(value) if isinstance(value, Decimal) else value
    return out


def _load(cls: type, data: dict[str, Any]) -> Any:
    convert = _CONVERT[cls]
    known = {f.name for f in fields(cls)}
    values = {k: (convert[k](v) if k in convert and v is not None else v) for k, v in data.items() if k in known}
    return cls(**values)


def terms_record(offer: OfferInput, options: tuple[PriceOption, ...]) -> dict[str, Any]:
    """What ``as_signed`` needs, as JSON keeps it (amounts as exact decimal text)."""
    return {
        "gpus_per_node": offer.gpus_per_node,
        "options": [_dump(o) for o in options],
        "discounts": [_dump(d) for d in offer.discounts],
        "extras": [_dump(x) for x in offer.extras],
    }


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
