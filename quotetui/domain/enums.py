"""The closed vocabularies of the domain. Values are the stable strings stored and exported."""

from __future__ import annotations

import re
import unicodedata
from enum import StrEnum
from fractions import Fraction
from typing import Self

from quotetui.domain.errors import BadInput, DatabaseProblem, noun
from quotetui.language import N_, NP_, _
from quotetui.language.cells import WIDE
from quotetui.language.lists import listed, quoted
from quotetui.language.numbers import percent


class Choice(StrEnum):
    """A ``StrEnum`` with a user-facing parser that names the allowed values on error.

    A member people read declares its word beside its code, with the word's context (one English word may mean
    two things: ``quoted`` as an offer's status): ``QUOTED = "quoted", NP_("offer status", "quoted")``. Views
    ask ``member.word`` (in the language in use: ``quoted``, ``已报价``) or ``member.spaced`` (the same, a code's
    underscores read as spaces, as a sentence or a drop-down says it: ``on demand``), never the value, which is
    the code stored, exported and typed. The English word is the code itself, as the command line always showed
    it; a member without a word reads as its code. :meth:`parse` takes the code, or the word in the language in
    use (``--kind 出租方``, as ``providers`` shows it)."""

    _word: str | None

    def __new__(cls, value: str, word: str | None = None) -> Self:
        member = str.__new__(cls, value)
        member._value_ = value
        member._word = word
        return member

    @property
    def word(self) -> str:
        """The member as people read it, in the language in use (its code where none is declared)."""
        return self.value if self._word is None else _(self._word)

    @property
    def spaced(self) -> str:
        """:attr:`word` with a code's underscores as spaces (``on demand``, ``按量``)."""
        return self.word.replace("_", " ")

    @property
    def said(self) -> tuple[str, ...]:
        """Every form in which the member is shown in the language in use, each of which :meth:`parse` takes:
        its code, its word, the word spaced (``on demand``), the code with its word as a help or a refusal lists it
        (:attr:`coded`: ``lessor（出租方）``), and a fabric's short name (``IB NDR``)."""
        return (self.value, self.word, self.spaced, self.coded)

    @classmethod
    def parse(cls, text: str | Choice, *, what: str | None = None) -> Self:
        """The member ``text`` names: its code (``public_cloud``, ``public-cloud``, ``Public Cloud``) or any form
        it is shown in (:attr:`said`: ``公有云``), however typed: full-width letters or spaces, any case, a space
        or none between Latin letters and Chinese (``GPU云`` is ``GPU 云``). Text that names no member, or two,
        is refused with the codes and their words."""
        if isinstance(text, cls):
            return text
        key = typed_key(str(text))
        found = {member for member in cls if typed_key(member.value) == key}
        if not found:
            found = {member for member in cls if key in {typed_key(form) for form in member.said}}
        if len(found) == 1:
            return found.pop()
        label = noun(what) if what else cls.__name__  # ``what``: words marked ``N_`` by the caller
        raise BadInput(
            _("{what} {value} is not one of: {allowed}").format(what=label, value=quoted(text), allowed=cls.allowed())
        )

    @property
    def coded(self) -> str:
        """The code a user types, with its word where the language in use says it otherwise (``lessor (出租方)``;
        in English the code alone, and where the word is the code as typed: ``sxm``, not ``sxm (SXM)``)."""
        if typed_key(self.word) == typed_key(self.value):
            return self.value
        return _("{code} ({word})").format(code=self.value, word=self.word)

    @classmethod
    def placeholder(cls) -> str:
        """How an English help text (an option's, a field's note as a command's help gives it) names this
        choice's list, to be filled where it is shown in the language in use (:func:`fill_choices`):
        ``{ProviderKind}``."""
        return "{" + cls.__name__ + "}"

    @property
    def named(self) -> str:
        """How an English help text names this member (an ``add`` command's default), filled where it is shown
        by :func:`fill_choices` with what the flag takes, :attr:`coded`: ``{ProviderKind.lessor}``, ``lessor`` in
        English, ``lessor（出租方）`` in Chinese."""
        return "{" + type(self).__name__ + "." + self.value + "}"

    @classmethod
    def allowed(cls) -> str:
        """The codes a user may type, each :attr:`coded` (``lessor (出租方), public_cloud (公有云)``)."""
        return listed(m.coded for m in cls)

    @classmethod
    def stored(cls, value: object, where: str) -> Self:
        """A value read from the database (``where``: the table, the row and the column, e.g. ``offer #3,
        billing_basis``): one quotetui never writes (another program wrote it) is a database problem that names
        where it is and what is allowed, not an internal error."""
        try:
            return cls(value)
        except ValueError:
            allowed = listed(m.value for m in cls)
            raise DatabaseProblem(
                _(
                    "the database holds {value} in {where}, a value quotetui never writes (one of: {allowed}); "
                    "another program changed it: correct it there, or restore a backup, and try again "
                    "(`quotetui db check` lists every such value)"
                ).format(value=shown_stored(value), where=where, allowed=allowed)
            ) from None


