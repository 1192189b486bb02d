"""The buy side of rent vs buy, part by part (DESIGN.md section 3).

Owning costs the capex at month 0 and, every month: colocation (rack space), power (the servers' draw at full
load × PUE × hours × tariff), operations staff, and spares/RMA (a share of the capex a year); at the horizon the
hardware is worth its residual value. Each part is given, computed from what is given, or a named default, and
says which, so a buyer sees what the verdict rests on. Ranges (capex 2.2–2.8M) count at their middle.

Conservative where a quote is optimistic: a power figure no larger than the GPUs' own TDP leaves out the rest
of the server (CPUs, memory, NICs, fans; a DGX H100 draws 10.2 kW at most for its 8 × 700 W of GPUs), so it is
raised to a whole server's draw, and both are shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from quotetui.domain.economics.display import money_number
from quotetui.domain.economics.exact import dec
from quotetui.domain.enums import PowerBasis
from quotetui.domain.money import plain
from quotetui.language import N_, _
from quotetui.language.lists import clauses
from quotetui.language.numbers import percent

DEFAULT_PUE = Fraction(156, 100)
"""Power usage effectiveness when none is given: the industry average of the Uptime Institute's surveys
(1.56-1.58 in 2023-24); new Chinese data centres must reach 1.3, old ones are often above 1.6."""

SERVER_POWER_PER_GPU_TDP = Fraction(102, 56)
"""A GPU server's draw at full load over its GPUs' TDP: a DGX H100 draws 10.2 kW for 8 × 700 W of GPUs."""

DEFAULT_TARIFF: dict[str, Fraction] = {"CNY": Fraction(8, 10), "USD": Fraction(8, 100)}
"""Electricity per kWh when none is given, by currency: China's large industrial users pay about ¥0.6-0.9,
US industrial users about $0.08 (EIA averages). Elsewhere a tariff must be given or power is left out."""

DEFAULT_SPARES_SHARE_YEAR = Fraction(5, 100)
"""Spares, RMA and out-of-warranty repairs a year, as a share of the capex, when none is given."""

DEFAULT_DEPRECIATION_YEARS = 5
"""Useful life of a GPU server for the books (large clouds book 5-6 years): owning *booked a year* is capex ÷
years + opex × 12. The residual is the straight-line book value only when the years are given; otherwise it
comes from the resale curve, because GPUs lose their resale value faster than the books assume."""

ResaleCurve = tuple[tuple[int, Fraction], ...]
"""What a GPU server resells for, as a share of its capex, by age in months; between two points the share is
read on the straight line joining them, from 100 % at month 0; after the last point it stays at the last."""

DEFAULT_RESALE_CURVE: ResaleCurve = (
    (12, Fraction(60, 100)),
    (24, Fraction(40, 100)),
    (36, Fraction(25, 100)),
    (48, Fraction(15, 100)),
    (60, Fraction(10, 100)),
)
"""An assumption, not a market quote (set yours: ``quotetui settings set --resale-curve "12:70, 36:30"``).
Data-centre GPUs lose value in steps as each generation ships (about every two years): a V100 sold for about
$10,000 in 2018 fetched about 15-20 % of that four years later; the A100 held more of its price through the
2023-24 shortage, which a buyer should not count on. Straight-line over 5 years keeps 40 % after 36 months;
this curve keeps 25 %."""


def resale_share(curve: ResaleCurve, months: int) -> Fraction:
    """The share of the capex a server resells for after ``months``, on ``curve``."""
    before_m, before_s = 0, Fraction(1)
    for m, share in curve:
        if months <= m:
            return before_s + (share - before_s) * Fraction(months - before_m, m - before_m)
        before_m, before_s = m, share
    return before_s


def curve_text(curve: ResaleCurve) -> str:
    """A curve as it is typed: ``12:60%, 24:40%`` (shares with their sign, read alike as typed or stored)."""
    return ", ".join(f"{m}:{plain(dec(share * 100, 6).normalize())}%" for m, share in curve)


def parse_resale_curve(text: str) -> ResaleCurve:
    """A curve typed ``months:share, …`` (``12:60, 24:40, 36:25``; shares as percentages, as everywhere),
    or :class:`BadInput` naming the point that is wrong. Ages rise, 1–600 months; a share never rises with age."""
    from decimal import Decimal

    from quotetui.domain.errors import BadInput
    from quotetui.domain.fields import Field, parse_value

    share_field = Field("share", N_("share"), "ratio", minimum=Decimal(0), maximum=Decimal(1), required=True)
    age_field = Field("months", N_("months"), "int", minimum=Decimal(1), maximum=Decimal(600), required=True)
    points: list[tuple[int, Fraction]] = []
    for part in text.replace("，", ",").replace("、", ",").replace("：", ":").split(","):
        if not part.strip():
            continue
        age, sep, share = part.partition(":")
        point = repr(part.strip())
        if not sep:
            raise BadInput(_("{point} needs the form months:share, e.g. 36:25").format(point=point))
        try:
            m = parse_value(age_field, age.strip())
            s = Fraction(parse_value(share_field, share.strip()))
        except BadInput as exc:
            raise BadInput(f"{point}: {str(exc).removeprefix('value ')}") from None
        if points and m <= points[-1][0]:
            raise BadInput(
                _("{point}: the ages must rise ({months} months comes before it)").format(
                    point=point, months=points[-1][0]
                )
            )
        if points and s > points[-1][1]:
            raise BadInput(_("{point}: a server never resells for more when older").format(point=point))
        points.append((m, s))
    if not points:
        raise BadInput(_("give at least one point, months:share, e.g. 36:25"))
    return tuple(points)


def middle(low: Fraction | None, high: Fraction | None) -> Fraction | None:
    if low is None:
        return None
    return (low + (high if high is not None else low)) / 2


def _amount(low: Fraction, high: Fraction | None, unit: str = "") -> str:
    if high is None or high == low:
        return f"{money_number(low, 2)}{unit}"
    return _("the middle of {low}–{high}").format(low=money_number(low, 2), high=f"{money_number(high, 2)}{unit}")


def _quoted(low: Fraction | None, high: Fraction | None) -> str:
    """How a given amount or range was counted: ``given`` or ``given: the middle of 10,000.00–20,000.00``."""
    if low is None or high is None or high == low:
        return _("given")
    return _("given: {amount}").format(amount=_amount(low, high))


@dataclass(frozen=True, slots=True)
class PurchaseTerms:
    """What a buyer knows about owning, exact; ``None`` is "not given"."""

    gpus: int
    currency: str
    capex: Fraction
    capex_high: Fraction | None = None
    capex_vat_rate: Fraction | None = None  # the VAT the capex includes (13 % for servers)
    capex_special_invoice: bool = False  # the seller issues a 专票: a VAT-registered buyer recovers that VAT
    opex_month: Fraction | None = None  # the owning costs a month as one typed total, instead of the parts
    colocation_month: Fraction | None = None
    colocation_month_high: Fraction | None = None
    power_kw: Fraction | None = None  # all the servers at full load
    pue: Fraction | None = None
    tariff_per_kwh: Fraction | None = None
    power_month: Fraction | None = None
    power_month_high: Fraction | None = None
    power_basis: PowerBasis | None = None  # what a quoted power bill covers (None: not stated, the servers)
    staff_month: Fraction | None = None
    spares_share_year: Fraction | None = None
    idle_share: Fraction | None = None  # a server's idle draw, share of its full-load draw (None: full load always)
    residual: Fraction | None = None
    residual_share: Fraction | None = None
    depreciation_years: int | None = None
    gpu_tdp_w: int | None = None  # of one GPU, from the catalogue
    name: str = ""
    horizon_months: int | None = None  # recorded with a purchase option


POWER = N_("power")
"""The power part's name (``BuyPart.name``; the others are named where they are made)."""


