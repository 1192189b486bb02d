"""What the importer reads: one entity per sheet (or CSV file), found by the sheet's name or its header.

The entities and their columns are the field declarations of ``domain/entities.py``; the template
(``quotetui template``) and the export write these same headers, so an exported workbook imports back.
Columns are found by header name in any order; Chinese aliases are accepted where buyers naturally write them.
"""

from __future__ import annotations

import re
from itertools import pairwise

from quotetui.domain.entities import ENTITIES, HISTORY
from quotetui.domain.fields import Entity, Field

__all__ = ["ENTITIES", "Entity", "Field", "closest_entity", "entity_for", "norm"]

SKYPILOT_HEADERS = ("InstanceType", "AcceleratorName", "AcceleratorCount", "Price", "Region")


READ = (*ENTITIES, HISTORY)
"""Every entity an import reads: the template's, and the History sheet an export writes."""


def norm(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def _by_name(name: str) -> Entity | None:
    key = norm(name)
    for entity in READ:
        if key in {norm(n) for n in entity.names()}:
            return entity
    # a file called "2026-11 阿里云 offers.csv" or "extra_costs_lambda.csv": a word (or two) of its name
    words = [w for w in re.split(r"[\W_]+", name.casefold()) if w]
    phrases = {norm(w) for w in words} | {norm(a + b) for a, b in pairwise(words)}
    found = {entity.key: entity for entity in READ for n in entity.names() if norm(n) in phrases}
    return next(iter(found.values())) if len(found) == 1 else None


def header_names(f: Field) -> tuple[str, ...]:
    """Every header a column is read under: its own, its field name, its aliases."""
    return (f.column, f.name, *f.aliases)


def _matched(entity: Entity, present: set[str]) -> set[str]:
    return {f.name for f in entity.sheet_fields if present & {norm(n) for n in header_names(f)}}


def entity_for(name: str, header: list[str] | None = None) -> Entity | None:
    """The entity a sheet (or CSV file) holds: by its name or a word of it, else by its header — the one
    entity that knows every column and finds its required ones there."""
    entity = _by_name(name)
    if entity is not None or not header:
        return entity
    for candidate in READ:  # a sheet quotetui exported: its columns first, in order, then figures
        columns = [norm(f.column) for f in candidate.sheet_fields]
        if [norm(h) for h in header[: len(columns)]] == columns:
            return candidate
    present = {norm(h) for h in header if h}
    fits = []
    for candidate in READ:
        matched = _matched(candidate, present)
        if len(matched) == len(present) and all(f.name in matched for f in candidate.sheet_fields if f.required):
            fits.append(candidate)
    return fits[0] if len(fits) == 1 else None


def closest_entity(header: list[str]) -> tuple[Entity, list[str]] | None:
    """For a table no entity fits: the entity sharing most columns with it, and its required columns missing."""
    present = {norm(h) for h in header if h}
    best = max(READ, key=lambda entity: len(_matched(entity, present)))
    matched = _matched(best, present)
    if len(matched) < 2:
        return None
    return best, [f.column for f in best.sheet_fields if f.required and f.name not in matched]


WORKBOOK_SHEETS = (
    "Summary",
    "Offers",
    "Side by side",
    "TCO",
    "Negotiation",
    "SLA",
    "Benchmarks",
    "Findings",
    "Rent vs buy",
    "Contracts",
    "Acceptance",
    "Providers",
    "Discounts",
    "Extra costs",
    "FX rates",
    "Scenarios",
    "Purchase options",
    "Settings",
    "History",
)
"""The sheets of the exported comparison workbook, in order."""

COMPUTED_SHEETS = tuple(title for title in WORKBOOK_SHEETS if _by_name(title) is None)
"""Its sheets of figures quotetui computes: an import skips them without reading them."""
