"""stored evaluations: the ranking is computed when the data changes and read when the buyer looks

``offer_stamp`` holds a number per offer that triggers bump on every change to anything the offer's evaluation
reads, whichever program writes it (quotetui, the sqlite3 shell, psql); ``stored_evaluation`` keeps each
offer's place in a ranking with the stamp it was computed at, so an entry whose offer changed since is seen
as stale and recomputed, never served (``services/stored_ranking.py``).

The triggers are installed by ``db/env.py`` after every migration run, not here (``store/stamps.py``: a table
rebuilt on SQLite fails while another table's trigger names it, so they are dropped before migrations run).

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-05 13:40:00

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import quotetui.store.types

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "offer_stamp",
        sa.Column("offer_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("stamp", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("offer_id", name=op.f("pk_offer_stamp")),
    )
    op.create_table(
        "evaluation_set",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("context", sa.String(length=64), nullable=False),
        sa.Column("scenario", sa.String(), nullable=False),
        sa.Column("created_at", quotetui.store.types.UTCDateTime(), nullable=False),
        sa.Column("used_at", quotetui.store.types.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_evaluation_set")),
        sa.UniqueConstraint("context", name=op.f("uq_evaluation_set_context")),
    )
    op.create_table(
        "stored_evaluation",
        sa.Column("set_id", sa.Integer(), nullable=False),
        sa.Column("offer_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("stamp", sa.Integer(), nullable=False),
        sa.Column("grp", sa.Integer(), nullable=False),
        sa.Column("key_micros", sa.BigInteger(), nullable=True),
        sa.Column("key_exact", sa.String(), nullable=True),
        sa.Column("total_exact", sa.String(), nullable=True),
        sa.Column("reason", sa.String(), nullable=True),
        sa.ForeignKeyConstraint(
            ["set_id"],
            ["evaluation_set.id"],
            name=op.f("fk_stored_evaluation_set_id_evaluation_set"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("set_id", "offer_id", name=op.f("pk_stored_evaluation")),
    )
    op.create_index("ix_stored_evaluation_order", "stored_evaluation", ["set_id", "grp", "key_micros", "offer_id"])


def downgrade() -> None:
    op.drop_index("ix_stored_evaluation_order", table_name="stored_evaluation")
    op.drop_table("stored_evaluation")
    op.drop_table("evaluation_set")
    op.drop_table("offer_stamp")
