"""How a way to buy is billed: one rule object per way, read by everything that bills.

A way to buy is a price option's term and whether it is prepaid (``PriceOption.billing``). Its rule says

* which months a need of ``m`` months pays for (:meth:`Billing.billed_months`) and what share of them use
  bills (:meth:`Billing.use_factor`): on demand, the months needed at the utilisation (730 × utilisation hours
  a month); committed, whole terms whatever the use: ⌈m ÷ t⌉ × t months;
* what a training run of ``h`` wall-clock hours pays (:meth:`Billing.run`): on demand its hours rounded up;
  a monthly plan whole months, or whole days where the provider bills part months pro rata; a longer term
  whole terms;
* when it is paid (:attr:`Billing.paid`): as it is used, month by month, or each term's sum at its start
  (rent vs buy's cash flows);
* the same rules as spreadsheet formulas (:meth:`Billing.sheet_months_paid`, :meth:`Billing.sheet_use`) for
  the TCO sheet, so that the sheet and the engine cannot bill differently;
* the compute line in words (:meth:`Billing.compute_words`) for ``explain``.

Extra costs have their rule per basis too (:data:`EXTRA_RULES`): which of a month's usages they are billed on;
and each kind of extra cost the bases it can be charged on (:data:`EXTRA_BASES`): a pair outside it is refused
where an extra cost is entered (``entities.EXTRA``'s rule) and, already stored, costed as recorded but flagged
(``evaluate.offer_estimates``).

The costing (``costing.cost_option``), a prepay discount's condition, the training planner, rent vs buy,
``explain`` and the TCO sheet ask the rule how a way bills; how many whole terms of a committed option a mix of
terms takes, and when a prepaid term starts, are read from its term. A way that bills differently is a subclass
here and the case of :func:`billing` that picks it (with what tells it apart stored on the price option). And
:func:`cheapest_first` is the one order of ways to buy: the lower cost first; at equal cost one option before a
mix of terms, then the shorter term (less committed), then the order listed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Any, Generic, NamedTuple, TypeVar

from quotetui.domain.economics.exact import ceil
from quotetui.domain.enums import ExtraBasis, ExtraKind
from quotetui.language import N_, _, ngettext
from quotetui.language.lists import listed
from quotetui.language.numbers import percent

T = TypeVar("T")


class Paid(Enum):
    """When a way to buy's compute is paid."""

    BY_USE = "by use"  # the hours used, month by month
    MONTHLY = "monthly"  # a fixed bill each month of the term, whatever the use
    UPFRONT = "upfront"  # each term's sum at its start


@dataclass(frozen=True, slots=True)
class Billing:
    """Committed in whole terms of ``term_months``, paid month by month (the base rule; see the subclasses)."""

    term_months: int
    paid = Paid.MONTHLY

    @property
    def follows_use(self) -> bool:
        """Billed for the hours used (instances can be stopped), not for whole terms."""
        return self.paid is Paid.BY_USE

    def billed_months(self, months: int) -> int:
        """The months paid for a need of ``months``: whole terms."""
        return ceil(Fraction(months, self.term_months)) * self.term_months

    def use_factor(self, utilisation: Fraction) -> Fraction:
        """The share of the months paid that is billed: all of it, whatever the use."""
        return Fraction(1)

    def run(self, wall_hours: Fraction, hours_per_month: int, prorata_days: bool) -> tuple[Fraction, str]:
        """(node-months billed, in words) for a run of ``wall_hours``: whole terms of the whole months it
        spans; a monthly plan billed by the day for part months (``prorata_days``) pays its whole days, never
        more than those whole months (31 days of a 730-hour month are one month)."""
        paid = self.billed_months(max(ceil(wall_hours / hours_per_month), 1))
        if self.term_months == 1 and prorata_days:
            days = max(ceil(wall_hours / 24), 1)
            if days * 24 < paid * hours_per_month:  # by the day, never more than the whole months
                return Fraction(days * 24, hours_per_month), ngettext(
                    "{n} day pro rata", "{n} days pro rata", days
                ).format(n=f"{days:,}")
        return Fraction(paid), ngettext("{n} month", "{n} months", paid).format(n=f"{paid:,}")

    def sheet_months_paid(self, months: str, term: str) -> str:
        """:meth:`billed_months` as a spreadsheet expression over the cells ``months`` and ``term``."""
        return f"ROUNDUP({months}/{term},0)*{term}"

    def sheet_use(self, use: str) -> str:
        """:meth:`use_factor` as a spreadsheet expression over the utilisation cell ``use``."""
        return "1"

    def compute_words(self, nodes: str, price: str, use: str, billed: int, months: int, total: str) -> str:
        """The compute line of ``explain``: ``nodes`` × ``price`` (a node-month) over the months billed."""
        return ngettext(
            "committed in {term}-month terms: {paid} month paid for {used} used; {nodes} × {price} × {billed} = "
            "{total}",
            "committed in {term}-month terms: {paid} months paid for {used} used; {nodes} × {price} × {billed} = "
            "{total}",
            billed,
        ).format(
            term=self.term_months, paid=f"{billed:,}", used=months, nodes=nodes, price=price, billed=billed, total=total
        )

    def part_label(self, label: str, billed: int, months: int) -> str:
        """This way as a part of a mix of terms (``OptionCost.label``): how many terms of it."""
        return f"{billed // self.term_months} × {label}"

    def sheet_part_label(self, label: str, months: str, term: str) -> str:
        """:meth:`part_label` as a spreadsheet text expression over the cells ``months`` and ``term``."""
        return f'ROUNDUP({months}/{term},0)&" × {label}"'


