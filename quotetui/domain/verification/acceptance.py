"""The acceptance checklist: what must be shown, by the logs on record, before a buyer accepts a node or a
contract. Each item is passed, failed or missing, with the evidence it rests on; a failed or missing item
blocks acceptance unless it carries a written waiver (who, when, why).

The items (``AcceptanceCheck``, each with its title) and what passes them:

- ``inventory``: an nvidia-smi (or npu-smi) listing of the node, with no model-mismatch, vGPU, MIG or
  gpu-count finding;
- ``topology``: ``nvidia-smi topo -m`` without a pcie-topology finding (required when NVLink is sold on a
  multi-GPU node);
- ``gemm``: a GEMM sweep on the sold model at ≥ ``GEMM_MIN_SHARE`` of its dense BF16 peak;
- ``allreduce``: a single-host AllReduce with a large message and no allreduce-low (multi-GPU nodes);
- ``burn``: gpu-burn with every GPU OK, or ``dcgmi diag`` at level 3 or more with every test passed;
- ``scale_out``: a multi-host AllReduce judged against the offer's NICs without scale-out-low (required when
  more than one node is bought);
- ``ecc``: an nvidia-smi query with the uncorrected ECC count of every GPU, all zero.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from quotetui.domain.economics.exact import percent_text, q
from quotetui.domain.enums import WAIVER_BUYER, WAIVER_BUYER_WORD, Marked, Severity, Tone
from quotetui.domain.enums import AcceptanceCheck as Check
from quotetui.domain.gpus import GpuCatalog
from quotetui.domain.verification.findings import GEMM_MIN_SHARE, Finding, FindingCode, Log, Sold, a_or_an
from quotetui.domain.verification.inventory import gpus_shown, other_model
from quotetui.domain.verification.logs import AllReduce, DcgmDiag, GemmSweep, GpuBurn, SmiQuery, Topology
from quotetui.domain.verification.plausible import impossible
from quotetui.domain.verification.rules import machine_not_sold, unnamed_on_another
from quotetui.domain.verification.scaleout import scale_out
from quotetui.language import N_, _, ngettext
from quotetui.language.dates import day_text
from quotetui.language.lists import aside, clauses, labelled, listed

INVENTORY_TOOLS = frozenset(
    {"nvidia-smi query", "nvidia-smi", "nvidia-smi -q", "hl-smi", "nvidia-smi -L", "npu-smi info", "rocm-smi"}
)
DCGM_ACCEPTANCE_LEVEL = 3


class Status(Marked):
    """Where an acceptance item stands, with its mark and tone."""

    PASSED = "passed", "✓", Tone.SUCCESS, N_("passed")
    FAILED = "failed", "✗", Tone.ERROR, N_("failed")
    MISSING = "missing", "?", Tone.WARNING, N_("missing")
    NOT_REQUIRED = "not required", "–", Tone.MUTED, N_("not required")
    WAIVED = "waived", "w", Tone.NOTE, N_("waived")


def status_word(value: str) -> str:
    """A status as stored (a waiver's ``status``), as people read it; a value quotetui never writes as it is."""
    try:
        return Status(value).word
    except ValueError:
        return value


@dataclass(frozen=True, slots=True)
class Waiver:
    item: str
    reason: str
    by: str  # as typed, or ``WAIVER_BUYER`` (the command line's default: a role, not a name)
    on: date
    status: str | None = None  # the state it was written against (failed, missing); None: any (before it was kept)

    @property
    def by_word(self) -> str:
        """Who accepted the risk, as shown: a name as typed; the stored default ``buyer`` as its word (买方)."""
        return _(WAIVER_BUYER_WORD) if self.by == WAIVER_BUYER else self.by


@dataclass(frozen=True, slots=True)
class Item:
    key: str
    status: Status
    reason: str  # why it has that status, in plain words
    evidence: tuple[str, ...] = ()  # the logs it rests on
    waiver: Waiver | None = None
    underlying: Status | None = None  # a waived item's status before the waiver

    @property
    def title(self) -> str:
        """The item's title, in the language in use."""
        return Check(self.key).word

    @property
    def blocks(self) -> bool:
        return self.status in (Status.FAILED, Status.MISSING)

    def to_json(self) -> dict[str, object]:
        return {
            "item": self.key,
            "title": self.title,
            "status": self.status.value,
            "reason": self.reason,
            "evidence": list(self.evidence),
            "waiver": None
            if self.waiver is None
            else {"reason": self.waiver.reason, "by": self.waiver.by, "on": self.waiver.on.isoformat()},
            "underlying": self.underlying.value if self.underlying else None,
        }


def _codes(findings: list[Finding], *codes: str) -> list[Finding]:
    return [f for f in findings if f.code in codes]


def _found(key: str, failing: list[Finding], logs: list[Log], ok: str, none: str) -> Item:
    labels = tuple(log.label for log in logs)
    if failing:
        return Item(key, Status.FAILED, clauses(labelled(f.code.word, f.title) for f in failing), labels)
    if not logs:
        return Item(key, Status.MISSING, none)
    return Item(key, Status.PASSED, ok, labels)


def _elided(log: Log) -> bool:
    """A listing whose author cut rows (``...``): the GPUs shown, not the machine's; it passes nothing."""
    return bool(getattr(log.parsed, "elided", False))


def _inventory(logs: list[Log], findings: list[Finding], sold: Sold) -> Item:
    listed = [log for log in logs if log.parsed.tool in INVENTORY_TOOLS and not _elided(log)]
    failing = _codes(findings, FindingCode.MODEL_MISMATCH, FindingCode.VGPU, FindingCode.MIG, FindingCode.GPU_COUNT)
    cut = [log for log in logs if log.parsed.tool in INVENTORY_TOOLS and _elided(log)]
    none = (
        ngettext(
            "no nvidia-smi listing ({n} listing with rows cut by '...': not counted)",
            "no nvidia-smi listing ({n} listings with rows cut by '...': not counted)",
            len(cut),
        ).format(n=f"{len(cut):,}")
        if cut
        else _("no nvidia-smi listing")
    )
    shown = sorted({n for log in listed if (n := gpus_shown(log.parsed)) is not None})
    ok = _("{n}× {model} listed").format(n="/".join(str(n) for n in shown) or sold.gpus_per_node, model=sold.gpu.name)
    return _found("inventory", failing, listed, ok, none)


def _topology(logs: list[Log], findings: list[Finding], sold: Sold) -> Item:
    if not sold.nvlink_sold or sold.gpus_per_node < 2:
        return Item("topology", Status.NOT_REQUIRED, _("no NVLink sold between GPUs"))
    topo = [log for log in logs if isinstance(log.parsed, Topology)]
    # a copy far below NVLink fails it too: the links exist but do not carry what they should
    slow = [f for f in _codes(findings, FindingCode.NVLINK_COPY_LOW) if f.severity is Severity.CRITICAL]
    return _found(
        "topology",
        _codes(findings, FindingCode.PCIE_TOPOLOGY) + slow,
        topo,
        _("GPU pairs on NVLink"),
        _("no `nvidia-smi topo -m`"),
    )


def _gemm(logs: list[Log], sold: Sold, catalog: GpuCatalog, machine: list[Finding]) -> Item:
    best: tuple[Log, GemmSweep] | None = None
    for log in logs:
        p = log.parsed
        if not isinstance(p, GemmSweep):
            continue
        if not p.half_precision or other_model(p.device, sold.gpu, catalog) or impossible(p, sold.gpu):
            continue  # another dtype, another device, or more than the GPU can do: not this offer's BF16 figure
        if unnamed_on_another(p, machine):
            continue  # names no device, and the offer's logs show another model: not shown to be the one sold
        if best is None or p.tflops > best[1].tflops:
            best = (log, p)
    if best is None:
        bad = [
            (log, why)
            for log in logs
            if isinstance(log.parsed, GemmSweep) and (why := impossible(log.parsed, sold.gpu))
        ]
        if bad:
            return Item("gemm", Status.FAILED, f"impossible-measurement: {bad[0][1]}", tuple(x.label for x, _w in bad))
        return Item("gemm", Status.MISSING, _("no BF16 GEMM sweep on {a_model}").format(a_model=a_or_an(sold.gpu.name)))
    log, p = best
    share = q(p.tflops) / q(sold.gpu.bf16_tflops)
    said = _("{statistic} {tflops} TFLOPS = {share} of {peak}").format(
        statistic=p.statistic_word, tflops=p.tflops, share=percent_text(share, 1), peak=sold.gpu.bf16_tflops
    )
    status = Status.PASSED if share >= GEMM_MIN_SHARE else Status.FAILED
    return Item("gemm", status, said, (log.label,))


def _allreduce(logs: list[Log], findings: list[Finding], sold: Sold) -> Item:
    if sold.gpus_per_node < 2:
        return Item("allreduce", Status.NOT_REQUIRED, _("one GPU per node"))
    runs = [  # a run on one host over all the node's GPUs (16 ranks on an 8-GPU node is not one node's run)
        log
        for log in logs
        if isinstance(p := log.parsed, AllReduce)
        and p.single_host
        and p.ranks == sold.gpus_per_node
        and p.large_message() is not None
        and not impossible(p, sold.gpu)
    ]
    single = [log for log in logs if isinstance(log.parsed, AllReduce) and log.parsed.single_host]
    failing = [f for f in _codes(findings, FindingCode.ALLREDUCE_LOW) if f.severity is Severity.CRITICAL] + [
        f
        for f in _codes(findings, FindingCode.IMPOSSIBLE_MEASUREMENT)
        if any(x.evidence_id in f.evidence_ids for x in single)
    ]
    return _found(
        "allreduce",
        failing,
        runs,
        _("large-message busbw as NVLink gives"),
        _("no single-host all_reduce_perf on all {n} GPUs with -e 8G").format(n=sold.gpus_per_node),
    )


def _burn(logs: list[Log], findings: list[Finding]) -> Item:
    clean, short, failing = [], [], []
    for log in logs:
        p = log.parsed
        if isinstance(p, GpuBurn):
            (failing if p.faulty else clean).append(log)
        elif isinstance(p, DcgmDiag):
            if p.not_passed():
                failing.append(log)
            elif (p.level or 0) >= DCGM_ACCEPTANCE_LEVEL:
                clean.append(log)
            else:
                short.append(log)
    if failing:
        faults = _codes(findings, FindingCode.HARDWARE_FAULT, FindingCode.CONFIGURATION)
        why = [labelled(f.code.word, f.title) for f in faults]
        return Item("burn", Status.FAILED, clauses(why) or _("a test did not pass"), tuple(x.label for x in failing))
    if clean:
        return Item("burn", Status.PASSED, _("every GPU passed"), tuple(x.label for x in clean))
    if short:
        below = _("DCGM ran below level {level}").format(level=DCGM_ACCEPTANCE_LEVEL)
        return Item("burn", Status.MISSING, below, tuple(x.label for x in short))
    return Item("burn", Status.MISSING, _("no gpu-burn or dcgmi diag -r 3"))


def _scale_out(logs: list[Log], findings: list[Finding], sold: Sold, nodes: int) -> Item:
    if nodes < 2:
        return Item("scale_out", Status.NOT_REQUIRED, _("one node"))
    runs = [log for log in logs if isinstance(log.parsed, AllReduce) and len(log.parsed.hosts) > 1]
    if runs and not sold.inter_gbps_per_gpu:
        return Item(
            "scale_out",
            Status.MISSING,
            _("a multi-host run, but the offer has no NIC Gb/s per GPU to judge it against"),
            tuple(x.label for x in runs),
        )
    judged = [log for log in runs if isinstance(log.parsed, AllReduce) and scale_out(log.parsed, sold)]
    failing = _codes(findings, FindingCode.SCALE_OUT_LOW) + [
        f
        for f in _codes(findings, FindingCode.IMPOSSIBLE_MEASUREMENT)
        if any(x.evidence_id in f.evidence_ids for x in runs)
    ]
    none = _("no multi-host all_reduce_perf with its rank list")
    return _found("scale_out", failing, judged, _("busbw as the NICs allow"), none)


def _ecc(logs: list[Log]) -> Item:
    counted, bad = [], []
    for log in logs:
        p = log.parsed
        if _elided(log):
            continue  # the GPUs cut from a paste are the ones whose counts are not shown
        if isinstance(p, SmiQuery) and p.gpus and all(g.ecc_uncorrected is not None for g in p.gpus):
            counted.append(log)
            bad += [labelled(log.label, f"GPU {g.index}: {g.ecc_uncorrected}") for g in p.gpus if g.ecc_uncorrected]
    if bad:
        errors = _("uncorrected ECC errors: {errors}").format(errors=clauses(bad))
        return Item("ecc", Status.FAILED, errors, tuple(x.label for x in counted))
    if not counted:
        return Item("ecc", Status.MISSING, _("no nvidia-smi query with ecc.errors.uncorrected.volatile.total"))
    return Item("ecc", Status.PASSED, _("0 uncorrected ECC errors on every GPU"), tuple(x.label for x in counted))


UNKNOWN_MACHINE = N_("an unknown machine")
"""The name of the logs that name no machine (an English message id: shown through ``_()``)."""


def _host_key(host: str) -> str:
    """A host name as one machine is named however it was typed: NFKC, no blanks around, case-folded, no
    trailing dot (``NODE01``, `` node01 ``, ``node01.`` and ``node０1`` are ``node01``)."""
    import unicodedata

    return unicodedata.normalize("NFKC", host).strip().casefold().rstrip(".")


def _uuids(log: Log) -> set[str]:
    return {g.uuid.casefold() for g in getattr(log.parsed, "gpus", ()) if getattr(g, "uuid", None)}


def machines(logs: list[Log]) -> dict[int, str]:
    """Each log's machine, by evidence id: logs that name one host (however it is written) or share a GPU UUID
    are one machine (a loose copy of a bundle's nvidia-smi query is the bundle's machine); logs with neither are
    one unknown machine. A machine is named by its first host, else by a GPU's UUID."""
    parent = {log.evidence_id: log.evidence_id for log in logs}

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    by_key: dict[str, int] = {}
    for log in logs:
        keys = [f"host {_host_key(log.machine)}"] if log.machine and _host_key(log.machine) else []
        keys += [f"gpu {u}" for u in sorted(_uuids(log))]
        if not keys:
            keys = ["unknown"]
        for key in keys:
            if key in by_key:
                parent[find(log.evidence_id)] = find(by_key[key])
            else:
                by_key[key] = log.evidence_id
    names: dict[int, str] = {}
    hosted: set[int] = set()  # the groups named by a host
    for log in logs:  # a group's name: its first host as written, else a GPU's UUID, else unknown
        root = find(log.evidence_id)
        if root in hosted:
            continue
        if log.machine and _host_key(log.machine):
            names[root] = log.machine.strip()
            hosted.add(root)
        elif root not in names:
            uuids = sorted(_uuids(log))
            names[root] = _("the machine of GPU {uuid}").format(uuid=uuids[0]) if uuids else _(UNKNOWN_MACHINE)
    return {log.evidence_id: names[find(log.evidence_id)] for log in logs}


def _foreign(log: Log, sold: Sold, catalog: GpuCatalog) -> bool:
    """Whether a log names another model than the one sold: it counts for nothing but the mismatch finding."""
    from quotetui.domain.gpus import UnknownGpu

    for name in log.parsed.gpu_names():
        try:
            if catalog.lookup(name).key != sold.gpu.key:
                return True
        except UnknownGpu:
            continue
    return False


def _per_node(
    key: str,
    judge: Callable[[list[Log], list[Finding]], Item],
    logs: list[Log],
    findings: list[Finding],
    nodes: int,
    needed: int,
) -> Item:
    """A node-level item for ``nodes`` nodes: judged on each machine's own logs; it passes once ``needed``
    distinct machines pass it (every node, or the sample the contract states; logs without an identity are one
    unknown machine), fails if any machine fails, and says "1 of 2 nodes" until then."""
    whole = judge(logs, findings)
    if nodes < 2 or whole.status is Status.NOT_REQUIRED:
        return whole
    groups: dict[str, list[Log]] = {}
    named = machines(logs)
    for log in logs:
        groups.setdefault(named[log.evidence_id], []).append(log)
    per: dict[str, Item] = {}
    for machine, group in groups.items():
        ids = {log.evidence_id for log in group}
        mine = [f for f in findings if not f.evidence_ids or ids & set(f.evidence_ids)]
        per[machine] = judge(group, mine)
    failed = {m: i for m, i in per.items() if i.status is Status.FAILED}
    if failed:
        reason = clauses(labelled(m, i.reason) for m, i in failed.items())
        return Item(key, Status.FAILED, reason, tuple(e for i in failed.values() for e in i.evidence))
    passed = {m: i for m, i in per.items() if i.status is Status.PASSED}
    evidence = tuple(e for i in passed.values() for e in i.evidence)
    counted = len(passed)
    head = (
        _("{counted} of {needed} nodes, a sample of the {nodes}")
        if needed < nodes
        else _("{counted} of {needed} nodes")
    ).format(counted=counted, needed=needed, nodes=nodes)
    if counted >= needed:
        return Item(key, Status.PASSED, labelled(head, whole.reason), evidence)
    if passed:  # the machines that passed it so far
        head = aside(head, listed(sorted(passed)))
    reason = ngettext(
        "{head}: logs from {needed} machine are needed; {reason}",
        "{head}: logs from {needed} distinct machines are needed; {reason}",
        needed,
    ).format(head=head, needed=needed, reason=whole.reason)
    return Item(key, Status.MISSING, reason, evidence)


def checklist(
    sold: Sold,
    logs: list[Log],
    findings: list[Finding],
    catalog: GpuCatalog,
    nodes: int = 1,
    waivers: tuple[Waiver, ...] = (),
    needed: int | None = None,
) -> tuple[Item, ...]:
    """Every item for an offer bought as ``nodes`` nodes, waivers applied; ``needed``: the machines a node-level
    item must pass on (default every node; a contract may state a sample). A node-level item needs logs from
    ``nodes`` distinct machines (``_per_node``); a log of another model than the one sold counts for nothing
    but the inventory's mismatch (an A100 gpu-burn never passes an H100 contract's burn-in)."""
    own = [log for log in logs if not _foreign(log, sold, catalog)]
    machine = machine_not_sold(logs, sold, catalog)
    need = min(nodes, needed) if needed is not None else nodes
    items = (
        _per_node("inventory", lambda ls, fs: _inventory(ls, fs, sold), logs, findings, nodes, need),
        _per_node("topology", lambda ls, fs: _topology(ls, fs, sold), own, findings, nodes, need),
        _per_node("gemm", lambda ls, fs: _gemm(ls, sold, catalog, machine), own, findings, nodes, need),
        _per_node("allreduce", lambda ls, fs: _allreduce(ls, fs, sold), own, findings, nodes, need),
        _per_node("burn", _burn, own, findings, nodes, need),
        _scale_out(own, findings, sold, nodes),
        _per_node("ecc", lambda ls, fs: _ecc(ls), own, findings, nodes, need),
    )
    by_item = {w.item: w for w in waivers}
    return tuple(_waived(i, by_item.get(i.key)) for i in items)


def _waived(item: Item, waiver: Waiver | None) -> Item:
    """A blocking item under a waiver written against its state is waived; one that has changed since (waived
    while missing, failed since) blocks again, and says so: a waiver never hides a later failure."""
    if waiver is None or not item.blocks:
        return item
    if waiver.status is not None and waiver.status != item.status.value:
        reason = _("{reason} (waived on {day} while it was {then}; {now} since)").format(
            reason=item.reason, day=day_text(waiver.on), then=status_word(waiver.status), now=item.status.word
        )
        return Item(item.key, item.status, reason, item.evidence)
    return Item(item.key, Status.WAIVED, item.reason, item.evidence, waiver, item.status)


def blocking(items: tuple[Item, ...]) -> tuple[Item, ...]:
    return tuple(i for i in items if i.blocks)
