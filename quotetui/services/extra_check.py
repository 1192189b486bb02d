"""``db check``'s extra costs stored on a basis their kind is not charged on (``billing.EXTRA_BASES``): a version
before the rule wrote them; they are costed as recorded and flagged, and each is named with the command that
corrects it."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from sqlmodel import col, select

from quotetui.domain.economics.billing import basis_mend, basis_refusal
from quotetui.domain.enums import ExtraBasis, ExtraKind
from quotetui.language import _
from quotetui.language.lists import aside
from quotetui.store.engine import Database
from quotetui.store.models import ExtraCost


@dataclass(frozen=True, slots=True)
class DisagreeingExtra:
    offer_id: int
    extra_id: int
    kind: ExtraKind
    basis: ExtraBasis
    why: str  # the rule's own words (``billing.basis_refusal``)
    mend: str  # the command that corrects it (``billing.basis_mend``)

    @property
    def said(self) -> str:
        return aside(_("offer #{offer}, extra cost #{id}").format(offer=self.offer_id, id=self.extra_id), self.why)

    @property
    def removes(self) -> bool:
        """Whether it is corrected by its removal: each basis its kind is charged on is another extra's of its
        offer (the same cost recorded twice; its amount belongs in that one)."""
        return self.mend.startswith("quotetui extra remove")

    def to_json(self) -> dict[str, Any]:
        return {
            "offer_id": self.offer_id,
            "extra_id": self.extra_id,
            "kind": self.kind.value,
            "basis": self.basis.value,
            "why": self.why,
            "mend": self.mend,
        }


def disagreeing_extras(db: Database) -> list[DisagreeingExtra]:
    """The extra costs on record whose basis their kind is not charged on, by offer and id; read, nothing changed."""
    with db.session() as session:
        rows = session.exec(
            select(ExtraCost.id, ExtraCost.offer_id, ExtraCost.kind, ExtraCost.basis).order_by(
                col(ExtraCost.offer_id), col(ExtraCost.id)
            )
        ).all()
    bases: dict[tuple[int, ExtraKind], list[ExtraBasis]] = defaultdict(list)
    for _id, offer_id, kind, basis in rows:
        bases[offer_id, ExtraKind(kind)].append(ExtraBasis(basis))
    found = []
    for extra_id, offer_id, kind, basis in rows:
        kind, basis = ExtraKind(kind), ExtraBasis(basis)
        why = basis_refusal(kind, basis)
        if why is not None and extra_id is not None:
            mend = basis_mend(extra_id, kind, bases[offer_id, kind])
            found.append(DisagreeingExtra(offer_id, extra_id, kind, basis, why, mend))
    return found