@dataclass(frozen=True, slots=True)
class Prepaid(Billing):
    """Whole terms, each term's sum paid at its start."""

    paid = Paid.UPFRONT


@dataclass(frozen=True, slots=True)
class OnDemand(Billing):
    """No commitment: the hours used are billed (730 × utilisation a month), and the instances can be stopped."""

    paid = Paid.BY_USE

    def billed_months(self, months: int) -> int:
        return months

    def use_factor(self, utilisation: Fraction) -> Fraction:
        return utilisation

    def run(self, wall_hours: Fraction, hours_per_month: int, prorata_days: bool) -> tuple[Fraction, str]:
        hours = max(ceil(wall_hours), 1)
        return Fraction(hours, hours_per_month), ngettext("{n} hour", "{n} hours", hours).format(n=f"{hours:,}")

    def sheet_months_paid(self, months: str, term: str) -> str:
        return months

    def sheet_use(self, use: str) -> str:
        return use

    def compute_words(self, nodes: str, price: str, use: str, billed: int, months: int, total: str) -> str:
        return _("on demand: {nodes} × {price} × utilisation {use} × {billed} months = {total}").format(
            nodes=nodes, price=price, use=percent(use), billed=billed, total=total
        )

    def part_label(self, label: str, billed: int, months: int) -> str:
        return ngettext("{way} for {n} month", "{way} for {n} months", months).format(way=label, n=f"{months:,}")

    def sheet_part_label(self, label: str, months: str, term: str) -> str:
        return f'"{label} for "&{months}&IF({months}=1," month"," months")'


@functools.cache
def billing(term_months: int, prepay: bool) -> Billing:
    """The rule of a way to buy: a term of 0 months is on demand; a longer one whole terms, prepaid or not (one
    shared rule per way: the engine asks it for every option of every offer)."""
    if term_months == 0:
        return OnDemand(0)
    return Prepaid(term_months) if prepay else Billing(term_months)


def cheapest_first(total: Fraction, term_months: int, mixed: bool = False) -> tuple[Fraction, bool, int]:
    """The sort key of every choice of a way to buy (the ranking's, the training planner's, a contract's, the
    term comparison's, the award's through the ranking): the lower ``total``; at equal cost one option before
    a mix of terms, then the shorter term, the one that commits less. A stable sort keeps the order listed
    after that."""
    return total, mixed, term_months


class Usage(NamedTuple, Generic[T]):
    """A month's usage an extra cost can be billed on: the values (the engine) or the cells (the TCO sheet)."""

    egress_gb: T  # GB sent out a month
    storage_tb: T  # TB stored
    nodes: T
    hours: T  # hours billed a month per node: hours a month × the use factor


@dataclass(frozen=True, slots=True)
class ExtraRule:
    """How a recurring extra cost of one basis is billed a month: its amount × the usages named in ``per``
    (none: a flat fee), described in ``words`` (of the scenario and the nodes). ``follows_use``: it falls with
    the utilisation (rent vs buy's usage-billed part)."""

    per: tuple[str, ...]
    words: Callable[[Any, int], str]  # (the scenario, the nodes) → the usage in words
    follows_use: bool = False

    def usage(self, value: Callable[[str], Fraction | int]) -> Fraction | int:
        """The month's usage billed: the product of the usages named (``value``: one of them by its ``Usage``
        name, made only when asked: the engine costs every extra of every option)."""
        if not self.per:
            return Fraction(1)
        out = value(self.per[0])
        for name in self.per[1:]:
            out *= value(name)
        return out

    def sheet_usage(self, cells: Usage[str]) -> str:
        """The usage as a spreadsheet factor (``*P7*$B$3*R7``; empty for a flat fee)."""
        return "".join(f"*{getattr(cells, name)}" for name in self.per)


EXTRA_RULES = {
    ExtraBasis.PER_GB: ExtraRule(("egress_gb",), lambda s, n: _("{tb} TB egress a month").format(tb=s.egress_tb_month)),
    ExtraBasis.PER_TB_MONTH: ExtraRule(("storage_tb",), lambda s, n: _("{tb} TB stored").format(tb=s.storage_tb)),
    ExtraBasis.PER_NODE_MONTH: ExtraRule(("nodes",), lambda s, n: _("{n} nodes").format(n=n)),
    ExtraBasis.PER_HOUR: ExtraRule(
        ("nodes", "hours"), lambda s, n: _("{n} nodes × billed hours").format(n=n), follows_use=True
    ),
    ExtraBasis.PER_MONTH: ExtraRule((), lambda s, n: _("flat per month")),
}
"""Every recurring extra-cost basis's rule (one-off fees are paid once: ``costing._extra_line``). A basis added
to ``ExtraBasis`` without a rule here is an error where it is costed, never a silent flat fee."""


