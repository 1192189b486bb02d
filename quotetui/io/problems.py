"""Problems found in an input file, each with its place: file, sheet, row, column and reason."""

from __future__ import annotations

from dataclasses import dataclass

from quotetui.domain.errors import BadInput
from quotetui.language import _, ngettext
from quotetui.language.lists import labelled


@dataclass(frozen=True, slots=True)
class Problem:
    file: str
    reason: str
    sheet: str | None = None
    row: int | None = None  # 1-based, as the spreadsheet shows it
    column: str | None = None  # the header name (and letter, when known)

    def to_json(self) -> dict[str, str | int | None]:
        return {"file": self.file, "sheet": self.sheet, "row": self.row, "column": self.column, "reason": self.reason}

    def __str__(self) -> str:
        where = self.file
        if self.sheet:
            where += f" › {self.sheet}"
        if self.row is not None:
            where += " › " + _("row {row}").format(row=self.row)
        if self.column:
            where += f" › {self.column}"
        return labelled(where, self.reason)


class ImportProblems(BadInput):
    """Everything wrong with the input, found before anything was written; the database is unchanged."""

    listed = True

    def __init__(self, problems: list[Problem]) -> None:
        # one cell read into two of the importer's tables (an answer's offer name: its offer, its round, its
        # SLA) is one problem, told once
        problems = list(dict.fromkeys(problems))
        self.problems = problems
        # one line per problem: a line break in a file name or a cell shown as ␤, never as a line of its own
        shown = "\n".join(f"  {p}".replace("\r", "␍").replace("\n", "␤") for p in problems[:200])
        more = "\n  " + _("… and {count} more").format(count=len(problems) - 200) if len(problems) > 200 else ""
        head = ngettext(
            "{count} problem; nothing was imported:", "{count} problems; nothing was imported:", len(problems)
        )
        super().__init__(f"{head.format(count=f'{len(problems):,}')}\n{shown}{more}")
