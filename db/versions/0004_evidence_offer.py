"""evidence.offer_id: raw logs belong to the offer whose trial machine produced them

A log that yields no figure (nvidia-smi, topology, gpu-burn) is still evidence about an offer; the same
log may be imported for two offers (identical nodes print identical topologies), so sha256 is unique per
offer rather than over the whole table.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30 18:40:00

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("evidence", schema=None) as batch_op:
        batch_op.add_column(sa.Column("offer_id", sa.Integer(), nullable=True))
        batch_op.drop_constraint(batch_op.f("uq_evidence_sha256"), type_="unique")
        batch_op.create_unique_constraint(batch_op.f("uq_evidence_offer_id_sha256"), ["offer_id", "sha256"])
        batch_op.create_index(batch_op.f("ix_evidence_offer_id"), ["offer_id"], unique=False)
        batch_op.create_foreign_key(
            batch_op.f("fk_evidence_offer_id_offer"), "offer", ["offer_id"], ["id"], ondelete="CASCADE"
        )
    # evidence imported before this revision hangs off the offers of its verified results
    op.execute(
        "UPDATE evidence SET offer_id = (SELECT MIN(b.offer_id) FROM benchmark_result b "
        "WHERE b.evidence_id = evidence.id)"
    )


def downgrade() -> None:
    with op.batch_alter_table("evidence", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_evidence_offer_id_offer"), type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_evidence_offer_id"))
        batch_op.drop_constraint(batch_op.f("uq_evidence_offer_id_sha256"), type_="unique")
        batch_op.create_unique_constraint(batch_op.f("uq_evidence_sha256"), ["sha256"])
        batch_op.drop_column("offer_id")