@dataclass(frozen=True, slots=True)
class BuyPart:
    name: str  # colocation, power, staff, spares (in English, as JSON has it: ``_(name)`` where it is shown)
    monthly: Fraction
    how: str  # where the figure comes from, in words
    kind: str  # "given", "computed", "default" or "not given"


@dataclass(frozen=True, slots=True)
class Ownership:
    terms: PurchaseTerms
    capex: Fraction
    capex_how: str
    parts: tuple[BuyPart, ...]
    residual: Fraction
    residual_how: str
    horizon_months: int
    depreciation_years: int
    resale_curve: ResaleCurve | None = None  # the curve the residual was read on; None: given or book value

    @property
    def opex_monthly(self) -> Fraction:
        return sum((p.monthly for p in self.parts), Fraction(0))

    @property
    def power_by_use(self) -> Fraction:
        """The part of the power a month at full use that idling saves (power × (1 − idle share)); 0 when the
        idle draw is not given: the servers are costed at full load every hour."""
        idle = self.terms.idle_share
        power = next((p for p in self.parts if p.name == "power"), None)
        if idle is None or power is None or self.terms.opex_month is not None:
            return Fraction(0)
        return power.monthly * (1 - idle)

    def paid_monthly(self, utilisation: Fraction) -> Fraction:
        """Owning a month at ``utilisation``: every part, the power above the idle draw in proportion to use."""
        return self.opex_monthly - self.power_by_use * (1 - utilisation)

    @property
    def spares_share(self) -> Fraction:
        """Spares and RMA a year as a share of the capex: given, else the default."""
        given = self.terms.spares_share_year
        return DEFAULT_SPARES_SHARE_YEAR if given is None else given

    @property
    def left_out(self) -> tuple[str, ...]:
        """Parts counted as zero because nothing was given: owning costs at least the figure."""
        return tuple(p.name for p in self.parts if p.kind == "not given")

    @property
    def booked_a_year(self) -> Fraction:
        """Owning a year as an accountant books it: straight-line depreciation plus twelve months of opex."""
        return self.capex / self.depreciation_years + self.opex_monthly * 12

    def lines(self) -> list[str]:
        cur = self.terms.currency
        out = [
            _("capex {amount} {currency} ({how})").format(
                amount=money_number(self.capex, 2), currency=cur, how=self.capex_how
            )
        ]
        out += [
            _("{part} {amount} {currency} a month ({how})").format(
                part=_(p.name), amount=money_number(p.monthly, 2), currency=cur, how=p.how
            )
            for p in self.parts
        ]
        out.append(
            _("residual {amount} {currency} at month {month} ({how})").format(
                amount=money_number(self.residual, 2), currency=cur, month=self.horizon_months, how=self.residual_how
            )
        )
        out.append(
            _("booked a year: {amount} {currency} (capex ÷ {years} years + {opex} × 12)").format(
                amount=money_number(self.booked_a_year, 2),
                currency=cur,
                years=self.depreciation_years,
                opex=money_number(self.opex_monthly, 2),
            )
        )
        return out


