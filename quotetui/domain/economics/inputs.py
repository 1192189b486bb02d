"""What the engine reads: offers with their current price options and fine print, scenarios, evidence."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from decimal import Decimal

from quotetui.domain.economics.billing import Billing, billing
from quotetui.domain.enums import (
    BillingBasis,
    DiscountKind,
    ExtraBasis,
    ExtraKind,
    FormFactor,
    InterFabric,
    IntraFabric,
    Metric,
    Mover,
    OfferStatus,
    PriceUnit,
    Provenance,
)
from quotetui.domain.gpus import GpuSpec
from quotetui.domain.money import plain
from quotetui.language import ENGLISH, N_, _
from quotetui.language.lists import aside
from quotetui.language.numbers import percent

TERM_NAMES = {0: N_("on-demand"), 1: N_("monthly"), 3: N_("quarterly"), 6: N_("half-year"), 12: N_("annual")}


def term_name(months: int) -> str:
    """A term's name in English, as stored, compared and exported (a way to buy's label, ``--json``'s ``term``);
    :func:`term_words` shows it."""
    if months in TERM_NAMES:
        return TERM_NAMES[months]
    if months % 12 == 0:
        return f"{months // 12}-year"
    return f"{months}-month"


def term_words(months: int) -> str:
    """A term's name as people read it, in the language in use (``monthly``, ``包月``)."""
    if months in TERM_NAMES:
        return _(TERM_NAMES[months])
    if months % 12 == 0:
        return _("{years}-year").format(years=months // 12)
    return _("{months}-month").format(months=months)


DISCOUNT_NAMES = {
    DiscountKind.TERM: N_("term discount"),
    DiscountKind.VOLUME: N_("volume discount"),
    DiscountKind.PREPAY: N_("prepay discount"),
    DiscountKind.ACADEMIC: N_("academic discount"),
    DiscountKind.PROMOTION: N_("promotion discount"),
    DiscountKind.NEGOTIATED: N_("negotiated discount"),
}
"""A discount's kind in words (``{kind} discount``), marked for :func:`_` where it is shown."""


@dataclass(frozen=True, slots=True)
class PriceOption:
    """A price on the table: ``amount`` (to ``amount_high`` for a range) per ``unit`` for ``term_months``."""

    term_months: int
    unit: PriceUnit
    amount: Decimal
    currency: str
    amount_high: Decimal | None = None
    prepay: bool = False
    is_estimate: bool = False
    note: str | None = None
    from_discount: int | None = None  # implied by a term/prepay discount (its id)
    discount_kind: DiscountKind | None = None  # the kind of that discount (its label says which)
    priced_as: PriceOption | None = field(default=None, compare=False, repr=False)
    """For an option a discount implies: the quoted option whose price it is (it moves with that price)."""

    @property
    def costed_amount(self) -> Decimal:
        """The amount the engine costs: the high end of a range, since a range is not a commitment."""
        return self.amount_high if self.amount_high is not None else self.amount

    @property
    def billing(self) -> Billing:
        """How this way to buy is billed (``billing.py``): on demand, whole terms, or whole terms prepaid."""
        return billing(self.term_months, self.prepay)

    @property
    def usage_billed(self) -> bool:
        """No commitment: billed for the hours used (instances can be stopped)."""
        return self.billing.follows_use

    @property
    def label(self) -> str:
        """The way to buy in English: stored with a contract and compared (``services/contracts.py``), exported
        as ``--json``'s ``term``; :attr:`shown` is what people read."""
        name = term_name(self.term_months)
        if self.prepay:
            name += " prepaid"
        if self.from_discount is not None:
            name += f" · {(self.discount_kind or DiscountKind.TERM).value} discount"
        return name

    @property
    def shown(self) -> str:
        """:attr:`label` in the language in use (``annual prepaid``, ``包年预付``)."""
        kind = (self.discount_kind or DiscountKind.TERM) if self.from_discount is not None else None
        return way_words(self.term_months, self.prepay, kind)


def way_words(term_months: int, prepay: bool, discount: DiscountKind | None = None) -> str:
    """A way to buy in the language in use: its term, prepaid or not, and the kind of discount it comes from."""
    name = term_words(term_months)
    if prepay:
        name = _("{term} prepaid").format(term=name)
    if discount is not None:
        name += f" · {_(DISCOUNT_NAMES[discount])}"
    return name


def stored_label_shown(label: str, term_months: int, prepay: bool) -> str:
    """A way to buy stored by its English :attr:`PriceOption.label` (a contract's, as signed, with its term and
    prepay) in the language in use: the :attr:`PriceOption.shown` of the option it names; a label no option
    writes so (mixed terms) as it is stored."""
    kind = next((k for k in DiscountKind if label.endswith(f" · {k.value} discount")), None)
    option = PriceOption(
        term_months, PriceUnit.NODE_MONTH, Decimal(0), "", prepay=prepay, from_discount=0 if kind else None,
        discount_kind=kind,
    )  # fmt: skip
    return option.shown if option.label == label else label


@dataclass(frozen=True, slots=True)
class DiscountTerm:
    id: int
    kind: DiscountKind
    rate: Decimal | None
    min_term_months: int | None = None
    min_gpus: int | None = None
    requires_prepay: bool = False
    description: str | None = None

    @property
    def needs_prepay(self) -> bool:
        """A prepay discount is for paying in advance, whether or not the row says so again."""
        return self.requires_prepay or self.kind is DiscountKind.PREPAY

    @property
    def label(self) -> str:
        """The discount in English, as a contract keeps it (``services/contracts.py``); :attr:`shown` is what
        people read."""
        return self._words(f"{self.kind.value} discount", "rate not quoted", ENGLISH)

    @property
    def shown(self) -> str:
        """:attr:`label` in the language in use (the description as typed)."""
        return self._words(_(DISCOUNT_NAMES[self.kind]), _("rate not quoted"))

    @classmethod
    def stored_words(cls, label: str, rate: str | None) -> str:
        """A discount as a contract keeps it (its :attr:`label`, stored English, and its rate) in the language in
        use; a label quotetui did not write, as stored."""
        try:
            term = cls(
                0, DiscountKind(label.partition(" discount")[0]), None if rate in (None, "None") else Decimal(rate)
            )
        except (ValueError, ArithmeticError):
            return label
        rest = label.removeprefix(term.label)
        if rest == label:
            return label
        described = rest.strip().removeprefix("(").removesuffix(")") if rest.strip() else None
        return replace(term, description=described).shown

    @classmethod
    def kept_words(cls, kept: Iterable[Mapping[str, str | None]]) -> list[str]:
        """The discounts a contract keeps (its snapshot's, an amendment's: each a stored label and its rate), each
        in the language in use (:meth:`stored_words`)."""
        return [cls.stored_words(str(d["label"]), d.get("rate")) for d in kept]

    def _words(self, kind: str, unquoted: str, tag: str | None = None) -> str:
        rate = percent(plain(self.rate * 100), tag) if self.rate is not None else unquoted
        said = (self.description or "").replace(" ", "").replace("％", "%").removesuffix("%")
        restated = self.rate is not None and said == plain(self.rate * 100)  # "5%" says the rate again: once
        head = f"{kind} {rate}"
        if not self.description or restated:
            return head
        return f"{head} ({self.description})" if tag == ENGLISH else aside(head, self.description)  # stored: English


@dataclass(frozen=True, slots=True)
class ExtraTerm:
    id: int
    kind: ExtraKind
    basis: ExtraBasis
    amount: Decimal | None
    currency: str
    refundable: bool = False
    description: str | None = None

    @property
    def label(self) -> str:
        """The extra cost in English (its description as typed, else its kind), as a contract keeps it
        (``services/contracts.py``); :attr:`shown` is what people read."""
        return self.description or self.kind.value.replace("_", " ")

    @property
    def shown(self) -> str:
        """:attr:`label` in the language in use (a description stays as typed)."""
        return self.description or self.kind.spaced

    @staticmethod
    def stored_words(label: str) -> str:
        """An extra cost as a contract keeps it (its :attr:`label`, stored: a description as typed, else its kind
        in English words) in the language in use."""
        return next((k.spaced for k in ExtraKind if label == k.value.replace("_", " ")), label)


@dataclass(frozen=True, slots=True)
class Evidence:
    """A benchmark figure about an offer, with provenance; used to pick the MFU assumption."""

    id: int
    provenance: Provenance
    metric: Metric
    value: Decimal
    value_high: Decimal | None = None
    qualifier: str = ""
    workload: str | None = None
    source: str | None = None  # the claim's source title, or the evidence's tool and host
    gpu_count: int | None = None  # the GPUs it was measured on, where known
    model_params: Decimal | None = None  # the parameters of the model it was measured on, where known


@dataclass(frozen=True, slots=True)
class Revision:
    seq: int
    mover: Mover
    quoted_on: date
    options: tuple[PriceOption, ...]


@dataclass(frozen=True, slots=True)
class OfferInput:
    id: int
    provider: str
    name: str
    gpu: GpuSpec
    gpus_per_node: int
    billing_basis: BillingBasis
    status: OfferStatus
    options: tuple[PriceOption, ...]  # the current revision's price options
    nodes_available: int | None = None
    intra_fabric: IntraFabric = IntraFabric.UNKNOWN
    inter_fabric: InterFabric = InterFabric.UNKNOWN
    inter_gbps_per_gpu: Decimal | None = None  # scale-out NIC bandwidth per GPU (Gb/s)
    prorata_days: bool = False
    quoted_at: datetime | None = None  # when the current round was quoted (its FX day)
    vat_rate: Decimal | None = None  # the VAT the prices include; None: not recorded
    special_invoice: bool = False  # 专票: the buyer can recover the VAT
    is_estimate: bool = False
    round_is_estimate: bool = False  # the current round's figures are marked as estimates
    discounts: tuple[DiscountTerm, ...] = ()
    extras: tuple[ExtraTerm, ...] = ()
    availability: Decimal | None = None
    sla_credits: bool = False  # the SLA has a credit schedule: its availability is a promise with a remedy
    evidence: tuple[Evidence, ...] = ()
    revisions: tuple[Revision, ...] = field(default=())  # every round, oldest first
    provider_kind: str = ""
    form_factor: FormFactor | None = None  # as the offer states it (None: the GPU's own)
    region: str | None = None
    valid_until: date | None = None

    @property
    def configuration(self) -> str:
        """A short description of the machine: ``8×H100 SXM5 · NVSwitch · IB NDR``."""
        parts = [f"{self.gpus_per_node}×{self.gpu.name}"]
        parts += [f.short_name for f in (self.intra_fabric, self.inter_fabric) if f.short]
        return " · ".join(parts)

    @property
    def currency(self) -> str:
        return self.options[0].currency


# Quotes still being worked on: a lapsed validity matters only for these.
OPEN_STATUSES = (OfferStatus.DRAFT, OfferStatus.REQUESTED, OfferStatus.QUOTED, OfferStatus.NEGOTIATING)


def lapsed(offer: OfferInput, on: date) -> bool:
    """An open quote whose valid-until day has passed by ``on``: still ranked (the provider may renew it), and
    flagged wherever offers are listed."""
    return offer.valid_until is not None and offer.valid_until < on and offer.status in OPEN_STATUSES


@dataclass(frozen=True, slots=True)
class ScenarioInput:
    name: str
    gpu_count: int
    months: int
    utilisation: Decimal
    home_currency: str
    egress_tb_month: Decimal = Decimal(0)
    storage_tb: Decimal = Decimal(0)
    train_flops: Decimal | None = None
    train_params: Decimal | None = None
    train_tokens: Decimal | None = None
    gpu: GpuSpec | None = None

    @property
    def flops(self) -> Decimal | None:
        if self.train_flops is not None:
            return self.train_flops
        if self.train_params is not None and self.train_tokens is not None:
            return 6 * self.train_params * self.train_tokens
        return None
