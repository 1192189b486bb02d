"""The audit trail and contract amendments: records of who changed what, never rewritten."""

from datetime import date, datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from quotetui.store.models.base import created, fk, timestamp


class ChangeLog(SQLModel, table=True):
    """One change to one row a buyer relies on (``store/audit.py`` writes it on every flush): who, when, from
    which front end or file, and each changed column's value before and after. ``offer_id`` and ``contract_id``
    are plain numbers, not foreign keys: the trail outlives the rows it describes."""

    __tablename__ = "change_log"
    id: int | None = Field(default=None, primary_key=True)
    at: datetime = timestamp()
    who: str = Field(max_length=200)
    via: str = Field(max_length=500)
    entity: str = Field(max_length=40)  # the table
    row_id: int | None = None
    offer_id: int | None = Field(default=None, index=True)
    contract_id: int | None = Field(default=None, index=True)
    action: str = Field(max_length=8)  # added, changed, removed
    subject: str = Field(default="", max_length=300)  # the row as a person names it, when it was written
    changes: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON, nullable=False)  # column: [before, after]
    origin: str | None = Field(default=None, max_length=500)  # an entry a workbook brought: which, by whom, when


class ContractAmendment(SQLModel, table=True):
    """A dated change to a signed contract's terms, agreed by both parties (``services/amendments.py``):
    from ``effective`` the amended terms hold; ``changes`` keeps each term before and after."""

    __tablename__ = "contract_amendment"
    __table_args__ = (
        sa.UniqueConstraint("contract_id", "seq"),
        sa.CheckConstraint("length(reason) > 0", name="reason_given"),
    )
    id: int | None = Field(default=None, primary_key=True)
    contract_id: int = fk("contract.id", ondelete="CASCADE")
    seq: int  # 1, 2, … per contract
    effective: date
    reason: str = Field(max_length=2000)
    recorded_by: str = Field(max_length=200)
    changes: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON, nullable=False)
    created_at: datetime = created()
