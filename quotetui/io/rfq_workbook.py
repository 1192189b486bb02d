"""An RFQ's response workbook and cover text (issue 17, point 1): what one provider is sent.

The workbook has two visible sheets (the importer refuses hidden ones):

* ``RFQ 询价``: a title, the identity cells an imported answer is checked by (:data:`IDENTITY_CELLS`: RFQ
  name, RFQ id, revision, provider, respond-by), then the requirement line by line, bilingual.
* ``Answer 报价``: one header row (the field's label, then its first Chinese alias), one row of notes
  (``Field.note()``), then one row per price option of an offer (several rows may share the offer name);
  drop-downs for every choice and yes/no column, the GPU column's drop-down the requirement's models.

Every text from the requirement or the provider is written as a string cell: ``=HYPERLINK(…)`` or ``+1``
stays text, never a formula. The cover text (:func:`cover_text`) is short Markdown to paste into an email or
WeChat message, naming the file to fill in (:func:`response_file_name`).

Languages. What an answer is read back by never changes with the language in use: the sheet names, the answer
sheets' headers (:func:`bilingual`), the identity cells, the drop-downs' values (choices, yes/no, GPU names).
The texts for people are written in English and Chinese side by side, whatever the language in use (the provider
reads them, not the buyer who runs quotetui): the labels, the instructions, the cover text. Only what is written
in one language goes through gettext: the notes under the headers ("required"; ``Field.note()``'s words are the
field's) and the counts in a requirement's values ("16 GPUs"), with ``Requirement.models``' "or".
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from quotetui.domain.economics.exact import share_text
from quotetui.domain.entities import DISCOUNT, EXTRA, OFFER, PRICE, SLA
from quotetui.domain.fields import Field
from quotetui.domain.sourcing.requirement import Requirement
from quotetui.domain.text import BIDI, CONTROL, ZERO_WIDTH, clean_name, markdown_text, visible
from quotetui.language import N_, _, ngettext
from quotetui.system.atomic import replacing

if TYPE_CHECKING:  # openpyxl is imported by the functions that write a workbook: the text helpers
    from openpyxl import Workbook  # (``requirement_lines``, ``line_text``) serve ``rfq show`` without it
    from openpyxl.worksheet.worksheet import Worksheet

RFQ_SHEET = "RFQ 询价"
ANSWER_SHEET = "Answer 报价"
DISCOUNT_SHEET = "Discounts 折扣"  # optional to fill: one row per discount, naming the offer it is for
EXTRA_SHEET = "Extras 附加费用"  # optional to fill: one row per extra cost (egress, storage, setup …)
LISTS_SHEET = "Lists 选项"  # visible; only when a drop-down's values do not fit in the list itself
HEADER_ROW = 1
NOTE_ROW = 2
FIRST_ANSWER_ROW = 3
ANSWER_ROWS = 200  # empty rows validated below the notes
IDENTITY_CELLS: dict[str, str] = {
    "rfq": "B3",
    "rfq_id": "B4",
    "revision": "B5",
    "provider": "B6",
    "respond_by": "B7",
    "reference": "B8",
}
"""Where a later import finds who and what an answer is for (on :data:`RFQ_SHEET`)."""
FIRST_LINE_ROW = 10  # the requirement's lines start here (a heading in the row above)
NOT_REQUIRED = "not required / 不限"
YES_NO = ("yes", "no")
_INLINE_MAX = 255  # Excel's limit on a list written in the validation itself

OFFER_ANSWER: tuple[Field, ...] = tuple(
    OFFER.field(name)
    for name in (
        "name",
        "gpu",
        "gpus_per_node",
        "nodes_available",
        "form_factor",
        "billing_basis",
        "valid_until",
        "intra_fabric",
        "inter_fabric",
        "inter_gbps_per_gpu",
        "region",
        "lead_time_days",
    )
)
"""The offer's own columns: one value per offer, whichever of its rows carries it."""
PRICE_ANSWER: tuple[Field, ...] = tuple(
    PRICE.field(name) for name in ("amount", "unit", "currency", "term_months", "prepay")
)
"""A price option's columns: one row of the sheet per option."""
SLA_ANSWER: tuple[Field, ...] = tuple(
    SLA.field(name) for name in ("availability", "replacement_hours", "credits", "notes")
)
"""The offer's SLA: one value per offer, like the offer's own columns."""
ANSWER_FIELDS: tuple[Field, ...] = (*OFFER_ANSWER, *PRICE_ANSWER, *SLA_ANSWER)
DISCOUNT_ANSWER: tuple[Field, ...] = tuple(
    DISCOUNT.field(name) for name in ("kind", "rate", "min_term_months", "min_gpus", "requires_prepay", "description")
)
"""A discount's columns on :data:`DISCOUNT_SHEET`, after the offer's name: one row per discount."""
EXTRA_ANSWER: tuple[Field, ...] = tuple(
    EXTRA.field(name) for name in ("kind", "basis", "amount", "currency", "refundable", "description")
)
"""An extra cost's columns on :data:`EXTRA_SHEET`, after the offer's name: one row per extra cost."""
"""The columns a provider fills in, in order: the entities' own Field objects (one declaration per field)."""


