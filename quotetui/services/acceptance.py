"""The acceptance gate: an offer's or a contract's checklist from the logs on record, written waivers, and
moving a contract to accepted only when nothing blocks (``quotetui/domain/verification/acceptance.py``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from fractions import Fraction
from math import ceil
from typing import Any

from sqlmodel import Session, col, select

from quotetui.domain.contracts.amendments import Amendment, term_on
from quotetui.domain.economics.inputs import OfferInput
from quotetui.domain.entities import WAIVER
from quotetui.domain.enums import AcceptanceCheck, InterFabric, IntraFabric
from quotetui.domain.errors import BadInput, FieldErrors
from quotetui.domain.fields import parse_record
from quotetui.domain.gpus import GpuCatalog
from quotetui.domain.verification.acceptance import Item, Status, Waiver, blocking, checklist
from quotetui.domain.verification.findings import Finding, Log, Sold
from quotetui.domain.verification.rules import check
from quotetui.language import N_, _
from quotetui.language.dates import day_text
from quotetui.language.lists import clauses
from quotetui.services.verification import LogOnRecord, check_offer, sold_as
from quotetui.store.catalog import load_catalog
from quotetui.store.engine import Database
from quotetui.store.models import AcceptanceWaiver, Contract, Evidence, Offer


@dataclass(frozen=True, slots=True)
class Acceptance:
    offer_id: int
    offer: str  # provider and offer name
    nodes: int
    items: tuple[Item, ...]
    contract_id: int | None = None
    accepted_on: date | None = None
    after: tuple[str, ...] = ()  # logs recorded after the acceptance: not part of what it rests on
    amended: str | None = None  # what an amendment after the acceptance changed (not covered by it)
    judged: Mapping[str, Any] = field(default_factory=dict)  # a contract's sold as judged on the day (``judged``)

    @property
    def subject(self) -> str:
        """What the checklist is of, in the language in use (``contract #3``, ``offer #8``)."""
        if self.contract_id is not None:
            return _("contract #{id}").format(id=self.contract_id)
        return _("offer #{id}").format(id=self.offer_id)

    @property
    def blocking(self) -> tuple[Item, ...]:
        return blocking(self.items)

    def to_json(self) -> dict[str, Any]:
        return {
            "offer_id": self.offer_id,
            "contract_id": self.contract_id,
            "offer": self.offer,
            "nodes": self.nodes,
            "accepted_on": self.accepted_on.isoformat() if self.accepted_on else None,
            "can_accept": not self.blocking,
            "items": [i.to_json() for i in self.items],
            "recorded_after_acceptance": list(self.after),
            "amended_since_acceptance": self.amended,
        }


def build(
    offer: OfferInput,
    logs: list[LogOnRecord],
    findings: list[Finding],
    catalog: GpuCatalog,
    nodes: int = 1,
    waivers: tuple[Waiver, ...] = (),
    sold: Sold | None = None,
    needed: int | None = None,
) -> tuple[Item, ...]:
    """The checklist from what a caller already loaded (the export gathers every offer's logs and findings).
    ``sold``: what a contract sold (its snapshot), judged instead of the offer as it reads now; the logs'
    findings are then the rules' against it, so an edit of the offer never changes what acceptance judges."""
    readable = [Log(r.evidence_id, r.label, r.parsed, r.host) for r in logs if r.parsed is not None]
    if sold is not None:
        findings = check(sold, readable, catalog)
    return checklist(sold or sold_as(offer), readable, findings, catalog, nodes, waivers, needed)


def judged(contract: Any, amendments: Sequence[Amendment] = (), day: date | None = None) -> dict[str, Any]:
    """What acceptance judges a contract against: what it sold as amended in force on ``day`` (an amendment
    still to come changes the machines to deliver from its day, not those accepted before it: ``term_on``), or —
    once accepted — what it sold on the day of the acceptance (an amendment after it changes the contract, not
    what was accepted). A model to come is named, its key left to ``sold_by``."""
    snapshot = contract.snapshot or {}
    if contract.accepted_on is not None and snapshot.get("accepted_sold"):
        return dict(snapshot["accepted_sold"])
    kept = dict(snapshot.get("sold") or {})
    if not kept or day is None or not amendments:
        return kept
    if kept.get("nodes") is not None:
        kept["nodes"] = term_on(amendments, "nodes", kept["nodes"], day)
    if (name := term_on(amendments, "gpu", kept.get("gpu_name"), day)) != kept.get("gpu_name"):
        kept["gpu"], kept["gpu_name"] = None, name
    sample = dict(kept.get("sample") or {})
    for key, term in (("share", "acceptance_sample"), ("at_least", "acceptance_sample_min")):
        sample[key] = term_on(amendments, term, sample.get(key), day)
    kept["sample"] = sample if any(v is not None for v in sample.values()) else None
    return kept


SOLD_WORDS = {
    "gpu_name": N_("gpu name"),
    "gpus_per_node": N_("gpus per node"),
    "nodes": N_("nodes"),
    "intra_fabric": N_("intra fabric"),
    "inter_fabric": N_("inter fabric"),
    "inter_gbps_per_gpu": N_("inter gbps per gpu"),
    "nodes_available": N_("nodes available"),
    "sample": N_("sample"),
}
"""What a contract's snapshot of what was sold keeps (its keys), in words (English message ids)."""


def amended_since_acceptance(contract: Any) -> str | None:
    """What an amendment after the acceptance changed in what was sold, in words (None: nothing)."""
    snapshot = contract.snapshot or {}
    then, now = snapshot.get("accepted_sold"), snapshot.get("sold")
    if contract.accepted_on is None or not then or not now or then == now:
        return None
    said = [
        f"{_(SOLD_WORDS[key]) if key in SOLD_WORDS else key.replace('_', ' ')} {then.get(key)} → {now.get(key)}"
        for key in now
        if then.get(key) != now.get(key) and key != "gpu"  # the model by its name (``gpu_name``), not its key
    ]
    return _(
        "amended after the acceptance ({changes}): what the amendment changed is not covered by the acceptance of {day}"
    ).format(changes=clauses(said), day=day_text(contract.accepted_on))


def machines_needed(kept: Mapping[str, Any], nodes: int) -> int:
    """The machines a node-level item must pass on: every node, or the sample the contract states (``kept``, what
    it is judged against: a share of the nodes, rounded up, and at least so many)."""
    sample = kept.get("sample")
    if not sample:
        return nodes
    by_share = ceil(Fraction(sample["share"]) * nodes) if sample.get("share") else 0
    return min(nodes, max(int(sample.get("at_least") or 1), by_share))


def sold_by(contract: Contract, kept: Mapping[str, Any], catalog: GpuCatalog) -> Sold | None:
    """What a contract sold, as ``judged`` reads its snapshot (``kept``; None: signed before contracts kept it)."""
    if not kept:
        return None
    gbps = kept.get("inter_gbps_per_gpu")
    where = _("contract #{id}'s snapshot of what was sold, {column}")
    return Sold(
        catalog.get(kept["gpu"]) if kept.get("gpu") else catalog.lookup(kept["gpu_name"]),
        int(kept["gpus_per_node"]),
        IntraFabric.stored(kept["intra_fabric"], where.format(id=contract.id, column="intra_fabric")),
        InterFabric.stored(kept["inter_fabric"], where.format(id=contract.id, column="inter_fabric")),
        Decimal(gbps) if gbps is not None else None,
    )


def as_accepted(contract: Any, logs: list[LogOnRecord]) -> tuple[list[LogOnRecord], tuple[str, ...]]:
    """The logs a contract's checklist rests on — once accepted, those on record when it was accepted (the
    record a buyer relies on does not move) — and the labels of the logs recorded after."""
    kept = (contract.snapshot or {}).get("accepted_evidence")
    if contract.accepted_on is None or kept is None:
        return logs, ()
    ids = set(kept)
    return [g for g in logs if g.evidence_id in ids], tuple(g.label for g in logs if g.evidence_id not in ids)


def _checklist(
    db: Database,
    offer_id: int,
    nodes: int,
    waivers: tuple[Waiver, ...] = (),
    contract: Contract | None = None,
    kept: Mapping[str, Any] | None = None,
) -> tuple[str, tuple[Item, ...], tuple[str, ...]]:
    result = check_offer(db, offer_id)
    with db.session() as session:
        catalog, _fx = load_catalog(session)
    sold = sold_by(contract, kept or {}, catalog) if contract is not None else None
    needed = machines_needed(kept or {}, nodes) if contract is not None else None
    logs, after = as_accepted(contract, result.logs) if contract is not None else (result.logs, ())
    items = build(result.offer, logs, result.findings, catalog, nodes, waivers, sold, needed)
    return f"{result.offer.provider} {result.offer.name}", items, after


def waivers_by_contract(session: Session) -> dict[int, tuple[Waiver, ...]]:
    found: dict[int, list[Waiver]] = {}
    for w in session.exec(select(AcceptanceWaiver).order_by(col(AcceptanceWaiver.id))):
        found.setdefault(w.contract_id, []).append(Waiver(w.item, w.reason, w.waived_by, w.waived_on, w.waived_status))
    return {k: tuple(v) for k, v in found.items()}


def nodes_of(gpu_count: int, gpus_per_node: int) -> int:
    """The nodes a contract's GPUs fill (a part node counts as one)."""
    return max(1, -(-gpu_count // max(1, gpus_per_node)))


def offer_acceptance(db: Database, offer_id: int, nodes: int = 1) -> Acceptance:
    """The checklist of an offer bought as ``nodes`` nodes (before signing: what its trial machine showed)."""
    if nodes < 1:
        raise BadInput(_("--nodes is {n}: at least 1").format(n=nodes))
    name, items, _after = _checklist(db, offer_id, nodes)
    return Acceptance(offer_id, name, nodes, items)


def _contract(session: Session, contract_id: int) -> Contract:
    contract = session.get(Contract, contract_id)
    if contract is None:
        known = session.exec(select(col(Contract.id)).order_by(col(Contract.id))).all()
        if known:
            said = _("no contract #{id} (contracts are #{first}–#{last})").format(
                id=contract_id, first=known[0], last=known[-1]
            )
        else:
            said = _("no contract #{id} (there are no contracts yet)").format(id=contract_id)
        raise BadInput(said)
    return contract


def contract_nodes(contract: Contract, kept: Mapping[str, Any], gpus_per_node: int) -> int:
    """The nodes acceptance judges: those sold (``kept``, whatever the offer says now), else the GPUs' nodes."""
    return int(kept["nodes"]) if kept.get("nodes") else nodes_of(contract.gpu_count, gpus_per_node)


def contract_acceptance(db: Database, contract_id: int, day: date | None = None) -> Acceptance:
    """The checklist of a signed contract, over its offer's logs, for the nodes it covers on ``day`` (default:
    today), waivers applied."""
    from quotetui.services.contract_rows import amendments_of_one
    from quotetui.services.settings import local_today
    from quotetui.store.reader import session_reader

    with db.session() as session:
        contract = _contract(session, contract_id)
        waivers = waivers_by_contract(session).get(contract_id, ())
        amendments = amendments_of_one(session_reader(session), contract_id)
        kept = judged(contract, amendments, day or local_today(session))
        offer = session.get(Offer, contract.offer_id)
        nodes = contract_nodes(contract, kept, offer.gpus_per_node if offer is not None else 1)
    name, items, after = _checklist(db, contract.offer_id, nodes, waivers, contract, kept)
    return Acceptance(contract.offer_id, name, nodes, items, contract_id, contract.accepted_on, after,
                      amended_since_acceptance(contract), kept)  # fmt: skip


def waive(db: Database, contract_id: int, raw: Mapping[str, object], today: date) -> Acceptance:
    """Records a written waiver (the fields of ``entities.WAIVER``: item, reason, by, on) of one item that failed
    or has no evidence; an item that passed, or that is not required, needs none (refused, so a waiver never
    hides a later failure of an item that was fine). A second waiver of the item replaces the first."""
    v = parse_record(WAIVER, raw)
    item: str = v["item"].value
    current = {i.key: i for i in contract_acceptance(db, contract_id, v["on"] or today).items}[item]
    if current.status in (Status.PASSED, Status.NOT_REQUIRED):
        said = _("{item} is {status} on contract #{id}: nothing to waive")
        raise FieldErrors({"item": said.format(item=v["item"].word, status=current.status.word, id=contract_id)})
    on: date = v["on"] or today
    with db.write() as session:
        _open_for_acceptance(_contract(session, contract_id), on, today, "on")
        existing = session.exec(
            select(AcceptanceWaiver).where(AcceptanceWaiver.contract_id == contract_id, AcceptanceWaiver.item == item)
        ).first()
        row = existing or AcceptanceWaiver(contract_id=contract_id, item=item, reason="", waived_by="", waived_on=on)
        row.reason, row.waived_by, row.waived_on = v["reason"], v["by"], on
        row.waived_status = (current.underlying or current.status).value  # what it was waived as
        session.add(row)
    return contract_acceptance(db, contract_id)


class NotAcceptable(BadInput):
    """A contract that cannot be accepted yet: each blocking item on a line of its own."""

    listed = True


def accept(db: Database, contract_id: int, on: date, today: date) -> Acceptance:
    """Moves a contract to accepted on ``on``; refused, naming each blocking item, while one failed or is
    missing without a waiver; refused once accepted (the day and what it rested on stay as recorded)."""
    state = contract_acceptance(db, contract_id, on)
    with db.session() as session:
        _open_for_acceptance(_contract(session, contract_id), on, today, "--on")
    if state.blocking:
        items = "\n".join(
            _("{item} {status}: {reason}").format(
                item=AcceptanceCheck(i.key).coded, status=i.status.word, reason=i.reason
            )
            for i in state.blocking
        )
        head = _("contract #{id} cannot be accepted:").format(id=contract_id)
        fix = _(
            "Import the logs that show it (`quotetui bench import LOG --offer {offer}`) or waive an item in writing "
            "(`quotetui acceptance waive ITEM --contract {id} --reason …`)"
        ).format(id=contract_id, offer=state.offer_id)
        raise NotAcceptable(f"{head}\n{items}\n{fix}")  # one line each: ``listed``
    latest = max((i.waiver.on for i in state.items if i.waiver is not None), default=None)
    if latest is not None and on < latest:  # an acceptance rests on its waivers: none written after it
        raise FieldErrors(
            {
                "--on": _("{day} is before the waiver it rests on ({waived}): accept on or after it").format(
                    day=on.isoformat(), waived=latest.isoformat()
                )
            }
        )
    with db.write() as session:
        contract = _contract(session, contract_id)
        _open_for_acceptance(contract, on, today, "--on")  # again inside the write: two buyers at once
        contract.accepted_on = on
        rested = session.exec(select(Evidence.id).where(Evidence.offer_id == contract.offer_id)).all()
        contract.snapshot = {
            **(contract.snapshot or {}),
            "accepted_evidence": sorted(i for i in rested if i),  # what the acceptance rests on
            "accepted_sold": dict(state.judged) or None,  # and what it judged, on its day
        }
        session.add(contract)
    return contract_acceptance(db, contract_id)


# Without a signing day, a contract's acceptance (or a waiver) may be dated at most a year before its start:
# nodes are delivered and accepted shortly before service starts, never years before.


def _open_for_acceptance(contract: Contract, on: date, today: date, what: str) -> None:
    """Refuses a day after today or before the contract could be accepted, and any change once accepted."""
    if contract.accepted_on is not None:
        raise BadInput(
            _(
                "contract #{id} was accepted on {day}: its acceptance and the waivers it rested on stay as recorded"
            ).format(id=contract.id, day=day_text(contract.accepted_on))
        )
    start = contract.start_date
    earliest = contract.signed_date or start.replace(
        year=start.year - 1, day=min(start.day, 28) if start.month == 2 else start.day
    )
    if on > today:
        raise FieldErrors(
            {what: _("{day} is after today ({today})").format(day=on.isoformat(), today=today.isoformat())}
        )
    if on < earliest:
        said = (
            _("{day} is earlier than the day it was signed ({earliest})")
            if contract.signed_date
            else _("{day} is earlier than a year before it starts ({earliest})")
        )
        raise FieldErrors({what: said.format(day=on.isoformat(), earliest=earliest.isoformat())})
