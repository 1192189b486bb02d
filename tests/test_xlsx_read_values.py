"""The import's sheet reader (expat callbacks, ``io/xlsx_read._rows``) gives the values openpyxl's read-only cells
give, for the XML shapes Excel, LibreOffice and other writers produce, and refuses entity declarations."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from openpyxl import load_workbook

from quotetui.io.xlsx_read import _rows

NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
PARTS = {
    "[Content_Types].xml": '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/'
    'package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
    'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/'
    'workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.'
    'spreadsheetml.worksheet+xml"/></Types>',
    "_rels/.rels": '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/'
    'package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/'
    '2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    "xl/workbook.xml": f'<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="{NS}" xmlns:r="http://schemas.'
    'openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Offers" sheetId="1" r:id="rId1"/>'
    "</sheets></workbook>",
    "xl/_rels/workbook.xml.rels": '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.'
    'openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.'
    'org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
}
ROWS = (
    '<row r="1"><c r="A1" t="inlineStr"><is><t>name</t></is></c><c r="B1" t="inlineStr"><is><t>note</t></is></c>'
    '<c r="C1" t="inlineStr"><is><t>n</t></is></c></row>'
    # row 2 skipped; runs with a phonetic hint; a cell without a reference; a boolean; a formula with its result
    '<row r="3"><c r="A3" t="inlineStr"><is><r><t>GN</t></r><r><rPr><b/></rPr><t xml:space="preserve">10 x</t>'
    '</r><rPh sb="0" eb="1"><t>ph</t></rPh></is></c><c><v>1.5</v></c><c t="b"><v>1</v></c>'
    '<c r="E3"><f>1+1</f><v>2</v></c><c r="F3" t="str"><v>a &amp; b &lt;c&gt;</v></c></row>'
    '<x:row xmlns:x="' + NS + '" r="4"><x:c r="B4"><x:v>-7</x:v></x:c><x:c r="D4" t="e"><x:v>#N/A</x:v></x:c>'
    '<x:c r="G4" t="inlineStr"><x:is><x:t>漢字 _x0041_</x:t></x:is></x:c></x:row>'
    '<row r="5"><c r="A5"><v></v></c><c r="C5" t="inlineStr"><is><t>ab</t></is></c></row>'
)


def _book(tmp_path: Path, rows: str) -> Path:
    path = tmp_path / "shapes.xlsx"
    with zipfile.ZipFile(path, "w") as z:
        for name, text in PARTS.items():
            z.writestr(name, text)
        sheet = f'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="{NS}"><sheetData>{rows}</sheetData>'
        z.writestr("xl/worksheets/sheet1.xml", sheet + "</worksheet>")
    return path


def _trimmed(row: tuple[Any, ...] | list[Any]) -> list[Any]:
    values = list(row)
    while values and values[-1] is None:
        values.pop()
    return values


def test_the_reader_gives_openpyxls_values(tmp_path: Path) -> None:
    book = load_workbook(_book(tmp_path, ROWS), read_only=True, data_only=True)
    ours = list(_rows(book.worksheets[0]))
    theirs = [_trimmed(r) for r in book.worksheets[0].iter_rows(values_only=True)]
    book.close()
    assert ours == theirs
    assert ours[2] == ["GN10 x", 1.5, True, None, 2, "a & b <c>"] and ours[1] == []


def test_entity_declarations_are_refused_as_defusedxml_refuses_them() -> None:
    from defusedxml.common import EntitiesForbidden

    xml = (
        f'<?xml version="1.0"?><!DOCTYPE worksheet [<!ENTITY boom "boom boom">]><worksheet xmlns="{NS}">'
        '<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&boom;</t></is></c></row></sheetData></worksheet>'
    )
    book = SimpleNamespace(epoch=None, _date_formats=set(), _timedelta_formats=set())
    sheet = SimpleNamespace(parent=book, _shared_strings=[], _get_source=lambda: io.BytesIO(xml.encode()))
    with pytest.raises(EntitiesForbidden):
        list(_rows(sheet))
