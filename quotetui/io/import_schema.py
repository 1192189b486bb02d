"""What the importer reads: one entity per sheet (or CSV file), found by the sheet's name or its header.

The entities and their columns are the field declarations of ``domain/entities.py``; the template
(``quotetui template``) and the export write these same headers, so an exported workbook imports back.
Columns are found by header name in any order; Chinese aliases are accepted where buyers naturally write them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from itertools import pairwise

from quotetui.domain.entities import ENTITIES, HISTORY
from quotetui.domain.fields import Entity, Field
from quotetui.language import ENGLISH, LANGUAGES, N_, _, catalog

__all__ = ["ENTITIES", "Entity", "Field", "closest_entity", "computed", "entity_for", "norm", "sheet_tab"]

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
    N_("Summary"),
    "Offers",
    N_("Side by side"),
    N_("TCO"),
    "Negotiation",
    "SLA",
    "Benchmarks",
    N_("Findings"),
    N_("Rent vs buy"),
    N_("Contracts"),
    N_("Acceptance"),
    "Providers",
    "Discounts",
    "Extra costs",
    "FX rates",
    "Scenarios",
    "Purchase options",
    "Settings",
    "History",
)
"""The sheets of the exported comparison workbook, in order, by their English names (the code's names for them).
The sheets of figures (marked ``N_``) are written under their names in the language in use (:func:`sheet_tab`);
the data sheets keep theirs in every language: an import finds its entity by them."""

COMPUTED_SHEETS = tuple(title for title in WORKBOOK_SHEETS if _by_name(title) is None)
"""Its sheets of figures quotetui computes: an import skips them without reading them (:func:`computed`)."""

_NOT_IN_A_SHEET_NAME = re.compile(r"[\[\]:*?/\\]")


def sheet_tab(title: str) -> str:
    """The name a sheet of the workbook (``title``: one of :data:`WORKBOOK_SHEETS`) is written under: a sheet of
    figures in the language in use (:func:`_tabs` says when not), a data sheet under its English name."""
    return _tabs(_).get(title, title)


def computed(title: str) -> bool:
    """Whether a sheet titled ``title`` is one of the workbook's sheets of figures, under its English name or
    its name in any language quotetui speaks (a workbook exported in Chinese imports into an English run)."""
    return title in COMPUTED_SHEETS or title in _translated_tabs() or title in _tabs(_).values()


def _tabs(said: Callable[[str], str]) -> dict[str, str]:
    """Each sheet of figures' name in a language (``said``: its translation of a message): its translation where
    that is a name Excel takes (1 to 31 characters, none of ``[]:*?/\\``, no apostrophe at either end) that
    names no other sheet of the workbook (in any case) and no entity an import reads; else its English name."""
    wanted = {title: said(title).strip() for title in COMPUTED_SHEETS}
    out = {}
    for title, name in wanted.items():
        others = {n.casefold() for n in WORKBOOK_SHEETS if n != title}
        others |= {n.casefold() for t, n in wanted.items() if t != title}
        fits = 0 < len(name) <= 31 and not _NOT_IN_A_SHEET_NAME.search(name) and not name.startswith("'")
        fits = fits and not name.endswith("'") and name.casefold() not in others and _by_name(name) is None
        out[title] = name if fits else title
    return out


@cache
def _translated_tabs() -> frozenset[str]:
    """The names of the sheets of figures in every language quotetui has a catalog for."""
    names: set[str] = set()
    for tag in LANGUAGES:
        if tag == ENGLISH:
            continue
        try:
            translations = catalog(tag)
        except OSError:
            continue
        names |= set(_tabs(translations.gettext).values())
    return frozenset(names)