EXTRA_USAGE = {
    ExtraBasis.PER_GB: N_("per GB sent out (the scenario's egress)"),
    ExtraBasis.PER_TB_MONTH: N_("per TB stored a month (the scenario's storage)"),
    ExtraBasis.PER_MONTH: N_("a flat fee a month"),
    ExtraBasis.PER_NODE_MONTH: N_("per node a month"),
    ExtraBasis.PER_HOUR: N_("per node-hour billed"),
    ExtraBasis.ONE_OFF: N_("once"),
}
"""What each basis bills, in words without the scenario's figures (``EXTRA_RULES``' words have them)."""

_ANY_FEE = (ExtraBasis.PER_MONTH, ExtraBasis.PER_NODE_MONTH, ExtraBasis.PER_HOUR, ExtraBasis.ONE_OFF)

EXTRA_BASES: dict[ExtraKind, tuple[ExtraBasis, ...]] = {
    # a volume basis bills the scenario's volume of its one kind: egress on the GB sent out (a price per TB sent
    # out is the price per GB × 1,000), storage on the TB stored a month; neither is billed on the other's
    # volume, and no other kind on either (a fee per GB sent out is an egress charge, one per TB stored storage)
    ExtraKind.EGRESS: (ExtraBasis.PER_GB,),
    ExtraKind.STORAGE: (ExtraBasis.PER_TB_MONTH,),
    ExtraKind.PLATFORM_FEE: _ANY_FEE,
    ExtraKind.PUBLIC_IP: (ExtraBasis.PER_MONTH, ExtraBasis.PER_NODE_MONTH, ExtraBasis.PER_HOUR),
    ExtraKind.SNAPSHOT: (ExtraBasis.PER_MONTH, ExtraBasis.PER_NODE_MONTH),
    ExtraKind.SETUP_FEE: (ExtraBasis.ONE_OFF,),  # paid once, before the first month
    ExtraKind.DEPOSIT: (ExtraBasis.ONE_OFF,),  # held once (refundable: cash tied up, not a cost)
    ExtraKind.SUPPORT: _ANY_FEE,
    ExtraKind.OTHER: _ANY_FEE,
}
"""The bases each kind of extra cost is charged on, the one rule of which pairs are coherent: a basis decides what
an extra is billed on (``EXTRA_RULES``), whatever its kind, so an egress fee "per TB-month" would be billed on
the TB stored. The entry paths refuse a pair outside it (``entities.EXTRA``); one already stored is costed as
recorded and flagged (:func:`basis_flag`)."""


def admitted(kind: ExtraKind) -> str:
    """The bases ``kind`` is charged on, in words: ``egress is charged per_gb``."""
    bases = EXTRA_BASES[kind]
    said = _("{kind} is charged {bases}") if len(bases) == 1 else _("{kind} is charged one of {bases}")
    return said.format(kind=kind.spaced, bases=listed(b.spaced for b in bases))


def basis_refusal(kind: ExtraKind, basis: ExtraBasis) -> str | None:
    """Why an extra cost of ``kind`` cannot be entered charged ``basis`` (None: it can), for the basis field."""
    if basis in EXTRA_BASES[kind]:
        return None
    return _("{basis} bills {usage}: {admitted}").format(
        basis=basis.spaced, usage=_(EXTRA_USAGE[basis]), admitted=admitted(kind)
    )


def basis_flag(kind: ExtraKind, basis: ExtraBasis, extra: str) -> str | None:
    """What a buyer is told of a stored extra cost ``extra`` (its name as shown) whose basis its kind is not charged
    on (None: it is): it is costed on what its basis bills, which is named."""
    if basis in EXTRA_BASES[kind]:
        return None
    return _("{extra} is billed {usage}, as its basis {basis} says, but {admitted}: correct the record").format(
        extra=extra, usage=_(EXTRA_USAGE[basis]), basis=basis.spaced, admitted=admitted(kind)
    )


def basis_mend(extra_id: int, kind: ExtraKind, taken: Iterable[ExtraBasis] = ()) -> str:
    """The command that corrects the stored extra cost ``extra_id`` of ``kind`` whose basis its kind is not charged
    on: its basis changed to the one its kind is charged on (``BASIS``: one of several), or, where each is
    ``taken`` by another extra of its offer (the same cost recorded twice), it removed."""
    free = [b for b in EXTRA_BASES[kind] if b not in set(taken)]
    if not free:
        return f"quotetui extra remove {extra_id}"
    return f"quotetui extra edit {extra_id} --basis {free[0].value if len(free) == 1 else 'BASIS'}"


def billed_usages(bases: Iterable[ExtraBasis]) -> frozenset[str]:
    """The usages (``Usage`` names) that extra costs of ``bases`` are billed on, whatever their kinds: the scenario's
    egress or storage is priced by an offer when one of its extras is billed on it."""
    return frozenset(name for b in bases if b in EXTRA_RULES for name in EXTRA_RULES[b].per)
