"""requests for quotation: a requirement sent to several providers, and where each invitation stands

``rfq`` holds the requirement (domain/entities.py: REQUIREMENT) with a revision that moves with every change;
``rfq_invite`` one provider asked: when, at which revision, and sent / answered / declined.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03 13:41:13

"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel  # noqa: F401  (autogenerate renders sqlmodel.sql.sqltypes.AutoString)
from alembic import op

import quotetui.store.types  # noqa: F401  (exact money and UTC column types)

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "rfq",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), server_default=sa.text("1"), nullable=False),
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(length=120), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("gpu_models", sa.JSON(), nullable=False),
        sa.Column("gpus", sa.Integer(), nullable=False),
        sa.Column("months", sa.Integer(), nullable=False),
        sa.Column("start", sa.Date(), nullable=False),
        sa.Column("respond_by", sa.Date(), nullable=True),
        sa.Column("deliver_by", sa.Date(), nullable=True),
        sa.Column("min_availability", quotetui.store.types.ScaledDecimal(scale=6), nullable=True),
        sa.Column(
            "intra_fabric",
            sa.Enum("nvswitch", "nvlink_bridge", "pcie", "unknown", name="intrafabric", native_enum=False, length=24),
            nullable=True,
        ),
        sa.Column(
            "inter_fabric",
            sa.Enum(
                "infiniband_ndr",
                "infiniband_hdr",
                "roce_v2",
                "vendor_rdma",
                "ethernet",
                "none",
                "unknown",
                name="interfabric",
                native_enum=False,
                length=24,
            ),
            nullable=True,
        ),
        sa.Column("job_gpus", sa.Integer(), nullable=True),
        sa.Column("region", sqlmodel.sql.sqltypes.AutoString(length=120), nullable=True),
        sa.Column("checklist", sa.JSON(), nullable=False),
        sa.Column("currency", sqlmodel.sql.sqltypes.AutoString(length=3), nullable=False),
        sa.Column("notes", sqlmodel.sql.sqltypes.AutoString(), nullable=True),
        sa.Column("created_at", quotetui.store.types.UTCDateTime(timezone=True), nullable=False),
        sa.CheckConstraint("gpus > 0", name=op.f("ck_rfq_gpus_positive")),
        sa.CheckConstraint("months > 0", name=op.f("ck_rfq_months_positive")),
        sa.CheckConstraint("revision > 0", name=op.f("ck_rfq_revision_positive")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rfq")),
        sa.UniqueConstraint("name", name=op.f("uq_rfq_name")),
    )
    op.create_table(
        "rfq_invite",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), server_default=sa.text("1"), nullable=False),
        sa.Column("rfq_id", sa.Integer(), nullable=False),
        sa.Column("provider_id", sa.Integer(), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("sent_at", quotetui.store.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column(
            "state",
            sa.Enum("sent", "answered", "declined", name="invitestate", native_enum=False, length=24),
            nullable=False,
        ),
        sa.Column("answered_at", quotetui.store.types.UTCDateTime(timezone=True), nullable=True),
        sa.Column("note", sqlmodel.sql.sqltypes.AutoString(length=2000), nullable=True),
        sa.ForeignKeyConstraint(
            ["provider_id"], ["provider.id"], name=op.f("fk_rfq_invite_provider_id_provider"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["rfq_id"], ["rfq.id"], name=op.f("fk_rfq_invite_rfq_id_rfq"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rfq_invite")),
        sa.UniqueConstraint("rfq_id", "provider_id", name=op.f("uq_rfq_invite_rfq_id_provider_id")),
    )
    with op.batch_alter_table("rfq_invite", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_rfq_invite_provider_id"), ["provider_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_rfq_invite_rfq_id"), ["rfq_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("rfq_invite", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_rfq_invite_rfq_id"))
        batch_op.drop_index(batch_op.f("ix_rfq_invite_provider_id"))

    op.drop_table("rfq_invite")
    op.drop_table("rfq")
