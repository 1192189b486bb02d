"""CSV in the encodings Chinese users' Excel writes is read: UTF-8 (BOM or not), GB18030/GBK (Chinese Excel's
default "CSV"), UTF-16 (its tab-separated "Unicode text"); what cannot be told apart is refused, naming the
line, and changes nothing."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Cli, dump, sql

HEADER = ["name", "kind", "regions", "notes"]
ROWS = [
    ["一万网络", "lessor", "华东,华北", "“整机”报价（含税）；交付：两周。"],
    ["天下数据", "gpu_cloud", "华南", '8×H100、８卡…\n说"好"'],  # a quote and a line break: a quoted cell
    ["Müller Rechenzentrum", "lessor", "EU", "créée 2026（德国）"],  # GBK holds ü and é (its pinyin letters)
]
# what every encoding must record: the cells as typed, regions as a list
RECORDED = [
    ("Müller Rechenzentrum", "lessor", ["EU"], "créée 2026（德国）"),
    ("一万网络", "lessor", ["华东", "华北"], "“整机”报价（含税）；交付：两周。"),
    ("天下数据", "gpu_cloud", ["华南"], '8×H100、８卡…\n说"好"'),
]
TIMESTAMPS = frozenset({"created_at", "updated_at"})


def as_text(delimiter: str = ",") -> str:
    """The rows as Excel saves them: CRLF between rows, a cell quoted where it holds the delimiter, a quote
    or a line break."""
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, lineterminator="\r\n").writerows([HEADER, *ROWS])
    return out.getvalue()


# file name -> (bytes, the encoding the report names)
ENCODED: dict[str, tuple[bytes, str]] = {
    "utf-8": (as_text().encode(), "UTF-8"),
    "utf-8 BOM (Excel's CSV UTF-8)": (as_text().encode("utf-8-sig"), "UTF-8 (BOM)"),
    "GB18030": (as_text().encode("gb18030"), "GB18030"),
    "GBK (Chinese Excel's CSV)": (as_text().encode("gbk"), "GB18030"),
    "UTF-16 LE BOM, tabs (Excel's Unicode text)": (as_text("\t").encode("utf-16"), "UTF-16 LE (BOM)"),
    "UTF-16 BE BOM": (b"\xfe\xff" + as_text().encode("utf-16-be"), "UTF-16 BE (BOM)"),
    "UTF-16 LE without BOM, tabs": (as_text("\t").encode("utf-16-le"), "UTF-16 LE (no BOM)"),
}


def providers(db: Path) -> list[tuple[object, ...]]:
    rows = sql(db, "SELECT name, kind, regions, notes FROM provider")
    # SQLite hands JSON back as text, PostgreSQL as the list itself
    return sorted(
        (str(name), kind, json.loads(regions) if isinstance(regions, str) else regions, notes)
        for name, kind, regions, notes in rows
    )


def test_the_fixture_is_what_excel_writes() -> None:
    gbk, _ = ENCODED["GBK (Chinese Excel's CSV)"]
    assert gbk.startswith(b"name,kind,regions,notes\r\n\xd2\xbb\xcd\xf2\xcd\xf8\xc2\xe7,")  # 一万网络 in GBK
    unicode_text, _ = ENCODED["UTF-16 LE BOM, tabs (Excel's Unicode text)"]
    assert unicode_text.startswith(b"\xff\xfen\x00a\x00m\x00e\x00\t\x00k\x00")
    assert "\t华东,华北\t" in as_text("\t")  # not quoted: a comma is no delimiter there


@pytest.mark.parametrize("name", sorted(ENCODED))
def test_each_encoding_records_the_same_rows(
    name: str, cli: Cli, new_db: Callable[[str], Path], tmp_path: Path
) -> None:
    data, encoding = ENCODED[name]
    path = tmp_path / ("providers.txt" if "tabs" in name else "providers.csv")
    path.write_bytes(data)
    db = new_db("fresh.db")
    result = cli("--db", str(db), "import", str(path))
    assert result.code == 0, result.out + result.err
    assert "providers: 3 added, 0 changed, 0 unchanged" in result.out
    told = f"Read {path.name} as {encoding}."
    assert (told in result.out) == (not encoding.startswith("UTF-8")), result.out  # UTF-8 goes without saying
    assert providers(db) == RECORDED

    reference = new_db("reference.db")  # the whole database, row by row, as the UTF-8 file leaves it
    plain = tmp_path / "plain" / "providers.csv"
    plain.parent.mkdir()
    plain.write_bytes(ENCODED["utf-8"][0])
    assert cli("--db", str(reference), "import", str(plain)).code == 0
    assert dump(db, TIMESTAMPS) == dump(reference, TIMESTAMPS)

    again = cli("--db", str(db), "import", str(path), "--json")  # the same rows: nothing changes
    report = json.loads(again.out)
    assert report["counts"]["providers"] == {"added": 0, "changed": 0, "unchanged": 3}
    assert report["encodings"] == {path.name: encoding}


def test_the_dry_run_says_the_encoding_too(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    path = tmp_path / "新供应商.csv"
    path.write_bytes(ENCODED["GBK (Chinese Excel's CSV)"][0])
    before = dump(demo_db_path)
    result = cli("--db", str(demo_db_path), "import", str(path), "--dry-run")
    assert result.code == 0, result.err
    assert "Read 新供应商.csv as GB18030." in result.out.splitlines()
    assert dump(demo_db_path) == before


def refused(cli: Cli, db: Path, path: Path) -> dict[str, object]:
    before = dump(db)
    result = cli("--db", str(db), "import", str(path), "--json")
    assert result.code == 2, result.out + result.err
    assert dump(db) == before
    [problem] = json.loads(result.out)["problems"]
    assert problem["file"] == path.name
    return problem


def test_windows_1252_is_refused_naming_the_line(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    path = tmp_path / "providers.csv"
    path.write_bytes("name,kind,notes\nAcme,lessor,plain\nMüller GmbH,lessor,créée\n".encode("cp1252"))
    problem = refused(cli, demo_db_path, path)
    assert problem["row"] == 3
    assert problem["reason"] == (
        "not UTF-8 text (line 3), and as GB18030/GBK it reads 'M黮ler GmbH', which is not Chinese: "
        "a Western-European (Windows-1252) file? save the file as CSV UTF-8"
    )
    text = cli("--db", str(demo_db_path), "import", str(path))
    assert "providers.csv › row 3: not UTF-8 text (line 3)" in text.err


@pytest.mark.parametrize(
    ("word", "read"),
    [
        ("créée", "cr殚e"),  # é + é: one ideograph between two Latin letters
        ("agréé", "agr殚"),  # é + é right after a Latin letter
        ("Öl", "謑"),  # Ö + l: one character whose second byte is a Latin letter
        ("Škoda", "妅oda"),
    ],
)
def test_each_shape_of_a_misread_accent_is_refused(
    word: str, read: str, cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    path = tmp_path / "providers.csv"
    path.write_bytes(f"name,kind\n{word},lessor\n".encode("cp1252"))
    problem = refused(cli, demo_db_path, path)
    assert problem["row"] == 2
    assert f"as GB18030/GBK it reads {read!r}, which is not Chinese" in str(problem["reason"])


def test_an_accent_before_a_delimiter_is_no_gb18030_at_all(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    path = tmp_path / "providers.csv"
    path.write_bytes("name,kind\nAcme,lessor\nCafé,lessor\n".encode("cp1252"))  # é + "," is no GBK character
    problem = refused(cli, demo_db_path, path)
    assert (problem["row"], problem["reason"]) == (
        3,
        "not UTF-8 text, nor GB18030/GBK (line 3); save the file as CSV UTF-8",
    )


@pytest.mark.parametrize(
    "text",
    [
        "一万网络,lessor,昇腾910B 整机\n",  # 昇's second byte is "N", but the line is Chinese
        "一万网络,lessor,token数 按量\n",
        "一万网络,lessor,NVLink与InfiniBand：多卡互联\n",
        "一万网络,lessor,[b]x[/b] ＜script＞\n",  # markup is data
    ],
)
def test_chinese_mixed_with_latin_is_read(text: str, cli: Cli, new_db: Callable[[str], Path], tmp_path: Path) -> None:
    path = tmp_path / "providers.csv"
    path.write_bytes(("name,kind,notes\n" + text).encode("gbk"))
    db = new_db("fresh.db")
    result = cli("--db", str(db), "import", str(path))
    assert result.code == 0, result.err
    assert sql(db, "SELECT notes FROM provider") == [(text.split(",")[2].strip(),)]


def test_a_file_mixing_utf8_and_gbk_lines_is_refused(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    path = tmp_path / "providers.csv"
    path.write_bytes("name,kind\n一万网络,lessor\n".encode() + "天下数据,lessor\n".encode("gbk"))
    problem = refused(cli, demo_db_path, path)
    assert problem["row"] == 3
    assert problem["reason"] == (
        "line 2 is UTF-8 text but line 3 is not: the file mixes two encodings; save the file as CSV UTF-8"
    )


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (
            b"\xef\xbb\xbfname,kind\n" + "天下数据,lessor\n".encode("gbk"),
            "starts with a UTF-8 BOM but is not UTF-8 text (line 2)",
        ),
        (
            "\ufeffname,kind\n".encode("utf-16-le") + b"x",
            "starts with a UTF-16 LE BOM but is not UTF-16 LE text (line 2)",
        ),
        (b"\xff\xfe" + "name\n".encode("utf-16-le") + b"\x00\xd8", "not UTF-16 LE text (line 2)"),  # a lone surrogate
        (b"name,kind\n\x81\x30\x81\x30,lessor\n", "as GB18030/GBK it reads '<U+0080>'"),  # a C1 control, shown
        (b"\x00\x01\x02\x03" * 64, "contains NUL bytes: not a text CSV file"),
        ("\ufeffname\n\x00\n".encode("utf-16-le"), "contains NUL bytes"),  # U+0000 in good UTF-16
    ],
)
def test_broken_text_is_refused(data: bytes, reason: str, cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    path = tmp_path / "providers.csv"
    path.write_bytes(data)
    assert reason in str(refused(cli, demo_db_path, path)["reason"])


@pytest.mark.parametrize(
    "data", [b"", b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\xef\xbb\xbf\r\n\r\n", "\r\n".encode("utf-16")]
)
def test_an_empty_file_or_only_a_bom_imports_nothing(data: bytes, cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    path = tmp_path / "providers.csv"
    path.write_bytes(data)
    before = dump(demo_db_path)
    result = cli("--db", str(demo_db_path), "import", str(path))
    assert result.code == 0, result.err
    assert result.out.splitlines() == ["Imported:", "  nothing: no sheet or file quotetui imports"]
    assert dump(demo_db_path) == before


def test_the_header_decides_the_delimiter(cli: Cli, new_db: Callable[[str], Path], tmp_path: Path) -> None:
    commas = tmp_path / "providers.csv"  # tabs inside a comma file's cells stay in the cell
    commas.write_text('name,kind,notes\n一万网络,lessor,"a\tb"\n', encoding="utf-8")
    tabs = tmp_path / "providers.txt"  # commas inside a tab file's cells stay in the cell: one region "a,b"?
    tabs.write_text("name\tkind\tregions\n天下数据\tgpu_cloud\t华南,华北\n", encoding="utf-8")
    db = new_db("fresh.db")
    assert cli("--db", str(db), "import", str(commas)).code == 0
    assert cli("--db", str(db), "import", str(tabs)).code == 0
    assert [(n, r, notes) for n, _, r, notes in providers(db)] == [
        ("一万网络", [], "a\tb"),
        ("天下数据", ["华南", "华北"], None),
    ]
