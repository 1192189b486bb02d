"""What an import did, or would do: counts per entity, every field that changes (old → new), warnings."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from quotetui.domain.fields import shown_value
from quotetui.domain.money import plain
from quotetui.domain.text import visible
from quotetui.io.import_schema import Field
from quotetui.io.problems import Problem
from quotetui.language import _
from quotetui.language.lists import labelled, quoted
from quotetui.language.numbers import percent

SHOWN_CHANGES = 40
"""Field changes the text report lists (the JSON report has them all)."""


@dataclass(slots=True)
class Counts:
    added: int = 0
    changed: int = 0
    unchanged: int = 0

    def __str__(self) -> str:
        return _("{added} added, {changed} changed, {unchanged} unchanged").format(
            added=f"{self.added:,}", changed=f"{self.changed:,}", unchanged=f"{self.unchanged:,}"
        )


@dataclass(frozen=True, slots=True)
class Change:
    """One field of one existing row that the import changes."""

    entity: str
    row: str  # the row's natural key, as a user names it ("阿里云 / ecs.gn8i 8×H100")
    field: str
    old: str
    new: str

    def __str__(self) -> str:
        return _("{entity} {row}: {field} {old} → {new}").format(
            entity=self.entity, row=self.row, field=self.field, old=self.old, new=self.new
        )

    def to_json(self) -> dict[str, str]:
        return {"entity": self.entity, "row": self.row, "field": self.field, "old": self.old, "new": self.new}


def _text(f: Field | None, value: Any) -> str:
    if f is None:
        return quoted(value)
    shown = shown_value(f, value)
    if f.kind == "ratio" and isinstance(value, Decimal):  # a share as people read it: 6 %, not 0.06
        shown = percent(plain((value * 100).normalize()))
    if isinstance(shown, bool):
        return _("yes") if shown else _("no")
    return quoted(visible(shown)) if shown != "" else _("(empty)")


@dataclass(slots=True)
class ImportReport:
    files: list[str]
    dry_run: bool
    counts: dict[str, Counts] = field(default_factory=dict)
    changes: list[Change] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    encodings: dict[str, str] = field(default_factory=dict)  # CSV file -> the encoding it was read in

    def change(self, entity: str, row: str, f: Field | None, name: str, old: Any, new: Any) -> None:
        self.changes.append(Change(entity, row, f.column if f else name, _text(f, old), _text(f, new)))

    def lines(self) -> list[str]:
        """The report in words, in the language in use: each count under its entity's name (an English key of
        :attr:`counts`, marked ``N_`` where it is counted, as JSON keeps it)."""
        head = _("Would import (dry run, nothing written):") if self.dry_run else _("Imported:")
        out = [head] + [
            "  " + labelled(_(name), f"{c}") for name, c in self.counts.items() if c.added or c.changed or c.unchanged
        ]
        if len(out) == 1:
            out.append("  " + _("nothing: the sheets read have no rows"))  # no sheet to read at all is a problem
        read_as = _("Read {file} as {encoding}.")
        out += [read_as.format(file=visible(name), encoding=e) for name, e in self.encodings.items()]  # UTF-8 too
        if self.changes:
            out.append(_("Changes to existing rows:") if not self.dry_run else _("Would change in existing rows:"))
            out += [f"  {visible(str(c))}" for c in self.changes[:SHOWN_CHANGES]]
            if len(self.changes) > SHOWN_CHANGES:
                more = _("… and {count} more (--json lists them all)")
                out.append("  " + more.format(count=len(self.changes) - SHOWN_CHANGES))
        out += [_("warning: {problem}").format(problem=w) for w in self.warnings]
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "files": self.files,
            "dry_run": self.dry_run,
            "counts": {
                k: {"added": c.added, "changed": c.changed, "unchanged": c.unchanged} for k, c in self.counts.items()
            },
            "changes": [c.to_json() for c in self.changes],
            "imported": not self.dry_run,
            "warnings": [w.to_json() for w in self.warnings],
            "encodings": self.encodings,
        }
