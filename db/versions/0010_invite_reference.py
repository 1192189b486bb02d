"""each invitation's reference: the code written on that provider's response workbook

An answer is read only with the reference of the invitation it names (a provider cannot answer as another one
by changing the provider's name on the workbook). Invitations sent before this revision have none: they are
given one when sent again.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03 14:09:39

"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel  # noqa: F401  (autogenerate renders sqlmodel.sql.sqltypes.AutoString)
from alembic import op

import quotetui.store.types  # noqa: F401  (exact money and UTC column types)

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rfq_invite", schema=None) as batch_op:
        batch_op.add_column(sa.Column("reference", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rfq_invite", schema=None) as batch_op:
        batch_op.drop_column("reference")
