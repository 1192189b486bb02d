"""The closed vocabularies of the domain. Values are the stable strings stored and exported."""

from __future__ import annotations

from enum import StrEnum
from typing import Self

from quotetui.domain.errors import BadInput, DatabaseProblem, noun
from quotetui.language import N_, _


class Choice(StrEnum):
    """A ``StrEnum`` with a user-facing parser that names the allowed values on error."""

    @classmethod
    def parse(cls, text: str | Choice, *, what: str | None = None) -> Self:
        if isinstance(text, cls):
            return text
        key = str(text).strip().lower().replace("-", "_").replace(" ", "_")
        for member in cls:
            if member.value == key:
                return member
        label = noun(what) if what else cls.__name__  # ``what``: words marked ``N_`` by the caller
        allowed = ", ".join(m.value for m in cls)
        raise BadInput(
            _("{what} {value} is not one of: {allowed}").format(what=label, value=repr(text), allowed=allowed)
        )

    @classmethod
    def stored(cls, value: object, where: str) -> Self:
        """A value read from the database (``where``: the table, the row and the column, e.g. ``offer #3,
        billing_basis``): one quotetui never writes (another program wrote it) is a database problem that names
        where it is and what is allowed, not an internal error."""
        try:
            return cls(value)
        except ValueError:
            allowed = ", ".join(m.value for m in cls)
            raise DatabaseProblem(
                _(
                    "the database holds {value} in {where}, a value quotetui never writes (one of: {allowed}); "
                    "another program changed it: correct it there, or restore a backup, and try again "
                    "(`quotetui db check` lists every such value)"
                ).format(value=shown_stored(value), where=where, allowed=allowed)
            ) from None


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
    """A value another program wrote, as a message quotes it: its ``repr`` (quotes, escapes), cut at 60
    characters (a 10,000-character value)."""
    shown = repr(value)
    return shown if len(shown) <= 60 else shown[:57] + "…"


class ProviderKind(Choice):
    LESSOR = "lessor"  # bare-metal lessor / IDC provider
    PUBLIC_CLOUD = "public_cloud"
    GPU_CLOUD = "gpu_cloud"


class FormFactor(Choice):
    """How the accelerator sits in the server. ``module``: a mezzanine module that is not NVIDIA's SXM (an
    OAM-class Huawei Ascend module on an HCCS board); it sells no NVLink, so the NVLink checks leave it alone.
    Stored as text without a CHECK constraint, so adding a value needs no migration."""

    SXM = "sxm"
    PCIE = "pcie"
    MODULE = "module"


class IntraFabric(Choice):
    NVSWITCH = "nvswitch"  # all-to-all NVLink through NVSwitch (HGX boards)
    NVLINK_BRIDGE = "nvlink_bridge"  # pairs of PCIe cards bridged
    PCIE = "pcie"
    UNKNOWN = "unknown"


class InterFabric(Choice):
    INFINIBAND_NDR = "infiniband_ndr"
    INFINIBAND_HDR = "infiniband_hdr"
    ROCE_V2 = "roce_v2"
    VENDOR_RDMA = "vendor_rdma"  # e.g. Alibaba eRDMA, Tencent Xinghai
    ETHERNET = "ethernet"
    NONE = "none"  # single node, no scale-out network
    UNKNOWN = "unknown"


class BillingBasis(Choice):
    ON_DEMAND = "on_demand"  # hourly, can be stopped
    MONTHLY = "monthly"
    RESERVED = "reserved"
    SPOT = "spot"  # preemptible


class OfferStatus(Choice):
    DRAFT = "draft"
    REQUESTED = "requested"
    QUOTED = "quoted"
    NEGOTIATING = "negotiating"
    ACCEPTED = "accepted"
    REJECTED = "rejected"
    EXPIRED = "expired"


class Mover(Choice):
    """Who put a quote revision on the table."""

    LIST = "list"  # a published list price (website, article)
    PROVIDER = "provider"  # the provider's offer in a negotiation round
    COUNTER = "counter"  # our counter-offer
    FINAL = "final"  # the agreed final price


MOVER_WORDS = {
    Mover.LIST: N_("list"),
    Mover.PROVIDER: N_("provider"),
    Mover.COUNTER: N_("counter"),
    Mover.FINAL: N_("final"),
}
"""Who moved, as people read it (the English is the code itself, as the CLI always showed it)."""


def mover_word(mover: str) -> str:
    """``mover`` (a :class:`Mover` code) in the language in use; an unknown one as it is."""
    return _(MOVER_WORDS[mover]) if mover in MOVER_WORDS else mover


