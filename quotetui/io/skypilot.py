"""SkyPilot catalog CSVs (``catalogs/v7/<cloud>/vms.csv``): public on-demand prices per instance-hour, USD.

Columns are found by name (clouds order them differently and add others). GPU names go through the
catalog's aliases, with the per-GPU memory from ``GpuInfo`` (a Python-literal dict, parsed with
``ast.literal_eval`` under a size limit) and ``pcie`` in the instance type to tell variants apart.
CPU-only rows are skipped; GPUs the catalog does not know are skipped with a warning.
"""

from __future__ import annotations

import ast
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from quotetui.domain.errors import QuotetuiError
from quotetui.domain.fields import Field
from quotetui.domain.gpus import GpuCatalog
from quotetui.io.import_rows import convert
from quotetui.io.problems import Problem
from quotetui.io.table_model import Table
from quotetui.language import _
from quotetui.language.lists import quoted

MAX_GPUINFO = 4000
MAX_GPUS = 1024  # GPUs in one instance
_SIZE = Decimal(10) ** 9
NUMBERS = {  # the numeric columns of SkyPilot's format, checked by the same parser as any imported cell
    "AcceleratorCount": Field("AcceleratorCount", "GPUs", "decimal", True, Decimal(0), _SIZE, places=6),
    "Price": Field("Price", "USD per instance-hour", "money", True, Decimal(0)),
    "SpotPrice": Field("SpotPrice", "USD per instance-hour, spot", "money", minimum=Decimal(0)),
    "vCPUs": Field("vCPUs", "vCPUs", "decimal", minimum=Decimal(0), maximum=_SIZE, places=6),
    "MemoryGiB": Field("MemoryGiB", "GiB", "decimal", minimum=Decimal(0), maximum=_SIZE, places=6),
}


TEXTS = {  # the names of a listing: one line each, within their columns (market_price.instance_type, .region)
    "InstanceType": Field("InstanceType", "instance type", "text", True, max_length=120),
    "Region": Field("Region", "region", "text", True, max_length=80),
}


@dataclass(frozen=True, slots=True)
class MarketItem:
    instance_type: str
    gpu_key: str
    gpu_count: int
    vcpus: Decimal | None
    memory_gib: Decimal | None
    region: str
    price: Decimal
    spot_price: Decimal | None


@dataclass(slots=True)
class MarketRows:
    file: str
    catalog: str
    items: list[MarketItem] = field(default_factory=list)


def catalog_name(file: str) -> str:
    """``skypilot-lambda-vms.csv`` -> ``lambda``; ``vms.csv`` in ``lambda/`` is left to the caller."""
    stem = Path(file).stem.lower()
    return stem.removeprefix("skypilot-").removesuffix("-vms").removesuffix("_vms") or stem


def _memory_mib(info: Any) -> int | None:
    if not isinstance(info, str) or not info.strip() or len(info) > MAX_GPUINFO:
        return None
    try:
        data = ast.literal_eval(info)
        size = data["Gpus"][0]["MemoryInfo"]["SizeInMiB"]
        return int(size)
    except (ValueError, SyntaxError, KeyError, IndexError, TypeError, OverflowError, MemoryError, RecursionError):
        return None


def parse_catalog(table: Table, catalog: GpuCatalog, problems: list[Problem], warnings: list[Problem]) -> MarketRows:
    rows = MarketRows(table.file, catalog_name(table.file))
    index = {h: i for i, h in enumerate(table.header)}

    def cell(cells: list[Any], name: str) -> Any:
        i = index.get(name)
        return cells[i] if i is not None and i < len(cells) else None

    unknown: Counter[str] = Counter()
    for number, cells in table.rows:
        gpu = cell(cells, "AcceleratorName")
        if gpu in (None, ""):
            continue  # CPU-only instance
        instance = str(cell(cells, "InstanceType") or "").strip()
        hint = str(gpu) + (" PCIe" if "pcie" in instance.lower() and "pcie" not in str(gpu).lower() else "")
        try:
            spec = catalog.lookup(hint, _memory_mib(cell(cells, "GpuInfo")))
        except QuotetuiError:
            try:
                spec = catalog.lookup(str(gpu), _memory_mib(cell(cells, "GpuInfo")))
            except QuotetuiError:
                unknown[str(gpu)] += 1
                continue
        values: dict[str, Any] = {}
        for name, col in NUMBERS.items():
            raw = cell(cells, name)
            if raw in (None, ""):
                if col.required:
                    problems.append(table.where(number, index.get(name), _("required")))
                values[name] = None
                continue
            try:
                values[name] = convert(col, raw, catalog)
            except ValueError as exc:
                problems.append(table.where(number, index.get(name), str(exc)))
        count = values.get("AcceleratorCount")
        if isinstance(count, Decimal) and (count != count.to_integral_value() or not 1 <= count <= MAX_GPUS):
            not_a_count = _("{count} is not a GPU count").format(count=count)
            problems.append(table.where(number, index.get("AcceleratorCount"), not_a_count))
            continue
        if len(values) < len(NUMBERS) or any(values[n] is None for n, c in NUMBERS.items() if c.required):
            continue
        texts: dict[str, str] = {}
        for name, declared in TEXTS.items():
            try:
                texts[name] = convert(declared, cell(cells, name), catalog)
            except ValueError as exc:
                problems.append(table.where(number, index.get(name), str(exc)))
        if len(texts) < len(TEXTS):
            continue
        instance, region = texts["InstanceType"], texts["Region"]
        rows.items.append(
            MarketItem(
                instance,
                spec.key,
                int(values["AcceleratorCount"]),
                values["vCPUs"],
                values["MemoryGiB"],
                region,
                values["Price"],
                values["SpotPrice"],
            )
        )
    for name, n in sorted(unknown.items()):
        skipped = _("{count} rows of {name} skipped: not a GPU of the catalog")  # "rows" for 1 too, as before
        warnings.append(Problem(table.file, skipped.format(count=n, name=quoted(name))))
    return rows
