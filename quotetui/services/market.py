"""Read models of the market for listings: providers and GPUs (offers are listed with their figures by
``services/economics.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from quotetui.domain.enums import ProviderKind
from quotetui.domain.gpus import GpuSpec
from quotetui.domain.money import plain
from quotetui.store.catalog import load_catalog_of
from quotetui.store.reader import reading, stored_json

if TYPE_CHECKING:
    from quotetui.store.engine import Database


@dataclass(frozen=True, slots=True)
class ProviderView:
    id: int
    name: str
    kind: str
    parent: str | None
    regions: list[str]
    certifications: list[str]
    offers: int

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "kind": self.kind,
            "parent": self.parent,
            "regions": self.regions,
            "certifications": self.certifications,
            "offers": self.offers,
        }


def list_providers(db: Database) -> list[ProviderView]:
    """Every provider with its number of offers, as plain tuples (on SQLite without SQLAlchemy)."""
    with reading(db) as reader:
        return [
            ProviderView(
                i,
                name,
                ProviderKind.stored(kind, f"provider #{i}, kind").value,
                parent,
                list(stored_json(regions)),
                list(stored_json(certs)),
                offers,
            )
            for i, name, kind, parent, regions, certs, offers in reader.rows(
                "SELECT p.id, p.name, p.kind, p.parent, p.regions, p.certifications, "
                "(SELECT COUNT(*) FROM offer o WHERE o.provider_id = p.id) FROM provider p ORDER BY p.id"
            )
        ]


def list_gpus(db: Database) -> list[GpuSpec]:
    """The catalog as stored (user aliases included)."""
    with reading(db) as reader:
        catalog, _ = load_catalog_of(reader)
    return list(catalog)


def gpu_to_json(spec: GpuSpec) -> dict[str, Any]:
    def num(value: Decimal | None) -> str | None:
        return None if value is None else plain(value)

    return {
        "key": spec.key,
        "name": spec.name,
        "form_factor": spec.form_factor.value,
        "memory_gb": spec.memory_gb,
        "memory_type": spec.memory_type,
        "memory_bw_tbs": num(spec.memory_bw_tbs),
        "bf16_tflops": num(spec.bf16_tflops),
        "fp8_tflops": num(spec.fp8_tflops),
        "fp64_tflops": num(spec.fp64_tflops),
        "nvlink_gbs": spec.nvlink_gbs,
        "nvlink_note": spec.nvlink_note,
        "tdp_w": spec.tdp_w,
        "topo_signature": spec.topo_signature,
        "consumer": spec.consumer,
        "nvidia_smi_memory_mib": spec.smi_memory_mib,
        "aliases": list(dict.fromkeys(spec.aliases)),
    }