class PriceUnit(Choice):
    GPU_HOUR = "gpu_hour"
    NODE_HOUR = "node_hour"
    GPU_MONTH = "gpu_month"
    NODE_MONTH = "node_month"
    TERM_TOTAL = "term_total"  # one node for the whole term (e.g. annual prepay)


class DiscountKind(Choice):
    TERM = "term"
    VOLUME = "volume"
    PREPAY = "prepay"
    ACADEMIC = "academic"
    PROMOTION = "promotion"
    NEGOTIATED = "negotiated"


class ExtraKind(Choice):
    EGRESS = "egress"
    PLATFORM_FEE = "platform_fee"
    STORAGE = "storage"
    PUBLIC_IP = "public_ip"
    SNAPSHOT = "snapshot"
    SETUP_FEE = "setup_fee"
    DEPOSIT = "deposit"
    SUPPORT = "support"
    OTHER = "other"


class ExtraBasis(Choice):
    PER_GB = "per_gb"  # per GB of usage (egress)
    PER_TB_MONTH = "per_tb_month"  # per TB stored per month
    PER_MONTH = "per_month"  # flat per month for the whole deal
    PER_NODE_MONTH = "per_node_month"
    PER_HOUR = "per_hour"
    ONE_OFF = "one_off"


class PowerBasis(Choice):
    """What a quoted power bill covers (``ownership.py``): the computed power, kW × PUE × hours × tariff,
    includes the data centre's cooling; a bill for the servers' own draw does not, so PUE is added to it."""

    SERVERS = "servers"  # the servers' own draw, metered at the rack: cooling (PUE) comes on top
    FACILITY = "facility"  # the whole bill, cooling and the building included: counted as quoted


class Provenance(Choice):
    CLAIMED = "claimed"  # stated by the provider, with its source
    VERIFIED = "verified"  # parsed from raw evidence we hold


class SourceKind(Choice):
    ARTICLE = "article"
    EMAIL = "email"
    CALL = "call"
    WEBSITE = "website"
    SPREADSHEET = "spreadsheet"
    LOG = "log"
    OTHER = "other"


class PreemptionRisk(Choice):
    NONE = "none"
    LOW = "low"
    HIGH = "high"
    UNKNOWN = "unknown"


class AtTermEnd(Choice):
    """What a contract does at the end of its term (an amendment records notice given: ``ends``)."""

    RENEWS = "renews"
    ENDS = "ends"


class BillingCadence(Choice):
    MONTHLY = "monthly"
    QUARTERLY = "quarterly"
    HALF_YEARLY = "half_yearly"
    ANNUALLY = "annually"
    UPFRONT = "upfront"


class Metric(Choice):
    """Benchmark metrics the verification rules understand."""

    MFU = "mfu"  # fraction of peak dense BF16 achieved by a training job
    GEMM_TFLOPS = "gemm_tflops"  # dense BF16 matmul throughput per GPU
    GEMM_PCT_OF_PEAK = "gemm_pct_of_peak"
    ALLREDUCE_BUSBW = "allreduce_busbw"  # GB/s, large messages
    TRAINING_DAYS = "training_days"  # claimed wall time of a training run
    TOKENS_PER_SEC_PER_GPU = "tokens_per_sec_per_gpu"
    SCALING_EFFICIENCY = "scaling_efficiency"
    GPU_UTILISATION = "gpu_utilisation"
    CHEAPER_THAN = "cheaper_than"  # a price comparison: ``conditions`` names the offers compared


class Qualifier(Choice):
    """A claim's own wording of precision (stored as text; empty for an exact figure)."""

    ABOUT = "about"  # 约
    AT_LEAST = "at_least"  # 以上, 85%+
    AT_MOST = "at_most"


class AcceptanceCheck(Choice):
    """The items of an acceptance checklist, in order (``scale-out`` is typed either way); what each one
    requires is ``domain/verification/acceptance.py``'s (declared here so that a field can name its choices
    without importing the log readers)."""

    INVENTORY = "inventory"
    TOPOLOGY = "topology"
    GEMM = "gemm"
    ALLREDUCE = "allreduce"
    BURN = "burn"
    SCALE_OUT = "scale_out"
    ECC = "ecc"


class ChangeAction(Choice):
    """What a change did to a row, in the audit trail (``store/audit.py``)."""

    ADDED = "added"
    CHANGED = "changed"
    REMOVED = "removed"


class AwardObjective(Choice):
    """What the award minimises: the total cost of the need, or the cost per delivered PFLOP-hour."""

    COST = "cost"
    PFLOP_HOUR = "pflop_hour"


class InviteState(Choice):
    """Where an RFQ sent to one provider stands (overdue: still sent after the answers were due)."""

    SENT = "sent"
    ANSWERED = "answered"
    DECLINED = "declined"
