"""Every command's output through the catalog (issue 35): each leaf command of the built command tree runs on a
copy of the demo market (with a contract, an RFQ, evidence and an FX rate added) in the pseudo-locale
(tests/pseudo_locale.py), where every message comes back wrapped, so any English word left outside the brackets
is a string that does not pass through gettext; a few error paths (a bad id, a bad flag value) run too. Data
(names as typed, the GPU catalog's names, the sources' sentences), codes (finding codes, terms) and paths are
the buyer's or the scripts', not ours: they are read from the commands' own JSON, or declared below with why.
A new command fails :func:`test_every_command_is_run_or_says_why_not` until it is run here or set aside."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from openpyxl import load_workbook

from quotetui import language
from quotetui.domain.economics.display import MONEY_STYLES
from quotetui.domain.entities import SETTINGS as SETTINGS_FIELDS
from quotetui.domain.enums import (
    AcceptanceCheck,
    BillingBasis,
    Choice,
    InterFabric,
    InviteState,
    OfferStatus,
    ProviderKind,
)
from quotetui.domain.verification import logs
from quotetui.domain.verification.findings import FindingCode
from quotetui.io.preferences import SETTINGS
from tests.conftest import copy_demo, probe_bundle, run_cli
from tests.pseudo_locale import Pseudo, data_words, english_words

pytestmark = pytest.mark.sqlite_only  # its demo copy makes a backup: SQLite's (db backup refuses a server)

Market = tuple[Path, Path, set[str]]  # the database, its folder, the words allowed
SAMPLES = Path(__file__).parent.parent / "imports" / "samples"
RFQ = "H100 256"
NEED = ("--gpu", "H100 SXM5,H800 SXM5", "--gpus", "256", "--months", "12", "--start", "2027-01-01",
        "--min-availability", "99.5", "--inter-fabric", "infiniband_ndr", "--respond-by", "2026-12-20")  # fmt: skip
# ``{out}``: a folder of the test's own; ``{folder}``: the market's (its exported workbook and its backup);
# ``{fixtures}``: the tests' logs. A command that names its own ``--db`` runs on that one, the others on the market
COMMANDS: list[tuple[str, ...]] = [
    ("providers",),
    ("offers",),
    ("offers", "--gpu", "A100"),
    ("explain", "3"),
    ("explain", "2"),
    ("explain", "9"),
    ("gpus",),
    ("claims",),
    ("market",),
    ("config",),
    ("config", "--keys"),
    ("config", "--init", "--force"),
    ("settings",),
    ("settings", "set", "--hours-per-month", "720"),
    ("--db", "{out}/new.db", "demo", "--reset"),
    ("template", "{out}/template.xlsx"),
    ("export", "{out}/compare.xlsx"),
    ("import", "{folder}/market.xlsx", "--dry-run"),
    ("probe", "--write", "{out}/探针.py"),
    ("provider", "add", "--name", "海洋算力", "--kind", "gpu_cloud", "--regions", "上海"),
    ("provider", "edit", "1", "--kind", "lessor"),
    (
        "offer",
        "add",
        "--provider",
        "阿里云",
        "--name",
        "测试机型",
        "--gpu",
        "H100 SXM5",
        "--gpus-per-node",
        "8",
        "--billing-basis",
        "monthly",
        "--amount",
        "90000",
        "--unit",
        "node_month",
        "--intra-fabric",
        "nvswitch",
    ),
    ("offer", "edit", "2", "--status", "negotiating", "--inter-fabric", "vendor_rdma"),
    ("round", "add", "2", "--mover", "counter", "--amount", "85000", "--unit", "node_month"),
    ("round", "edit", "2", "--round-note", "已回电"),
    ("discount", "add", "2", "--kind", "volume", "--rate", "5", "--min-gpus", "64"),
    ("extra", "add", "2", "--kind", "egress", "--basis", "per_gb", "--amount", "0.8"),
    ("extra", "edit", "3", "--amount", "0.6"),
    ("extra", "remove", "3"),
    ("sla", "set", "2", "--availability", "99.9", "--response-minutes", "30", "--preemption", "none"),
    ("bench", "codes"),
    ("bench", "check", "--offer", "2"),
    ("bench", "check", "--offer", "9"),
    ("bench", "import", "{fixtures}/megatron-h100-mixtral-8x7b.txt", "--offer", "1"),
    ("contracts",),
    ("contracts", "show", "1"),
    ("contracts", "due", "--within", "400", "--on", "2027-04-15"),
    ("contracts", "add", "--offer", "18", "--start", "2027-01-01", "--term-months", "6", "--gpus", "8"),
    ("contracts", "amend", "1", "--effective", "2026-09-01", "--gpus", "24", "--reason", "任务增加"),
    ("contracts", "ics", "{out}/dates.ics"),
    ("contracts", "incident", "add", "1", "--start", "2026-08-01", "--description", "链路故障", "--gpus", "4"),
    ("contracts", "incident", "update", "1", "--end", "2026-07-03", "--claimed"),
    (
        "contracts",
        "invoice",
        "add",
        "1",
        "--from",
        "2026-07-01",
        "--to",
        "2026-07-31",
        "--amount",
        "480000",
        "--currency",
        "CNY",
    ),
    ("acceptance", "show", "--contract", "1"),
    ("acceptance", "show", "--offer", "9", "--nodes", "2"),
    ("acceptance", "waive", "ecc", "--contract", "1", "--reason", "BMC 报告", "--by", "李伟"),
    ("rfq", "new", "A100 64", "--gpu", "A100", "--gpus", "64", "--months", "6", "--start", "2027-02-01"),
    ("rfq", "edit", RFQ, "--gpus", "128"),
    ("rfq", "list"),
    ("rfq", "show", RFQ),
    ("rfq", "status", RFQ),
    ("rfq", "send", RFQ, "-p", "阿里云", "--out", "{out}"),
    ("rfq", "decline", RFQ, "-p", "一万网络", "--note", "无库存"),
    ("award", RFQ, "--include-market"),
    ("brief", "2"),
    ("brief", "--provider", "一万网络"),
    ("history", "2"),
    ("history", "--contract", "1"),
    ("history", "--settings"),
    ("scenario", "list"),
    ("scenario", "show", "8×H100 一年训练"),
    ("scenario", "show", "GPT-3 175B 预训练 (32×H100)"),
    ("scenario", "add", "小试", "--gpus", "8", "--months", "6", "--description", "试算"),
    ("scenario", "default", "8×H100 一年训练"),
    ("calc", "train", "--gpus", "8", "--offer", "3", "--params", "7e9", "--tokens", "1e12"),
    (
        "calc",
        "train",
        "--gpus",
        "64",
        "--params",
        "70e9",
        "--tokens",
        "2e12",
        "--gpu",
        "H100 SXM5",
        "--claimed-days",
        "22",
    ),
    ("calc", "rent-vs-buy", "--purchase", "1", "--offer", "3"),
    ("calc", "rent-vs-buy", "--capex", "2500000", "--opex-monthly", "19000", "--rent-monthly", "150000"),
    ("calc", "term", "--monthly", "88000", "--annual", "750000", "--currency", "CNY"),
    ("fx", "add", "EUR", "CNY", "7.8", "--date", "2026-11-01", "--source", "中国银行"),
    ("fx", "list"),
    ("db", "check"),
    ("db", "upgrade"),
    ("db", "backup", "{out}/backup.db"),
    ("--db", "{out}/restored.db", "db", "restore", "{folder}/backup.db", "--yes"),
]
ERRORS: list[tuple[str, ...]] = [
    ("acceptance", "accept", "--contract", "1"),  # items still missing
    ("explain", "999"),
    ("offers", "--scenario", "nope"),
    ("offers", "--gpu", "RTX 9999"),
    ("provider", "add", "--name", "X", "--kind", "bogus"),
    ("offer", "edit", "2", "--status", "maybe"),
    ("offer", "edit", "999", "--status", "quoted"),
    ("round", "add", "2", "--amount", "-5", "--unit", "node_month"),
    ("contracts", "show", "99"),
    ("contracts", "due", "--within", "-3"),
    ("acceptance", "waive", "vibes", "--contract", "1", "--reason", "x", "--by", "y"),
    ("rfq", "show", "nope"),
    ("rfq", "new", "Bad", "--gpu", "H100, RTX 9999", "--gpus", "8", "--months", "1", "--start", "2027-01-01"),
    ("award", RFQ, "--max-share", "150"),
    ("brief", "999"),
    ("scenario", "show", "nope"),
    ("calc", "train", "--gpus", "0", "--params", "7e9", "--tokens", "1e12"),
    ("calc", "term", "--monthly", "abc"),
    ("fx", "add", "USD", "USD", "1"),
    ("settings", "set", "--default-mfu", "150"),
    ("contracts", "incident", "update", "1", "--claimed", "2000"),
    ("db", "restore", "{out}/missing.db", "--yes"),
    ("bench", "import", "{out}/missing.txt", "--offer", "1"),
]
NOT_RUN = {
    "": "the bare command launches the TUI (tests/test_tui*.py)",
}
"""Commands this test does not run, with why."""

CODES = {code for kind in Choice.__subclasses__() for sub in (kind, *kind.__subclasses__()) for m in sub for code in
         re.findall(r"[A-Za-z][A-Za-z']+", m.value)}  # fmt: skip
"""The codes an option takes, which a refusal names (``--kind: 'x' is not one of: lessor (出租方), …``) and a
``waive ITEM`` refusal lists by the item's code."""
_DATA_KEYS = {
    "name", "provider", "offer", "gpu", "aliases", "memory_type", "topo_signature", "nvlink_note", "parent",
    "regions", "certifications", "scenario", "statement", "source", "workload", "notes", "model", "metric", "unit",
    "quote", "log", "tool", "host", "evidence", "description", "reference", "reason", "by", "note",
}  # fmt: skip
"""JSON keys whose values are data (typed by a user or read from a source), allowed as they are."""


