"""records that hold: a waiver keeps the state it was written against; contracts signed before kept what was sold

A waiver of an item that was missing no longer hides a failure found later: ``waived_status`` is the state
it was written against (waivers written before this revision have none, and cover any state, as before).
Contracts signed before this revision did not keep what was sold (``snapshot["sold"]``): it is taken from their
offer as it reads at this upgrade, so later edits of the offer no longer move what acceptance judges.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-05 05:30:00

"""

import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from quotetui.store.types import DecimalText

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("acceptance_waiver", schema=None) as batch_op:
        batch_op.add_column(sa.Column("waived_status", sa.String(length=16), nullable=True))
    conn = op.get_bind()
    contract = sa.table("contract", sa.column("id"), sa.column("snapshot", sa.JSON), sa.column("gpu_count"),
                        sa.column("offer_id"))  # fmt: skip
    offer = sa.table("offer", sa.column("id"), sa.column("gpus_per_node"), sa.column("intra_fabric"),
                     sa.column("inter_fabric"), sa.column("inter_gbps_per_gpu", DecimalText()),
                     sa.column("nodes_available"), sa.column("gpu_model_id"))  # fmt: skip
    gpu = sa.table("gpu_model", sa.column("id"), sa.column("key"), sa.column("name"))
    query = sa.select(
        contract.c.id, contract.c.snapshot, contract.c.gpu_count, offer.c.gpus_per_node, offer.c.intra_fabric,
        offer.c.inter_fabric, offer.c.inter_gbps_per_gpu, offer.c.nodes_available, gpu.c.key, gpu.c.name,
    ).select_from(
        contract.join(offer, offer.c.id == contract.c.offer_id).join(gpu, gpu.c.id == offer.c.gpu_model_id)
    )  # fmt: skip
    for cid, snapshot, gpus, per_node, intra, inter, gbps, stock, key, name in conn.execute(query).fetchall():
        kept = json.loads(snapshot) if isinstance(snapshot, str) else dict(snapshot or {})
        if kept.get("sold"):
            continue
        per_node = max(1, int(per_node or 1))
        kept["sold"] = {
            "gpu": key,
            "gpu_name": name,
            "gpus_per_node": per_node,
            "nodes": max(1, -(-int(gpus) // per_node)),
            "intra_fabric": intra,
            "inter_fabric": inter,
            "inter_gbps_per_gpu": None if gbps is None else str(gbps),
            "nodes_available": stock,
            "sample": None,
            "from": "the offer at the upgrade to revision 0012",
        }
        conn.execute(sa.update(contract).where(contract.c.id == cid).values(snapshot=kept))


def downgrade() -> None:
    with op.batch_alter_table("acceptance_waiver", schema=None) as batch_op:
        batch_op.drop_column("waived_status")