def server_kw(terms: PurchaseTerms) -> Fraction | None:
    """A whole server's draw for the GPUs bought, from their TDP (None: the model's TDP is unknown)."""
    if terms.gpu_tdp_w is None:
        return None
    return Fraction(terms.gpus * terms.gpu_tdp_w, 1000) * SERVER_POWER_PER_GPU_TDP


def _power(t: PurchaseTerms, hours_per_month: int) -> BuyPart:
    whole = server_kw(t)
    gpus_only = Fraction(t.gpus * t.gpu_tdp_w, 1000) if t.gpu_tdp_w is not None else None
    raised = t.power_kw is not None and gpus_only is not None and whole is not None and t.power_kw <= gpus_only
    why = ""
    if raised and t.power_kw is not None and gpus_only is not None:
        why = (
            _(
                "{kw} kW given is only the GPUs' own TDP ({gpus} × {tdp} W = {gpus_kw} kW); a server draws about "
                "{factor} × that, as a DGX H100's 10.2 kW"
            )
            if t.power_kw == gpus_only
            else _(
                "{kw} kW given is less than the GPUs' own TDP ({gpus} × {tdp} W = {gpus_kw} kW); a server draws "
                "about {factor} × that, as a DGX H100's 10.2 kW"
            )
        ).format(
            kw=plain(dec(t.power_kw, 6).normalize()),
            gpus=t.gpus,
            tdp=t.gpu_tdp_w,
            gpus_kw=dec(gpus_only, 2),
            factor=f"{float(SERVER_POWER_PER_GPU_TDP):.2f}",
        )
    pue, pue_how = (t.pue, _("given")) if t.pue is not None else (DEFAULT_PUE, _("default"))
    quoted = middle(t.power_month, t.power_month_high)
    if quoted is not None:
        return _quoted_power(t, quoted, whole if raised else None, why, pue, pue_how, hours_per_month)
    kw, kw_how = t.power_kw, _("given")
    if raised or kw is None:
        kw, kw_how = whole, (why if raised else _("default: a server's draw, 1.82 × the GPUs' TDP"))
    tariff, tariff_how = t.tariff_per_kwh, _("given")
    if tariff is None:
        tariff, tariff_how = DEFAULT_TARIFF.get(t.currency), _("default")
    if kw is None or tariff is None:
        missing = (
            _("not given: give the servers' kW")
            if kw is None
            else _("not given: give a tariff per kWh in {currency}").format(currency=t.currency)
        )
        return BuyPart(POWER, Fraction(0), missing, "not given")
    monthly = kw * pue * hours_per_month * tariff
    how = _(
        "{kw} kW ({kw_how}) × PUE {pue} ({pue_how}) × {hours} h × {tariff} {currency}/kWh ({tariff_how}), {load}"
    ).format(
        kw=dec(kw, 2),
        kw_how=kw_how,
        pue=dec(pue, 2),
        pue_how=pue_how,
        hours=hours_per_month,
        tariff=plain(dec(tariff, 6).normalize()),
        currency=t.currency,
        tariff_how=tariff_how,
        load=_load(t),
    )
    return BuyPart(POWER, monthly, how, "computed")