_SPACE_BY_WIDE = re.compile(rf" (?=[{WIDE}])|(?<=[{WIDE}]) ")  # a space beside CJK (``cells.WIDE``)


def typed_key(text: str) -> str:
    """What a code or a word typed by a user is compared by: full-width forms as their plain ones (NFKC: ``ＧＰＵ``,
    a full-width space), any case, ``_`` and ``-`` as spaces, runs of spaces as one, and none beside a Chinese
    character (``GPU云``, ``GPU 云`` and ``GPU　云`` are one word)."""
    folded = unicodedata.normalize("NFKC", text).casefold().replace("_", " ").replace("-", " ")
    return _SPACE_BY_WIDE.sub("", " ".join(folded.split()))


def fill_choices(text: str) -> str:
    """``text`` with each choice's :meth:`Choice.placeholder` filled with what a user may type, in the language in
    use (:meth:`Choice.allowed`: ``lessor, public_cloud, gpu_cloud``; ``lessor（出租方）、…``), and each member's
    :attr:`Choice.named` with its :attr:`Choice.coded` (``lessor（出租方）``); other braces stay."""

    def filled(match: re.Match[str]) -> str:
        kind = _choices_named(match.group(1))
        if kind is None:
            return match.group(0)
        if match.group(2) is None:
            return kind.allowed()
        try:  # one member (:attr:`Choice.named`)
            return kind(match.group(2)).coded
        except ValueError:
            return match.group(0)

    return _PLACEHOLDER.sub(filled, text)


_PLACEHOLDER = re.compile(r"\{([A-Z][A-Za-z]+)(?:\.([a-z0-9_]+))?\}")


def _choices_named(name: str) -> type[Choice] | None:
    """The :class:`Choice` whose class is called ``name``, if one is."""
    found, todo = None, list(Choice.__subclasses__())
    while todo and found is None:
        kind = todo.pop()
        found = kind if kind.__name__ == name else None
        todo += kind.__subclasses__()
    return found


class Tone(StrEnum):
    """How a state reads, whatever shows it: the TUI gives each tone its one style (``tui/tones.py``); a state's
    enum says its tone and its mark, and every view asks the member (never a table of its text)."""

    ERROR = "error"  # something is wrong: ✗
    WARNING = "warning"  # look at it: !, ?
    SUCCESS = "success"  # it holds: ✓
    NOTE = "note"  # set aside on purpose (a waiver)
    MUTED = "muted"  # nothing to judge
    PLAIN = "plain"


class Marked(StrEnum):
    """A state a user sees: its stored value, its mark (✗ ! ✓ ?), its tone and the word people read for it. A
    member is declared as ``NAME = "value", "mark", Tone.X`` or ``NAME = "value", "mark", Tone.X, N_("word")``;
    views ask ``member.mark``, ``member.tone`` and ``member.word`` (the word in the language in use; the value
    itself where none is declared), never the value, which is the stored and exported code."""

    mark: str
    tone: Tone
    label: str  # the English word (a message id, marked ``N_`` where declared)

    def __new__(cls, value: str, mark: str, tone: Tone, label: str | None = None) -> Self:
        member = str.__new__(cls, value)
        member._value_ = value
        member.mark, member.tone, member.label = mark, tone, value if label is None else label
        return member

    @property
    def word(self) -> str:
        """The state as people read it, in the language in use (``critical``, ``严重``)."""
        return _(self.label)


class Severity(Marked):
    """A verification finding's severity, with its mark and tone (``domain/verification/findings.py``)."""

    CRITICAL = "critical", "✗", Tone.ERROR, N_("critical")
    WARNING = "warning", "!", Tone.WARNING, N_("warning")
    INFO = "info", "i", Tone.MUTED, N_("info")

    @property
    def order(self) -> int:
        """Most severe first."""
        return list(Severity).index(self)


def shown_stored(value: object) -> str:
    """A value another program wrote, as a message quotes it (:func:`quoted`: ``'cheap'`` in English, ``“cheap”``
    in Chinese, escapes shown), cut at 60 characters (a 10,000-character value)."""
    shown = quoted(value[:57] + "…" if isinstance(value, str) and len(value) > 57 else value)
    return shown if len(shown) <= 60 else shown[:59] + "…"


