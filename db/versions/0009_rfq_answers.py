"""answers to RFQs read in: the provenance of what a filled response workbook wrote

``rfq_answer``: which RFQ and revision a provider's workbook answered, when it was read, the file's name and
SHA-256 (the same file is not read twice), and the offers it answered with.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03 13:49:18

"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel  # noqa: F401  (autogenerate renders sqlmodel.sql.sqltypes.AutoString)
from alembic import op

import quotetui.store.types  # noqa: F401  (exact money and UTC column types)

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "rfq_answer",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("rfq_id", sa.Integer(), nullable=False),
        sa.Column("provider_id", sa.Integer(), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("received_at", quotetui.store.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("file_name", sqlmodel.sql.sqltypes.AutoString(length=255), nullable=False),
        sa.Column("sha256", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("offers", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["provider_id"], ["provider.id"], name=op.f("fk_rfq_answer_provider_id_provider"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["rfq_id"], ["rfq.id"], name=op.f("fk_rfq_answer_rfq_id_rfq"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rfq_answer")),
        sa.UniqueConstraint("rfq_id", "sha256", name=op.f("uq_rfq_answer_rfq_id_sha256")),
    )
    with op.batch_alter_table("rfq_answer", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_rfq_answer_provider_id"), ["provider_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_rfq_answer_rfq_id"), ["rfq_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("rfq_answer", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_rfq_answer_rfq_id"))
        batch_op.drop_index(batch_op.f("ix_rfq_answer_provider_id"))

    op.drop_table("rfq_answer")
