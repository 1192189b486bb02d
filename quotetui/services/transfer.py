"""Files out: the comparison workbook (or the offers as CSV) and the import template."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from quotetui.domain.gc_pause import gc_paused
from quotetui.io.import_schema import WORKBOOK_SHEETS
from quotetui.io.xlsx_write import Sheet, write_csv, write_xlsx
from quotetui.language import _
from quotetui.language.lists import quoted
from quotetui.services import export_contracts, export_evidence, export_tco
from quotetui.services import export_sheets as sheets
from quotetui.services.export_data import ExportData, gather
from quotetui.services.market import list_gpus
from quotetui.store.engine import Database
from quotetui.system.atomic import check_target, replacing

SHEET_ORDER = WORKBOOK_SHEETS


def export_file(
    db: Database,
    out: Path,
    scenario: str | None = None,
    pinned: list[int] | None = None,
    on: date | None = None,
    *,
    force: bool = False,
) -> Path:
    """The comparison workbook (.xlsx) or the Offers sheet as CSV (.csv) for a scenario. It is written to a
    temporary file and renamed into place when complete; an existing file is replaced only with ``force``."""
    out = check_target(out, force=force, suffixes=(".xlsx", ".csv"))
    # one snapshot: the rows the sheets read as they are written (rounds, the change log) are those of the
    # figures; the gathered figures live until the file is written: collections would walk them all
    with gc_paused(), db.snapshot():
        data = gather(db, scenario, pinned, on)
        with replacing(out) as tmp:
            if out.suffix.lower() == ".csv":
                offers = sheets.offers(data)
                write_csv(tmp, offers.columns, offers.rows)
            else:
                write_xlsx(tmp, workbook_sheets(data), workbook_properties(data))
    return out


def workbook_sheets(data: ExportData) -> list[Sheet]:
    """The sheets of the comparison workbook, in order; their rows are computed as they are written."""
    built = [
        sheets.summary(data),
        sheets.offers(data),
        sheets.side_by_side(data),
        export_tco.tco(data),
        sheets.negotiation(data),
        sheets.sla(data),
        export_evidence.benchmarks(data),
        export_evidence.findings(data),
        export_tco.rent_buy(data),
        export_contracts.contracts(data),
        export_evidence.acceptance(data),
        sheets.providers(data),
        sheets.discounts(data),
        sheets.extras(data),
        sheets.fx(data),
        sheets.scenarios(data),
        sheets.purchases(data),
        sheets.settings(data),
        sheets.history(data),
    ]
    assert tuple(s.title for s in built) == SHEET_ORDER
    return built


def workbook_properties(data: ExportData) -> dict[str, str]:
    """The workbook's document properties: title, subject and description in the language in use; the keywords
    (``key=value`` pairs a script may search) in English."""
    name = data.scenario_name
    return {
        "title": _("quotetui comparison: {scenario}").format(scenario=name),
        "subject": _("scenario {scenario}").format(scenario=name),
        "description": _("Offers ranked for scenario {scenario}; amounts in {currency}. Generated at {when}.").format(
            scenario=quoted(name), currency=data.currency, when=data.generated_at.isoformat(timespec="seconds")
        ),
        "keywords": f"quotetui; scenario={data.scenario_name}; generated={data.generated_at.isoformat()}",
        "created": data.generated_at.isoformat(),
    }


def write_import_template(db: Database | None, out: Path, *, force: bool = False) -> Path:
    """The import template, its GPU list from ``db``'s catalog; with no database yet (None), from the
    catalog a new database starts with, so that writing a template creates no database."""
    from quotetui.domain.gpu_table import BUILTIN
    from quotetui.io.xlsx_template import write_template  # openpyxl: only for the template

    out = check_target(out, force=force, suffixes=(".xlsx",))
    with replacing(out) as tmp:
        write_template(tmp, [g.name for g in (list_gpus(db) if db is not None else BUILTIN)])
    return out
