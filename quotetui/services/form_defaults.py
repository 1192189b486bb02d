"""What a new row's form starts with (``services/editing.py``), apart from the database: the TUI's forms show
these values, and the CLI's ``add`` commands use them for an option not given and print them in ``--help``
(this module stays light: ``quotetui --help`` does not load the database layer)."""

from __future__ import annotations

from typing import Any

from quotetui.domain import enums as e

NEW_PROVIDER_VALUES: dict[str, Any] = {"kind": e.ProviderKind.LESSOR.value}

NEW_OFFER_VALUES: dict[str, Any] = {
    "gpus_per_node": "8",
    "form_factor": "",  # empty: the GPU's own (an H100 PCIe offer is PCIe without saying so)
    "billing_basis": e.BillingBasis.MONTHLY.value,
    "status": e.OfferStatus.QUOTED.value,
    "intra_fabric": e.IntraFabric.NVSWITCH.value,
    "inter_fabric": e.InterFabric.UNKNOWN.value,
    "bare_metal": True,
    "unit": e.PriceUnit.NODE_MONTH.value,
    "currency": "CNY",
    "term_months": "1",
}
"""A monthly 8-GPU node, as most quotes are, in its GPU's own form factor."""

NEW_ROUND_VALUES: dict[str, Any] = {
    "unit": e.PriceUnit.NODE_MONTH.value,
    "currency": "CNY",
    "term_months": "1",
}
"""A new round's price when its offer has none to start from (it has: the latest round's price replaces these)."""

NEW_DISCOUNT_VALUES: dict[str, Any] = {"kind": e.DiscountKind.TERM.value}

NEW_EXTRA_VALUES: dict[str, Any] = {
    "kind": e.ExtraKind.EGRESS.value,
    "basis": e.ExtraBasis.PER_GB.value,
    "currency": "CNY",
}
