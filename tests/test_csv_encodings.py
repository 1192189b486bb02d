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
TIMESTAMPS = frozenset({"created_at", "updated_at", "at", "via"})  # when, and the path it was read from


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
    assert told in result.out.splitlines(), result.out  # every CSV's encoding is said, UTF-8 too
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
        "a file in another encoding (Windows-1252, Big5, Shift_JIS …)? save the file as CSV UTF-8"
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
    ("data", "reason"),
    [
        (b"", "the file is empty (0 bytes): nothing to import"),
        (b"\xef\xbb\xbf", "the file is empty (nothing but a UTF-8 byte-order mark): nothing to import"),
        (b"\xff\xfe", "the file is empty (nothing but a UTF-16 LE byte-order mark): nothing to import"),
        (b"\xfe\xff", "the file is empty (nothing but a UTF-16 BE byte-order mark): nothing to import"),
        (b"\xef\xbb\xbf\r\n\r\n", "the file is empty (only blank lines, no header or row): nothing to import"),
        ("\r\n".encode("utf-16"), "the file is empty (only blank lines, no header or row): nothing to import"),
        (b",,,\r\n,,\r\n", "the file is empty (only blank lines, no header or row): nothing to import"),
    ],
)
def test_an_empty_file_or_only_a_bom_is_refused(
    data: bytes, reason: str, cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    path = tmp_path / "providers.csv"
    path.write_bytes(data)
    problem = refused(cli, demo_db_path, path)
    assert (problem["row"], problem["reason"]) == (None, reason)
    text = cli("--db", str(demo_db_path), "import", str(path))
    assert text.code == 2
    assert text.err == f"quotetui: 1 problem; nothing was imported:\n  providers.csv: {reason}\n"


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


SHIFT_JIS = "name,kind\nさくらインターネット,lessor\n"


@pytest.mark.parametrize("codec", ["shift_jis", "cp932"])
def test_a_shift_jis_file_is_refused_as_japanese(codec: str, cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    path = tmp_path / "providers.csv"
    data = SHIFT_JIS.encode(codec)
    assert data.decode("gb18030") == "name,kind\n偝偔傜僀儞僞乕僱僢僩,lessor\n"  # what used to be imported
    path.write_bytes(data)
    problem = refused(cli, demo_db_path, path)
    assert (problem["row"], problem["reason"]) == (
        2,
        "not UTF-8 text (line 2): it reads as Japanese (Shift_JIS): 'さくらインターネット'; save the file as CSV UTF-8",
    )


def test_japanese_is_named_on_its_line_even_after_ascii_lines(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    path = tmp_path / "providers.csv"
    path.write_bytes("name,kind,notes\nAcme,lessor,plain\n東京データ,lessor,ひらがな\n".encode("cp932"))
    problem = refused(cli, demo_db_path, path)
    assert problem["row"] == 3
    assert "reads as Japanese (Shift_JIS): '東京データ'" in str(problem["reason"])


def test_a_big5_file_is_not_told_it_is_windows_1252(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    path = tmp_path / "providers.csv"
    path.write_bytes("name,kind\n資料中心服務,lessor\n".encode("big5"))
    problem = refused(cli, demo_db_path, path)
    assert problem["row"] == 2
    reason = str(problem["reason"])
    assert "Western-European" not in reason
    assert reason.endswith("a file in another encoding (Windows-1252, Big5, Shift_JIS …)? save the file as CSV UTF-8")


LONGER_CHINESE = [
    "阿里云,gpu_cloud,华东1（杭州）,包月价格：¥8-12万/月，含税；交付：两周。",
    "腾讯云,gpu_cloud,华南,“整机”8×H100，按量￥35.50/卡时；包年再打九折！",
    "天下数据,lessor,华北、华东,价格：面议（100台起）；机房：北京亦庄，双路供电【Tier III】",
    "一万网络,lessor,西南,昇腾910B×8 整机租赁，月付 ¥98,000；押金一个月",
    "并行科技,public_cloud,全国,『算力券』可抵扣30%——详见合同第3条…",
]


@pytest.mark.parametrize("codec", ["gbk", "gb18030"])
def test_longer_chinese_files_still_read(codec: str, cli: Cli, new_db: Callable[[str], Path], tmp_path: Path) -> None:
    path = tmp_path / "providers.csv"
    out = io.StringIO()
    lines = [line.replace("¥", "￥") if codec == "gbk" else line for line in LONGER_CHINESE]  # GBK has only ￥
    csv.writer(out, lineterminator="\r\n").writerows([HEADER, *(line.split(",", 3) for line in lines)])
    path.write_bytes(out.getvalue().encode(codec))
    db = new_db("fresh.db")
    result = cli("--db", str(db), "import", str(path))
    assert result.code == 0, result.err
    assert "Read providers.csv as GB18030." in result.out.splitlines()
    assert sorted(str(n) for (n,) in sql(db, "SELECT notes FROM provider")) == sorted(
        line.split(",", 3)[3] for line in lines
    )


def _chinese_lines() -> list[str]:
    """Every line with a Chinese character in the demo market and the test fixtures that GBK can encode."""
    root = Path(__file__).parent.parent
    files = [*root.glob("imports/demo/**/*.toml"), *(p for p in root.glob("tests/fixtures/**/*") if p.is_file())]
    lines: set[str] = set()
    for file in files:
        try:
            text = file.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for line in text.splitlines():
            if any("\u4e00" <= c <= "\u9fff" for c in line):
                try:
                    line.encode("gbk")
                except UnicodeEncodeError:
                    continue
                lines.add(line.strip())
    return sorted(lines)


def test_no_chinese_line_of_the_demo_or_fixtures_is_taken_for_japanese() -> None:
    from quotetui.io.text_encoding import NotText, decode_text

    lines = _chinese_lines()
    assert len(lines) >= 90  # a decent sample: 94 lines of the demo market alone when this was written
    shift_jis_too = [line for line in lines if _decodes(line.encode("gbk"), "cp932")]
    assert len(shift_jis_too) >= 30  # many also decode as cp932: the kana rule, not decoding, must tell them apart
    japanese = []
    for line in lines:
        try:
            decode_text(line.encode("gbk"))
        except NotText as exc:
            if "Japanese" in exc.reason:
                japanese.append(line)
    assert japanese == []


def _decodes(data: bytes, codec: str) -> bool:
    try:
        data.decode(codec)
    except UnicodeDecodeError:
        return False
    return True
