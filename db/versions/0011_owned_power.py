"""owning figures a CFO accepts: power on one basis and by use, and the capex's VAT

A computed power (kW × PUE × hours × tariff) includes the data centre's cooling; a quoted bill for the servers'
own draw does not, so rent vs buy adds the PUE to it. Options recorded before this revision have no basis and
are read as the servers' own draw, which the output says. With an idle draw (a share of full load), power
follows utilisation from it; without one, the servers are costed at full load every hour, as before. The
capex's VAT rate and 专票 let a buyer whose costs are net of VAT recover it, as an offer's do.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-05 04:30:00

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import quotetui.store.types  # exact ratio columns

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("purchase_option", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                "power_basis",
                sa.Enum("servers", "facility", name="powerbasis", native_enum=False, length=24),
                nullable=True,
            )
        )
        batch_op.add_column(sa.Column("idle_pct", quotetui.store.types.ScaledDecimal(scale=6), nullable=True))
        batch_op.add_column(sa.Column("capex_vat_rate", quotetui.store.types.ScaledDecimal(scale=6), nullable=True))
        batch_op.add_column(sa.Column("capex_special_invoice", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("purchase_option", schema=None) as batch_op:
        batch_op.drop_column("capex_special_invoice")
        batch_op.drop_column("capex_vat_rate")
        batch_op.drop_column("idle_pct")
        batch_op.drop_column("power_basis")
