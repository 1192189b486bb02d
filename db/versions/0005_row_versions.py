"""row versions and a data version: no lost updates, and a TUI that notices other writers

Every row a buyer edits carries ``version`` (1, then bumped by each change), so a form saved after the same
row was changed elsewhere is refused instead of overwriting it; ``setting.data_version`` is bumped by every
write transaction, so an open TUI sees that another program (the CLI, another buyer) changed the data.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 21:40:00

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

VERSIONED = (
    "provider", "offer", "quote_revision", "revision_price", "discount", "extra_cost", "sla_term", "scenario",
    "contract", "incident", "invoice",
)  # fmt: skip


def upgrade() -> None:
    for table in VERSIONED:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column("version", sa.Integer(), server_default=sa.text("1"), nullable=False))
    op.execute("INSERT INTO setting (key, value) VALUES ('data_version', '1')")


def downgrade() -> None:
    op.execute("DELETE FROM setting WHERE key = 'data_version'")
    for table in VERSIONED:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column("version")