class ProviderKind(Choice):
    LESSOR = "lessor", NP_("provider kind", "lessor")  # bare-metal lessor / IDC provider
    PUBLIC_CLOUD = "public_cloud", NP_("provider kind", "public_cloud")
    GPU_CLOUD = "gpu_cloud", NP_("provider kind", "gpu_cloud")


class FormFactor(Choice):
    """How the accelerator sits in the server. ``module``: a mezzanine module that is not NVIDIA's SXM (an
    OAM-class Huawei Ascend module on an HCCS board); it sells no NVLink, so the NVLink checks leave it alone.
    Stored as text without a CHECK constraint, so adding a value needs no migration."""

    SXM = "sxm", NP_("form factor", "sxm")
    PCIE = "pcie", NP_("form factor", "pcie")
    MODULE = "module", NP_("form factor", "module")

    @property
    def shown(self) -> str:
        """As a datasheet names it, in every language (``SXM``, ``PCIe``); a module in words (模组)."""
        return {"sxm": "SXM", "pcie": "PCIe"}.get(self.value) or self.word


class Fabric(Choice):
    """A fabric, in a node or across nodes: its word, and the short name an offer's configuration line gives it
    (``8×H100 SXM5 · NVSwitch · IB NDR``: :attr:`short_name`; empty: the line leaves the fabric out). A short name
    is a name the same in every language (``IB NDR``), or, declared ``WORDED``, the English spelling of the
    member's word (``NVLink bridge``), which another language says as the word itself (``NVLink 桥接``): one
    word a code, whichever place shows it."""

    short: str
    worded: bool

    def __new__(cls, value: str, word: str | None = None, short: str = "", worded: bool = False) -> Self:
        member = str.__new__(cls, value)
        member._value_ = value
        member._word, member.short, member.worded = word, short, worded
        return member

    @property
    def short_name(self) -> str:
        """The short name in the language in use (``vendor RDMA``, ``厂商 RDMA``); empty for none."""
        return self.word if self.worded and self.word != self.value else self.short

    @property
    def said(self) -> tuple[str, ...]:
        return (*super().said, self.short_name) if self.short else super().said

    @property
    def shown(self) -> str:
        """The fabric in a sentence: its word where the language in use has one (``InfiniBand NDR``, ``无``), in
        English, whose word is the code, its short name (``IB NDR``, ``NVSwitch``); the code spaced only where
        neither is declared (``unknown``)."""
        return self.spaced if self.word != self.value or not self.short else self.short


WORDED = True
"""A fabric's short name that is its word in English letters (:class:`Fabric`)."""


class IntraFabric(Fabric):
    NVSWITCH = "nvswitch", NP_("fabric", "nvswitch"), "NVSwitch"  # all-to-all NVLink through NVSwitch (HGX boards)
    NVLINK_BRIDGE = "nvlink_bridge", NP_("fabric", "nvlink_bridge"), "NVLink bridge", WORDED  # pairs of PCIe cards
    PCIE = "pcie", NP_("fabric", "pcie"), "PCIe"
    UNKNOWN = "unknown", NP_("fabric", "unknown")


class InterFabric(Fabric):
    INFINIBAND_NDR = "infiniband_ndr", NP_("fabric", "infiniband_ndr"), "IB NDR"
    INFINIBAND_HDR = "infiniband_hdr", NP_("fabric", "infiniband_hdr"), "IB HDR"
    ROCE_V2 = "roce_v2", NP_("fabric", "roce_v2"), "RoCE v2"
    VENDOR_RDMA = "vendor_rdma", NP_("fabric", "vendor_rdma"), "vendor RDMA", WORDED  # Alibaba eRDMA, Tencent Xinghai
    ETHERNET = "ethernet", NP_("fabric", "ethernet"), "Ethernet", WORDED
    NONE = "none", NP_("fabric", "none")  # single node, no scale-out network
    UNKNOWN = "unknown", NP_("fabric", "unknown")


class BillingBasis(Choice):
    ON_DEMAND = "on_demand", NP_("billing basis", "on_demand")  # hourly, can be stopped
    MONTHLY = "monthly", NP_("billing basis", "monthly")
    RESERVED = "reserved", NP_("billing basis", "reserved")
    SPOT = "spot", NP_("billing basis", "spot")  # preemptible


