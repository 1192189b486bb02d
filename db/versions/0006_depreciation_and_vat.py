"""purchase options record their depreciation years; offers their VAT rate and whether a 专票 is issued

The buy side of rent vs buy counts the hardware's residual value at the horizon as its straight-line book value
over its useful life when no resale value is known; a purchase option records that life (empty: the default,
see quotetui/domain/economics/ownership.py). An offer's prices include VAT at ``vat_rate``; with a special VAT
invoice (``special_invoice``, 增值税专用发票) a VAT-registered buyer recovers it, and costs can be shown net.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02 03:00:00

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import quotetui.store.types  # noqa: F401  (exact ratio column types)

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("purchase_option", schema=None) as batch_op:
        batch_op.add_column(sa.Column("depreciation_years", sa.Integer(), nullable=True))
    with op.batch_alter_table("offer", schema=None) as batch_op:
        batch_op.add_column(sa.Column("vat_rate", quotetui.store.types.ScaledDecimal(scale=6), nullable=True))
        batch_op.add_column(sa.Column("special_invoice", sa.Boolean(), server_default=sa.false(), nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("offer", schema=None) as batch_op:
        batch_op.drop_column("special_invoice")
        batch_op.drop_column("vat_rate")
    with op.batch_alter_table("purchase_option", schema=None) as batch_op:
        batch_op.drop_column("depreciation_years")
