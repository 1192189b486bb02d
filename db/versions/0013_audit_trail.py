"""records no one rewrites: the audit trail and contract amendments

``change_log`` keeps every change to the records a buyer relies on (who, when, from which front end or file,
each column before and after); ``contract_amendment`` keeps a signed contract's dated, explicit amendments.
Changes made before this revision are not in the trail: it starts here.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-05 08:00:00

"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

import quotetui.store.types

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "change_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", quotetui.store.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("who", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("via", sqlmodel.sql.sqltypes.AutoString(length=500), nullable=False),
        sa.Column("entity", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("row_id", sa.Integer(), nullable=True),
        sa.Column("offer_id", sa.Integer(), nullable=True),
        sa.Column("contract_id", sa.Integer(), nullable=True),
        sa.Column("action", sqlmodel.sql.sqltypes.AutoString(length=8), nullable=False),
        sa.Column("subject", sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
        sa.Column("changes", sa.JSON(), nullable=False),
        sa.Column("origin", sqlmodel.sql.sqltypes.AutoString(length=500), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_change_log")),
    )
    with op.batch_alter_table("change_log", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_change_log_offer_id"), ["offer_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_change_log_contract_id"), ["contract_id"], unique=False)
    op.create_table(
        "contract_amendment",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("contract_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("effective", sa.Date(), nullable=False),
        sa.Column("reason", sqlmodel.sql.sqltypes.AutoString(length=2000), nullable=False),
        sa.Column("recorded_by", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("changes", sa.JSON(), nullable=False),
        sa.Column("created_at", quotetui.store.types.UTCDateTime(timezone=True), nullable=False),
        sa.CheckConstraint("length(reason) > 0", name=op.f("ck_contract_amendment_reason_given")),
        sa.ForeignKeyConstraint(
            ["contract_id"],
            ["contract.id"],
            name=op.f("fk_contract_amendment_contract_id_contract"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_contract_amendment")),
        sa.UniqueConstraint("contract_id", "seq", name=op.f("uq_contract_amendment_contract_id_seq")),
    )
    with op.batch_alter_table("contract_amendment", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_contract_amendment_contract_id"), ["contract_id"], unique=False)


def downgrade() -> None:
    op.drop_table("contract_amendment")
    op.drop_table("change_log")