class OfferStatus(Choice):
    DRAFT = "draft", NP_("offer status", "draft")
    REQUESTED = "requested", NP_("offer status", "requested")
    QUOTED = "quoted", NP_("offer status", "quoted")
    NEGOTIATING = "negotiating", NP_("offer status", "negotiating")
    ACCEPTED = "accepted", NP_("offer status", "accepted")
    REJECTED = "rejected", NP_("offer status", "rejected")
    EXPIRED = "expired", NP_("offer status", "expired")


class Mover(Choice):
    """Who put a quote revision on the table."""

    LIST = "list", NP_("mover", "list")  # a published list price (website, article)
    PROVIDER = "provider", NP_("mover", "provider")  # the provider's offer in a negotiation round
    COUNTER = "counter", NP_("mover", "counter")  # our counter-offer
    FINAL = "final", NP_("mover", "final")  # the agreed final price


def mover_word(mover: str) -> str:
    """``mover`` (a :class:`Mover` code) in the language in use; an unknown one as it is."""
    try:
        return Mover(mover).word
    except ValueError:
        return mover


class PriceUnit(Choice):
    GPU_HOUR = "gpu_hour", NP_("price unit", "gpu_hour")
    NODE_HOUR = "node_hour", NP_("price unit", "node_hour")
    GPU_MONTH = "gpu_month", NP_("price unit", "gpu_month")
    NODE_MONTH = "node_month", NP_("price unit", "node_month")
    TERM_TOTAL = "term_total", NP_("price unit", "term_total")  # one node for the whole term (e.g. annual prepay)


class DiscountKind(Choice):
    TERM = "term", NP_("discount kind", "term")
    VOLUME = "volume", NP_("discount kind", "volume")
    PREPAY = "prepay", NP_("discount kind", "prepay")
    ACADEMIC = "academic", NP_("discount kind", "academic")
    PROMOTION = "promotion", NP_("discount kind", "promotion")
    NEGOTIATED = "negotiated", NP_("discount kind", "negotiated")


class ExtraKind(Choice):
    EGRESS = "egress", NP_("extra cost", "egress")
    PLATFORM_FEE = "platform_fee", NP_("extra cost", "platform_fee")
    STORAGE = "storage", NP_("extra cost", "storage")
    PUBLIC_IP = "public_ip", NP_("extra cost", "public_ip")
    SNAPSHOT = "snapshot", NP_("extra cost", "snapshot")
    SETUP_FEE = "setup_fee", NP_("extra cost", "setup_fee")
    DEPOSIT = "deposit", NP_("extra cost", "deposit")
    SUPPORT = "support", NP_("extra cost", "support")
    OTHER = "other", NP_("extra cost", "other")


class ExtraBasis(Choice):
    PER_GB = "per_gb", NP_("extra cost basis", "per_gb")  # per GB of usage (egress)
    PER_TB_MONTH = "per_tb_month", NP_("extra cost basis", "per_tb_month")  # per TB stored per month
    PER_MONTH = "per_month", NP_("extra cost basis", "per_month")  # flat per month for the whole deal
    PER_NODE_MONTH = "per_node_month", NP_("extra cost basis", "per_node_month")
    PER_HOUR = "per_hour", NP_("extra cost basis", "per_hour")
    ONE_OFF = "one_off", NP_("extra cost basis", "one_off")


class PowerBasis(Choice):
    """What a quoted power bill covers (``ownership.py``): the computed power, kW × PUE × hours × tariff,
    includes the data centre's cooling; a bill for the servers' own draw does not, so PUE is added to it."""

    # the servers' own draw, metered at the rack: cooling (PUE) comes on top
    SERVERS = "servers", NP_("power basis", "servers")
    # the whole bill, cooling and the building included: counted as quoted
    FACILITY = "facility", NP_("power basis", "facility")


class Provenance(Choice):
    CLAIMED = "claimed", NP_("provenance", "claimed")  # stated by the provider, with its source
    VERIFIED = "verified", NP_("provenance", "verified")  # parsed from raw evidence we hold


class SourceKind(Choice):
    ARTICLE = "article", NP_("source kind", "article")
    EMAIL = "email", NP_("source kind", "email")
    CALL = "call", NP_("source kind", "call")
    WEBSITE = "website", NP_("source kind", "website")
    SPREADSHEET = "spreadsheet", NP_("source kind", "spreadsheet")
    LOG = "log", NP_("source kind", "log")
    OTHER = "other", NP_("source kind", "other")


class PreemptionRisk(Choice):
    NONE = "none", NP_("preemption risk", "none")
    LOW = "low", NP_("preemption risk", "low")
    HIGH = "high", NP_("preemption risk", "high")
    UNKNOWN = "unknown", NP_("preemption risk", "unknown")