def _load(t: PurchaseTerms) -> str:
    """How the power follows use: at full load every hour, or from the idle draw up in proportion to use."""
    if t.idle_share is None:
        return _("at full load every hour (give the idle draw to count power by use)")
    idle = plain(dec(t.idle_share * 100, 4).normalize())
    return _("at full load; by use from an idle draw of {share} of it (given)").format(share=percent(idle))


def _quoted_power(
    t: PurchaseTerms,
    quoted: Fraction,
    whole: Fraction | None,
    why: str,
    pue: Fraction,
    pue_how: str,
    hours_per_month: int,
) -> BuyPart:
    """A quoted power bill on the computed power's basis: scaled to a whole server's draw when it was quoted for
    the GPUs alone (``whole``), and with the cooling (× PUE) added unless it is the facility's whole bill. The
    tariff it implies at the servers is shown, to check it against the local price of a kWh."""
    words = [
        _("{amount} quoted").format(amount=money_number(quoted, 2))
        if t.power_month_high in (None, t.power_month)
        else _quoted(t.power_month, t.power_month_high)
    ]
    monthly, kind = quoted, "given"
    if whole is not None and t.power_kw:
        monthly, kind = quoted * whole / t.power_kw, "computed"
        words.append(_("scaled to {kw} kW: {why}").format(kw=dec(whole, 2), why=why))
    if t.power_kw:
        implied = quoted / (t.power_kw * hours_per_month)
        words.append(
            _("{tariff} {currency}/kWh at the servers for {kw} kW").format(
                tariff=plain(dec(implied, 4).normalize()),
                currency=t.currency,
                kw=plain(dec(t.power_kw, 6).normalize()),
            )
        )
    if t.power_basis is PowerBasis.FACILITY:
        words += [_("the facility's bill, cooling included (given)"), _load(t)]
        return BuyPart(POWER, monthly, clauses(words), kind)
    stated = (
        _("the servers' own draw (given), × PUE {pue} ({pue_how}) for cooling, as a computed power counts it")
        if t.power_basis is PowerBasis.SERVERS
        else _(
            "the servers' own draw (assumed: the terms do not say), × PUE {pue} ({pue_how}) for cooling, as a "
            "computed power counts it"
        )
    )
    words.append(stated.format(pue=dec(pue, 2), pue_how=pue_how))
    words.append(_load(t))
    return BuyPart(POWER, monthly * pue, clauses(words), "computed")


