"""offer.prorata_days: monthly plans that bill part months by the day

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30 16:10:36.745040

"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel  # noqa: F401  (autogenerate renders sqlmodel.sql.sqltypes.AutoString)
from alembic import op

import quotetui.store.types  # noqa: F401  (exact money and UTC column types)

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("offer", schema=None) as batch_op:
        batch_op.add_column(sa.Column("prorata_days", sa.Boolean(), server_default=sa.false(), nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("offer", schema=None) as batch_op:
        batch_op.drop_column("prorata_days")