def _ok(*args: str) -> str:
    done = run_cli(*args)
    assert done.code == 0, (args, done.err)
    return done.out


@pytest.fixture(scope="module")
def market(demo_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Market:
    """The demo, with what the other commands read: evidence for #9, a contract on it with an incident and an
    invoice, an RFQ sent to two providers, a market workbook to import, a backup to restore."""
    folder = tmp_path_factory.mktemp("pseudo")
    db = copy_demo(demo_template, folder / "demo.db")
    d = ("--db", str(db))
    clean = sorted((SAMPLES / "h100-clean").iterdir())
    _ok(*d, "bench", "import", str(probe_bundle(folder, "node01", clean)), "--offer", "9")
    _ok(*d, "contracts", "add", "--offer", "9", "--start", "2026-06-01", "--term-months", "12", "--gpus", "16")
    _ok(*d, "contracts", "incident", "add", "1", "--start", "2026-07-01", "--description", "节点宕机", "--gpus", "8")
    _ok(
        *d,
        "contracts",
        "invoice",
        "add",
        "1",
        "--from",
        "2026-06-01",
        "--to",
        "2026-06-30",
        "--amount",
        "500000",
        "--currency",
        "CNY",
    )
    _ok(*d, "rfq", "new", RFQ, *NEED)
    _ok(*d, "rfq", "send", RFQ, "-p", "一万网络", "-p", "天下数据", "--out", str(folder))
    _ok(*d, "fx", "add", "USD", "CNY", "7.1", "--date", "2026-10-01", "--source", "中国银行")
    _ok(*d, "export", str(folder / "market.xlsx"))
    _ok(*d, "db", "backup", str(folder / "backup.db"))
    allowed = {"quotetui", "od", "mp"}  # the term column's codes (12mp: 12 months prepaid), which its legend explains
    allowed |= {word for code in FindingCode for word in re.split(r"[-_]", code.value)}
    allowed |= {"FLOPs", "NVSwitch"}  # a unit and a product's name, as every datasheet writes them
    # ``config``'s codes: the settings' keys, the built-in theme's name, each language's own name and tag, the
    # money styles
    allowed |= {*SETTINGS, "money", "style", "textual", "dark", *language.LANGUAGES.values(), *language.LANGUAGES}
    allowed |= {"toml", *MONEY_STYLES, "assumption", *(w for f in SETTINGS_FIELDS.fields for w in f.name.split("_"))}
    keys = _ok(*d, "config", "--keys").split("binding id")[1].splitlines()[1:]  # the keymap's binding ids, keys
    allowed |= {w for line in keys for w in re.findall(r"[a-z]+", " ".join(line.split()[:2]))}
    allowed |= {m.value for m in AcceptanceCheck}  # the items a contract's acceptance lists, by the code `waive` takes
    # a log's tool, as stored at import (English by design, TODO's issue 35)
    allowed |= {w for log in vars(logs).values() for w in re.findall(r"[a-z]+", str(getattr(log, "tool", "")))}
    for command in ("providers", "offers", "gpus", "claims", "scenario list", "rfq list", "contracts"):
        data_words(json.loads(_ok(*d, *command.split(), "--json")), _DATA_KEYS, allowed)
    data_words(json.loads(_ok(*d, "bench", "check", "--offer", "9", "--json")), _DATA_KEYS, allowed)
    data_words(json.loads(_ok(*d, "acceptance", "show", "--contract", "1", "--json")), _DATA_KEYS, allowed)
    # the audit trail's who and from where, each column and value as stored (``store/audit.py``)
    # the audit trail's who, from where and a setting's key, as stored (``store/audit.py``; its values: ``_run``)
    for trail in (("2",), ("9",), ("--contract", "1"), ("--settings",)):
        for c in json.loads(_ok(*d, "history", *trail, "--json")):
            key = c["subject"] if c["entity"] == "setting" else ""
            allowed.update(re.findall(r"[A-Za-z][A-Za-z']+", f"{c['who']} {c['via']} {key}"))
    workbook = load_workbook(folder / "market.xlsx", read_only=True)  # an import quotes the file's tabs and headers
    allowed |= {w for sheet in workbook for row in sheet.iter_rows(max_row=1, values_only=True) for cell in row
                for w in re.findall(r"[A-Za-z][A-Za-z']+", f"{cell or ''} {sheet.title}")}  # fmt: skip
    allowed |= {"py", "xlsx", "md", "ics", "db", "json", "csv", "toml"}  # a file's extension
    # the RFQ's lines as its providers read them, bilingual by design (``rfq show``: docs/LANGUAGE.md)
    bilingual = [line for line in _ok(*d, "rfq", "show", RFQ).splitlines() if " / " in line]
    allowed |= {word for line in bilingual for word in re.findall(r"[A-Za-z][A-Za-z']+", line)}
    return db, folder, allowed


@pytest.fixture
def pseudo(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    import quotetui.io.speaking as speaking

    monkeypatch.setattr(speaking, "speak", lambda given, environ=None: language.install(Pseudo(), "qps"))
    monkeypatch.setenv("COLUMNS", "400")
    (tmp_path / "config.toml").write_text("", encoding="utf-8")
    monkeypatch.setenv("QUOTETUI_CONFIG", str(tmp_path / "config.toml"))
    yield


QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')
"""A history's text value, quoted as JSON writes it: data as typed."""


def _run(command: tuple[str, ...], market: Market, tmp_path: Path, typed: bool = False) -> tuple[int, list[str]]:
    """The command's exit status and the lines of its output with English outside the catalog, paths taken
    out (and, with ``typed``, the words typed on its line: a refusal quotes them)."""
    db, folder, allowed = market
    out = tmp_path / "out"
    out.mkdir()
    fixtures = Path(__file__).parent / "fixtures" / "benchlogs"
    where = {"{out}": str(out), "{folder}": str(folder), "{fixtures}": str(fixtures)}
    args = [re.sub(r"\{\w+\}", lambda m: where[m.group()], a) for a in command]
    done = run_cli(*([] if "--db" in args else ["--db", str(db)]), *args)
    text = done.out + done.err
    for root in sorted({str(folder), str(tmp_path), str(fixtures)}, key=len, reverse=True):
        text = re.sub(re.escape(root) + r"[^\s⟦⟧'\"`)]*", " ", text)
    for path in sorted(_paths(), key=len, reverse=True):  # a command to run: its name (flags are taken out)
        text = text.replace(" ".join(("quotetui", *path)), " ")
    if args[args.index("--db") + 2 if "--db" in args else 0] == "history":
        text = re.sub(r"(?m)^    [\w.]+⟦: ⟧.*$", " ", text)  # a column nothing declares (a JSON leaf), as stored
        text = re.sub(r"(?m)^    ⟦.*?⟧⟦: ⟧.*$", lambda m: QUOTED.sub(" ", m[0]), text)  # a text value as typed
    if typed:  # a refusal quotes what was typed, and names the codes an option takes
        for a in args:
            text = text.replace(repr(a), " ")
        allowed = allowed | {word for a in args for word in re.findall(r"[A-Za-z]+", a)} | CODES
    return done.code, [line for line in text.splitlines() if english_words(line, allowed)]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_word_a_command_prints_passes_through_the_catalog(
    command: tuple[str, ...], market: Market, pseudo: None, tmp_path: Path
) -> None:
    code, leaks = _run(command, market, tmp_path)
    assert code == 0, leaks
    assert not leaks, "\n".join(leaks[:12])


@pytest.mark.parametrize("command", ERRORS, ids=" ".join)
def test_every_word_of_a_refusal_passes_through_the_catalog(
    command: tuple[str, ...], market: Market, pseudo: None, tmp_path: Path
) -> None:
    code, leaks = _run(command, market, tmp_path, typed=True)
    assert code != 0
    assert not leaks, "\n".join(leaks[:12])


def _paths() -> list[tuple[str, ...]]:
    """Every command that runs (a leaf, or a group that runs without a subcommand), by its path."""
    from typer.main import get_command

    from quotetui.cli import app

    paths: list[tuple[str, ...]] = []

    def walk(command: object, path: tuple[str, ...]) -> None:
        subs = getattr(command, "commands", None)
        if not subs or getattr(command, "invoke_without_command", False):
            paths.append(path)
        for name in subs or {}:
            walk(subs[name], (*path, name))

    walk(get_command(app), ())
    return paths


def test_every_command_is_run_or_says_why_not() -> None:
    from typer.main import get_command

    from quotetui.cli import app

    root = get_command(app)
    runnable = {" ".join(path) for path in _paths()}

    def path_of(args: tuple[str, ...]) -> str:
        args = args[2:] if args[0] == "--db" else args
        command, path = root, []
        for word in args:
            subs = getattr(command, "commands", None) or {}
            if word not in subs:
                break
            command, path = subs[word], [*path, word]
        return " ".join(path)

    assert len(runnable) > 55
    assert runnable - {path_of(c) for c in COMMANDS + ERRORS} - set(NOT_RUN) == set()


# -- what the pseudo-locale and the review found, as a Chinese buyer reads it ---------------------------------
def _zh(market: Market, *args: str) -> str:
    done = run_cli("--db", str(market[0]), "--lang", "zh-CN", *args)
    assert done.code == 0, done.err
    return done.out


def test_an_option_takes_the_word_a_table_shows_and_a_refusal_names_both(market: Market) -> None:
    assert " 1  一万网络  出租方 " in _zh(market, "providers")
    added = _zh(market, "provider", "add", "--name", "深算云", "--kind", "出租方")  # as `providers` shows it
    assert added.endswith("：名称为“深算云”、类型为出租方\n")  # the fields listed with 、
    assert json.loads(_ok("--db", str(market[0]), "providers", "--json"))[-1]["kind"] == "lessor"  # stored: the code
    refused = run_cli("--db", str(market[0]), "--lang", "zh-CN", "provider", "add", "--name", "某云", "--kind", "外星")
    assert refused.code == 2
    assert "--kind：“外星”不是以下值之一：lessor（出租方）、public_cloud（公有云）、gpu_cloud（GPU 云）" in refused.err
    english = run_cli("--db", str(market[0]), "provider", "add", "--name", "某云", "--kind", "outer")
    assert "is not one of: lessor, public_cloud, gpu_cloud" in english.err  # English: the codes, as before


def test_codes_read_as_words_in_chinese_and_as_before_in_english(market: Market) -> None:
    db = str(market[0])
    assert "、状态为已报价" in _zh(market, "offer", "edit", "20", "--notes", "备注")
    assert "status quoted" in _ok("--db", db, "offer", "edit", "20", "--notes", "备注二")
    shown = _zh(market, "contracts", "show", "1")
    assert "（包月，第 1 轮）" in shown and "机内 NVSwitch，机间 InfiniBand NDR" in shown
    assert "(monthly, round 1)" in _ok("--db", db, "contracts", "show", "1")
    claims = _zh(market, "claims")
    assert "— 训练天数\n" in claims and "— AllReduce 总线带宽\n" in claims and "training_days" not in claims
    gemm = "中位数 792.8 TFLOPS @ 12288x4096x4096 = 峰值的 80.2%"
    assert gemm in _zh(market, "bench", "check", "--offer", "9")


def test_a_logs_figures_in_words_and_its_json_in_codes(market: Market) -> None:
    log = str(Path(__file__).parent / "fixtures" / "benchlogs" / "torchtitan-h100-llama3-8b-bf16.txt")
    said = _zh(market, "bench", "import", log, "--offer", "13")  # H100, as the log
    assert "MFU 36.954%；每 GPU token 吞吐 6310.5 tokens/s" in said  # a ratio as a share
    again = json.loads(_ok("--db", str(market[0]), "bench", "import", log, "--offer", "14", "--json"))
    assert again["logs"][0]["results"] == ["mfu 0.369540 fraction", "tokens_per_sec_per_gpu 6310.5 tokens/s"]


def test_history_says_what_changed_in_words_and_scenario_show_names_its_fields(market: Market) -> None:
    assert "  已添加报价 8×H100 SXM 企业级 #9\n" in _zh(market, "history", "9")
    assert "  added offer 8×H100 SXM 企业级 #9\n" in _ok("--db", str(market[0]), "history", "9")
    shown = _zh(market, "scenario", "show", "8×H100 一年训练").splitlines()
    assert shown[:4] == ["名称：8×H100 一年训练", "说明：One 8-GPU H100 node, busy around the clock for a year.",
                         "GPU 型号：H100 SXM5", "需求 GPU 数：8"]  # fmt: skip
    english = _ok("--db", str(market[0]), "scenario", "show", "8×H100 一年训练").splitlines()
    assert english[2:5] == ["GPU model: H100 SXM5", "GPUs needed: 8", "Months needed: 12"]


def test_config_lists_the_money_style_and_where_it_comes_from(
    market: Market, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "config.toml").write_text('language = "en"\nmoney_style = "wan"\n', encoding="utf-8")
    monkeypatch.setenv("QUOTETUI_CONFIG", str(tmp_path / "config.toml"))
    rows = {line.split()[0]: " ".join(line.split()[1:]) for line in _zh(market, "config").splitlines()[2:]}
    assert rows["money_style"] == "wan（96.00万） 配置文件第 2 行"
    said = json.loads(_ok("--db", str(market[0]), "config", "--json"))
    assert said["money_style"] == {"value": "wan", "from": "config file, line 2"}
    (tmp_path / "config.toml").write_text("", encoding="utf-8")
    assert json.loads(_ok("--db", str(market[0]), "config", "--json"))["money_style"] == {
        "value": "plain", "from": "built-in default"
    }  # fmt: skip


def test_a_suggested_command_quotes_a_name_with_spaces(market: Market) -> None:
    refused = run_cli("--db", str(market[0]), "rfq", "decline", RFQ, "-p", "华为云")
    assert refused.code != 0 and "`quotetui rfq show 'H100 256'` lists whom" in refused.err


def test_the_workbooks_contracts_sheet_and_mfu_source_are_in_chinese(market: Market, tmp_path: Path) -> None:
    _zh(market, "export", str(tmp_path / "zh.xlsx"))
    book = load_workbook(tmp_path / "zh.xlsx", read_only=True)
    contracts = list(book["合同"].iter_rows(values_only=True))
    assert (
        contracts[0][:3] == ("合同编号", "供应商", "报价")
        and contracts[1][7] == "按月"
        and contracts[1][14] == "每节点月"
    )
    summary = list(book["汇总"].iter_rows(values_only=True))
    header = next(row for row in summary if row and "MFU 来源" in row)
    sources = {row[header.index("MFU 来源")] for row in summary[summary.index(header) + 1 :] if row[0] is not None}
    assert sources <= {"默认", "已验证", "宣称"} and "默认" in sources


def _choices() -> list[type[Choice]]:
    """Every vocabulary of codes, but an invitation's states: ``rfq_views.state_word`` says them, with the
    ``overdue`` no invitation stores."""
    found, todo = [], list(Choice.__subclasses__())
    while todo:
        kind = todo.pop()
        todo += kind.__subclasses__()
        if list(kind) and kind is not InviteState:  # a base such as Fabric declares no members
            found.append(kind)
    return found


def test_every_code_declares_its_word_which_is_the_code_in_english_and_translated_in_chinese() -> None:
    assert len(_choices()) > 20
    codes = [(f"{kind.__name__}.{m.name}", m) for kind in _choices() for m in kind]
    titled = {AcceptanceCheck}  # an acceptance item's word is its title, in English too: the one name it is shown by
    bare = [name for name, m in codes if m._word is None or (m._word != m.value and type(m) not in titled)]
    assert bare == []  # NAME = "code", NP_("context", "code"): English reads as it always has
    assert AcceptanceCheck.parse("Single-node AllReduce") is AcceptanceCheck.ALLREDUCE
    assert [m.word for m in InterFabric] == [m.value for m in InterFabric]
    language.use("zh-CN")
    same = [name for name, m in codes if m.word == m.value]
    assert same == []
    assert (OfferStatus.QUOTED.word, BillingBasis.ON_DEMAND.spaced, InterFabric.VENDOR_RDMA.short_name) == (
        "已报价", "按量", "厂商 RDMA"
    )  # fmt: skip
    assert (
        ProviderKind.parse("公有云") is ProviderKind.PUBLIC_CLOUD
        and ProviderKind.parse("gpu cloud").value == "gpu_cloud"
    )


def test_lists_clauses_labels_and_asides_read_as_each_language_writes_them(demo_template: Path, tmp_path: Path) -> None:
    """Chinese lists words with 、, clauses with ；, a label with ：, an aside in （…）; English as ever
    (``language/lists.py``). On a copy of the demo of its own (it declines an RFQ)."""
    db = str(copy_demo(demo_template, tmp_path / "demo.db"))

    def both(*args: str) -> tuple[str, str]:
        zh = run_cli("--db", db, "--lang", "zh-CN", *args)
        en = run_cli("--db", db, *args)
        return zh.out + zh.err, en.out + en.err

    zh, en = both("providers")
    assert "增值电信业务经营许可证、国家高新技术企业、专精特新中小企业、NVIDIA NPN 成员" in zh
    assert "增值电信业务经营许可证, 国家高新技术企业, 专精特新中小企业, NVIDIA NPN 成员" in en
    _ok("--db", db, "contracts", "add", "--offer", "9", "--start", "2026-06-01", "--term-months", "12", "--gpus", "16")
    zh, en = both("contracts", "due", "--within", "400", "--on", "2027-04-15")
    assert zh.startswith("已逾期（1）\n") and en.startswith("Overdue (1)\n")
    assert "  16 天后  付款：合同 #1（天下数据 8×H100 SXM 企业级）\n" in zh
    assert "  in 16 days  payment: contract #1 (天下数据 8×H100 SXM 企业级)\n" in en
    _ok("--db", db, "rfq", "new", RFQ, *NEED)
    _ok("--db", db, "rfq", "send", RFQ, "-p", "一万网络", "-p", "天下数据", "--out", str(tmp_path))
    _ok("--db", db, "rfq", "decline", RFQ, "-p", "一万网络", "--note", "无库存")
    zh, en = both("rfq", "status", RFQ)
    assert zh.startswith("询价单 H100 256（#1，版本 1）：已发送 1 家、已谢绝 1 家；")
    assert en.startswith("RFQ H100 256 (#1, revision 1): 1 sent, 1 declined; answers due 2026-12-20\n")
    zh, en = both("explain", "3")
    assert "    包月：88,000.00 CNY 每节点月；目标价不高于 25,237.61（降低 71.3%）\n" in zh
    assert "    monthly: 88,000.00 CNY per node-month; target at most 25,237.61 (71.3 % below)\n" in en
    assert "默认取 BF16 稠密峰值的 40%：尚无已验证的 MFU；宣称在 8 块 GPU 上" in zh
    assert "default 40 % of dense BF16 peak: no MFU verified; claimed 45.0–52.0 %" in en
    zh, en = both("sla", "set", "2", "--availability", "150", "--response-minutes", "-1")  # two fields refused
    assert zh == "quotetui: --availability：不得大于 100%；--response-minutes：不能为负数\n"
    assert en == "quotetui: --availability: must be at most 100 %; --response-minutes: must not be negative\n"
