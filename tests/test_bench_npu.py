"""``npu-smi info`` of Huawei Ascend NPUs: two published outputs read whole (8× 910B3; an Atlas A3 node's 8× 910C
of two chips each, fixtures/benchlogs/NPU-SOURCES.md), the same cut, garbled and coloured the way pastes go
wrong, and what an Ascend log says about an Ascend offer and about an H100 one."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path

import pytest

from quotetui.domain.enums import IntraFabric
from quotetui.domain.gpus import builtin_catalog
from quotetui.domain.verification.findings import Finding, Log, Severity, Sold
from quotetui.domain.verification.logs import LogError, NpuSmi
from quotetui.domain.verification.rules import check
from quotetui.io.benchlogs import npu
from quotetui.io.benchlogs.detect import parse_log
from tests.conftest import Cli, sql

FIXTURES = Path(__file__).parent / "fixtures" / "benchlogs"
B910 = "npu-smi-info-910b.txt"
C910 = "npu-smi-info-910c.txt"
CATALOG = builtin_catalog()


def _text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def _npus(text: str) -> NpuSmi:
    parsed = parse_log(text)
    assert isinstance(parsed, NpuSmi)
    return parsed


def _lines(name: str, upto: int) -> str:
    """The first ``upto`` lines of a fixture: a paste cut short there."""
    return "".join(_text(name).splitlines(keepends=True)[:upto])


def test_the_910b_sample_is_eight_910b3_all_ok() -> None:
    smi = _npus(_text(B910))
    assert smi.version == "23.0.7"
    assert [(n.index, n.name, n.health) for n in smi.npus] == [(i, "910B3", "OK") for i in range(8)]
    first, last = smi.npus[0], smi.npus[7]
    assert (first.power_w, first.temp_c, first.hbm_used_mib, first.hbm_total_mib) == (Decimal("102.8"), 55, 3338, 65536)
    assert [(c.chip, c.bus_id, c.aicore_pct, c.phy_id) for c in first.chips] == [(0, "0000:C1:00.0", 0, None)]
    assert (last.power_w, last.temp_c, last.chips[0].bus_id, last.hbm_used_mib) == (
        Decimal("105.1"),
        59,
        "0000:42:00.0",
        3338,
    )
    assert smi.gpu_names() == ("910B3",) * 8
    assert NpuSmi.tool == "npu-smi info"


def test_the_910c_sample_is_eight_npus_of_two_chips() -> None:
    smi = _npus(_text(C910))
    assert smi.version == "25.2.1" and smi.gpu_names() == ("Ascend910",) * 8
    assert [len(n.chips) for n in smi.npus] == [2] * 8
    assert [c.phy_id for n in smi.npus for c in n.chips] == list(range(16))
    zero = smi.npus[0]
    # the module's power is printed on its first chip; the second shows "-"
    assert [c.power_w for c in zero.chips] == [Decimal("161.8"), None] and zero.power_w == Decimal("161.8")
    assert (zero.hbm_used_mib, zero.hbm_total_mib, zero.temp_c) == (3122 + 2891, 2 * 65536, 36)
    assert smi.npus[7].chips[1].bus_id == "0000:83:00.0"


def test_the_banner_or_the_header_row_says_npu_smi() -> None:
    text = _text(B910)
    assert npu.matches(text) and npu.START.search("| npu-smi 23.0.rc2                 Version: 23.0.rc2   |")
    headless = "\n".join(line for line in text.splitlines() if "npu-smi 23.0.7" not in line)  # pasted without it
    assert npu.matches(headless) and _npus(headless).version is None and len(_npus(headless).npus) == 8
    assert not npu.matches(_text("shared/22-smi-query-a800-6fields-envsnapshot.txt"))


@pytest.mark.parametrize(
    ("upto", "line", "message"),
    [
        (29, 29, "NPU 7 910B3: its chip row (Bus-Id, HBM) is missing (cut short?)"),  # NPU 7's first row only
        (30, 30, "the table does not end with its closing border (cut short?)"),  # no border after NPU 7
        (41, 41, "the table does not end with its closing border (cut short?)"),  # cut in the processes table
    ],
)
def test_a_cut_table_is_refused_with_its_line(upto: int, line: int, message: str) -> None:
    with pytest.raises(LogError, match=re.escape(message)) as err:
        parse_log(_lines(B910, upto), "npu.txt")
    assert err.value.line == line and str(err.value).startswith(f"npu.txt, line {line}: ")


def test_a_row_cut_in_the_middle_is_refused() -> None:
    text = _lines(B910, 30)
    cut = text[: text.rindex("3338 / 65536")]  # the last chip row ends mid-cell, no closing '|'
    with pytest.raises(LogError, match=r"a row cut short \(no closing '\|'\)") as err:
        parse_log(cut)
    assert err.value.line == 30


@pytest.mark.parametrize(
    ("old", "new", "line", "message"),
    [
        ("| 108.7       57 ", "| 1O8.7       57 ", 17, "Power(W) is '1O8.7', not a number"),
        ("| 0000:02:00.0  |", "| 0000:02:00   |", 24, "not the chip row of NPU 5"),
        ("| 2     910B3               | OK            |", "| 2     910B3                 OK            |", 14,
         "not an NPU row"),
        ("| 0     910B3               | OK            | 102.8       55                0    / 0             |",
         "| 0     910B3               | OK            | 102.8                                              |", 8,
         "not an NPU row"),
    ],
)  # fmt: skip
def test_a_garbled_row_is_refused_with_its_line(old: str, new: str, line: int, message: str) -> None:
    text = _text(B910)
    assert text.count(old) == 1
    with pytest.raises(LogError, match=re.escape(message)) as err:
        parse_log(text.replace(old, new))
    assert err.value.line == line


def test_an_npu_listed_twice_or_renamed_is_refused() -> None:
    rows = _text(B910).splitlines(keepends=True)
    twice = "".join(rows[:31] + rows[7:10] + rows[31:])  # NPU 0's rows again after NPU 7
    with pytest.raises(LogError, match="NPU 0 is listed twice"):
        parse_log(twice)
    renamed = _text(C910).replace(
        "| 3     Ascend910           | OK            | -  ", "| 3     910B3               | OK            | -  "
    )
    with pytest.raises(LogError, match="NPU 3 is named Ascend910 and 910B3"):
        parse_log(renamed)


def test_ansi_colours_are_stripped_with_or_without_their_esc_byte() -> None:
    text = _text(B910).replace("| OK            |", "| \x1b[32mOK\x1b[0m            |")
    assert "\x1b[32m" in text
    for coloured in (text, text.replace("\x1b", "")):  # a paste that lost the ESC byte: "[32mOK[0m"
        smi = _npus(coloured)
        assert [n.health for n in smi.npus] == ["OK"] * 8 and smi.gpu_names() == ("910B3",) * 8


def test_a_warning_health_is_read_as_printed() -> None:
    text = _text(B910).replace("| 4     910B3               | OK     ", "| 4     910B3               | Warning")
    assert [n.health for n in _npus(text).npus].count("Warning") == 1 and _npus(text).npus[4].health == "Warning"


def test_npu_smi_and_another_tool_in_one_file() -> None:
    from quotetui.io.benchlogs.detect import read_log

    joined = _text(B910) + _text("shared/22-smi-query-a800-6fields-envsnapshot.txt")
    with pytest.raises(LogError, match="two tools' output in one file: npu-smi info from line 1, nvidia-smi query"):
        parse_log(joined)  # as one log
    npu, smi = read_log(joined.encode(), "node.txt").sections  # as a file given to bench import
    n = len(_text(B910).splitlines())
    assert (npu.parsed.tool, npu.label, smi.parsed.tool) == (
        "npu-smi info",
        f"node.txt lines 1–{n}",
        "nvidia-smi query",
    )
    assert len(npu.parsed.gpu_names()) == 8


def _codes(found: list[Finding]) -> set[str]:
    return {f.code for f in found}


def _log(text: str, name: str = B910) -> list[Log]:
    return [Log(1, name, parse_log(text, name))]


def test_an_ascend_offer_with_its_own_npu_smi_log_has_no_finding() -> None:
    ascend = Sold(CATALOG.lookup("910B"), 8)  # a quote's "910B": the 910B3
    assert check(ascend, _log(_text(B910)), CATALOG) == []
    a3 = Sold(CATALOG.lookup("Ascend 910C"), 8)
    assert check(a3, _log(_text(C910), C910), CATALOG) == []  # 8 modules of two chips: 8 NPUs, as sold


def test_an_h100_offer_with_an_ascend_log_is_a_model_mismatch() -> None:
    h100 = Sold(CATALOG.get("h100-sxm5"), 8, IntraFabric.NVSWITCH)
    [f] = check(h100, _log(_text(B910)), CATALOG)
    assert (f.code, f.severity, f.title) == (
        "model-mismatch",
        Severity.CRITICAL,
        "Ascend 910B3 reported, H100 SXM5 sold",
    )
    assert f.evidence == (f"{B910}: 910B3",)
    assert "313 TFLOPS dense BF16, 64 GB, HCCS 392 GB/s, no NVLink), not the H100 SXM5 sold (989" in f.explanation
    assert f.explanation.endswith("80 GB, NVLink 900).")
    [c] = check(Sold(CATALOG.get("ascend-910b3"), 8), _log(_text(C910), C910), CATALOG)
    assert c.title == "Ascend 910C reported, Ascend 910B3 sold"


def test_an_npu_the_catalog_does_not_know_is_a_warning() -> None:
    b4 = _text(B910).replace("910B3", "910B4").replace("/ 65536 ", "/ 32768 ")
    [f] = check(Sold(CATALOG.get("ascend-910b3"), 8), _log(b4), CATALOG)
    assert (f.code, f.severity, f.title) == ("model-mismatch", Severity.WARNING, "unknown GPU '910B4'")


def test_fewer_npus_listed_than_sold_is_a_gpu_count_warning() -> None:
    rows = _text(B910).splitlines(keepends=True)
    seven = "".join(rows[:28] + rows[31:])  # NPU 7 fallen off the bus: its rows and border gone
    assert len(_npus(seven).npus) == 7
    [f] = check(Sold(CATALOG.get("ascend-910b3"), 8), _log(seven), CATALOG)
    assert (f.code, f.title) == ("gpu-count", "7 GPUs shown, 8 sold per node")
    # an Atlas A3 node sold as 16 "cards" (its chips) lists 8 NPUs: the catalog's 910C is the two-chip module
    [a3] = check(Sold(CATALOG.get("ascend-910c"), 16), _log(_text(C910), C910), CATALOG)
    assert a3.title == "8 GPUs shown, 16 sold per node"


OFFERS_CSV = "provider,offer,gpu,gpus_per_node,billing\n一万网络,8×昇腾910B 包月,910B,8,monthly\n"
ROUNDS_CSV = (
    "供应商,方案,轮次,谁出价,日期,价格,单位,币种,期限\n"
    "一万网络,8×昇腾910B 包月,1,list,2026-11-02,40000,node_month,CNY,1\n"
)


def _ok(cli: Cli, *args: str) -> dict:  # type: ignore[type-arg]
    result = cli(*args)
    assert result.code == 0, result.err
    return json.loads(result.out)


def _ascend_offer(cli: Cli, db: Path, tmp_path: Path) -> int:
    offers, rounds = tmp_path / "offers.csv", tmp_path / "谈判.csv"
    offers.write_text(OFFERS_CSV, encoding="utf-8")
    rounds.write_text(ROUNDS_CSV, encoding="utf-8")  # a price: bench check judges priced offers
    _ok(cli, "--db", str(db), "import", str(offers), str(rounds), "--json")
    [(offer_id, form, key)] = sql(
        db,
        "SELECT o.id, o.form_factor, g.key FROM offer o JOIN gpu_model g ON g.id = o.gpu_model_id "
        "WHERE o.name = '8×昇腾910B 包月'",
    )
    assert (form, key) == ("module", "ascend-910b3")  # the offer takes its GPU's form factor
    assert isinstance(offer_id, int)
    return offer_id


def test_bench_import_stores_the_npu_smi_log_for_an_ascend_and_an_h100_offer(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    db = str(demo_db_path)
    ascend = _ascend_offer(cli, demo_db_path, tmp_path)
    log = str(FIXTURES / B910)
    for offer in (ascend, 1):  # 1: 一万网络's 8×H100 SXM5
        report = _ok(cli, "--db", db, "bench", "import", log, "--offer", str(offer), "--json")
        assert report["added"] == 1
        [stored] = report["logs"]
        assert stored["tool"] == "npu-smi info" and stored["results"] == []  # an inventory, not a benchmark
    rows = sql(demo_db_path, "SELECT offer_id, tool, gpu_names, raw FROM evidence ORDER BY offer_id")
    assert [(r[0], r[1]) for r in rows] == [(1, "npu-smi info"), (ascend, "npu-smi info")]
    assert all((json.loads(r[2]) if isinstance(r[2], str) else r[2]) == ["910B3"] for r in rows)
    assert all(r[3] == _text(B910) for r in rows)


def test_bench_import_refuses_a_cut_npu_smi_log_and_stores_nothing(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    cut = tmp_path / "npu-cut.txt"
    cut.write_text(_lines(B910, 29), encoding="utf-8")
    result = cli("--db", str(demo_db_path), "bench", "import", str(cut), "--offer", "1")
    assert result.code == 2 and "npu-cut.txt, line 29: NPU 7 910B3: its chip row" in result.err
    assert sql(demo_db_path, "SELECT COUNT(*) FROM evidence") == [(0,)]


def test_bench_check_judges_the_npu_smi_log(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    db = str(demo_db_path)
    ascend = _ascend_offer(cli, demo_db_path, tmp_path)
    log = str(FIXTURES / B910)
    for offer in (ascend, 1):
        _ok(cli, "--db", db, "bench", "import", log, "--offer", str(offer), "--json")
    own = _ok(cli, "--db", db, "bench", "check", "--offer", str(ascend), "--json")
    assert own["findings"] == [] and [entry["tool"] for entry in own["logs"]] == ["npu-smi info"]
    h100 = _ok(cli, "--db", db, "bench", "check", "--offer", "1", "--json")
    found = {f["code"]: f for f in h100["findings"]}
    assert found["model-mismatch"]["title"] == "Ascend 910B3 reported, H100 SXM5 sold"
    assert found["model-mismatch"]["severity"] == "critical"
