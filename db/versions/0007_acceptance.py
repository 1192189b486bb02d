"""contracts record the day they were accepted, and written waivers of acceptance items

A contract moves to accepted only when every item of its acceptance checklist (inventory, topology, GEMM,
AllReduce, burn-in, scale-out, ECC: quotetui/domain/verification/acceptance.py) passed, is not required, or
carries a waiver: who waived it, on which day and why.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02 07:00:00

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import quotetui.store.types

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("contract", schema=None) as batch_op:
        batch_op.add_column(sa.Column("accepted_on", sa.Date(), nullable=True))
    op.create_table(
        "acceptance_waiver",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("contract_id", sa.Integer(), nullable=False),
        sa.Column("item", sa.String(length=32), nullable=False),
        sa.Column("reason", sa.String(length=2000), nullable=False),
        sa.Column("waived_by", sa.String(length=120), nullable=False),
        sa.Column("waived_on", sa.Date(), nullable=False),
        sa.Column("created_at", quotetui.store.types.UTCDateTime(), nullable=False),
        sa.CheckConstraint("length(reason) > 0", name=op.f("ck_acceptance_waiver_reason_given")),
        sa.ForeignKeyConstraint(
            ["contract_id"], ["contract.id"], name=op.f("fk_acceptance_waiver_contract_id_contract"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_acceptance_waiver")),
        sa.UniqueConstraint("contract_id", "item", name=op.f("uq_acceptance_waiver_contract_id_item")),
    )
    with op.batch_alter_table("acceptance_waiver", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_acceptance_waiver_contract_id"), ["contract_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("acceptance_waiver", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_acceptance_waiver_contract_id"))
    op.drop_table("acceptance_waiver")
    with op.batch_alter_table("contract", schema=None) as batch_op:
        batch_op.drop_column("accepted_on")
