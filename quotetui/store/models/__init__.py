"""All tables. Importing this package registers them on ``SQLModel.metadata``."""

from quotetui.store.models.audit import ChangeLog, ContractAmendment
from quotetui.store.models.base import SQLModel
from quotetui.store.models.contracts import AcceptanceWaiver, Contract, Incident, Invoice
from quotetui.store.models.evidence import BenchmarkResult, Evidence
from quotetui.store.models.market import (
    Discount,
    ExtraCost,
    GpuAlias,
    GpuModel,
    Offer,
    Provider,
    QuoteRevision,
    RevisionPrice,
    SlaCreditTier,
    SlaTerm,
    Source,
)
from quotetui.store.models.planning import FxRate, MarketPrice, PurchaseOption, Scenario, Setting
from quotetui.store.models.ranking import EvaluationSet, OfferStamp, StoredEvaluation
from quotetui.store.models.sourcing import Rfq, RfqAnswer, RfqInvite

metadata = SQLModel.metadata

__all__ = [
    "AcceptanceWaiver",
    "BenchmarkResult",
    "ChangeLog",
    "Contract",
    "ContractAmendment",
    "Discount",
    "EvaluationSet",
    "Evidence",
    "ExtraCost",
    "FxRate",
    "GpuAlias",
    "GpuModel",
    "Incident",
    "Invoice",
    "MarketPrice",
    "Offer",
    "OfferStamp",
    "Provider",
    "PurchaseOption",
    "QuoteRevision",
    "RevisionPrice",
    "Rfq",
    "RfqAnswer",
    "RfqInvite",
    "Scenario",
    "Setting",
    "SlaCreditTier",
    "SlaTerm",
    "Source",
    "StoredEvaluation",
    "metadata",
]
