"""``quotetui brief``: the negotiation brief. Its figures are ``explain --json``'s (or worked out here by hand),
never the brief's own; each section says what the data says; a hostile name stays inert text."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from decimal import ROUND_HALF_EVEN, Decimal
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Cli, execute

OPEN = {"draft", "requested", "quoted", "negotiating"}


def explain(cli: Cli, db: Path, offer_id: int) -> dict[str, Any]:
    done = cli("--db", str(db), "explain", str(offer_id), "--json")
    assert done.code == 0, done.err
    return json.loads(done.out)


def brief_md(cli: Cli, db: Path, *args: str) -> str:
    done = cli("--db", str(db), "brief", *args)
    assert done.code == 0, done.err
    return done.out


def brief_data(cli: Cli, db: Path, *args: str) -> dict[str, Any]:
    done = cli("--db", str(db), "brief", *args, "--json")
    assert done.code == 0, done.err
    return json.loads(done.out)


def shown(amount: str, places: int = 2) -> str:
    """An amount as people read it: ``84729.72`` -> ``84,729.72``."""
    return f"{Decimal(amount).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN):,}"


def section(text: str, heading: str) -> str:
    """The lines under the ``###`` heading that starts with ``heading``, up to the next heading."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"### {heading}"))
    rest = lines[start + 1 :]
    end = next((i for i, line in enumerate(rest) if line.startswith("#")), len(rest))
    return "\n".join(rest[:end])


@pytest.mark.parametrize("offer_id", [18, 2])
def test_the_figures_are_explains(cli: Cli, demo_db_path: Path, offer_id: int) -> None:
    ex = explain(cli, demo_db_path, offer_id)
    data = brief_data(cli, demo_db_path, str(offer_id))
    (b,) = data["briefs"]
    assert b["negotiation"] == ex["negotiation"]  # the position, figure for figure
    assert b["unknown_costs"] == ex["unknown_costs"]
    assert data["scenario"] == ex["scenario"]

    text = brief_md(cli, demo_db_path, str(offer_id))
    n, mark = ex["negotiation"], "≥ " if ex["lower_bound"] else ""
    position = section(text, "Our BATNA")
    assert f"#{n['batna']['id']} " in position
    assert f"at {mark}{shown(n['batna']['cost_per_pflop_hour'])} CNY per delivered PFLOP-hour" in position
    c = ex["caveats"]  # the brief shows explain's figure with explain's caveats: ✗ for #2's critical findings
    after = ("✗" if c["critical_findings"] else "") + ("!" if c["lapsed"] else "")
    assert f"(this offer: {mark}{shown(ex['cost_per_pflop_hour'])}{' ' + after if after else ''})" in position
    assert bool(c["critical_findings"]) == (offer_id == 2)
    target = n["target_price"]
    assert f"now {shown(target['current'])} CNY per node-month" in position
    assert f"{shown(target['amount'])} CNY per node-month" in position
    quoted = ex["quoted_price"]
    price = shown(quoted["amount"]) + ("" if quoted["amount_high"] is None else f"–{shown(quoted['amount_high'])}")
    assert f"- quoted {price} CNY per node-month, monthly" in section(text, "Their current offer")
    for unknown in ex["unknown_costs"]:
        assert f"- {unknown}" in section(text, "Unknown costs")


def test_the_two_demo_figures_by_hand(cli: Cli, demo_db_path: Path) -> None:
    """#18 (80,000 CNY a node-month) already beats its BATNA #14 (1,026,000 a year, the same GPU, MFU and
    availability: #14's 99.9 % SLA has no credit schedule, so it ranks at the default 99 %) up to 1,026,000 ÷ 12
    = 85,500, a tie, so 85,499.99 (6.9 % headroom); #2 (80,000–120,000, costed at the high end) must come down
    to 79,999.99: the figures ``explain`` prints for the demo market."""
    assert "up to 85,499.99 CNY per node-month (6.9 % headroom)" in brief_md(cli, demo_db_path, "18")
    assert "target at most 79,999.99 CNY per node-month (33.3 % below)" in brief_md(cli, demo_db_path, "2")