class AtTermEnd(Choice):
    """What a contract does at the end of its term (an amendment records notice given: ``ends``)."""

    RENEWS = "renews", NP_("term end", "renews")
    ENDS = "ends", NP_("term end", "ends")


class BillingCadence(Choice):
    MONTHLY = "monthly", NP_("billing cadence", "monthly")
    QUARTERLY = "quarterly", NP_("billing cadence", "quarterly")
    HALF_YEARLY = "half_yearly", NP_("billing cadence", "half_yearly")
    ANNUALLY = "annually", NP_("billing cadence", "annually")
    UPFRONT = "upfront", NP_("billing cadence", "upfront")


class Metric(Choice):
    """Benchmark metrics the verification rules understand."""

    MFU = "mfu", NP_("metric", "mfu")  # fraction of peak dense BF16 achieved by a training job
    GEMM_TFLOPS = "gemm_tflops", NP_("metric", "gemm_tflops")  # dense BF16 matmul throughput per GPU
    GEMM_PCT_OF_PEAK = "gemm_pct_of_peak", NP_("metric", "gemm_pct_of_peak")
    ALLREDUCE_BUSBW = "allreduce_busbw", NP_("metric", "allreduce_busbw")  # GB/s, large messages
    TRAINING_DAYS = "training_days", NP_("metric", "training_days")  # claimed wall time of a training run
    TOKENS_PER_SEC_PER_GPU = "tokens_per_sec_per_gpu", NP_("metric", "tokens_per_sec_per_gpu")
    SCALING_EFFICIENCY = "scaling_efficiency", NP_("metric", "scaling_efficiency")
    GPU_UTILISATION = "gpu_utilisation", NP_("metric", "gpu_utilisation")
    # a price comparison: ``conditions`` names the offers compared
    CHEAPER_THAN = "cheaper_than", NP_("metric", "cheaper_than")


class Qualifier(Choice):
    """A claim's own wording of precision (stored as text; empty for an exact figure)."""

    ABOUT = "about", NP_("qualifier", "about")  # 约
    AT_LEAST = "at_least", NP_("qualifier", "at_least")  # 以上, 85%+
    AT_MOST = "at_most", NP_("qualifier", "at_most")


GEMM_MIN_SHARE = Fraction(7, 10)
"""A verified dense BF16 GEMM under 70 % of the sold model's datasheet peak is throttled, shared or another
part: healthy GPUs reach 80-87 % (DESIGN.md section 4.1). The gemm acceptance item's title names it."""


class AcceptanceCheck(Choice):
    """The items of an acceptance checklist, in order (``scale-out`` is typed either way); what each one
    requires is ``domain/verification/acceptance.py``'s (declared here so that a field can name its choices
    without importing the log readers). Each item's word is its title, the one name it is shown by (the
    checklist, the contract screen, a refusal) and may be typed by (``acceptance waive "单节点 AllReduce"``)."""

    INVENTORY = "inventory", N_("Inventory and model")
    TOPOLOGY = "topology", N_("NVLink topology")
    GEMM = "gemm", N_("GEMM ≥ {share} of peak")
    ALLREDUCE = "allreduce", N_("Single-node AllReduce")
    BURN = "burn", N_("gpu-burn or DCGM level 3 clean")
    SCALE_OUT = "scale_out", N_("Scale-out AllReduce")
    ECC = "ecc", N_("No ECC errors")

    @property
    def word(self) -> str:
        """The item's title in the language in use (the gemm item's with its floor: ``GEMM ≥ 70 % of peak``)."""
        return super().word.format(share=percent(int(GEMM_MIN_SHARE * 100)))


WAIVER_BUYER = "buyer"
"""Who accepts a waiver's risk when no one is named (``acceptance waive``'s default): a role, not a name, stored as
this code and shown as its word (``verification.acceptance.Waiver.by_word``; ``--json`` keeps the code)."""
WAIVER_BUYER_WORD = NP_("who accepts the risk", "buyer")


class ChangeAction(Choice):
    """What a change did to a row, in the audit trail (``store/audit.py``)."""

    ADDED = "added", NP_("change", "added")
    CHANGED = "changed", NP_("change", "changed")
    REMOVED = "removed", NP_("change", "removed")


class AwardObjective(Choice):
    """What the award minimises: the total cost of the need, or the cost per delivered PFLOP-hour."""

    COST = "cost", NP_("award objective", "cost")
    PFLOP_HOUR = "pflop_hour", NP_("award objective", "pflop_hour")


class InviteState(Choice):
    """Where an RFQ sent to one provider stands (overdue: still sent after the answers were due)."""

    SENT = "sent"
    ANSWERED = "answered"
    DECLINED = "declined"
