"""Requests for quotation (issue 17, point 1): a requirement written down once, sent to several providers as
response workbooks with cover texts, each invitation's state, and which offers on record meet it, line by
line. Every refusal names the flag and changes nothing."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from openpyxl import load_workbook

from quotetui.domain.economics.inputs import OfferInput
from quotetui.domain.enums import BillingBasis, InterFabric, IntraFabric, OfferStatus
from quotetui.domain.gpus import BUILTIN
from quotetui.domain.sourcing.requirement import Met, Requirement, compliance, compliant
from quotetui.io.rfq_workbook import IDENTITY_CELLS, RFQ_SHEET
from tests.conftest import Cli, sql

NEED = ("--gpu", "H100 SXM5, H800", "--gpus", "256", "--months", "12", "--start", "2027-01-01")
FULL = (*NEED, "--min-availability", "99.5", "--inter-fabric", "infiniband_ndr", "--job-gpus", "64",
        "--respond-by", "2026-12-20")  # fmt: skip


def _new(cli: Cli, db: Path, name: str = "H100 256", *flags: str) -> dict:  # type: ignore[type-arg]
    done = cli("--db", str(db), "rfq", "new", name, *(flags or FULL), "--json")
    assert done.code == 0, done.err
    return json.loads(done.out)  # type: ignore[no-any-return]


def test_a_requirement_is_written_as_given_with_models_resolved(cli: Cli, demo_db_path: Path) -> None:
    made = _new(cli, demo_db_path)
    assert (made["name"], made["revision"], made["gpus"], made["months"], made["start"]) == (
        "H100 256", 1, 256, 12, "2027-01-01"
    )  # fmt: skip
    assert made["gpu_models"] == ["H100 SXM5", "H800 SXM5"]  # "H800" alone is the SXM one, by the catalog
    assert (made["min_availability"], made["inter_fabric"], made["job_gpus"]) == ("0.995", "infiniband_ndr", 64)
    listed = json.loads(cli("--db", str(demo_db_path), "rfq", "list", "--json").out)
    assert [r["name"] for r in listed] == ["H100 256"]


@pytest.mark.parametrize(
    ("flags", "named"),
    [
        (("--gpu", "H100, RTX 9999", *NEED[2:]), "--gpu"),
        (("--gpu", ",", *NEED[2:]), "--gpu: name at least one GPU model"),
        ((*NEED, "--job-gpus", "512"), "--job-gpus: a job of 512 GPUs is more than the 256 GPUs needed"),
        ((*NEED, "--respond-by", "2027-02-01"), "--respond-by: answers due after the start (2027-01-01)"),
        ((*NEED, "--inter-fabric", "unknown"), "--inter-fabric: name the fabric wanted"),
        ((*NEED, "--inter-fabric", "carrier pigeon"), "--inter-fabric"),
        ((*NEED, "--checklist", "gemm, vibes"), "--checklist"),
        ((*NEED, "--min-availability", "40"), "--min-availability"),
        ((*NEED[:2], "--gpus", "0", *NEED[4:]), "--gpus"),
        ((*NEED[:2], "--gpus", "-8", *NEED[4:]), "--gpus"),
        ((*NEED[:4], "--months", "0", *NEED[6:]), "--months"),
    ],
)
def test_a_bad_requirement_names_its_flag_and_saves_nothing(
    cli: Cli, demo_db_path: Path, flags: tuple[str, ...], named: str
) -> None:
    done = cli("--db", str(demo_db_path), "rfq", "new", "bad", *flags)
    assert done.code == 2 and named in done.err, done.err
    assert sql(demo_db_path, "SELECT COUNT(*) FROM rfq") == [(0,)]


@pytest.mark.parametrize("twin", ["H100 256", "h100 256", "Ｈ１００ ２５６"])
def test_a_name_is_taken_once_however_it_is_written(cli: Cli, demo_db_path: Path, twin: str) -> None:
    _new(cli, demo_db_path)
    done = cli("--db", str(demo_db_path), "rfq", "new", twin, *NEED)
    assert done.code == 2 and "an RFQ named 'H100 256' already exists" in done.err
    assert sql(demo_db_path, "SELECT COUNT(*) FROM rfq") == [(1,)]


@pytest.mark.parametrize("name", ["evil\x1b[31m", "", "a" * 121, "x\u202ey"])
def test_a_hostile_name_is_refused(cli: Cli, demo_db_path: Path, name: str) -> None:
    done = cli("--db", str(demo_db_path), "rfq", "new", name, *NEED)
    assert done.code == 2 and done.err.startswith("quotetui: NAME:"), done.err
    assert "\x1b" not in done.err and sql(demo_db_path, "SELECT COUNT(*) FROM rfq") == [(0,)]


def test_send_writes_a_workbook_and_a_cover_per_provider_and_records_them(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    made = _new(cli, demo_db_path)
    out = tmp_path / "to send"
    done = cli("--db", str(demo_db_path), "rfq", "send", "H100 256", "-p", "阿里云", "-p", "一万网络", "--out",
               str(out), "--json")  # fmt: skip
    assert done.code == 0, done.err
    sent = json.loads(done.out)["sent"]
    assert [s["provider"] for s in sent] == ["阿里云", "一万网络"]
    for s in sent:
        book = load_workbook(s["workbook"], read_only=True)
        cells = {k: book[RFQ_SHEET][ref].value for k, ref in IDENTITY_CELLS.items()}
        assert (cells["provider"], cells["rfq_id"], cells["revision"]) == (s["provider"], made["id"], 1)
        book.close()
        cover = Path(s["cover"]).read_text(encoding="utf-8")
        assert "H100 256" in cover and Path(s["workbook"]).name in cover and "2026-12-20" in cover
    # judged on the day the answers are due (not late yet), not today: a fixed due day passes
    shown = json.loads(cli("--db", str(demo_db_path), "rfq", "show", "H100 256", "--on", "2026-12-20", "--json").out)
    assert sorted((i["provider"], i["state"], i["revision"]) for i in shown["invites"]) == [
        ("一万网络", "sent", 1), ("阿里云", "sent", 1)
    ]  # fmt: skip


def test_send_checks_every_name_and_file_before_writing_anything(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    _new(cli, demo_db_path)
    out = tmp_path / "out"
    send = ("--db", str(demo_db_path), "rfq", "send", "H100 256")
    unknown = cli(*send, "-p", "阿里云", "-p", "算力云", "--out", str(out))
    assert unknown.code == 2 and "no provider named '算力云'" in unknown.err and "nothing was sent" in unknown.err
    assert not out.exists() and sql(demo_db_path, "SELECT COUNT(*) FROM rfq_invite") == [(0,)]
    out.mkdir()
    (out / "rfq-H100_256-阿里云.md").write_text("mine", encoding="utf-8")  # a file of the user's, where a cover goes
    taken = cli(*send, "-p", "一万网络", "-p", "阿里云", "--out", str(out))
    assert taken.code == 2 and "--force" in taken.err
    assert sorted(p.name for p in out.iterdir()) == [
        "rfq-H100_256-阿里云.md"
    ]  # the first provider's not written either
    assert (out / "rfq-H100_256-阿里云.md").read_text(encoding="utf-8") == "mine"
    assert sql(demo_db_path, "SELECT COUNT(*) FROM rfq_invite") == [(0,)]
    a_file = tmp_path / "plain.txt"
    a_file.write_text("x", encoding="utf-8")
    not_a_folder = cli(*send, "-p", "阿里云", "--out", str(a_file))
    assert not_a_folder.code == 2 and "is not a folder" in not_a_folder.err


def test_invitations_go_overdue_after_the_answers_are_due_and_a_decline_is_recorded(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    _new(cli, demo_db_path)
    db = str(demo_db_path)
    assert cli("--db", db, "rfq", "send", "H100 256", "-p", "阿里云", "-p", "华为云", "--out", str(tmp_path)).code == 0
    assert cli("--db", db, "rfq", "decline", "h100 256", "-p", "华为云", "--note", "no stock").code == 0

    def states(on: str) -> list[tuple[str, str]]:
        shown = json.loads(cli("--db", db, "rfq", "show", "H100 256", "--on", on, "--json").out)
        return sorted((i["provider"], i["state"]) for i in shown["invites"])

    assert states("2026-12-20") == [("华为云", "declined"), ("阿里云", "sent")]  # due that day: not late yet
    assert states("2026-12-21") == [("华为云", "declined"), ("阿里云", "overdue")]
    status = json.loads(cli("--db", db, "rfq", "status", "H100 256", "--on", "2026-12-21", "--json").out)
    assert sorted((i["provider"], i["state"]) for i in status["invites"]) == states("2026-12-21")
    assert "offers" not in status  # where the invitations stand, not the comparison (an empty list read as none)
    declined = next(i for i in status["invites"] if i["provider"] == "华为云")
    assert declined["note"] == "no stock" and declined["answered_at"] is None and declined["declined_at"]
    told = cli("--db", db, "rfq", "status", "h100 256", "--on", "2026-12-21").out
    assert "1 overdue, 1 declined; answers due 2026-12-20" in told
    assert next(line for line in told.splitlines() if line.startswith("阿里云")).split()[1] == "overdue"
    assert next(line for line in told.splitlines() if line.startswith("华为云")).split()[-2:] == ["no", "stock"]
    empty = cli("--db", db, "rfq", "status", "H100 256", "--on", "")
    assert empty.code == 2 and "--on" in empty.err and "is empty" in empty.err  # was: today, silently
    unknown = cli("--db", db, "rfq", "status", "H100 512")
    assert unknown.code == 2 and "no RFQ named 'H100 512' (known: H100 256)" in unknown.err
    listed = cli("--db", db, "rfq", "list", "--on", "2026-12-21")
    assert "1 overdue, 1 declined" in listed.out  # counted in one order everywhere (RfqView.invitations_text)
    again = cli("--db", db, "rfq", "send", "H100 256", "-p", "华为云", "--out", str(tmp_path), "--force")
    assert again.code == 0  # asked again: sent once more
    assert states("2026-12-20") == [("华为云", "sent"), ("阿里云", "sent")]
    stranger = cli("--db", db, "rfq", "decline", "H100 256", "-p", "腾讯云")
    assert stranger.code == 2 and "was not sent to '腾讯云'" in stranger.err


def test_show_judges_each_offer_on_record_line_by_line(cli: Cli, demo_db_path: Path) -> None:
    _new(cli, demo_db_path)
    shown = json.loads(cli("--db", str(demo_db_path), "rfq", "show", "H100 256", "--json").out)
    by_id = {o["offer_id"]: o for o in shown["offers"]}
    # the demo's H100 offers (every acceptable model is listed; others are not shown)
    assert all("H100" in o["lines"][0]["why"] or "H800" in o["lines"][0]["why"] for o in shown["offers"])
    compliant_ids = sorted(i for i, o in by_id.items() if o["compliant"])
    assert compliant_ids == [2, 9]  # the two with InfiniBand NDR; offer 1 has HDR, the clouds their own RDMA
    one = {line["line"]: (line["met"], line["why"]) for line in by_id[1]["lines"]}
    assert one["Scale-out network: infiniband ndr or better"] == ("no", "infiniband hdr is below it")
    assert one["SLA availability ≥ 99.5 %"] == ("yes", "99.9 %")
    assert [o["offer_id"] for o in shown["offers"]][:2] == [2, 9]  # compliant first
    # the matrix's figures, for the whole need (256 GPUs = 32 nodes for 12 months), by hand: #2 is 102,000 a
    # node-month after its 15 % prepaid-year discount, #9 250,000 (the high end of its range)
    two, nine = by_id[2]["figures"], by_id[9]["figures"]
    assert (by_id[2]["rank"], by_id[9]["rank"]) == (1, 2)  # by cost per delivered PFLOP-hour
    assert not by_id[2]["confirmed"] and not by_id[9]["confirmed"]  # stock and SLA not stated: questions (?)
    assert two["price_per_gpu_hour"] == "17.465753"  # 102,000 ÷ (8 GPUs × 730 hours)
    assert two["term_total"] == f"{32 * 102_000 * 12}.00" and nine["term_total"] == f"{32 * 250_000 * 12}.00"
    assert "impossible: training_days" in two["claims"] and any("implausible-claim" in f for f in two["findings"])
    assert all(o["rank"] is None for o in shown["offers"] if not o["compliant"])  # shown, never ranked
    text = cli("--db", str(demo_db_path), "rfq", "show", "H100 256").out
    assert "Comparison" in text and "per delivered PFLOP-hour (CNY)" in text and "39,168,000.00" in text
    assert "at least (a cost not priced)" in text  # the same rows as the workbook's


# -- the domain's verdicts, by hand -------------------------------------------------------------------------
H100, A100 = (next(s for s in BUILTIN if s.key == k) for k in ("h100-sxm5", "a100-80gb-sxm4"))


def _offer(**changes: object) -> OfferInput:
    base: dict[str, object] = {
        "id": 1, "provider": "p", "name": "o", "gpu": H100, "gpus_per_node": 8,
        "billing_basis": BillingBasis.MONTHLY, "status": OfferStatus.QUOTED, "options": (),
        "nodes_available": 4, "intra_fabric": IntraFabric.NVSWITCH, "inter_fabric": InterFabric.INFINIBAND_HDR,
        "region": "华东 上海", "availability": Decimal("0.999"),
    }  # fmt: skip
    return OfferInput(**(base | changes))  # type: ignore[arg-type]


REQ = Requirement(
    "need", (H100,), 256, 12, date(2027, 1, 1), min_availability=Decimal("0.995"),
    intra_fabric=IntraFabric.NVLINK_BRIDGE, inter_fabric=InterFabric.ROCE_V2, job_gpus=32, region="上海",
)  # fmt: skip


def _mets(offer: OfferInput) -> list[Met]:
    return [v.met for v in compliance(REQ, offer)]


def test_every_line_met_by_a_better_or_equal_offer() -> None:
    verdicts = compliance(REQ, _offer())
    assert [v.met for v in verdicts] == [Met.YES] * 7 and compliant(verdicts)
    assert verdicts[1].why == "32 on offer: part of a split"  # 4 nodes × 8 GPUs, of 256


@pytest.mark.parametrize(
    ("changes", "line", "met"),
    [
        ({"gpu": A100}, 0, Met.NO),
        ({"nodes_available": 0}, 1, Met.NO),
        ({"nodes_available": None}, 1, Met.UNKNOWN),
        ({"nodes_available": 40}, 1, Met.YES),
        ({"nodes_available": 3}, 2, Met.NO),  # 24 GPUs cannot hold a 32-GPU job
        ({"nodes_available": None}, 2, Met.UNKNOWN),
        ({"intra_fabric": IntraFabric.PCIE}, 3, Met.NO),
        ({"intra_fabric": IntraFabric.NVLINK_BRIDGE}, 3, Met.YES),  # equal is enough
        ({"intra_fabric": IntraFabric.UNKNOWN}, 3, Met.UNKNOWN),
        ({"inter_fabric": InterFabric.VENDOR_RDMA}, 4, Met.NO),
        ({"inter_fabric": InterFabric.ROCE_V2}, 4, Met.YES),
        ({"inter_fabric": InterFabric.UNKNOWN}, 4, Met.UNKNOWN),
        ({"region": "华北 北京"}, 5, Met.NO),
        ({"region": None}, 5, Met.UNKNOWN),
        ({"region": "SHANGHAI 上海"}, 5, Met.YES),
        ({"availability": Decimal("0.995")}, 6, Met.YES),
        ({"availability": Decimal("0.99")}, 6, Met.NO),
        ({"availability": None}, 6, Met.UNKNOWN),
    ],
)
def test_each_line_alone(changes: dict[str, object], line: int, met: Met) -> None:
    mets = _mets(_offer(**changes))
    assert mets[line] is met
    stock = {1, 2} if "nodes_available" in changes else {line}  # no stock, or none stated: no job fits either
    assert all(m is Met.YES for i, m in enumerate(mets) if i not in stock)
    assert compliant(compliance(REQ, _offer(**changes))) is (met is not Met.NO)


def test_a_demo_reset_never_forgets_whom_the_buyer_asked(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    _new(cli, demo_db_path)
    db = str(demo_db_path)
    assert cli("--db", db, "rfq", "send", "H100 256", "-p", "阿里云", "--out", str(tmp_path)).code == 0
    reset = cli("--db", db, "demo", "--reset")
    assert reset.code == 2 and "RFQs were sent to demo providers (H100 256)" in reset.err
    assert sql(demo_db_path, "SELECT COUNT(*) FROM rfq_invite") == [(1,)]


def test_an_edit_is_a_new_revision_checked_whole(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    _new(cli, demo_db_path)
    db = str(demo_db_path)
    assert cli("--db", db, "rfq", "send", "H100 256", "-p", "阿里云", "--out", str(tmp_path)).code == 0
    edited = cli("--db", db, "rfq", "edit", "h100 256", "--gpus", "512", "--region", "上海", "--json")
    assert edited.code == 0, edited.err
    made = json.loads(edited.out)
    assert (made["revision"], made["gpus"], made["region"], made["job_gpus"]) == (2, 512, "上海", 64)  # the rest kept
    assert [(i["provider"], i["outdated"]) for i in made["invites"]] == [("阿里云", True)]
    same = cli("--db", db, "rfq", "edit", "H100 256", "--gpus", "512")
    assert same.code == 2 and "nothing changed (still revision 2)" in same.err
    too_big = cli("--db", db, "rfq", "edit", "H100 256", "--job-gpus", "1024")  # checked with the stored values
    assert too_big.code == 2 and "--job-gpus: a job of 1024 GPUs is more than the 512 GPUs needed" in too_big.err
    assert cli("--db", db, "rfq", "edit", "H100 256").code == 2
    assert sql(demo_db_path, "SELECT revision, gpus FROM rfq") == [(2, 512)]
    resent = json.loads(cli("--db", db, "rfq", "send", "H100 256", "-p", "阿里云", "--out", str(tmp_path), "--force",
                            "--json").out)  # fmt: skip
    assert [(i["revision"], i["outdated"]) for i in resent["rfq"]["invites"]] == [(2, False)]


def test_new_still_requires_the_need(cli: Cli, demo_db_path: Path) -> None:
    done = cli("--db", str(demo_db_path), "rfq", "new", "x", "--gpu", "H100")
    assert done.code == 2 and "Missing option" in done.err


def test_two_providers_whose_files_would_clash_are_refused_before_writing(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    db = str(demo_db_path)
    for name in ("a/b", "a\\b"):
        assert cli("--db", db, "provider", "add", "--name", name, "--kind", "lessor").code == 0
    _new(cli, demo_db_path)
    done = cli("--db", db, "rfq", "send", "H100 256", "-p", "a/b", "-p", "a\\b", "--out", str(tmp_path / "out"))
    assert done.code == 2 and "would both be sent" in done.err, done.err
    assert not any((tmp_path / "out").iterdir()) and sql(demo_db_path, "SELECT COUNT(*) FROM rfq_invite") == [(0,)]


@pytest.mark.parametrize("columns", [80, 120])
def test_the_comparison_in_a_terminal_shows_the_offers_that_fit_with_no_figure_broken(
    cli: Cli, demo_db_path: Path, monkeypatch: pytest.MonkeyPatch, columns: int
) -> None:
    """In a terminal, 8 offers side by side were squeezed to its width, figures broken across lines
    ("36,480," / "126.72"): as many as fit are shown, each figure whole."""
    from rich.cells import cell_len

    _new(cli, demo_db_path)
    monkeypatch.setenv("TTY_COMPATIBLE", "1")
    monkeypatch.setenv("COLUMNS", str(columns))
    monkeypatch.setenv("LINES", "40")
    import re

    text = re.sub(r"\x1b\[[0-9;]*m", "", cli("--db", str(demo_db_path), "rfq", "show", "H100 256").out)  # styles
    lines = text.splitlines()
    assert all(cell_len(line.rstrip()) <= columns for line in lines), max(lines, key=cell_len)
    total = next(line for line in lines if "39,168,000.00" in line)  # #2's whole need (the label may wrap)
    assert f"{32 * 250_000 * 12:,}.00" in total  # and #9's beside it: both whole, on one line
    assert "more offers on record: --json or --out FILE.xlsx has every one" in text


def test_an_optional_line_given_empty_to_edit_is_cleared(cli: Cli, demo_db_path: Path) -> None:
    """`rfq edit --respond-by ''` did nothing (an empty flag parsed as one not given); now it clears the line,
    and a required one given empty is refused by its flag."""
    _new(cli, demo_db_path)
    db = str(demo_db_path)
    done = cli("--db", db, "rfq", "edit", "H100 256", "--respond-by", "", "--job-gpus", "")
    assert done.code == 0, done.err
    shown = json.loads(cli("--db", db, "rfq", "show", "H100 256", "--json").out)
    assert (shown["respond_by"], shown["job_gpus"], shown["revision"]) == (None, None, 2)
    assert shown["min_availability"] == "0.995"  # not given: as it was
    refused = cli("--db", db, "rfq", "edit", "H100 256", "--gpus", "")
    assert refused.code == 2 and "--gpus" in refused.err and "required" in refused.err


def test_a_delivery_before_the_answers_are_due_is_refused(cli: Cli, demo_db_path: Path) -> None:
    refused = cli("--db", str(demo_db_path), "rfq", "new", "H100 256", *NEED, "--respond-by", "2026-12-15",
                  "--deliver-by", "2026-12-01")  # fmt: skip
    assert refused.code == 2 and "--deliver-by: delivered before the answers are due (2026-12-15)" in refused.err
    assert cli("--db", str(demo_db_path), "rfq", "list", "--json").out.strip() == "[]"
    made = _new(cli, demo_db_path)  # answers due 2026-12-20
    shown = cli("--db", str(demo_db_path), "rfq", "show", made["name"]).out
    assert shown.splitlines()[0].endswith(", revision 1); answers due 2026-12-20")  # the id: the backend's
