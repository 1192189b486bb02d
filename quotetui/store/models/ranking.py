"""Stored evaluations: each offer's place in a scenario's ranking, computed when the data changes and read when
the buyer looks (``services/stored_ranking.py``).

* ``offer_stamp``: one row per offer, its ``stamp`` bumped by database triggers on every change to anything the
  offer's evaluation reads (the offer, its provider, rounds, prices, discounts, extras, SLA, credit tiers,
  benchmark results, their sources and evidence), whichever program wrote it (``db/versions/0014``).
* ``evaluation_set``: one per evaluation context (the scenario's content, assumptions, FX rates of the day,
  GPU catalog and engine version, hashed into ``context``).
* ``stored_evaluation``: an offer's entry in a set, valid only while its ``stamp`` is the offer's: a stale or
  missing entry is recomputed, never served.

Nothing here is money a buyer reads: ``key_micros`` is an index (the ranking key in millionths, rounded
down, so its order never contradicts the exact one); the exact key and total are fraction text.
"""

from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from quotetui.store.models.base import created
from quotetui.store.types import UTCDateTime


class OfferStamp(SQLModel, table=True):
    __tablename__ = "offer_stamp"
    offer_id: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    stamp: int = Field(default=1, nullable=False)


class EvaluationSet(SQLModel, table=True):
    __tablename__ = "evaluation_set"
    id: int | None = Field(default=None, primary_key=True)
    context: str = Field(max_length=64, unique=True, nullable=False)  # SHA-256 of what every entry depends on
    scenario: str = Field(nullable=False)  # the scenario's name (for the reader's eyes only)
    created_at: datetime = created()
    used_at: datetime = Field(sa_type=UTCDateTime(), nullable=False)


class StoredEvaluation(SQLModel, table=True):
    __tablename__ = "stored_evaluation"
    __table_args__ = (sa.Index("ix_stored_evaluation_order", "set_id", "grp", "key_micros", "offer_id"),)
    set_id: int = Field(foreign_key="evaluation_set.id", ondelete="CASCADE", primary_key=True)
    offer_id: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    stamp: int = Field(nullable=False)  # the offer's stamp the entry was computed at
    grp: int = Field(nullable=False)  # stored_ranking.Group
    key_micros: int | None = Field(default=None, sa_type=sa.BigInteger())
    key_exact: str | None = Field(default=None)  # cost per delivered PFLOP-hour, "numerator/denominator"
    total_exact: str | None = Field(default=None)  # total cost of the best way to buy, the same way
    reason: str | None = Field(default=None)  # why the offer cannot be compared (grp NOT_COMPARABLE)


__all__ = ["EvaluationSet", "OfferStamp", "StoredEvaluation"]
