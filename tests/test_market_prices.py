"""SkyPilot catalogs (real files, byte-exact) as market reference prices: columns by name in either order,
CPU-only rows skipped, unknown GPUs reported, per-model medians converted with a dated FX rate."""

from __future__ import annotations

import csv
import json
import statistics
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from tests.conftest import Cli

MARKET = Path(__file__).parent / "fixtures" / "market"
LAMBDA, MITHRIL = MARKET / "skypilot-lambda-vms.csv", MARKET / "skypilot-mithril-vms.csv"
KNOWN = {"A100", "H100", "A100-80GB"}  # names the GPU catalog maps; the others are not in it
RATE = Fraction("7.1")


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def per_gpu_hour(row: dict[str, str]) -> Fraction:
    return Fraction(row["Price"]) / Fraction(row["AcceleratorCount"])


def test_fixtures_are_the_real_files() -> None:
    assert LAMBDA.read_bytes().count(b"\r\n") == 324  # CRLF line endings kept
    assert rows(LAMBDA)[0].keys() != rows(MITHRIL)[0].keys() or list(rows(LAMBDA)[0]) != list(rows(MITHRIL)[0])
    assert list(rows(LAMBDA)[0])[6] == "Region" and list(rows(MITHRIL)[0])[6] == "SpotPrice"


def test_import_both_catalogs_and_see_medians(cli: Cli, tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    assert "No market prices yet" in cli("--db", db, "market").out
    result = cli("--db", db, "import", str(LAMBDA), str(MITHRIL), "--as-of", "2026-11-01", "--json")
    assert result.code == 0, result.err
    report = json.loads(result.out)
    lam, mit = rows(LAMBDA), rows(MITHRIL)
    expected = sum(1 for r in lam if r["AcceleratorName"] in KNOWN) + len(mit)
    assert report["counts"]["market prices"] == {"added": expected, "changed": 0, "unchanged": 0}
    skipped = {r["AcceleratorName"] for r in lam if r["AcceleratorName"] and r["AcceleratorName"] not in KNOWN}
    warnings = " ".join(w["reason"] for w in report["warnings"])
    for name in skipped:
        n = sum(1 for r in lam if r["AcceleratorName"] == name)
        assert f"{n} rows of '{name}' skipped" in warnings
    assert "cpu" not in warnings  # CPU-only rows are not market prices and not worth a warning

    # without a USD rate nothing is made up: the models are listed as not converted
    bare = cli("--db", db, "market", "--json")
    assert bare.code == 0
    assert json.loads(bare.out)["medians"] == []
    not_converted = json.loads(bare.out)["not_converted"]
    assert len(not_converted) == 1 and not_converted[0].startswith(
        "A100 40GB SXM4, A100 80GB SXM4, H100 PCIe, H100 SXM5:"
    )
    assert "USD" in not_converted[0]

    assert cli("--db", db, "fx", "add", "USD", "CNY", "7.1", "--date", "2026-11-01", "--source", "test").code == 0
    medians = {m["gpu_model"]: m for m in json.loads(cli("--db", db, "market", "--json").out)["medians"]}
    h100_sxm = [per_gpu_hour(r) for r in lam if r["AcceleratorName"] == "H100" and "pcie" not in r["InstanceType"]]
    h100_sxm += [per_gpu_hour(r) for r in mit if r["AcceleratorName"] == "H100"]
    want = statistics.median(h100_sxm) * RATE
    got = medians["H100 SXM5"]
    assert abs(Decimal(got["median_price_per_gpu_hour"]) - Decimal(want.numerator) / want.denominator) < Decimal(
        "0.000001"
    )
    assert got["listings"] == len(h100_sxm)
    assert got["catalogs"] == ["lambda", "mithril"]
    assert got["as_of"] == "2026-11-01"
    pcie = [per_gpu_hour(r) for r in lam if "h100_pcie" in r["InstanceType"]]
    assert medians["H100 PCIe"]["listings"] == len(pcie)
    # mithril's A100 rows say 80 GB in GpuInfo; lambda's A100-80GB name says it too
    a100_80 = [r for r in mit if r["AcceleratorName"] == "A100"] + [
        r for r in lam if r["AcceleratorName"] == "A100-80GB"
    ]
    assert medians["A100 80GB SXM4"]["listings"] == len(a100_80)

    text = cli("--db", db, "market")
    assert "H100 SXM5" in text.out and "lambda, mithril" in text.out


def test_reimport_changes_nothing_and_a_new_price_is_a_change(cli: Cli, tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    assert cli("--db", db, "import", str(MITHRIL), "--as-of", "2026-11-01").code == 0
    again = json.loads(cli("--db", db, "import", str(MITHRIL), "--json").out)
    assert again["counts"]["market prices"] == {"added": 0, "changed": 0, "unchanged": 8}
    cheaper = tmp_path / "skypilot-mithril-vms.csv"
    cheaper.write_bytes(MITHRIL.read_bytes().replace(b",12.0,12.0,us-central2-a", b",11.5,11.5,us-central2-a"))
    changed = json.loads(cli("--db", db, "import", str(cheaper), "--json", "--as-of", "2026-11-20").out)
    assert changed["counts"]["market prices"] == {"added": 0, "changed": 2, "unchanged": 6}


def test_a_bad_catalog_row_is_reported_with_its_column(cli: Cli, tmp_path: Path) -> None:
    bad = tmp_path / "skypilot-lambda-vms.csv"
    lines = LAMBDA.read_bytes().split(b"\r\n")
    at = next(i for i, line in enumerate(lines) if line.startswith(b"gpu_1x_h100_sxm5,"))
    lines[at] = lines[at].replace(b",1.0,", b",-1.0,", 1)  # a GPU count of -1
    bad.write_bytes(b"\r\n".join(lines))
    result = cli("--db", str(tmp_path / "m.db"), "import", str(bad), "--json")
    assert result.code == 2
    problems = json.loads(result.out)["problems"]
    assert [(p["row"], p["column"]) for p in problems] == [(at + 1, "column 'AcceleratorCount'")]
    assert problems[0]["reason"] == "must not be negative"


@pytest.mark.parametrize(
    ("info", "mib"),
    [
        ("{'Gpus': [{'MemoryInfo': {'SizeInMiB': 81920}}]}", 81920),
        ("{'Gpus': [{'MemoryInfo': {'SizeInMiB': 1e400}}]}", None),  # infinity: no memory figure, no crash
        ("{'Gpus': [{'MemoryInfo': {'SizeInMiB': 'lots'}}]}", None),
        ("{'Gpus': []}", None),
        ("[" * 10_000, None),
    ],
)
def test_a_gpuinfo_cell_gives_its_memory_or_nothing(info: str, mib: int | None) -> None:
    from quotetui.io.skypilot import _memory_mib

    assert _memory_mib(info) == mib
