"""The demo market's readable data files (``imports/demo``): schema and loading.

Layout: ``sources.toml``, ``providers/*.toml`` (a provider, its offers with revisions, discounts,
extras and SLA, and its claims), ``claims.toml`` (market-wide claims), ``scenarios.toml``,
``ownership.toml``. Money, ratios and large numbers are strings so that they stay exact.

Each entry's keys are the declared fields of its entity (``domain/entities.py``), read by the same parser
and held to the same bounds as a form or an import; sources, offers and claims refer to each other by
``key``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from pydantic import Field, ValidationError

from quotetui.domain import entities as E
from quotetui.domain.errors import BadInput
from quotetui.domain.text import name_key
from quotetui.io.file_models import Strict, explain, model_of
from quotetui.language import _
from quotetui.language.lists import quoted


def _without(entity: E.Entity, *names: str) -> tuple[E.Field, ...]:
    return tuple(f for f in entity.fields if f.name not in names)


SourceEntry = model_of("SourceEntry", E.SOURCE.fields, key=(str, ...))
PriceEntry = model_of(
    "PriceEntry",
    (*_without(E.PRICE, "currency"), replace(E.CURRENCY, required=False), E.IS_ESTIMATE, E.NOTE),
    rules=E.PRICE.rules,
)
RevisionEntry = model_of(
    "RevisionEntry",
    (
        E.MOVER,
        E.QUOTED_AT,
        E.SOURCE_REF,
        replace(E.ROUND_ESTIMATE, name="is_estimate"),
        replace(E.ROUND_NOTE, name="note"),
    ),
    price=(list[PriceEntry], Field(min_length=1)),  # type: ignore[valid-type]
)
DiscountEntry = model_of("DiscountEntry", _without(E.DISCOUNT, "provider", "offer"), rules=E.DISCOUNT.rules)
ExtraEntry = model_of(
    "ExtraEntry",
    (*_without(E.EXTRA, "provider", "offer", "currency"), replace(E.CURRENCY, required=False)),
    rules=E.EXTRA.rules,
)
CreditEntry = model_of("CreditEntry", (replace(E.CREDIT_BELOW, required=True), replace(E.CREDIT_RATE, required=True)))
SlaEntry = model_of(
    "SlaEntry",
    _without(E.SLA, "provider", "offer", "credits"),
    credits=(list[CreditEntry], Field(default_factory=list)),  # type: ignore[valid-type]
)
OfferEntry = model_of(
    "OfferEntry",
    _without(E.OFFER, "provider"),
    key=(str, ...),
    revision=(list[RevisionEntry], Field(min_length=1)),  # type: ignore[valid-type]
    discount=(list[DiscountEntry], Field(default_factory=list)),  # type: ignore[valid-type]
    extra=(list[ExtraEntry], Field(default_factory=list)),  # type: ignore[valid-type]
    sla=(SlaEntry | None, None),  # type: ignore[valid-type]
)
ClaimEntry = model_of(
    "ClaimEntry",
    _without(E.CLAIM, "provider", "provenance", "compared"),
    rules=E.CLAIM.rules,
    compared=(list[str], Field(default_factory=list)),  # offer keys, for cheaper_than claims
)
ProviderEntry = model_of("ProviderEntry", (*E.PROVIDER.fields, E.CURRENCY))
ScenarioEntry = model_of("ScenarioEntry", E.SCENARIO.fields, rules=E.SCENARIO.rules)
PurchaseEntry = model_of("PurchaseEntry", E.PURCHASE.fields, rules=E.PURCHASE.rules)


class ProviderFile(Strict):
    provider: ProviderEntry  # type: ignore[valid-type]
    offer: list[OfferEntry] = Field(default_factory=list)  # type: ignore[valid-type]
    claim: list[ClaimEntry] = Field(default_factory=list)  # type: ignore[valid-type]


class SourcesFile(Strict):
    source: list[SourceEntry] = Field(default_factory=list)  # type: ignore[valid-type]


class ClaimsFile(Strict):
    claim: list[ClaimEntry] = Field(default_factory=list)  # type: ignore[valid-type]


class ScenariosFile(Strict):
    scenario: list[ScenarioEntry] = Field(default_factory=list)  # type: ignore[valid-type]


class OwnershipFile(Strict):
    purchase: list[PurchaseEntry] = Field(default_factory=list)  # type: ignore[valid-type]


@dataclass(frozen=True, slots=True)
class DemoMarket:
    sources: list[Any]
    providers: list[tuple[str, ProviderFile]]  # (file name, content)
    claims: list[Any]
    scenarios: list[Any]
    purchases: list[Any]


T = TypeVar("T", bound=Strict)


def read_toml(path: Path, schema: type[T], origin: str) -> T:
    try:
        with path.open("rb") as handle:
            raw = tomllib.load(handle)
    except FileNotFoundError:
        raise BadInput(f"{origin}: " + _("file not found")) from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise BadInput(f"{origin}: " + _("not valid TOML: {error}").format(error=exc)) from None
    try:
        return schema.model_validate(raw)
    except ValidationError as exc:
        raise explain(exc, origin) from None


def load_demo_files(folder: Path) -> DemoMarket:
    """Parse and validate every demo file; raise :class:`BadInput` naming the file and field."""

    def rel(path: Path) -> str:
        return f"imports/demo/{path.relative_to(folder).as_posix()}"

    sources = read_toml(folder / "sources.toml", SourcesFile, rel(folder / "sources.toml")).source
    providers = [
        (rel(path), read_toml(path, ProviderFile, rel(path))) for path in sorted((folder / "providers").glob("*.toml"))
    ]
    _refuse_twice(providers)
    claims = read_toml(folder / "claims.toml", ClaimsFile, rel(folder / "claims.toml")).claim
    scenarios = read_toml(folder / "scenarios.toml", ScenariosFile, rel(folder / "scenarios.toml")).scenario
    purchases = read_toml(folder / "ownership.toml", OwnershipFile, rel(folder / "ownership.toml")).purchase
    return DemoMarket(sources, providers, claims, scenarios, purchases)


def _refuse_twice(providers: list[tuple[str, ProviderFile]]) -> None:
    """A provider, or an offer of one provider, named twice (compared by their key) is refused, naming both places."""
    seen: dict[str, str] = {}
    for origin, pf in providers:
        for key, where in [
            (f"provider {name_key(pf.provider.name)}", f"{origin}: " + _("provider")),
            *(
                (
                    f"offer {name_key(pf.provider.name)}/{name_key(o.name)}",
                    f"{origin}: " + _("offer {name}").format(name=quoted(o.name)),
                )
                for o in pf.offer
            ),
        ]:
            if key in seen:
                raise BadInput(_("{place}: already declared at {first}").format(place=where, first=seen[key]))
            seen[key] = where
