"""What qualifies a figure, carried with it to every view: one rendering, so no screen or sheet can drop it.

A cost figure of an offer is qualified by
* ``≥`` a lower bound: a cost the scenario incurs is not priced (``Evaluation.unpriced``);
* ``~`` an estimate: it rests on figures marked as estimates (``Evaluation.estimates``, with the reasons);
* ``✗`` the offer has critical findings (a claim that cannot be true, a log that contradicts what was sold);
* ``!`` its quote lapsed (an open quote past its valid-until day); in a flags cell also a finding's warning (an
  optimistic claim, fewer GPUs than sold), which does not mark the figures;
* ``¤`` its VAT is not recorded while figures are net of VAT: it may still include VAT the others do not.

``≥`` and ``~`` qualify the number and go before it; the others are about the offer and follow it. Every front
end shows a figure through :func:`figure_text` (or, in a sheet, :func:`number_format`), and explains the marks
with :func:`legend` and :meth:`Caveats.words`; every front end's flags cell (the offers tables, compare, the
workbook's Summary and Benchmarks) is :meth:`Caveats.flags`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import Protocol

from quotetui.domain.economics import display
from quotetui.domain.economics.inputs import OfferInput, lapsed
from quotetui.domain.enums import Choice, Severity
from quotetui.language import N_, _
from quotetui.language.dates import day_text
from quotetui.language.lists import clauses, listed


class Found(Protocol):
    """A finding as its caveats see it (``domain/verification/findings.Finding``): its severity and code."""

    @property
    def severity(self) -> Severity: ...
    @property
    def code(self) -> Choice: ...


LOWER_BOUND = "≥"
ESTIMATE = "~"
CRITICAL = Severity.CRITICAL.mark  # a critical finding
WARNING = Severity.WARNING.mark  # a finding's warning
LAPSED = WARNING  # a lapsed quote is a warning
VAT_UNKNOWN = "¤"

_LEGEND = N_(
    "{lower_bound} at least (a cost not priced) · {estimate} estimate · {critical} critical finding · "
    "{warning} a warning: a finding's, or the quote lapsed · {vat_unknown} VAT not recorded (costs net of VAT)"
)


def legend() -> str:
    """The marks in one line, for the foot of a table or the title of a sheet, in the language in use."""
    return _(_LEGEND).format(
        lower_bound=LOWER_BOUND, estimate=ESTIMATE, critical=CRITICAL, warning=WARNING, vat_unknown=VAT_UNKNOWN
    )


def legend_line() -> str:
    """:func:`legend` as a line of its own (the foot of ``offers``, the TUI's help): ``marks: ≥ at least …``."""
    return _("marks: {legend}").format(legend=legend())


@dataclass(frozen=True, slots=True)
class Caveats:
    unpriced: tuple[str, ...] = ()  # costs not priced: the figure is a lower bound
    estimates: tuple[str, ...] = ()  # why it rests on estimates
    critical: tuple[Choice, ...] = ()  # the offer's critical findings' codes (``FindingCode``; one per finding)
    lapsed: date | None = None  # the valid-until day of a lapsed open quote
    vat_unknown: bool = False  # net of VAT asked for, the offer's VAT not recorded
    warnings: tuple[Choice, ...] = ()  # its warnings' codes (one per finding): its flags say them, not its figures

    @property
    def lower_bound(self) -> bool:
        return bool(self.unpriced)

    @property
    def of_price(self) -> Caveats:
        """The caveats of a price (per GPU-hour, per node-month) rather than a cost: a price leaves nothing out,
        so it is never a lower bound; every other caveat stays."""
        return replace(self, unpriced=()) if self.unpriced else self

    @property
    def prefix(self) -> str:
        """The marks that qualify the number itself: ``≥ ``, ``~``, ``≥ ~``."""
        return (f"{LOWER_BOUND} " if self.unpriced else "") + (ESTIMATE if self.estimates else "")

    @property
    def suffix(self) -> str:
        """The marks about the offer: ``✗``, ``!``, ``¤``, together (``✗!``)."""
        marks = (CRITICAL, self.critical), (LAPSED, self.lapsed), (VAT_UNKNOWN, self.vat_unknown)
        return "".join(mark for mark, present in marks if present)

    @property
    def marks(self) -> str:
        """Every mark, for a flags cell: ``≥ ~ ✗ !``."""
        marks = (LOWER_BOUND * bool(self.unpriced), ESTIMATE * bool(self.estimates), *self.suffix)
        return " ".join(m for m in marks if m)

    def __bool__(self) -> bool:
        return bool(self.unpriced or self.estimates or self.critical or self.lapsed or self.vat_unknown)

    def flags(self) -> list[str]:
        """Short words for a flags cell, the same in every front end: the findings (``✗ 2× implausible-claim``,
        ``! 3× implausible-claim``: :func:`finding_flags`), ``~ estimate``, ``! lapsed …``, ``¤ VAT not
        recorded``. The costs not priced are not among them: every table's cost cells carry ``≥`` themselves."""
        found = [*((Severity.CRITICAL, c) for c in self.critical), *((Severity.WARNING, c) for c in self.warnings)]
        out = finding_flags(found)
        if self.estimates:
            out.append(f"{ESTIMATE} " + _("estimate"))
        if self.lapsed:
            out.append(f"{LAPSED} " + _("lapsed {day}").format(day=self.lapsed.isoformat()))
        if self.vat_unknown:
            out.append(f"{VAT_UNKNOWN} " + _("VAT not recorded"))
        return out

    def words(self, offer_id: int | None = None) -> list[str]:
        """One sentence per caveat, for ``explain``, the brief and a sheet's caveats cell."""
        out = []
        if self.unpriced:
            out.append(f"{LOWER_BOUND} " + _("a lower bound: not priced: {costs}").format(costs=clauses(self.unpriced)))
        if self.estimates:
            out.append(f"{ESTIMATE} " + _("an estimate: {reasons}").format(reasons=clauses(self.estimates)))
        if self.critical:
            found = listed(_counted(self.critical))
            check = f"`quotetui bench check --offer {offer_id}`" if offer_id is not None else "`quotetui bench check`"
            out.append(f"{CRITICAL} " + _("critical findings: {codes} ({check} explains each)").format(
                codes=found, check=check
            ))  # fmt: skip
        if self.lapsed:
            out.append(
                f"{LAPSED} "
                + _("the quote lapsed {day} (valid until): ask for a new one").format(day=day_text(self.lapsed))
            )
        if self.vat_unknown:
            out.append(
                f"{VAT_UNKNOWN} "
                + _(
                    "costs are shown net of VAT but this offer's VAT is not recorded: its figures may still include VAT"
                )
            )
        return out

    def to_json(self) -> dict[str, object]:
        return {
            "marks": self.marks,
            "lower_bound": self.lower_bound,
            "unpriced": list(self.unpriced),
            "estimates": list(self.estimates),
            "critical_findings": [code.value for code in self.critical],
            "warning_findings": [code.value for code in self.warnings],
            "lapsed": None if self.lapsed is None else self.lapsed.isoformat(),
            "vat_unknown": self.vat_unknown,
        }

    def __or__(self, other: Caveats) -> Caveats:
        """The caveats of a sum of figures (an award's total): every one of both."""
        lapsed = [d for d in (self.lapsed, other.lapsed) if d is not None]
        return Caveats(
            _union(self.unpriced, other.unpriced),
            _union(self.estimates, other.estimates),
            self.critical + other.critical,
            min(lapsed) if lapsed else None,
            self.vat_unknown or other.vat_unknown,
            self.warnings + other.warnings,
        )


NONE = Caveats()


def for_offer(base: Caveats, offer: OfferInput, on: date | None, findings: Iterable[Found] = ()) -> Caveats:
    """``base`` (an evaluation's own caveats) with the offer's: its findings (:func:`with_findings`) and, as of
    ``on``, a lapsed quote."""
    when = offer.valid_until if on is not None and lapsed(offer, on) else None
    return with_findings(replace(base, lapsed=when), findings)


def with_findings(base: Caveats, findings: Iterable[Found]) -> Caveats:
    """``base`` with the codes of the offer's critical findings and of its warnings (one per finding)."""
    found = list(findings)
    return replace(
        base,
        critical=tuple(f.code for f in found if f.severity is Severity.CRITICAL),
        warnings=tuple(f.code for f in found if f.severity is Severity.WARNING),
    )


def with_offer(own: Caveats, held: Caveats | None) -> Caveats:
    """An evaluation's own caveats (``own``: a lower bound, estimates, VAT) with its offer's from ``held`` (its
    findings, a lapsed quote), as a view that read the offer's findings apart puts them together."""
    return own if held is None else replace(own, critical=held.critical, warnings=held.warnings, lapsed=held.lapsed)


def finding_flags(found: Iterable[tuple[Severity, Choice]]) -> list[str]:
    """Findings (each one's severity and code) as a flags cell says them: each code once, under the mark of its
    worst finding and counted with all of its findings (one critical and one warning implausible claim:
    ``✗ 2× implausible-claim``, ``bench check`` telling them apart), the most severe first: ``✗ 2× 宣称不可信``,
    ``! 远低于市场价``."""
    worst: dict[Choice, Severity] = {}
    counts: Counter[Choice] = Counter()
    for severity, code in found:
        counts[code] += 1
        if code not in worst or severity.order < worst[code].order:
            worst[code] = severity
    ordered = sorted(counts, key=lambda code: worst[code].order)  # stable: first found first
    return [f"{worst[code].mark} {_times(code, counts[code])}" for code in ordered]


def _times(code: Choice, n: int) -> str:
    return f"{n}× {code.word}" if n > 1 else code.word


def _counted(codes: tuple[Choice, ...]) -> list[str]:
    """Each finding code once, as its word, counted where it repeats: ``2× implausible-claim``, ``2× 宣称不可信``."""
    return [_times(code, n) for code, n in Counter(codes).items()]


def _union(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
    return a + tuple(x for x in b if x not in a)


def merged(caveats: Iterable[Caveats]) -> Caveats:
    out = NONE
    for c in caveats:
        out = out | c
    return out


def figure_text(
    value: Fraction | Decimal, caveats: Caveats, places: int = 2, unit: str = "", *, money: bool | None = None
) -> str:
    """The one way a figure is shown: ``≥ ~1,234.56 ✗!`` (separators, ``places`` decimals, its marks), with
    ``unit`` (a currency) between the number and the offer's marks: ``≥ 1,234.56 CNY ✗``. An amount of money is
    written in the money style (``≥ 422.40万 CNY ✗``): it is money when its unit is (``display.is_money``), or
    ``money`` says so where the unit is not written beside it (a column's heading names the currency)."""
    is_money = display.is_money(unit) if money is None else money
    number = display.money_number(value, places) if is_money else display.grouped(value, places)
    after = " ".join(part for part in (unit, caveats.suffix) if part)
    return f"{caveats.prefix}{number}{' ' + after if after else ''}"


def money_figure(value: Fraction | Decimal, caveats: Caveats, currency: str, places: int = 2) -> str:
    """:func:`figure_text` with its currency: ``≥ 1,234.56 CNY ✗``."""
    return figure_text(value, caveats, places, currency)


def number_format(caveats: Caveats, base: str) -> str:
    """A spreadsheet number format that shows the marks around a number that stays a number
    (``"≥ ~"#,##0.00 "CNY" "✗"``)."""
    prefix, suffix = caveats.prefix, caveats.suffix
    out = base
    if prefix:
        out = f'"{prefix}"{out}'
    if suffix:
        out = f'{out} "{suffix}"'
    return out
