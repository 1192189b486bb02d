"""Forms for any front end, derived from the field declarations (``domain/entities.py``).

A form is a tuple of declared :class:`Field` objects with their initial values; :func:`parse` turns the raw
text of each field into typed values through the same parser as the import and the CLI, or raises
:class:`FieldErrors` naming every bad field at once, so nothing is saved from a half-valid form. Ratios are
typed as percentages in forms (15 for 15 %).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from quotetui.domain.entities import Entity
from quotetui.domain.errors import FieldErrors, QuotetuiError
from quotetui.domain.fields import Field, is_empty, parse_record, parse_value, shown_value
from quotetui.language import ENGLISH, N_, _
from quotetui.language.lists import clauses, labelled
from quotetui.language.numbers import percent

__all__ = ["FieldErrors", "FormSpec", "choices_of", "hint", "parse", "problem_text", "shown"]


CONFIRMED = "confirmed"
"""What a form adds to its values when the user said yes to the question its save asked (``NeedsConfirmation``)."""


@dataclass(frozen=True, slots=True)
class FormSpec:
    title: str
    fields: tuple[Field, ...]
    values: dict[str, Any] = field(default_factory=dict)  # initial values (as text, or bool)
    #: choices known only at run time (a reference field: the providers there are), as (label, value)
    options: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    entity: Entity | None = None  # whose cross-field rules the form's values must pass
    version: int | None = None  # the row's version when the form was filled (None: a new row)

    def choices(self, f: Field, raw: Mapping[str, Any] | None = None) -> tuple[tuple[str, str], ...]:
        """A choice field's (label, value) pairs, given the form's raw values (default: as filled): only the members
        the entity allows with the other values (``Entity.choices_by``: an extra cost's bases, by its kind), and
        the value it was filled with while those are as filled, so that a record stored outside them shows as it is
        (its save says why not)."""
        raw = self.values if raw is None else raw
        pairs = self.options.get(f.name) or choices_of(f)
        if self.entity is None or self.entity.choices_by is None:
            return pairs
        others = [o for o in self.fields if o.choices is not None and o is not f]
        typed: dict[str, Any] = {}
        for other in others:
            if not is_empty(raw.get(other.name)):
                try:
                    typed[other.name] = parse_value(other, raw[other.name])
                except QuotetuiError:
                    continue  # a value it cannot tell narrows nothing
        allowed = self.entity.choices_by(typed).get(f.name)
        if allowed is None:
            return pairs
        kept = {m.value for m in allowed}
        if all(raw.get(o.name) == self.values.get(o.name) for o in others):
            kept.add(self.values.get(f.name))
        return tuple((label, value) for label, value in pairs if value in kept)


def choices_of(f: Field) -> tuple[tuple[str, str], ...]:
    """A choice field's (label, value) pairs: each member's word, in the language in use (a code's underscores
    as spaces: ``on demand``, ``按量``), and its code."""
    if f.choices is None:
        return ()
    return tuple((m.spaced, m.value) for m in f.choices)


def hint(f: Field, *, default: bool = True, english: bool = False, flags: tuple[str, str] | None = None) -> str:
    """What a form says of a field under its label (the TUI's placeholder, a CLI option's help): its note,
    but a ratio is typed as a percentage, with an example that fits it (the first percentage its help
    names: 99.9 for an availability, 6 for a VAT rate). In the language in use, or in English (``english``)
    for a CLI option's help, which is translated as a whole where it is written out (``help_words``), a yes/no
    by its ``flags`` there (``Field.help_text``)."""
    if f.kind != "ratio":
        return f.note(default=default, english=english, flags=flags)
    found = re.search(r"(\d+(?:\.\d+)?)\s?%", f.help_text(english=True))
    if found:
        example = found.group(1)
    elif f.default is not None:
        example = shown_value(f, f.default, percent=True)
    else:
        example = "15"
    said = _PERCENTAGE if english else _(_PERCENTAGE)
    return said.format(example=example, share=percent(example, ENGLISH if english else None))


_PERCENTAGE = N_("a percentage, e.g. {example} for {share}")


def parse(spec: FormSpec | tuple[Field, ...], raw: dict[str, Any]) -> dict[str, Any]:
    """Typed values for every field of the form (and its entity's rules), or :class:`FieldErrors`."""
    if isinstance(spec, FormSpec):
        entity = spec.entity or Entity("form", spec.title, spec.fields)
        return parse_record(Entity(entity.key, entity.sheet, spec.fields, rules=entity.rules), raw)
    return parse_record(spec, raw)


def problem_text(exc: Exception, entity: Entity) -> str:
    """An error in words a screen can show: field errors by the fields' labels (in the language in use)."""
    if not isinstance(exc, FieldErrors):
        return str(exc)
    labels = {f.name: _(f.label) for f in entity.fields}
    return clauses(labelled(labels.get(name, name), message) for name, message in exc.errors.items())


def shown(row: object, fields: tuple[Field, ...]) -> dict[str, Any]:
    """A stored row's values as its form shows them (fields that are not columns are left out)."""
    return {f.name: shown_value(f, getattr(row, f.name), percent=True) for f in fields if hasattr(row, f.name)}