def _chinese(text: str) -> bool:
    return any("\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff" for ch in text)


def bilingual(field: Field) -> str:
    """``Offer name / 方案``: the label, then the first alias in Chinese (the label alone when none is)."""
    chinese = next((a for a in field.aliases if _chinese(a)), None)
    return f"{field.label} / {chinese}" if chinese else field.label


def requirement_lines(req: Requirement) -> tuple[tuple[str, Any], ...]:
    """The requirement as (bilingual label, value) pairs, in the order a buyer reads them; the value is None
    where the requirement does not constrain that line."""

    def at_least(value: Any) -> str | None:
        return None if value is None else f"{value.value.replace('_', ' ')} or better / 或更优"

    job = req.job_gpus or 0

    return (
        ("GPU models / 可接受型号", req.models),
        ("GPUs / 需求GPU数", req.gpus),
        ("Term, months / 租期(月)", req.months),
        ("Start / 开始日期", req.start),
        ("Deliver by / 交付截止", req.deliver_by),
        (
            "Minimum SLA availability / 最低可用性",
            None if req.min_availability is None else share_text(req.min_availability, 3),
        ),
        (bilingual(OFFER.field("intra_fabric")), at_least(req.intra_fabric)),
        (bilingual(OFFER.field("inter_fabric")), at_least(req.inter_fabric)),
        (
            "One training job in one offer's fabric / 单个训练任务GPU数",
            None if req.job_gpus is None else ngettext("{n} GPU", "{n} GPUs", req.job_gpus).format(n=f"{job:,}"),
        ),
        (bilingual(OFFER.field("region")), req.region),
        ("Acceptance checklist / 验收项目", ", ".join(c.value for c in req.checklist) or None),
        (bilingual(PRICE.field("currency")), req.currency),
        (bilingual(SLA.field("notes")), req.notes),
    )


# -- the file name ---------------------------------------------------------------------------------------
_UNSAFE_NAME = re.compile(r'[/\\:*?"<>|`\s]+')
_PART_BYTES = 100  # each name's share of a file name (255 bytes on common file systems)


def _name_part(text: str, fallback: str) -> str:
    text = unicodedata.normalize("NFC", text)
    text = ZERO_WIDTH.sub("", BIDI.sub("", CONTROL.sub("_", text)))
    text = _UNSAFE_NAME.sub("_", text)
    text = re.sub(r"\.{2,}", ".", text).strip("._-")
    raw = text.encode()[:_PART_BYTES]
    text = raw.decode(errors="ignore").strip("._-")  # a cut never splits a character
    return text or fallback


def response_file_name(req: Requirement, provider: str) -> str:
    """``rfq-NAME-PROVIDER.xlsx``: safe on any common file system whatever the names hold (no ``/``, ``\\``,
    control or invisible characters, no leading dot or dash, at most ~210 bytes); Chinese stays."""
    return f"rfq-{_name_part(req.name, 'rfq')}-{_name_part(provider, 'provider')}.xlsx"


# -- the workbook ----------------------------------------------------------------------------------------
def put(sheet: Worksheet, row: int, column: int, value: Any) -> Any:
    """A cell holding ``value`` as data: a text is a string cell even when it starts with ``=`` (openpyxl
    would otherwise take it for a formula)."""
    cell = sheet.cell(row=row, column=column, value=value)
    if isinstance(value, str):
        cell.data_type = "s"
    elif isinstance(value, date):
        cell.number_format = "yyyy-mm-dd"
    return cell


