"""purchase options record their depreciation years

The buy side of rent vs buy counts the hardware's residual value at the horizon as its straight-line book value
over its useful life when no resale value is known; a purchase option records that life (empty: the default,
see quotetui/domain/economics/ownership.py).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02 03:00:00

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("purchase_option", schema=None) as batch_op:
        batch_op.add_column(sa.Column("depreciation_years", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("purchase_option", schema=None) as batch_op:
        batch_op.drop_column("depreciation_years")
