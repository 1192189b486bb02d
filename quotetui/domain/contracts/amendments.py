"""A contract amendment as a record: the terms it changed, each before and after, from its effective day; and
what a contract's terms are on a day (``term_on``, the one rule: the invoices' charges, the GPUs an incident
affects and what the contract's views show all ask it)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Any, Protocol

from quotetui.domain.contracts.charges import Charge
from quotetui.domain.contracts.dates import Term, last_notice_day, terms_to
from quotetui.domain.economics.exact import q
from quotetui.domain.economics.inputs import DiscountTerm
from quotetui.language import N_, NP_, _
from quotetui.language.lists import clauses, listed

TERMS = (
    "gpus",
    "monthly_charge",
    "term_months",
    "notice_days",
    "gpu",
    "acceptance_sample",
    "acceptance_sample_min",
    "at_end",
)
"""The terms an amendment can change, in the order they are said (``at_end`` is recorded as ``auto_renew``)."""

TITLES = {
    "gpus": NP_("amendment term", "GPUs"),  # said before its count, as "32 GPUs" is beside it (zh: GPU 数, not 卡数)
    "monthly_charge": N_("monthly charge"),
    "term_months": N_("term (months)"),
    "end": N_("ends"),
    "notice_days": N_("notice (days)"),
    "notice_deadline": N_("notice by"),
    "gpu": N_("GPU model"),
    "acceptance_sample": N_("acceptance sample"),
    "acceptance_sample_min": N_("acceptance sample at least"),
    "nodes": N_("nodes"),
    "auto_renew": N_("renews by itself"),
    "discounts": N_("discounts"),
}
"""Each term's words (English message ids: shown through ``_()``); the keys are the stored ones."""


@dataclass(frozen=True, slots=True)
class Amendment:
    seq: int
    effective: date
    reason: str
    recorded_by: str
    changes: dict[str, list[Any]]  # term: [before, after], as text

    def summary(self, money: Callable[[str], str] = str) -> str:
        """``GPUs 16 → 32; monthly charge 100,000.00 → 190,000.00`` (``money`` shows an amount), in the language
        in use (the values as stored)."""

        def shown(key: str, value: Any) -> str:
            if isinstance(value, bool):
                return _("yes") if value else _("no")
            if key == "discounts" and isinstance(value, list):  # the records kept (``discounts_kept``)
                return listed(DiscountTerm.kept_words(value)) or "—"
            return "—" if value is None else money(value) if key == "monthly_charge" else str(value)

        def title(key: str) -> str:
            return _(TITLES[key]) if key in TITLES else key

        return clauses(f"{title(k)} {shown(k, b)} → {shown(k, a)}" for k, (b, a) in self.changes.items())

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "effective": self.effective.isoformat(),
            "reason": self.reason,
            "recorded_by": self.recorded_by,
            "changes": self.changes,
        }


def charges_of(start: date, monthly: Fraction, amendments: list[Amendment]) -> list[Charge]:
    """The monthly charges in force over a contract's term (``monthly``: the charge now, as last amended): as
    signed, then from each amendment of the charge its value then (``term_on``)."""
    days = sorted({start, *(max(a.effective, start) for a in amendments if "monthly_charge" in a.changes)})
    return [Charge(day, q(term_on(amendments, "monthly_charge", monthly, day))) for day in days]


@dataclass(frozen=True, slots=True)
class InForce:
    """A contract's terms that amendments change, as they are on one day (``in_force``)."""

    gpus: int
    nodes: int | None  # None: signed before contracts kept what was sold
    gpu: str | None  # the GPU model's name, as sold (None: as above)
    monthly_charge: Fraction
    discounts: tuple[dict[str, Any], ...] = ()  # those the charge applies, each its stored label and rate


def in_force(
    amendments: list[Amendment],
    day: date,
    gpus: int,
    sold: dict[str, Any],
    monthly: Fraction,
    discounts: list[dict[str, Any]] | None = None,
) -> InForce:
    """The terms on ``day``, from the contract's terms now (as last amended: ``gpus``, what was ``sold``, the
    ``monthly`` charge and the ``discounts`` it applies): an amendment not yet in force on ``day`` leaves its terms
    as they were before it."""
    return InForce(
        int(term_on(amendments, "gpus", gpus, day)),
        None if sold.get("nodes") is None else int(term_on(amendments, "nodes", sold["nodes"], day)),
        term_on(amendments, "gpu", sold.get("gpu_name"), day),
        q(term_on(amendments, "monthly_charge", monthly, day)),
        discounts_kept(term_on(amendments, "discounts", discounts or [], day)),
    )


def discounts_kept(value: Any) -> tuple[dict[str, Any], ...]:
    """The discounts as a contract or an amendment keeps them: a list of records (label and rate); an amendment
    recorded before amendments kept the records holds their labels joined by ``; `` (their rates not kept: a
    label is shown as stored); None: none."""
    if isinstance(value, str):
        return tuple({"label": label, "rate": None} for label in value.split("; "))
    return tuple(value or ())


def renews_at(amendments: list[Amendment], current: bool, notice_days: int | None) -> Callable[[date], bool]:
    """Whether the contract renews at a term's end: as it stood on that renewal's notice deadline (notice given
    by an amendment in force by then ends it there; given later, at the following end)."""

    def renews(end: date) -> bool:
        return bool(term_on(amendments, "auto_renew", current, last_notice_day(end, notice_days)))

    return renews


def term_on(amendments: Sequence[Amendment], term: str, current: Any, day: date) -> Any:
    """A term's value on ``day``: the value before the first amendment of it that was not yet in force then,
    else its value now (``current``)."""
    for a in amendments:
        if term in a.changes and a.effective > day:
            return a.changes[term][0]
    return current


class Signed(Protocol):
    """A contract's terms as signed or as last amended (a stored row, or the ORM's)."""

    start_date: date
    end_date: date
    term_months: int
    auto_renew: bool
    renewal_term_months: int | None
    notice_days: int | None


def contract_terms(c: Signed, on: date, amendments: list[Amendment]) -> list[Term]:
    """The contract's signed term and, when it renews by itself, each renewal begun or certain on ``on``
    (``dates.terms_to``); where an amendment gave notice (``at_end``: ends), the renewals stop at the end it
    reached in time."""
    changed = any("auto_renew" in a.changes for a in amendments)
    return terms_to(
        c.start_date,
        c.end_date,
        c.renewal_term_months or (c.term_months if changed else None),
        c.auto_renew or changed,
        on,
        c.notice_days,
        c.term_months,
        renews_at(amendments, c.auto_renew, c.notice_days) if changed else None,
    )