def test_concessions_list_every_round_and_the_savings(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    today = datetime.now(UTC).date()
    first, second = (today - timedelta(days=2)).isoformat(), (today - timedelta(days=1)).isoformat()
    for day, amount in ((first, "78000"), (second, "76000")):
        done = cli("--db", db, "round", "add", "18", "--quoted-at", day, "--amount", amount)
        assert done.code == 0, done.err
    text = brief_md(cli, demo_db_path, "18")
    rounds = section(text, "Concessions")
    assert f"round 2 (provider), {first}: quoted 78,000.00 CNY per node-month" in rounds
    assert f"round 3 (provider), {second}: quoted 76,000.00 CNY per node-month" in rounds
    assert "- saved since the first offer (round 2): 2.56 %" in rounds  # 2,000 ÷ 78,000, by hand
    assert "- saved against the list price (round 1): 5.00 %" in rounds  # 4,000 ÷ 80,000
    assert f"Current round 3 (provider), {second}" in section(text, "Their current offer")
    assert (
        brief_data(cli, demo_db_path, "18")["briefs"][0]["negotiation"] == explain(cli, demo_db_path, 18)["negotiation"]
    )


def test_a_first_priced_quote_after_a_list_price_is_no_concession_yet(cli: Cli, demo_db_path: Path) -> None:
    """Demo #2: round 1 is the list price (80,000–120,000), round 2 our counter, round 3 the provider's first
    price (115,000): nothing conceded since its first price, 4.17 % below the list price's high end
    (5,000 ÷ 120,000); the line says which round is first, not that the current round is round 1."""
    db = str(demo_db_path)
    for flags in (("--mover", "counter", "--amount", "110000"), ("--amount", "115000")):
        done = cli("--db", db, "round", "add", "2", *flags)
        assert done.code == 0, done.err
    rounds = section(brief_md(cli, demo_db_path, "2"), "Concessions")
    assert "- no concession yet: the current round is the provider's first priced one / 尚无让步" in rounds
    assert "- saved against the list price (round 1): 4.17 %" in rounds


def test_sla_gaps_as_the_data_says(cli: Cli, demo_db_path: Path) -> None:
    no_sla = section(brief_md(cli, demo_db_path, "18"), "SLA gaps")
    assert "no SLA on record: availability assumed at the default 99 %" in no_sla
    # #1: 99.9 % and a 4-hour replacement on record, but no credit schedule
    one = section(brief_md(cli, demo_db_path, "1"), "SLA gaps")
    assert "no credit schedule" in one
    assert "replacement" not in one and "no SLA" not in one and "below the default" not in one
    # a credit schedule and a low availability
    done = cli("--db", str(demo_db_path), "sla", "set", "1", "--availability", "95", "--credits", "99:10")
    assert done.code == 0, done.err  # through the service: the stored form differs by backend
    one = section(brief_md(cli, demo_db_path, "1"), "SLA gaps")
    assert "no credit schedule" not in one
    assert "availability 95 % is below the default 99 %" in one


def test_claims_findings_and_market_as_the_data_says(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    claims = json.loads(cli("--db", db, "claims", "--json").out)
    two = section(brief_md(cli, demo_db_path, "2"), "Claims and findings")
    for c in claims:
        if c["offer"] == "8×H100 SXM5 整机（官网价）":
            assert (f"claim #{c['id']} " in two) == (c["verdict"] != "plausible")
    assert "**impossible**" in two
    eight = brief_md(cli, demo_db_path, "8")
    check = json.loads(cli("--db", db, "bench", "check", "--offer", "8", "--json").out)
    (finding,) = check["findings"]
    assert f"- {finding['severity'].upper()} {finding['code']}:" in section(eight, "Claims and findings")
    market = section(eight, "Market median")
    assert f"median {shown(check['market']['median_per_gpu_hour'], 4)} CNY per GPU-hour" in market
    assert f"{shown(check['market']['price_per_gpu_hour'], 4)} CNY per GPU-hour, " in market
    assert "below the median" in market
    assert "- none: no doubtful claim or finding on record" in section(brief_md(cli, demo_db_path, "18"), "Claims")
    assert brief_data(cli, demo_db_path, "8")["briefs"][0]["market"] == check["market"]


def test_every_open_offer_of_a_provider(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    offers = json.loads(cli("--db", db, "offers", "--json").out)
    wanted = sorted(o["id"] for o in offers if o["provider"] == "腾讯云" and o["status"] in OPEN)
    execute(demo_db_path, "UPDATE offer SET status = 'rejected' WHERE id = 15")
    wanted.remove(15)
    text = brief_md(cli, demo_db_path, "--provider", "腾讯云")
    assert [int(line.split()[1][1:]) for line in text.splitlines() if line.startswith("## ")] == wanted
    assert text.startswith("# Negotiation brief / 谈判简报: 腾讯云\n")
    data = brief_data(cli, demo_db_path, "--provider", "腾讯云")
    assert [b["id"] for b in data["briefs"]] == wanted


@pytest.mark.parametrize(
    "args",
    [("999",), ("--provider", "nobody"), (), ("18", "--provider", "腾讯云")],
)
def test_refusals(cli: Cli, demo_db_path: Path, args: tuple[str, ...]) -> None:
    done = cli("--db", str(demo_db_path), "brief", *args)
    assert done.code == 2
    assert done.out == "" and len(done.err.strip().splitlines()) == 1


def test_out_writes_once_then_only_with_force(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    db, out = str(demo_db_path), tmp_path / "brief.md"
    done = cli("--db", db, "brief", "18", "--out", str(out))
    assert done.code == 0, done.err
    assert done.out == ""
    written = out.read_text(encoding="utf-8")
    assert written == brief_md(cli, demo_db_path, "18")
    out.write_text("kept", encoding="utf-8")
    again = cli("--db", db, "brief", "18", "--out", str(out))
    assert again.code == 2 and "already exists" in again.err
    assert out.read_text(encoding="utf-8") == "kept"
    assert cli("--db", db, "brief", "2", "--out", str(out), "--force").code == 0
    assert "#2 " in out.read_text(encoding="utf-8")
    assert cli("--db", db, "brief", "2", "--out", str(tmp_path / "data.json"), "--json").code == 0
    assert json.loads((tmp_path / "data.json").read_text(encoding="utf-8"))["briefs"][0]["id"] == 2
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".part")] == []


def test_a_hostile_name_stays_inert(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    hostile = "# Evil | x `y` *z* [l](u)\x1b]52;c;aGk=\x07\n- 1. injected"
    execute(demo_db_path, "UPDATE offer SET name = :n WHERE id = 18", {"n": hostile})
    execute(demo_db_path, "UPDATE provider SET name = :n WHERE name = '腾讯云'", {"n": "## Boss\x1b[31m"})
    out = tmp_path / "hostile.md"
    assert cli("--db", str(demo_db_path), "brief", "18", "--out", str(out)).code == 0
    for text in (out.read_text(encoding="utf-8"), brief_md(cli, demo_db_path, "18")):
        assert "\x1b" not in text and "\x07" not in text
        headings = [line for line in text.splitlines() if line.startswith("#")]
        assert all(h.startswith(("# Negotiation brief", "## #18 ", "### ")) for h in headings)
        assert not any(line.startswith(("- 1.", "- # ", "- ## ")) for line in text.splitlines())
        assert r"\# Evil \| x \`y\` \*z\* \[l\](u)␛\]52;c;aGk=␇␤- 1. injected" in text
        assert r"\#\# Boss␛\[31m" in text
    data = brief_data(cli, demo_db_path, "18")
    assert data["briefs"][0]["name"] == hostile  # as data, the name as stored
    # JSON escapes the control characters: never terminal control either
    assert "\x1b" not in cli("--db", str(demo_db_path), "brief", "18", "--json").out


def test_the_market_median_from_cloud_catalogs_is_the_markets(cli: Cli, demo_db_path: Path) -> None:
    """With cloud catalog prices on record, the median is ``quotetui market``'s for the offer's model."""
    db = str(demo_db_path)
    catalog = Path(__file__).parent / "fixtures" / "market" / "skypilot-mithril-vms.csv"
    assert cli("--db", db, "import", str(catalog), "--as-of", "2026-11-01").code == 0
    assert cli("--db", db, "fx", "add", "USD", "CNY", "7.1", "--date", "2026-11-01", "--source", "test").code == 0
    medians = {m["gpu_model"]: m for m in json.loads(cli("--db", db, "market", "--json").out)["medians"]}
    median = medians["H100 SXM5"]["median_price_per_gpu_hour"]
    market = section(brief_md(cli, demo_db_path, "18"), "Market median")
    assert f"median {shown(median, 4)} CNY per GPU-hour ({medians['H100 SXM5']['listings']} cloud catalog" in market


def test_the_brief_as_a_workbook_sheet(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    from openpyxl import load_workbook

    from quotetui.services.rfq_sheets import BRIEF_SHEET

    execute(demo_db_path, "UPDATE offer SET name = :n WHERE id = 18", {"n": '=HYPERLINK("x") | *b*'})
    out = tmp_path / "brief.xlsx"
    done = cli("--db", str(demo_db_path), "brief", "18", "--out", str(out))
    assert done.code == 0, done.err
    sheet = load_workbook(out)[BRIEF_SHEET]
    cells = [row[0] for row in sheet.iter_rows(values_only=True) if row[0] is not None]
    lines = [line for line in brief_md(cli, demo_db_path, "18").splitlines() if line.strip()]
    assert len(cells) == len(lines)  # a row per line of the Markdown
    assert cells[0].startswith("Negotiation brief / 谈判简报") and sheet["A1"].font.bold
    assert any(c == "Their current offer / 对方当前报价" for c in cells)  # a heading, its # taken off
    named = next(c for c in cells if c.startswith("#18 "))
    assert named.endswith('=HYPERLINK("x") | *b*')  # the escapes taken off: the name as stored, as text
    assert all(cell.data_type == "s" for row in sheet.iter_rows() for cell in row if cell.value is not None)
