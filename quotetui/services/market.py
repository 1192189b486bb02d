"""Read models of the market for listings: providers and GPUs (offers are listed with their figures by
``services/economics.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from sqlmodel import col, func, select

from quotetui.domain.gpus import GpuSpec
from quotetui.domain.money import plain
from quotetui.store.catalog import load_catalog
from quotetui.store.engine import Database, one_snapshot
from quotetui.store.models import Offer, Provider


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


@one_snapshot
def list_providers(db: Database) -> list[ProviderView]:
    with db.session() as session:
        counts = dict(session.exec(select(Offer.provider_id, func.count()).group_by(col(Offer.provider_id))).all())
        return [
            ProviderView(
                p.id or 0,
                p.name,
                p.kind.value,
                p.parent,
                list(p.regions),
                list(p.certifications),
                counts.get(p.id or 0, 0),
            )
            for p in session.exec(select(Provider).order_by(col(Provider.id)))
        ]


def list_gpus(db: Database) -> list[GpuSpec]:
    with db.session() as session:
        catalog, _ = load_catalog(session)
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