def ownership(
    t: PurchaseTerms,
    horizon_months: int,
    hours_per_month: int,
    curve: ResaleCurve = DEFAULT_RESALE_CURVE,
    capex_factor: Fraction = Fraction(1),
) -> Ownership:
    """``capex_factor``: what the capex costs the buyer per unit invoiced, ``Assumptions.vat_factor`` of its VAT
    and 专票 (1 ÷ 1.13 when costs are net of VAT and the 13 % is recovered; else 1). A typed resale amount is
    netted alike (its output VAT is owed on a sale); a share of the capex follows the net capex."""
    capex = (middle(t.capex, t.capex_high) or Fraction(0)) * capex_factor
    parts = (
        [BuyPart(N_("owning costs"), t.opex_month, _("given as one total"), "given")]
        if t.opex_month is not None
        else _parts(t, capex, hours_per_month)
    )
    years = t.depreciation_years or DEFAULT_DEPRECIATION_YEARS
    read_on: ResaleCurve | None = None
    if t.residual is not None:
        residual = t.residual * capex_factor
        residual_how = _("given (net of its VAT)") if capex_factor != 1 else _("given")
    elif t.residual_share is not None:
        residual = capex * t.residual_share
        residual_how = _("given: {share} of the capex").format(share=percent(f"{float(t.residual_share * 100):g}"))
    elif t.depreciation_years:
        residual = max(Fraction(0), capex * (1 - Fraction(horizon_months, 12 * years)))
        residual_how = _("book value after straight-line depreciation over {years} years (given)").format(years=years)
    else:
        share, read_on = resale_share(curve, horizon_months), curve
        residual = capex * share
        residual_how = (
            _("resale at {months} months: {share} of the capex on the resale curve (default) {curve}")
            if curve == DEFAULT_RESALE_CURVE
            else _("resale at {months} months: {share} of the capex on the resale curve {curve}")
        ).format(months=horizon_months, share=percent(plain(dec(share * 100, 4).normalize())), curve=curve_text(curve))
    capex_how = _quoted(t.capex, t.capex_high)
    if capex_factor != 1 and t.capex_vat_rate is not None:
        rate = plain(dec(t.capex_vat_rate * 100, 4).normalize())
        capex_how = _("{how}; ÷ (1 + {rate}) VAT recovered with the 专票: costs are net of VAT").format(
            how=capex_how, rate=percent(rate)
        )
    return Ownership(t, capex, capex_how, tuple(parts), residual, residual_how, horizon_months, years, read_on)


def _parts(t: PurchaseTerms, capex: Fraction, hours_per_month: int) -> list[BuyPart]:
    colo = middle(t.colocation_month, t.colocation_month_high)
    colocation, staff = N_("colocation"), N_("staff")
    parts = [
        BuyPart(colocation, colo, _quoted(t.colocation_month, t.colocation_month_high), "given")
        if colo is not None
        else BuyPart(colocation, Fraction(0), _("not given: counted as 0"), "not given"),
        _power(t, hours_per_month),
        BuyPart(staff, t.staff_month, _("given"), "given")
        if t.staff_month is not None
        else BuyPart(staff, Fraction(0), _("not given: counted as 0"), "not given"),
    ]
    share = DEFAULT_SPARES_SHARE_YEAR if t.spares_share_year is None else t.spares_share_year
    kind = "default" if t.spares_share_year is None else "given"
    how = (
        _("default: {share} of the capex a year") if kind == "default" else _("given: {share} of the capex a year")
    ).format(share=percent(f"{float(share * 100):g}"))
    parts.append(BuyPart(N_("spares"), capex * share / 12, how, kind))
    return parts