def _width(text: str) -> int:
    """Columns a text takes on screen: two for a wide (Chinese) character."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _choices(field: Field, gpu_names: Sequence[str]) -> list[str] | None:
    if field.kind == "gpu":
        return list(gpu_names)
    if field.kind == "bool":
        return list(YES_NO)
    if field.choices is not None:
        return [m.value for m in field.choices]
    return None


def _bare_note(field: Field) -> str:
    """A note for a field that declares none (a yes/no, a free text)."""
    return "yes or no / 是或否" if field.kind == "bool" else ""


def _write_rfq_sheet(sheet: Worksheet, req: Requirement, provider: str, rfq_id: int, reference: str) -> None:
    from openpyxl.styles import Alignment, Font

    from quotetui.io.xlsx_template import HEADER_FILL

    title = put(sheet, 1, 1, f"Request for quotation / 询价: {req.name}")
    title.font = Font(bold=True, size=14)
    identity = {
        "rfq": ("RFQ / 询价单", req.name),
        "rfq_id": ("RFQ id / 询价编号", rfq_id),
        "revision": ("Revision / 版本", req.revision),
        "provider": ("Provider / 供应商", provider),
        "respond_by": ("Respond by / 回复截止", req.respond_by),
        "reference": ("Reference (keep as it is) / 编号（请勿修改）", reference),
    }
    for key, (label, value) in identity.items():
        row = sheet[IDENTITY_CELLS[key]].row
        put(sheet, row, 1, label).font = Font(bold=True)
        put(sheet, row, 2, value)
    heading = put(sheet, FIRST_LINE_ROW - 1, 1, "Requirement / 需求")
    heading.font, heading.fill = Font(bold=True), HEADER_FILL
    sheet.cell(row=FIRST_LINE_ROW - 1, column=2).fill = HEADER_FILL
    for row, (label, value) in enumerate(requirement_lines(req), start=FIRST_LINE_ROW):
        put(sheet, row, 1, label).font = Font(bold=True)
        cell = put(sheet, row, 2, NOT_REQUIRED if value is None else value)
        cell.alignment = Alignment(horizontal="left", vertical="top", wrap_text=True)
    after = FIRST_LINE_ROW + len(requirement_lines(req)) + 1
    put(sheet, after, 1, f"Please answer on the sheet “{ANSWER_SHEET}”: one row per price option.")
    put(sheet, after + 1, 1, f"请在“{ANSWER_SHEET}”表中填写报价：每个价格方案一行。")
    sheet.column_dimensions["A"].width = 44
    sheet.column_dimensions["B"].width = 60


class _Lists:
    """The visible sheet of drop-down values too long to be written in a validation, made when first needed."""

    def __init__(self, book: Workbook) -> None:
        self.book, self.sheet, self.used = book, None, 0

    def formula(self, title: str, values: list[str]) -> str:
        from quotetui.io.xlsx_template import list_column

        if self.sheet is None:
            self.sheet = self.book.create_sheet(LISTS_SHEET)
        self.used += 1
        return list_column(self.sheet, self.used, title, values)


def _write_fields_sheet(sheet: Worksheet, fields: tuple[Field, ...], req: Requirement, lists: _Lists) -> None:
    """A sheet a provider fills in: bilingual headers, a note per column, drop-downs for every choice."""
    from openpyxl.styles import Alignment
    from openpyxl.utils import get_column_letter

    from quotetui.io.xlsx_template import HEADER_FILL, REQUIRED_FONT, drop_down

    last = FIRST_ANSWER_ROW + ANSWER_ROWS - 1
    gpu_names = [g.name for g in req.gpu_models]
    for column, field in enumerate(fields, start=1):
        header = put(sheet, HEADER_ROW, column, bilingual(field))
        header.fill = HEADER_FILL
        header.alignment = Alignment(wrap_text=True, vertical="top")
        if field.required:
            header.font = REQUIRED_FONT
        note = field.note() or _bare_note(field)
        if field.required:
            note = _("required; {note}").format(note=note) if note else _("required")
        put(sheet, NOTE_ROW, column, note).alignment = Alignment(wrap_text=True, vertical="top")
        letter = get_column_letter(column)
        sheet.column_dimensions[letter].width = max(12, min(36, _width(header.value) + 2))
        values = _choices(field, gpu_names)
        if not values:
            continue
        inline = ",".join(values)
        if len(inline) + 2 <= _INLINE_MAX and not any("," in v or '"' in v for v in values):
            formula = f'"{inline}"'
        else:  # too long for the validation itself, or a value with a comma: a range on a visible sheet
            formula = lists.formula(bilingual(field), values)
        cells = f"{letter}{FIRST_ANSWER_ROW}:{letter}{last}"
        drop_down(sheet, cells, formula, field.label, required=field.required, hint="请从列表中选择")
    sheet.row_dimensions[NOTE_ROW].height = 45
    sheet.freeze_panes = f"B{FIRST_ANSWER_ROW}"


def write_response_workbook(path: Path, req: Requirement, provider: str, rfq_id: int, reference: str) -> None:
    """The response workbook for ``provider`` at ``path``, written whole or not at all (``system/atomic.py``);
    the caller checks the target (``check_target``). A provider's name with a control or invisible character
    is refused (:class:`BadInput`): it is the identity an answer is checked by."""
    from openpyxl import Workbook

    provider = clean_name(provider, what=N_("the provider's name"))
    book = Workbook()
    rfq = book.active
    rfq.title = RFQ_SHEET
    _write_rfq_sheet(rfq, req, provider, rfq_id, reference)
    sheets = [book.create_sheet(title) for title in (ANSWER_SHEET, DISCOUNT_SHEET, EXTRA_SHEET)]  # lists after them
    lists = _Lists(book)
    name = OFFER_ANSWER[0]
    for sheet, fields in zip(sheets, (ANSWER_FIELDS, (name, *DISCOUNT_ANSWER), (name, *EXTRA_ANSWER)), strict=True):
        _write_fields_sheet(sheet, fields, req, lists)
    book.active = 0  # opens on the requirement, read first
    book.properties.title = f"RFQ {rfq_id} r{req.revision}"
    book.properties.creator = "quotetui"
    with replacing(path) as tmp:
        book.save(tmp)


# -- the cover text --------------------------------------------------------------------------------------
def line_text(value: Any) -> str:
    """A requirement line's value as one line of text (a day in ISO form, a count with separators, control
    characters shown as marks, never a line break); the cover text and ``rfq show`` write it so."""
    if value is None:
        return NOT_REQUIRED
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, int):
        return f"{value:,}"
    return visible(str(value)).replace("\n", " ")


def cover_text(req: Requirement, provider: str, rfq_id: int) -> str:
    """A short bilingual Markdown message for ``provider``: the requirement's lines that constrain, the
    respond-by day and the file to fill in."""

    def shown(value: Any) -> str:  # data in a Markdown line: never structure (a heading, a list, emphasis)
        return markdown_text(line_text(value))

    who = shown(provider)
    file = response_file_name(req, provider)
    if req.respond_by is None:
        by_en, by_zh = "as soon as you can", "请尽快回复"
    else:
        day = req.respond_by.isoformat()
        by_en, by_zh = f"by **{day}**", f"请于 **{day}** 前回复"
    lines = [
        f"**RFQ 询价: {shown(req.name)}** (RFQ #{rfq_id}, revision 版本 {req.revision})",
        "",
        f"{who} 您好 / Hello {who},",
        "",
        "We would like your quote for the GPU capacity below. 我们需要以下 GPU 算力，请报价：",
        "",
    ]
    lines += [f"- {label}: {shown(value)}" for label, value in requirement_lines(req) if value is not None]
    lines += [
        "",
        f"Please fill in the attached file `{file}` (sheet “{ANSWER_SHEET}”, one row per price option) "
        f"and send it back {by_en}.",
        f"请填写附件 `{file}`（“{ANSWER_SHEET}”表，每个价格方案一行），{by_zh}。",
    ]
    return "\n".join(lines) + "\n"


__all__ = [
    "ANSWER_FIELDS",
    "ANSWER_SHEET",
    "IDENTITY_CELLS",
    "RFQ_SHEET",
    "bilingual",
    "cover_text",
    "requirement_lines",
    "response_file_name",
    "write_response_workbook",
]
