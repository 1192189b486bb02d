"""The GPU catalog in the database: seeding the built-ins and reading it back as domain specs, one way (by name,
through the read model: :data:`GPU_ROWS`, :func:`load_catalog_of`), whether from a stdlib reader or inside an
ORM session (:func:`load_catalog`)."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from typing import TYPE_CHECKING

from quotetui.domain.enums import FormFactor
from quotetui.domain.gpus import BUILTIN, GpuCatalog, GpuSpec, normalise
from quotetui.store.read_model import Column, Rows
from quotetui.store.reader import Reader, session_reader

if TYPE_CHECKING:  # the ORM is imported where rows are read or written: opening a current file needs none
    from sqlmodel import Session

    from quotetui.store.models import GpuModel

CATALOG_SETTING = "catalog_version"

_FIGURES = (
    "name",
    "form_factor",
    "memory_gb",
    "memory_type",
    "memory_bw_tbs",
    "bf16_tflops",
    "fp8_tflops",
    "fp64_tflops",
    "nvlink_gbs",
    "nvlink_note",
    "tdp_w",
    "topo_signature",
    "consumer",
    "smi_memory_mib",
)
"""The columns a built-in row copies from its ``GpuSpec``: a release that corrects one rewrites the row."""

_PCI_IDS = {spec.key: spec.pci_device_ids for spec in BUILTIN}


def builtin_fingerprint() -> str:
    """Changes with any built-in model, name or stored figure, so an existing database is brought up to date."""
    text = repr([(s.key, s.names(), [str(getattr(s, f)) for f in _FIGURES]) for s in BUILTIN])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _row_from_spec(spec: GpuSpec) -> GpuModel:
    from quotetui.store.models import GpuModel

    return GpuModel(
        key=spec.key,
        name=spec.name,
        form_factor=spec.form_factor,
        memory_gb=spec.memory_gb,
        memory_type=spec.memory_type,
        memory_bw_tbs=spec.memory_bw_tbs,
        bf16_tflops=spec.bf16_tflops,
        fp8_tflops=spec.fp8_tflops,
        fp64_tflops=spec.fp64_tflops,
        nvlink_gbs=spec.nvlink_gbs,
        nvlink_note=spec.nvlink_note,
        tdp_w=spec.tdp_w,
        topo_signature=spec.topo_signature,
        consumer=spec.consumer,
        smi_memory_mib=spec.smi_memory_mib,
        builtin=True,
    )


def catalog_is_current(session: Session) -> bool:
    """Whether the built-in catalog was seeded as this version has it (then opening writes nothing)."""
    from quotetui.store.models import Setting

    setting = session.get(Setting, CATALOG_SETTING)
    return setting is not None and setting.value == builtin_fingerprint()


def _refresh(row: GpuModel, spec: GpuSpec) -> bool:
    """Bring a built-in row's figures to this version's (a corrected datasheet figure); True if one changed."""
    changed = False
    for name in _FIGURES:
        value = getattr(spec, name)
        if getattr(row, name) != value:
            setattr(row, name, value)
            changed = True
    return changed


def seed_catalog(session: Session) -> int:
    """Insert built-in models and aliases that are missing and bring built-in rows' figures up to date; user
    aliases and models are left alone.

    Returns the number of rows added or changed. Skipped entirely when the stored fingerprint matches.
    """
    from sqlmodel import select

    from quotetui.store.models import GpuAlias, GpuModel, Setting
    from quotetui.store.rows import insert

    fingerprint = builtin_fingerprint()
    setting = session.get(Setting, CATALOG_SETTING)
    if setting is not None and setting.value == fingerprint:
        return 0
    models = {row.key: row for row in session.exec(select(GpuModel))}
    taken = set(session.exec(select(GpuAlias.norm)))
    added = 0
    for spec in BUILTIN:
        row = models.get(spec.key)
        if row is None:
            row = _row_from_spec(spec)
            insert(session, row)
            added += 1
        elif row.builtin and _refresh(row, spec):
            session.add(row)
            added += 1
        assert row.id is not None
        for name in dict.fromkeys(spec.names()):
            norm = normalise(name)
            if norm in taken:
                continue
            session.add(GpuAlias(gpu_model_id=row.id, alias=name, norm=norm, builtin=True))
            taken.add(norm)
            added += 1
    if setting is None:
        session.add(Setting(key=CATALOG_SETTING, value=fingerprint))
    else:
        setting.value = fingerprint
    return added


def load_catalog(session: Session) -> tuple[GpuCatalog, dict[str, int]]:
    """The catalog as stored (user aliases included) and a map from model key to row id, read inside
    ``session``'s transaction as :func:`load_catalog_of` reads it."""
    catalog, by_id = load_catalog_of(session_reader(session))
    return catalog, {spec.key: gid for gid, spec in by_id.items()}


PEAKS = ("memory_bw_tbs", "bf16_tflops", "fp8_tflops", "fp64_tflops")
"""A model's peak figures: each, when known, above zero (every figure of an offer and every claim's check divides
by one of them): read as ``positive``, so a zero another program wrote is a database problem naming where it is,
not a division by zero in whatever reads the offer."""

GPU_ROWS = Rows(
    "GpuRow",
    "gpu_model",
    (
        Column("id", "id"),
        Column("key", '"key"'),
        Column("name", "name"),
        Column("form_factor", "form_factor", "choice", FormFactor),
        Column("memory_gb", "memory_gb", "int"),
        Column("memory_type", "memory_type"),
        *(Column(name, name, "positive") for name in PEAKS),
        Column("nvlink_gbs", "nvlink_gbs", "int"),
        Column("nvlink_note", "nvlink_note", "text"),
        Column("tdp_w", "tdp_w", "int"),
        Column("topo_signature", "topo_signature", "text"),
        Column("consumer", "consumer", "bool"),
        Column("smi_memory_mib", "smi_memory_mib", "int"),
    ),
    "gpu_model",
)
"""A catalog model as stored (``store/models``: ``GpuModel``), by name: the catalog is not a declared entity, so
each column says how it is read."""


def load_catalog_of(reader: Reader) -> tuple[GpuCatalog, dict[int, GpuSpec]]:
    """The catalog as stored (user aliases included, as ``store/catalog.py: load_catalog`` reads it) and
    each model by its row id."""
    pci = {spec.key: spec.pci_device_ids for spec in BUILTIN}
    aliases: dict[int, list[str]] = defaultdict(list)
    for gid, alias in reader.rows("SELECT gpu_model_id, alias FROM gpu_alias ORDER BY id"):
        aliases[gid].append(alias)
    by_id = {}
    for r in GPU_ROWS.each(reader, " ORDER BY id"):
        spec = r._asdict()
        gid = spec.pop("id")
        by_id[gid] = GpuSpec(**spec, smi_names=(), aliases=tuple(aliases[gid]), pci_device_ids=pci.get(r.key, ()))
    return GpuCatalog(by_id.values()), by_id
