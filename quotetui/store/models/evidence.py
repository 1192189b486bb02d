"""Benchmark results: claimed (with the source that claims them) or verified (with raw evidence)."""

from datetime import datetime
from decimal import Decimal

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from quotetui.domain.enums import Metric, Provenance
from quotetui.store.models.base import created, enum_field, exact, fk, timestamp


class Evidence(SQLModel, table=True):
    """A raw tool output kept verbatim, for the offer whose trial machine produced it; its sha256, of the text
    with line ends, terminal codes, prompts and blanks normalised (``benchlogs.common.content_digest``), makes a
    second import of the same run for the same offer a no-op, however it was copied."""

    __tablename__ = "evidence"
    __table_args__ = (sa.UniqueConstraint("offer_id", "sha256"),)
    id: int | None = Field(default=None, primary_key=True)
    offer_id: int | None = fk("offer.id", nullable=True, ondelete="CASCADE")
    sha256: str = Field(max_length=64)
    tool: str = Field(max_length=40)
    host: str | None = Field(default=None, max_length=200)
    captured_at: datetime | None = timestamp(nullable=True)
    gpu_names: list[str] = Field(default_factory=list, sa_type=sa.JSON, nullable=False)
    filename: str | None = Field(default=None, max_length=300)
    raw: str = Field(sa_type=sa.Text)
    imported_at: datetime = created()


class BenchmarkResult(SQLModel, table=True):
    """A performance figure under stated conditions, with its provenance.

    ``qualifier`` keeps the claim's own wording of precision: ``about`` (约), ``at_least``
    (以上, 85%+), ``at_most``; empty for an exact figure.
    """

    __tablename__ = "benchmark_result"
    __table_args__ = (
        sa.CheckConstraint("provenance <> 'verified' OR evidence_id IS NOT NULL", name="verified_has_evidence"),
        sa.CheckConstraint("provenance <> 'claimed' OR source_id IS NOT NULL", name="claimed_has_source"),
    )
    id: int | None = Field(default=None, primary_key=True)
    offer_id: int | None = fk("offer.id", nullable=True, ondelete="CASCADE")
    provider_id: int | None = fk("provider.id", nullable=True, ondelete="CASCADE")
    gpu_model_id: int | None = fk("gpu_model.id", nullable=True)
    provenance: Provenance = enum_field(Provenance)
    metric: Metric = enum_field(Metric)
    value: Decimal = exact()
    value_high: Decimal | None = exact(nullable=True)
    unit: str = Field(max_length=24)
    qualifier: str = Field(default="", max_length=12)
    gpu_count: int | None = None
    workload: str | None = Field(default=None, max_length=120)  # e.g. "GPT-3 175B", "7B LLM"
    model_params: Decimal | None = exact(nullable=True)
    tokens: Decimal | None = exact(nullable=True)
    flops: Decimal | None = exact(nullable=True)
    claimed_mfu: Decimal | None = exact(nullable=True)
    seq_len: int | None = None
    dtype: str | None = Field(default=None, max_length=12)
    conditions: str | None = None
    quote: str | None = None  # the claim in the source's own words
    source_id: int | None = fk("source.id", nullable=True, ondelete="SET NULL")
    evidence_id: int | None = fk("evidence.id", nullable=True, ondelete="CASCADE")
    measured_at: datetime | None = timestamp(nullable=True)
    created_at: datetime = created()
