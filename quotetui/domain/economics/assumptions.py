"""Named assumptions of the engine. Each figure that rests on one says so and where it came from."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import FrozenInstanceError, dataclass
from decimal import Decimal
from fractions import Fraction

from quotetui.domain.economics.ownership import DEFAULT_RESALE_CURVE, ResaleCurve
from quotetui.domain.enums import InterFabric
from quotetui.language import NP_, _, current
from quotetui.language.numbers import percent

HOURS_PER_MONTH = 730
"""A month is 730 hours (8,760 / 12) unless the user changes it (DESIGN.md section 3)."""

GB_PER_TB = 1000  # egress and storage are billed in decimal units
SECONDS_PER_DAY = 86400

DEFAULT_MFU = Fraction(2, 5)
"""40 % of dense BF16 peak: a cautious figure inside the 35-47 % of public H100 training reports."""

DEFAULT_AVAILABILITY = Fraction(99, 100)
"""Assumed when an offer has no SLA on record: an unpromised service is not 100 % available."""

BYTES_PER_PARAMETER = 16
"""Mixed-precision Adam training state per parameter when fully sharded (weights, grads, two moments, master)."""

MFU_OPTIMISTIC = Fraction(1, 2)
"""Above 50 % MFU a claim is better than public reports (35-47 %, ~50 % is excellent)."""

MFU_IMPOSSIBLE = Fraction(3, 4)
"""Above ~75 % MFU no real training job has been reported: the claim cannot be true."""

GEMM_TYPICAL_MAX = Fraction(87, 100)
"""Achievable dense BF16 GEMM is typically 80-87 % of peak (A100 SXM ~271, H100 SXM ~795 TFLOPS)."""

GEMM_HEALTHY_SHARE = Fraction(4, 5)
"""80 % of peak: the low end of what healthy GPUs reach in published matmul sweeps. A verified GEMM below it
scales the MFU the economics assume by measured share ÷ 80 % (a throttled GPU trains proportionally slower)."""

SCALING_BY_FABRIC: dict[InterFabric, Fraction] = {
    InterFabric.INFINIBAND_NDR: Fraction(95, 100),
    InterFabric.INFINIBAND_HDR: Fraction(93, 100),
    InterFabric.ROCE_V2: Fraction(90, 100),
    InterFabric.VENDOR_RDMA: Fraction(85, 100),
    InterFabric.ETHERNET: Fraction(70, 100),
    InterFabric.UNKNOWN: Fraction(85, 100),
}
"""Default scaling efficiency of a multi-node job by scale-out fabric; one NVLink node is 1.0.

The seeds report 92-93 % weak scaling at 32 H100 on InfiniBand and 10-15 % less on RoCE at that size;
vendor RDMA (eRDMA, 星海) sits between RoCE and Ethernet; an unknown fabric gets the vendor-RDMA figure.
"""


@dataclass(frozen=True, slots=True)
class Assumptions:
    """The knobs a user may change; every result records the ones it used."""

    hours_per_month: int = HOURS_PER_MONTH
    default_mfu: Fraction = DEFAULT_MFU
    default_availability: Fraction = DEFAULT_AVAILABILITY
    time_zone: str = "UTC"  # IANA name: the days dates are shown in (stored times are UTC)
    discount_rate: Fraction = Fraction(0)  # a year, for present values (rent vs buy, term choice)
    net_of_vat: bool = False  # cost offers with a 专票 without the VAT the buyer recovers
    resale_curve: ResaleCurve = DEFAULT_RESALE_CURVE  # what owned hardware resells for, by age (rent vs buy)

    def vat_factor(self, rate: Decimal | None, special_invoice: bool) -> Fraction:
        """What an amount invoiced with VAT at ``rate`` costs the buyer: 1 ÷ (1 + rate) when costs are shown net
        and a 专票 lets the VAT be recovered, else 1 (gross, or no invoice to recover it with)."""
        if not self.net_of_vat or not special_invoice or not rate:
            return Fraction(1)
        return 1 / (1 + Fraction(rate))

    def words(self) -> str:
        """The assumptions in one line, as ``explain`` shows them."""
        mfu, avail, rate = self.default_mfu * 100, self.default_availability * 100, self.discount_rate * 100
        if self.net_of_vat:
            line = _(
                "{hours} hours a month; default MFU {mfu}; default availability {availability}; discount rate "
                "{rate} a year; costs net of recoverable VAT; dates in {zone} (`quotetui settings` changes them)"
            )
        else:
            line = _(
                "{hours} hours a month; default MFU {mfu}; default availability {availability}; discount rate "
                "{rate} a year; costs as invoiced, VAT included; dates in {zone} (`quotetui settings` changes them)"
            )
        return line.format(
            hours=self.hours_per_month,
            mfu=percent(f"{float(mfu):g}"),
            availability=percent(f"{float(avail):g}"),
            rate=percent(f"{float(rate):g}"),
            zone=self.time_zone,
        )

    @property
    def hours_per_year(self) -> int:
        return self.hours_per_month * 12


SOURCES = {
    "verified": NP_("figure source", "verified"),
    "claimed": NP_("figure source", "claimed"),
    "sla": NP_("figure source", "sla"),
    "default": NP_("figure source", "default"),
    "given": NP_("figure source", "given"),
}
"""Where an assumed figure comes from (:attr:`Assumed.source`, a code: JSON and the engine compare it), as people
read it: :attr:`Assumed.source_word`."""


class Assumed:
    """A value the figures rest on, and why it is what it is.

    ``note`` may be given as a function of no arguments: its words are then made when first read (a ranking
    of 100,000 offers reads a few of them; making them all cost 7 % of it), and again when read in another
    language (the TUI switches without restarting). Immutable; equal when value, source, note and measured
    GPUs are."""

    __slots__ = ("_made", "_note", "measured_gpus", "source", "value")

    value: Fraction
    source: str  # verified | claimed | sla | default | given
    measured_gpus: int | None  # an MFU measured on this many GPUs (None: a whole-job or default figure)
    _note: str | Callable[[], str]
    _made: str | None  # (language, words) of a note made by its function

    def __init__(
        self, value: Fraction, source: str, note: str | Callable[[], str], measured_gpus: int | None = None
    ) -> None:
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "_note", note)
        object.__setattr__(self, "_made", None)
        object.__setattr__(self, "measured_gpus", measured_gpus)

    @property
    def source_word(self) -> str:
        """:attr:`source` in the language in use (``default``, ``默认``)."""
        return _(SOURCES[self.source]) if self.source in SOURCES else self.source

    @property
    def note(self) -> str:
        note = self._note
        if isinstance(note, str):
            return note
        made = self._made
        language = current()
        if made is None or made[0] != language:
            made = (language, note())
            object.__setattr__(self, "_made", made)
        return made[1]

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def _fields(self) -> tuple[Fraction, str, str, int | None]:
        return self.value, self.source, self.note, self.measured_gpus

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Assumed) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (
            f"Assumed(value={self.value!r}, source={self.source!r}, note={self.note!r}, "
            f"measured_gpus={self.measured_gpus!r})"
        )
