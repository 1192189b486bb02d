"""Price units: any quoted unit to per GPU-hour and per node-month, and back, exactly."""

from __future__ import annotations

from fractions import Fraction

from quotetui.domain.economics.assumptions import HOURS_PER_MONTH
from quotetui.domain.enums import PriceUnit
from quotetui.domain.errors import BadInput

TERM_TOTAL_NEEDS_TERM = "a price for the whole term needs a term of at least 1 month"
"""The one message for the rule, wherever a price is entered (``entities.py``'s round rule) or converted."""


def _node_month_factor(unit: PriceUnit, gpus_per_node: int, term_months: int, hours_per_month: int) -> Fraction:
    """How many node-months one ``unit`` of price is worth (price per node-month = amount / factor)."""
    if gpus_per_node < 1:
        raise BadInput(f"GPUs per node must be at least 1, not {gpus_per_node}")
    if unit is PriceUnit.NODE_MONTH:
        return Fraction(1)
    if unit is PriceUnit.GPU_MONTH:
        return Fraction(1, gpus_per_node)
    if unit is PriceUnit.NODE_HOUR:
        return Fraction(1, hours_per_month)
    if unit is PriceUnit.GPU_HOUR:
        return Fraction(1, hours_per_month * gpus_per_node)
    if unit is PriceUnit.TERM_TOTAL:
        if term_months < 1:
            raise BadInput(TERM_TOTAL_NEEDS_TERM)
        return Fraction(term_months)
    raise BadInput(f"unknown price unit {unit!r}")


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


UNIT_WORDS = {
    PriceUnit.GPU_HOUR: "per GPU-hour",
    PriceUnit.NODE_HOUR: "per node-hour",
    PriceUnit.GPU_MONTH: "per GPU-month",
    PriceUnit.NODE_MONTH: "per node-month",
    PriceUnit.TERM_TOTAL: "per node for the whole term",
}
