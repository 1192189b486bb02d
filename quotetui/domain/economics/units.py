"""Price units: any quoted unit to per GPU-hour and per node-month, and back, exactly.

Each unit is one declared rule (:data:`UNITS`): what one unit of price covers (a GPU or a node, an hour, a month
or the whole term), its words and its short label. The engine's conversion and the TCO sheet's formula both
derive from it."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from quotetui.domain.economics.assumptions import HOURS_PER_MONTH
from quotetui.domain.enums import PriceUnit
from quotetui.domain.errors import BadInput
from quotetui.language import N_, _
from quotetui.language.lists import quoted

TERM_TOTAL_NEEDS_TERM = N_("a price for the whole term needs a term of at least 1 month")
"""The one message for the rule, wherever a price is entered (``entities.py``'s round rule) or converted (in
English: shown through ``_()``)."""


@dataclass(frozen=True, slots=True)
class UnitRule:
    """What one unit of price covers: a node-month price is the amount × GPUs per node (``per_gpu``) × hours a
    month (``per_hour``) ÷ the term's months (``per_term``: a price for the whole term)."""

    per_gpu: bool
    per_hour: bool
    per_term: bool
    words: str  # "per GPU-hour" (in English: shown through ``_()``)
    short: str  # "/GPU-h", after a price in a narrow column (likewise)

    def node_month_factor(self, gpus_per_node: int, term_months: int, hours_per_month: int) -> Fraction:
        """How many node-months one unit of price is worth (price per node-month = amount ÷ factor)."""
        if gpus_per_node < 1:
            raise BadInput(_("GPUs per node must be at least 1, not {n}").format(n=gpus_per_node))
        if self.per_term and term_months < 1:
            raise BadInput(_(TERM_TOTAL_NEEDS_TERM))
        per = (gpus_per_node if self.per_gpu else 1) * (hours_per_month if self.per_hour else 1)
        return Fraction(term_months if self.per_term else 1, per)  # one Fraction: the engine asks it per option

    def sheet_node_month(self, amount: str, gpus_per_node: str, term: str, hours: str) -> str:
        """The node-month price as a spreadsheet expression over the cells named."""
        return amount + f"*{gpus_per_node}" * self.per_gpu + f"*{hours}" * self.per_hour + f"/{term}" * self.per_term


UNITS = {
    PriceUnit.GPU_HOUR: UnitRule(True, True, False, N_("per GPU-hour"), N_("/GPU-h")),
    PriceUnit.NODE_HOUR: UnitRule(False, True, False, N_("per node-hour"), N_("/node-h")),
    PriceUnit.GPU_MONTH: UnitRule(True, False, False, N_("per GPU-month"), N_("/GPU-mo")),
    PriceUnit.NODE_MONTH: UnitRule(False, False, False, N_("per node-month"), N_("/node-mo")),
    PriceUnit.TERM_TOTAL: UnitRule(False, False, True, N_("per node for the whole term"), N_("/term")),
}
"""Every price unit's rule; a unit added to ``PriceUnit`` without one fails ``tests/test_economics_prices.py``."""

UNIT_WORDS = {unit: rule.words for unit, rule in UNITS.items()}
"""Each unit in words, in English: ``_(UNIT_WORDS[unit])`` where it is shown."""

PER_GPU_HOUR = "GPU-h"
PER_PFLOP_HOUR = "PFLOP-h"
"""What a cost figure is per, as its unit writes it after the currency (``CNY/GPU-h``, ``CNY/PFLOP-h``: JSON keeps
it so)."""
RATE_WORDS = {
    PER_GPU_HOUR: N_("GPU-h"),
    PER_PFLOP_HOUR: N_("PFLOP-h"),
    "node-h": N_("node-h"),
    "GPU-month": N_("GPU-month"),
    "node-month": N_("node-month"),
}
"""Each in a sentence's words (the glossary's GPU 时, 有效 PFLOP 时, 节点月); a narrow column's header has its own
short label (``/GPU-h``). The last three are what a price a claim states is per (``CNY/node-month``)."""


def rate_unit(currency: str, per: str) -> str:
    """A figure's unit as stored and as ``--json`` writes it: ``CNY/GPU-h``."""
    return f"{currency}/{per}"


def rate_unit_words(unit: str) -> str:
    """A figure's unit as a sentence shows it, in the language in use: ``CNY/GPU-h``, ``CNY/GPU 时``; a unit with
    no declared words is shown as it is."""
    currency, slash, per = unit.partition("/")
    word = RATE_WORDS.get(per) if slash else None
    return unit if word is None else f"{currency}/{_(word)}"


def _node_month_factor(unit: PriceUnit, gpus_per_node: int, term_months: int, hours_per_month: int) -> Fraction:
    rule = UNITS.get(unit)
    if rule is None:
        raise BadInput(_("unknown price unit {unit}").format(unit=quoted(unit)))
    return rule.node_month_factor(gpus_per_node, term_months, hours_per_month)


def to_node_month(
    amount: Fraction, unit: PriceUnit, gpus_per_node: int, term_months: int = 1, hours_per_month: int = HOURS_PER_MONTH
) -> Fraction:
    return amount / _node_month_factor(unit, gpus_per_node, term_months, hours_per_month)


def from_node_month(
    per_node_month: Fraction,
    unit: PriceUnit,
    gpus_per_node: int,
    term_months: int = 1,
    hours_per_month: int = HOURS_PER_MONTH,
) -> Fraction:
    """The inverse of :func:`to_node_month`: a node-month price expressed in ``unit``."""
    return per_node_month * _node_month_factor(unit, gpus_per_node, term_months, hours_per_month)


def node_month_to_gpu_hour(
    per_node_month: Fraction, gpus_per_node: int, hours_per_month: int = HOURS_PER_MONTH
) -> Fraction:
    return per_node_month / (gpus_per_node * hours_per_month)


def to_gpu_hour(
    amount: Fraction, unit: PriceUnit, gpus_per_node: int, term_months: int = 1, hours_per_month: int = HOURS_PER_MONTH
) -> Fraction:
    node_month = to_node_month(amount, unit, gpus_per_node, term_months, hours_per_month)
    return node_month_to_gpu_hour(node_month, gpus_per_node, hours_per_month)
