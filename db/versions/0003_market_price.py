"""market_price: public catalog prices as market references

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30 16:52:38.271062

"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel  # noqa: F401  (autogenerate renders sqlmodel.sql.sqltypes.AutoString)
from alembic import op

import quotetui.store.types  # noqa: F401  (exact money and UTC column types)

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "market_price",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("source_id", sa.Integer(), nullable=True),
        sa.Column("catalog", sqlmodel.sql.sqltypes.AutoString(length=60), nullable=False),
        sa.Column("instance_type", sqlmodel.sql.sqltypes.AutoString(length=120), nullable=False),
        sa.Column("gpu_model_id", sa.Integer(), nullable=False),
        sa.Column("gpu_count", sa.Integer(), nullable=False),
        sa.Column("vcpus", quotetui.store.types.DecimalText(length=64), nullable=True),
        sa.Column("memory_gib", quotetui.store.types.DecimalText(length=64), nullable=True),
        sa.Column("region", sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
        sa.Column("price", quotetui.store.types.ScaledDecimal(scale=6), nullable=False),
        sa.Column("spot_price", quotetui.store.types.ScaledDecimal(scale=6), nullable=True),
        sa.Column("currency", sqlmodel.sql.sqltypes.AutoString(length=3), nullable=False),
        sa.Column("as_of", sa.Date(), nullable=False),
        sa.Column("imported_at", quotetui.store.types.UTCDateTime(timezone=True), nullable=False),
        sa.CheckConstraint("gpu_count > 0", name=op.f("ck_market_price_gpu_count_positive")),
        sa.CheckConstraint("price >= 0", name=op.f("ck_market_price_price_not_negative")),
        sa.ForeignKeyConstraint(
            ["gpu_model_id"], ["gpu_model.id"], name=op.f("fk_market_price_gpu_model_id_gpu_model"), ondelete="RESTRICT"
        ),
        sa.ForeignKeyConstraint(
            ["source_id"], ["source.id"], name=op.f("fk_market_price_source_id_source"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_market_price")),
        sa.UniqueConstraint(
            "catalog", "instance_type", "region", name=op.f("uq_market_price_catalog_instance_type_region")
        ),
    )
    with op.batch_alter_table("market_price", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_market_price_gpu_model_id"), ["gpu_model_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_market_price_source_id"), ["source_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("market_price", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_market_price_source_id"))
        batch_op.drop_index(batch_op.f("ix_market_price_gpu_model_id"))

    op.drop_table("market_price")
