"""The acceptance gate: each checklist item passed, failed or missing from the logs on record (each
expectation worked out from the log text), written waivers, and a contract accepted only when nothing blocks."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from quotetui.domain.enums import InterFabric, IntraFabric
from quotetui.domain.gpus import builtin_catalog
from quotetui.domain.verification.acceptance import Status, Waiver, blocking, checklist
from quotetui.domain.verification.findings import Log, Sold
from quotetui.domain.verification.rules import check
from quotetui.io.benchlogs.detect import parse_log
from tests.conftest import Cli, probe_bundle, sql

SAMPLES = Path(__file__).parent.parent / "imports" / "samples"
SHARED = Path(__file__).parent / "fixtures" / "benchlogs" / "shared"
CATALOG = builtin_catalog()
H100 = Sold(CATALOG.get("h100-sxm5"), 8, IntraFabric.NVSWITCH, InterFabric.INFINIBAND_NDR, Decimal(400))


def _logs(*paths: Path) -> list[Log]:
    return [Log(i, p.name, parse_log(p.read_text(encoding="utf-8"), p.name)) for i, p in enumerate(paths, 1)]


def _items(sold: Sold, logs: list[Log], nodes: int = 1, waivers: tuple[Waiver, ...] = ()) -> dict[str, object]:
    found = checklist(sold, logs, check(sold, logs, CATALOG), CATALOG, nodes, waivers)
    return {i.key: i for i in found}


def test_nothing_on_record_is_all_missing_and_a_single_gpu_needs_less() -> None:
    items = _items(H100, [], nodes=2)
    assert {k: i.status for k, i in items.items()} == {  # type: ignore[attr-defined]
        "inventory": Status.MISSING,
        "topology": Status.MISSING,
        "gemm": Status.MISSING,
        "allreduce": Status.MISSING,
        "burn": Status.MISSING,
        "scale_out": Status.MISSING,
        "ecc": Status.MISSING,
    }
    one = _items(Sold(CATALOG.get("h100-pcie"), 1, IntraFabric.PCIE), [])
    assert [k for k, i in one.items() if i.status is Status.NOT_REQUIRED] == ["topology", "allreduce", "scale_out"]  # type: ignore[attr-defined]


def test_a_clean_h100_node_passes_every_item_of_one_node() -> None:
    clean = SAMPLES / "h100-clean"
    logs = _logs(*(clean / n for n in ("smi-query.csv", "topo.txt", "gemm.txt", "all_reduce_perf.txt", "gpu_burn.txt")))
    items = _items(H100, logs)
    assert {k: i.status.value for k, i in items.items()} == {  # type: ignore[attr-defined]
        "inventory": "passed",
        "topology": "passed",
        "gemm": "passed",
        "allreduce": "passed",
        "burn": "passed",
        "scale_out": "not required",
        "ecc": "passed",
    }
    # 792.8 / 989 = 80.16 %
    assert items["gemm"].reason == "median 792.8 TFLOPS = 80.2 % of 989"  # type: ignore[attr-defined]
    assert items["ecc"].evidence == ("smi-query.csv",)  # type: ignore[attr-defined]


def test_failures_from_real_logs() -> None:
    # shared 14: dcgmi diag -r 3 on H100s with a failure → burn failed (hardware-fault)
    burn = _items(H100, _logs(SHARED / "14-dcgmi-r3-h100-cuinit-fail-nccltests264.txt"))["burn"]
    assert burn.status is Status.FAILED and burn.reason.startswith("hardware-fault")  # type: ignore[attr-defined]
    # shared 17: level 1 with persistence mode off → failed as a configuration fault, not hardware
    conf = _items(H100, _logs(SHARED / "17-dcgmi-r1-h200-persistence-fail-azdoc.txt"))["burn"]
    assert conf.status is Status.FAILED and "configuration" in conf.reason  # type: ignore[attr-defined]
    # shared 20: gpu-burn FAULTY on a T4 → burn failed; the T4 is not the H100 sold → inventory failed
    t4 = _items(H100, _logs(SHARED / "20-gpuburn-t4-faulty-blogpost.txt"))
    assert t4["burn"].status is Status.FAILED  # type: ignore[attr-defined]
    # the pcie-as-sxm sample: PCIe paths between GPUs, an H100 PCIe reported, 38 GB/s busbw
    pcie = _items(H100, _logs(*sorted((SAMPLES / "pcie-as-sxm").iterdir())))
    assert pcie["topology"].status is Status.FAILED and pcie["inventory"].status is Status.FAILED  # type: ignore[attr-defined]
    assert pcie["allreduce"].status is Status.FAILED  # type: ignore[attr-defined]


def test_a_gemm_of_another_device_does_not_pass_the_gemm_item() -> None:
    slow = _items(H100, _logs(SAMPLES / "slow-gemm" / "gemm.txt"))["gemm"]
    assert slow.status is Status.FAILED  # type: ignore[attr-defined]
    text = (SAMPLES / "h100-clean" / "gemm.txt").read_text().replace("NVIDIA H100 80GB HBM3", "AMD Radeon Graphics")
    other = checklist(H100, [Log(1, "amd.txt", parse_log(text))], [], CATALOG)
    assert {i.key: i.status for i in other}["gemm"] is Status.MISSING


def test_scale_out_item_for_two_nodes() -> None:
    a3 = _logs(SHARED / "07-nccl-h100-16rank-2node-a3mega.txt")
    assert _items(H100, a3, nodes=2)["scale_out"].status is Status.PASSED  # type: ignore[attr-defined]  # 75.3 %
    unknown = Sold(CATALOG.get("h100-sxm5"), 8, IntraFabric.NVSWITCH)
    no_nic = _items(unknown, a3, nodes=2)["scale_out"]
    assert no_nic.status is Status.MISSING and "no NIC Gb/s per GPU" in no_nic.reason  # type: ignore[attr-defined]


def test_a_waiver_turns_a_blocking_item_into_waived_and_nothing_else() -> None:
    from datetime import date

    waiver = Waiver("ecc", "ECC counters read by the provider's BMC; report #42 attached", "Li Wei", date(2027, 1, 2))
    found = checklist(H100, [], [], CATALOG, 1, (waiver, Waiver("gemm", "x", "y", date(2027, 1, 2))))
    items = {i.key: i for i in found}
    assert items["ecc"].status is Status.WAIVED and items["ecc"].underlying is Status.MISSING
    assert items["ecc"].waiver == waiver
    assert [i.key for i in blocking(found)] == ["inventory", "topology", "allreduce", "burn"]


def _ok(cli: Cli, *args: str) -> dict:  # type: ignore[type-arg]
    result = cli(*args)
    assert result.code == 0, result.err
    return json.loads(result.out)


def test_a_contract_is_accepted_only_when_nothing_blocks(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    db = str(demo_db_path)
    clean = sorted((SAMPLES / "h100-clean").iterdir())
    _ok(cli, "--db", db, "bench", "import", str(probe_bundle(tmp_path, "node01", clean)), "--offer", "9", "--json")
    cli("--db", db, "contracts", "add", "--offer", "9", "--start", "2026-06-01", "--term-months", "12", "--gpus", "16")
    [(contract_id,)] = sql(demo_db_path, "SELECT id FROM contract")
    cid = str(contract_id)
    one = _ok(cli, "--db", db, "acceptance", "show", "--contract", cid, "--json")
    # issue 31, point 2: two nodes sold, one machine's logs: every node-level item says "1 of 2 nodes"
    node_items = {"inventory", "topology", "gemm", "allreduce", "burn", "ecc"}
    assert {i["item"] for i in one["items"] if i["status"] == "missing"} == node_items | {"scale_out"}
    assert all(i["reason"].startswith("1 of 2 nodes (node01)") for i in one["items"] if i["item"] in node_items)
    _ok(cli, "--db", db, "bench", "import", str(probe_bundle(tmp_path, "node02", clean)), "--offer", "9", "--json")
    state = _ok(cli, "--db", db, "acceptance", "show", "--contract", cid, "--json")
    assert state["nodes"] == 2 and not state["can_accept"]  # 16 GPUs of 8 per node: scale-out is required
    assert [i["item"] for i in state["items"] if i["status"] == "missing"] == ["scale_out"]
    assert all(i["reason"].startswith("2 of 2 nodes") for i in state["items"] if i["item"] in node_items)
    refused = cli("--db", db, "acceptance", "accept", "--contract", cid)
    assert refused.code != 0 and "acceptance waive" in refused.err
    # one line per blocking item, its reason unbracketed
    assert (
        "\n  scale_out (Scale-out AllReduce) missing: no multi-host all_reduce_perf with its rank list\n" in refused.err
    )
    assert sql(demo_db_path, "SELECT accepted_on FROM contract") == [(None,)]
    early = cli("--db", db, "acceptance", "accept", "--contract", cid, "--on", "1999-01-01")
    assert early.code != 0 and "--on: 1999-01-01 is earlier than a year before it starts (2025-06-01)" in early.err
    for bad, said in (
        (["gemm", "--reason", "fine"], "GEMM ≥ 70 % of peak is passed"),
        (["scale-out", "--reason", "  "], "--reason: "),
        (["nvlink", "--reason", "x"], "ITEM: "),
        (["scale-out", "--reason", "x" * 2001], "--reason: "),
        (["scale-out", "--reason", "x", "--by", ""], "--by: "),
        (["scale-out", "--reason", "x", "--on", "2027-02-30"], "--on: "),
        (["scale-out", "--reason", "x", "--on", "2199-01-01"], "--on: 2199-01-01 is after today"),
        (["scale-out", "--reason", "x", "--on", "1999-01-01"], "--on: 1999-01-01 is earlier than a year before"),
        (["scale-out", "--reason", "a\x1b[31mred"], "control character"),
    ):
        result = cli("--db", db, "acceptance", "waive", *bad, "--contract", cid)
        assert result.code != 0 and said in result.err, result.err
    assert sql(demo_db_path, "SELECT COUNT(*) FROM acceptance_waiver") == [(0,)]
    waived = _ok(cli, "--db", db, "acceptance", "waive", "scale-out", "--contract", cid, "--reason",
                 "two-node run booked for week 2; one node suffices for the first job", "--by", "Li Wei",
                 "--on", "2026-06-02", "--json")  # fmt: skip
    [item] = [i for i in waived["items"] if i["item"] == "scale_out"]
    assert (item["status"], item["underlying"], item["waiver"]["by"]) == ("waived", "missing", "Li Wei")
    accepted = _ok(cli, "--db", db, "acceptance", "accept", "--contract", cid, "--on", "2026-06-03", "--json")
    assert accepted["accepted_on"] == "2026-06-03"
    assert sql(demo_db_path, "SELECT accepted_on FROM contract")[0][0] in (
        "2026-06-03",
        __import__("datetime").date(2026, 6, 3),
    )
    again = cli("--db", db, "acceptance", "accept", "--contract", cid, "--on", "2026-06-04")
    assert again.code != 0 and "was accepted on 2026-06-03" in again.err  # the day is not rewritten
    rewaive = cli("--db", db, "acceptance", "waive", "scale-out", "--contract", cid, "--reason", "changed")
    assert rewaive.code != 0 and "was accepted on 2026-06-03" in rewaive.err  # nor what it rested on
    text = cli("--db", db, "acceptance", "show", "--contract", cid).out
    assert "waived (missing) by Li Wei on 2026-06-02" in text and "accepted on 2026-06-03" in text
    assert _ok(cli, "--db", db, "contracts", "show", cid, "--json")["accepted_on"] == "2026-06-03"
    assert (
        "  accepted on 2026-06-03 (quotetui acceptance show --contract 1)"
        in cli("--db", db, "contracts", "show", cid).out
    )
    # issue 31: an accepted contract rests on the logs on record when it was accepted; a later log (here another
    # model's) is named as recorded after the acceptance, and the verdicts it rested on do not move
    later = [str(p) for p in sorted((SAMPLES / "h800-as-h100").iterdir())]
    _ok(cli, "--db", db, "bench", "import", *later, "--offer", "9", "--json")
    after = _ok(cli, "--db", db, "acceptance", "show", "--contract", cid, "--json")
    assert after["items"] == accepted["items"]
    assert sorted(after["recorded_after_acceptance"]) == sorted(Path(p).name for p in later)
    assert (
        "recorded after the acceptance, not part of what it rests on"
        in cli("--db", db, "acceptance", "show", "--contract", cid).out
    )


def test_offer_checklist_flags(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    assert "give --offer ID or --contract ID" in cli("--db", db, "acceptance", "show").err
    both = cli("--db", db, "acceptance", "show", "--offer", "9", "--contract", "1").err
    assert "not both" in both
    assert "no contract #99" in cli("--db", db, "acceptance", "show", "--contract", "99").err
    state = _ok(cli, "--db", db, "acceptance", "show", "--offer", "9", "--nodes", "3", "--json")
    assert state["nodes"] == 3 and {i["status"] for i in state["items"]} == {"missing"}
    assert cli("--db", db, "acceptance", "show", "--offer", "9", "--nodes", "0").code != 0
    dated = cli("--db", db, "acceptance", "show", "--offer", "9", "--on", "2026-04-01")
    assert dated.code == 2 and "--on goes with --contract" in dated.err


@pytest.mark.parametrize(
    ("day", "words"),
    [
        ("2027-13-01", "'2027-13-01' is not a date (YYYY-MM-DD)"),
        ("yesterday", "'yesterday' is not a date (YYYY-MM-DD)"),
        ("2027-02-29", "'2027-02-29' is not a day of the calendar: 2027-02 has 28 days"),
        ("", "is empty: give a day (YYYY-MM-DD), or leave the flag out for today"),
    ],
)
def test_a_bad_day_is_refused(cli: Cli, demo_db_path: Path, day: str, words: str) -> None:
    """``--on`` is read as every command reads a day (``flag(AS_OF)``), before the contract is looked up."""
    result = cli("--db", str(demo_db_path), "acceptance", "accept", "--contract", "1", "--on", day)
    assert result.code == 2 and words in result.err, result.err


def test_the_export_has_an_acceptance_sheet(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    from openpyxl import load_workbook

    db = str(demo_db_path)
    clean = sorted((SAMPLES / "h100-clean").iterdir())
    for host in ("node01", "node02"):  # both nodes' logs: the contract's node-level items pass on each
        _ok(cli, "--db", db, "bench", "import", str(probe_bundle(tmp_path, host, clean)), "--offer", "9", "--json")
    cli("--db", db, "contracts", "add", "--offer", "9", "--start", "2026-06-01", "--term-months", "12", "--gpus", "16")
    _ok(cli, "--db", db, "acceptance", "waive", "scale-out", "--contract", "1", "--reason", "later", "--by", "Li",
        "--on", "2026-06-02", "--json")  # fmt: skip
    out = tmp_path / "cmp.xlsx"
    assert cli("--db", db, "export", str(out)).code == 0
    rows = list(load_workbook(out, read_only=True)["Acceptance"].iter_rows(values_only=True))
    assert rows[0][:6] == ("contract", "offer", "nodes", "item", "status", "why")
    contract = [r for r in rows[1:] if r[0] == "#1"]
    offer = [r for r in rows[1:] if r[0] in ("", None)]
    assert len(contract) == 7 and len(offer) == 7  # the contract's checklist, then offer #9's own (one node)
    scale = next(r for r in contract if r[3] == "Scale-out AllReduce")
    assert (scale[2], scale[4], scale[7], scale[9]) == (2, "waived", "Li", "later")
    assert "(was missing)" in scale[5]
    assert next(r for r in offer if r[3] == "Scale-out AllReduce")[4] == "not required"
    assert next(r for r in contract if r[3] == "GEMM ≥ 70 % of peak")[4] == "passed"


def test_a_log_of_another_model_never_passes_an_item_of_the_model_sold() -> None:
    """Issue 31, point 2: an A100's gpu-burn (the H100 sample with its GPUs renamed) counts for nothing on an
    H100 contract: the burn-in item stays missing; the same log named H100 passes it."""
    burn = (SAMPLES / "h100-clean" / "gpu_burn.txt").read_text(encoding="utf-8")
    a100 = burn.replace("NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-80GB")
    own = [Log(1, "gpu_burn.txt", parse_log(burn, "gpu_burn.txt"))]
    other = [Log(2, "a100-burn.txt", parse_log(a100, "a100-burn.txt"))]
    assert _items(H100, own)["burn"].status is Status.PASSED
    assert _items(H100, other)["burn"].status is Status.MISSING


def test_logs_without_a_machine_identity_count_as_one_unknown_machine() -> None:
    """Two nodes sold; the same kind of log twice without a host or GPU UUIDs is one unknown machine: 1 of 2."""
    from quotetui.domain.verification.acceptance import UNKNOWN_MACHINE

    topo = (SAMPLES / "h100-clean" / "topo.txt").read_text(encoding="utf-8")
    logs = [Log(1, "a.txt", parse_log(topo, "a.txt")), Log(2, "b.txt", parse_log(topo, "b.txt"))]
    item = _items(H100, logs, nodes=2)["topology"]
    assert item.status is Status.MISSING and item.reason.startswith(f"1 of 2 nodes ({UNKNOWN_MACHINE})")
    hosts = [Log(1, "a.txt", logs[0].parsed, "node01"), Log(2, "b.txt", logs[1].parsed, "node02")]
    both = _items(H100, hosts, nodes=2)["topology"]
    assert both.status is Status.PASSED and both.reason.startswith("2 of 2 nodes")


def test_a_contract_may_state_the_sample_of_nodes_acceptance_checks(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    """40 GPUs of 8 a node are 5 nodes; "10 % of nodes, at least 2" is max(2, ceil(0.5)) = 2 machines."""
    db = str(demo_db_path)
    clean = sorted((SAMPLES / "h100-clean").iterdir())
    _ok(cli, "--db", db, "bench", "import", str(probe_bundle(tmp_path, "node01", clean)), "--offer", "9", "--json")
    signed = cli("--db", db, "contracts", "add", "--offer", "9", "--start", "2026-06-01", "--term-months", "12",
                 "--gpus", "40", "--acceptance-sample", "10", "--acceptance-sample-min", "2")  # fmt: skip
    assert signed.code == 0, signed.err
    assert "acceptance checks a sample: 10 % of the nodes, at least 2 nodes" in signed.out
    one = {i["item"]: i for i in _ok(cli, "--db", db, "acceptance", "show", "--contract", "1", "--json")["items"]}
    assert one["gemm"]["status"] == "missing"
    assert one["gemm"]["reason"].startswith("1 of 2 nodes, a sample of the 5 (node01): logs from 2 distinct machines")
    _ok(cli, "--db", db, "bench", "import", str(probe_bundle(tmp_path, "node02", clean)), "--offer", "9", "--json")
    two = {i["item"]: i for i in _ok(cli, "--db", db, "acceptance", "show", "--contract", "1", "--json")["items"]}
    assert two["gemm"]["status"] == "passed" and two["gemm"]["reason"].startswith(
        "2 of 2 nodes, a sample of the 5: median"
    )
    refused = cli("--db", db, "contracts", "add", "--offer", "9", "--start", "2026-06-01", "--term-months", "12",
                  "--acceptance-sample", "0.1")  # fmt: skip
    assert refused.code == 2 and "--acceptance-sample" in refused.err and "did you mean 10%?" in refused.err


def test_an_acceptance_is_never_dated_before_a_waiver_it_rests_on(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    db = str(demo_db_path)
    clean = sorted((SAMPLES / "h100-clean").iterdir())
    for host in ("node01", "node02"):  # both nodes pass every node-level item; scale-out is waived
        _ok(cli, "--db", db, "bench", "import", str(probe_bundle(tmp_path, host, clean)), "--offer", "9", "--json")
    cli("--db", db, "contracts", "add", "--offer", "9", "--start", "2026-06-01", "--term-months", "12", "--gpus", "16")
    _ok(cli, "--db", db, "acceptance", "waive", "scale-out", "--contract", "1", "--reason", "later", "--on",
        "2026-03-01", "--json")  # fmt: skip
    early = cli("--db", db, "acceptance", "accept", "--contract", "1", "--on", "2026-01-05")
    assert early.code == 2 and "is before the waiver it rests on (2026-03-01)" in early.err, early.err
    accepted = _ok(cli, "--db", db, "acceptance", "accept", "--contract", "1", "--on", "2026-03-01", "--json")
    assert accepted["accepted_on"] == "2026-03-01"


def test_one_machine_under_several_names_is_one_machine() -> None:
    """A hostile pass found one machine passing a 2-node contract: its host written another way, or its logs
    imported loose beside its bundle. Hosts are compared as one machine is named, and logs sharing a GPU UUID
    are one machine."""
    from quotetui.domain.verification.acceptance import machines

    query = (SAMPLES / "h100-clean" / "smi-query.csv").read_text(encoding="utf-8")
    topo = (SAMPLES / "h100-clean" / "topo.txt").read_text(encoding="utf-8")
    parsed_query, parsed_topo = parse_log(query, "q"), parse_log(topo, "t")
    for other in ("NODE01", " node01 ", "node01.", "node０1"):
        logs = [Log(1, "t", parsed_topo, "node01"), Log(2, "t", parsed_topo, other)]
        assert set(machines(logs).values()) == {"node01"}, other
        assert _items(H100, logs, nodes=2)["topology"].status is Status.MISSING
    loose = [Log(1, "q", parsed_query, "node01"), Log(2, "q-copy", parsed_query)]  # the same GPUs' UUIDs
    assert set(machines(loose).values()) == {"node01"}
    assert _items(H100, loose, nodes=2)["ecc"].reason.startswith("1 of 2 nodes (node01)")


def test_a_waiver_written_while_missing_never_hides_a_later_failure(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    """A hostile pass waived burn-in while node02's run was to follow, then imported a faulty gpu-burn: the
    waiver hid it. A waiver covers the state it was written against; a later failure blocks again."""
    db = str(demo_db_path)
    clean = sorted((SAMPLES / "h100-clean").iterdir())
    _ok(cli, "--db", db, "bench", "import", str(probe_bundle(tmp_path, "node01", clean)), "--offer", "9", "--json")
    cli("--db", db, "contracts", "add", "--offer", "9", "--start", "2026-06-01", "--term-months", "12", "--gpus", "16")
    waived = _ok(cli, "--db", db, "acceptance", "waive", "burn", "--contract", "1", "--reason", "node02 to follow",
                 "--json")  # fmt: skip
    assert next(i for i in waived["items"] if i["item"] == "burn")["status"] == "waived"
    faulty = tmp_path / "faulty"
    faulty.mkdir()
    bundle = probe_bundle(faulty, "node02", [SAMPLES / "faulty" / "gpu_burn.txt"])
    _ok(cli, "--db", db, "bench", "import", str(bundle), "--offer", "9", "--json")
    burn = next(i for i in _ok(cli, "--db", db, "acceptance", "show", "--contract", "1", "--json")["items"]
                if i["item"] == "burn")  # fmt: skip
    assert burn["status"] == "failed" and "while it was missing; failed since" in burn["reason"]


def test_an_item_is_shown_and_waived_by_one_name_and_its_reasons_read_without_nested_brackets(
    cli: Cli, demo_db_path: Path
) -> None:
    """zh-CN: the checklist shows each item by its title, waive takes that title (however typed), and a node count
    reads as one sentence: no "（从 2 个节点中抽检；无）" aside, no bracket inside a bracket when accept refuses."""
    db = str(demo_db_path)
    zh = ("--db", db, "--lang", "zh-CN")
    for log in ("33-mamf-msmf-format-h200-mamfreadme.txt", "11-smi-query-h200-250fields-exporter.txt"):
        assert cli("--db", db, "bench", "import", str(SHARED / log), "--offer", "9").code == 0
    added = cli(*zh, "contracts", "add", "--offer", "9", "--gpus", "16", "--start", "2026-06-01", "--term-months",
                "12", "--acceptance-sample", "50", "--acceptance-sample-min", "1")  # fmt: skip
    assert added.code == 0, added.err
    shown = cli(*zh, "acceptance", "show", "--contract", "1").out
    assert "  ? 单节点 AllReduce " in shown and "  ? NVLink 拓扑 " in shown and "  ? 机间 AllReduce " in shown
    assert "从 2 个节点中抽检 1 个，0 个通过：需要来自 1 台不同机器的日志；没有 `nvidia-smi topo -m`" in shown
    assert "；无）" not in shown
    # the sweep names no device and the node's listing is an H200: it passes nothing for an H100 contract
    assert "? GEMM ≥ 峰值的 70%" in shown

    waived = cli(*zh, "acceptance", "waive", "单节点AllReduce", "--contract", "1", "--reason", "单机测试另行安排")
    assert waived.code == 0, waived.err
    assert "  w 单节点 AllReduce " in cli(*zh, "acceptance", "show", "--contract", "1").out
    assert cli(*zh, "acceptance", "waive", "ＮＶＬｉｎｋ 拓扑", "--contract", "1", "--reason", "x").code == 0

    refused = cli(*zh, "acceptance", "accept", "--contract", "1")
    assert refused.code == 2
    lines = refused.err.splitlines()
    assert lines[0] == "quotetui: 合同 #1 无法验收："
    assert "  scale_out（机间 AllReduce）缺失：没有带 rank 列表的多主机 all_reduce_perf" in lines
    assert (
        "  ecc（无 ECC 错误）缺失：从 2 个节点中抽检 1 个，0 个通过：需要来自 1 台不同机器的日志；"
        "没有包含 ecc.errors.uncorrected.volatile.total 的 nvidia-smi 查询"
    ) in lines
