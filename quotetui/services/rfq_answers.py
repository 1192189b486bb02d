"""Answers to an RFQ read back (issue 17, point 2): a provider's filled response workbook
(``io/rfq_workbook.py``) imported like any other file (``quotetui import ANSWER.xlsx``), all or nothing.

A workbook is an answer when it has the RFQ sheet and the answer sheet. Its identity cells say which RFQ,
revision and provider it answers; an answer to a revision that is no longer current, from a provider the RFQ
was not sent to, to an RFQ not on record, or a file already read is refused with what to do. Its rows become
the tables the importer already reads (``import_writer.Writer``), so an answer is checked and written by the
very rules of the Offers, Negotiation and SLA sheets: each offer named on the answer sheet is created or
updated for that provider, its prices become a new round (moved by the provider, dated the day it is read),
its SLA is set. The answer is recorded (``rfq_answer``: RFQ, revision, when, file name and SHA-256, the offers)
and the invitation marked answered, in the same transaction. A quote valid for less than
:data:`EXPIRES_SOON_DAYS` more days is a warning.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from openpyxl.utils import get_column_letter
from sqlmodel import Session, col, func, select

from quotetui.domain import entities as E
from quotetui.domain.enums import InviteState, Mover
from quotetui.domain.text import name_key
from quotetui.domain.timeutil import utcnow
from quotetui.io.import_schema import norm
from quotetui.io.problems import Problem
from quotetui.io.rfq_workbook import (
    ANSWER_SHEET,
    DISCOUNT_ANSWER,
    DISCOUNT_SHEET,
    EXTRA_ANSWER,
    EXTRA_SHEET,
    FIRST_ANSWER_ROW,
    IDENTITY_CELLS,
    OFFER_ANSWER,
    PRICE_ANSWER,
    RFQ_SHEET,
    SLA_ANSWER,
    bilingual,
)
from quotetui.io.table_model import Table
from quotetui.language import _
from quotetui.language.dates import day_text
from quotetui.language.lists import listed, quoted
from quotetui.store.models import Offer, Provider, QuoteRevision, Rfq, RfqAnswer, RfqInvite

ANSWER_ENTITIES = {
    "offers": E.OFFER,
    "revisions": E.REVISIONS,
    "sla": E.SLA,
    "discounts": E.DISCOUNT,
    "extras": E.EXTRA,
}
"""The importer's entities an answer's rows are read as (``Answer.tables``' keys)."""
TERMS = (("discounts", DISCOUNT_SHEET, DISCOUNT_ANSWER), ("extras", EXTRA_SHEET, EXTRA_ANSWER))
"""The answer's optional sheets of terms: the importer's entity each is read as, its sheet, its columns."""
EXPIRES_SOON_DAYS = 14
"""A quote that lapses within this many days of being read is named in a warning."""


@dataclass
class AnswerTable(Table):
    """One of the importer's tables made from the answer sheet: a problem in one of its columns names the
    answer sheet's own column (its bilingual header and letter), not the table's."""

    shown: dict[int, tuple[str, int]] = field(default_factory=dict)  # column -> (answer header, answer column)

    def where(self, row: int | None = None, column: int | None = None, reason: str = "") -> Problem:
        if column is not None and column in self.shown:
            label, at = self.shown[column]
            name = _("column {name} ({letter})").format(name=quoted(label), letter=get_column_letter(at + 1))
            return Problem(self.file, reason, self.sheet, row, name)
        return super().where(row, column, reason)


@dataclass
class Answer:
    """One response workbook, checked against the database; ``tables`` are what the importer reads."""

    file: str
    sha256: str
    rfq: Rfq | None = None
    provider: Provider | None = None
    tables: dict[str, Table] = field(default_factory=dict)  # entity key -> table
    offers: list[str] = field(default_factory=list)  # the offer names it answers with


def split_answers(tables: list[Table]) -> tuple[dict[str, dict[str, Table]], list[Table]]:
    """The answer workbooks among the tables read (by file: its RFQ sheet and its answer sheet, with its
    discounts and extras sheets when it has them), and the other tables."""
    by_file: dict[str, dict[str, Table]] = defaultdict(dict)
    for t in tables:
        if t.sheet in (RFQ_SHEET, ANSWER_SHEET, DISCOUNT_SHEET, EXTRA_SHEET):
            by_file[t.file][t.sheet] = t
    answers = {f: s for f, s in by_file.items() if RFQ_SHEET in s and ANSWER_SHEET in s}
    return answers, [t for t in tables if t.file not in answers]


def _cell(sheet: Table, ref: str) -> Any:
    column, row = ord(ref[0]) - ord("A"), int(ref[1:])
    for number, values in sheet.rows:
        if number == row:
            return values[column] if column < len(values) else None
    return None


def _fingerprint(sheets: dict[str, Table]) -> str:
    """SHA-256 of what the answer says (its identity cells and the answer sheet's rows), not of the file's
    bytes: the same answer opened and saved again is the same answer, read once."""
    digest = hashlib.sha256()
    for key in sorted(IDENTITY_CELLS):
        digest.update(repr((key, _cell(sheets[RFQ_SHEET], IDENTITY_CELLS[key]))).encode())
    for title in (ANSWER_SHEET, DISCOUNT_SHEET, EXTRA_SHEET):
        sheet = sheets.get(title)
        if sheet is None:
            continue
        digest.update(repr((title, sheet.header)).encode())
        for number, values in sheet.rows:
            cells = list(values)
            while cells and cells[-1] in (None, ""):
                cells.pop()
            if number >= FIRST_ANSWER_ROW and cells:
                digest.update(repr((number, cells)).encode())
    return digest.hexdigest()


def check_answers(
    session: Session,
    found: dict[str, dict[str, Table]],
    problems: list[Problem],
    day: date,
) -> list[Answer]:
    """Each answer workbook's identity checked against the database (a problem names what is wrong and what
    to do), and its rows turned into the importer's tables."""
    answers = []
    for file, sheets in found.items():
        for sheet in sheets.values():  # formulas without a saved value, a hidden sheet: read, never guessed
            problems += sheet.problems
        answer = Answer(file, _fingerprint(sheets))
        if _identify(session, answer, sheets[RFQ_SHEET], problems):
            _tables(session, answer, sheets[ANSWER_SHEET], problems, day)
            for key, title, fields in TERMS:
                if title in sheets:
                    answer.tables[key] = _terms(answer, sheets[title], fields, problems)
            answers.append(answer)
    return answers


def _identify(session: Session, answer: Answer, sheet: Table, problems: list[Problem]) -> bool:
    def refuse(reason: str) -> bool:
        problems.append(Problem(answer.file, reason, RFQ_SHEET))
        return False

    identity = ("rfq", "rfq_id", "revision", "provider")
    name, rfq_id, revision, provider = (_cell(sheet, IDENTITY_CELLS[k]) for k in identity)
    reference = _cell(sheet, IDENTITY_CELLS["reference"])
    if (
        type(rfq_id) is not int
        or type(revision) is not int
        or not isinstance(name, str)
        or not isinstance(provider, str)
    ):
        return refuse(
            _(
                "the RFQ, its id, revision and provider (cells {cells}) are not as `quotetui rfq send` wrote them: "
                "ask for the workbook again, or send it anew"
            ).format(cells=listed(IDENTITY_CELLS[k] for k in identity))
        )
    rfq = session.get(Rfq, rfq_id)
    if rfq is None or name_key(rfq.name) != name_key(name):
        return refuse(
            _("this workbook answers RFQ #{id} {name}, which is not on record here").format(
                id=rfq_id, name=quoted(name)
            )
        )
    if revision != rfq.revision:
        return refuse(
            _(
                "this workbook answers revision {revision} of RFQ {name}, which is at revision {current} now: "
                "send the current one (`quotetui rfq send {name} --provider …`) and read its answer"
            ).format(revision=revision, name=repr(rfq.name), current=rfq.revision)  # repr: shell-quoted in the command
        )
    invited = session.exec(
        select(Provider, RfqInvite)
        .join(RfqInvite, col(RfqInvite.provider_id) == col(Provider.id))
        .where(RfqInvite.rfq_id == rfq.id)
    ).all()
    found, invite = next(((p, i) for p, i in invited if name_key(p.name) == name_key(provider)), (None, None))
    if found is None or invite is None:
        return refuse(
            _("RFQ {name} was not sent to {provider}: an answer is read only from a provider asked").format(
                name=quoted(rfq.name), provider=quoted(provider)
            )
        )
    if invite.reference is not None and reference != invite.reference:
        return refuse(
            _(
                "the reference (cell {cell}) is not the one on the workbook sent to {provider}: a provider answers "
                "on the workbook sent to it, its cells as they were"
            ).format(cell=IDENTITY_CELLS["reference"], provider=quoted(found.name))
        )
    seen = session.exec(select(RfqAnswer).where(RfqAnswer.rfq_id == rfq.id, RfqAnswer.sha256 == answer.sha256)).first()
    if seen is not None:
        day = day_text(seen.received_at.date())
        return refuse(
            _("this very answer was read on {day} (from {file}); nothing to do").format(day=day, file=seen.file_name)
        )
    answer.rfq, answer.provider = rfq, found
    return True


def _columns(answer: Answer, sheet: Table, fields: tuple[Any, ...], problems: list[Problem]) -> dict[str, int]:
    """Where each field's column is on ``sheet``, by field name (its bilingual header, as `rfq send` wrote it);
    a header the sheet was not sent with is a problem."""
    by_header = {norm(bilingual(f)): f for f in fields}
    at: dict[str, int] = {}
    for i, header in enumerate(sheet.header):
        f = by_header.get(norm(str(header or "")))
        if f is not None:
            at[f.name] = i
        elif header not in (None, ""):
            reason = _("a column this sheet does not have: {header}").format(header=quoted(header))
            problems.append(Problem(answer.file, reason, sheet.sheet))
    return at


def _tables(session: Session, answer: Answer, sheet: Table, problems: list[Problem], day: date) -> None:
    """The answer sheet's rows as the Offers, Negotiation and SLA tables the importer reads: one offer per
    name (its own columns from the first row that gives them; every row must agree), one price option per row,
    in a new round of that offer moved by the provider and dated ``day``."""
    assert answer.provider is not None
    at = _columns(answer, sheet, (*OFFER_ANSWER, *PRICE_ANSWER, *SLA_ANSWER), problems)
    provider = answer.provider.name
    offer_head = ["provider", *(f.column for f in OFFER_ANSWER)]
    round_head = [
        "provider",
        "offer",
        E.SEQ.column,
        E.MOVER.column,
        E.QUOTED_AT.column,
        *(f.column for f in PRICE_ANSWER),
    ]
    sla_head = ["provider", "offer", *(f.column for f in SLA_ANSWER)]

    def shown(*fields: Any, first: int) -> dict[int, tuple[str, int]]:
        return {first + i: (bilingual(f), at[f.name]) for i, f in enumerate(fields) if f.name in at}

    name_field = OFFER_ANSWER[0]
    tables = {
        "offers": AnswerTable(answer.file, ANSWER_SHEET, offer_head, shown=shown(*OFFER_ANSWER, first=1)),
        "revisions": AnswerTable(
            answer.file, ANSWER_SHEET, round_head, shown=shown(name_field, first=1) | shown(*PRICE_ANSWER, first=5)
        ),
        "sla": AnswerTable(
            answer.file, ANSWER_SHEET, sla_head, shown=shown(name_field, first=1) | shown(*SLA_ANSWER, first=2)
        ),
    }
    first: dict[str, tuple[int, list[Any]]] = {}
    seqs = _next_rounds(session, answer.provider)

    def value(row: list[Any], f: Any) -> Any:
        i = at.get(f.name)
        return row[i] if i is not None and i < len(row) else None

    for number, row in sheet.rows:
        if number < FIRST_ANSWER_ROW or all(v in (None, "") for v in row):
            continue  # the notes under the headers, and rows left empty
        name = value(row, OFFER_ANSWER[0])
        key = name_key(str(name)) if name not in (None, "") else ""
        own = [value(row, f) for f in (*OFFER_ANSWER, *SLA_ANSWER)]
        if key in first:
            earlier_row, earlier = first[key]
            for f, a, b in zip((*OFFER_ANSWER, *SLA_ANSWER), earlier, own, strict=True):
                if b not in (None, "") and a not in (None, "") and a != b:
                    reason = _(
                        "{field} is {first} on row {row} but {this} here: every row of an offer must agree"
                    ).format(field=f.title, first=quoted(a), row=earlier_row, this=quoted(b))
                    problems.append(Problem(answer.file, reason, ANSWER_SHEET, number, bilingual(f)))
        else:
            first[key] = (number, own)
            answer.offers.append(str(name) if name not in (None, "") else "")
            tables["offers"].rows.append((number, [provider, *(value(row, f) for f in OFFER_ANSWER)]))
            if any(value(row, f) not in (None, "") for f in SLA_ANSWER):
                tables["sla"].rows.append((number, [provider, name, *(value(row, f) for f in SLA_ANSWER)]))
        seq = seqs.get(key, 1)
        tables["revisions"].rows.append(
            (
                number,
                [provider, name, seq, Mover.PROVIDER.value, day.isoformat(), *(value(row, f) for f in PRICE_ANSWER)],
            )
        )
    if not first:
        problems.append(Problem(answer.file, _("the answer sheet has no row filled in: nothing to read"), ANSWER_SHEET))
    answer.tables = tables


def _terms(answer: Answer, sheet: Table, fields: tuple[Any, ...], problems: list[Problem]) -> AnswerTable:
    """A discounts or extras sheet as the importer's table of that entity: one row per term, for the offer it
    names (an offer of the answer sheet, or one of the provider's on record)."""
    assert answer.provider is not None
    name_field = OFFER_ANSWER[0]
    at = _columns(answer, sheet, (name_field, *fields), problems)
    shown = {1 + i: (bilingual(f), at[f.name]) for i, f in enumerate((name_field, *fields)) if f.name in at}
    head = ["provider", "offer", *(f.column for f in fields)]
    table = AnswerTable(answer.file, sheet.sheet, head, shown=shown)
    for number, row in sheet.rows:
        if number < FIRST_ANSWER_ROW or all(v in (None, "") for v in row):
            continue
        values = [row[at[f.name]] if f.name in at and at[f.name] < len(row) else None for f in (name_field, *fields)]
        table.rows.append((number, [answer.provider.name, *values]))
    return table


def _next_rounds(session: Session, provider: Provider) -> dict[str, int]:
    """Each of the provider's offers by name key: the number its next round takes."""
    rows = session.exec(
        select(Offer.name, func.max(QuoteRevision.seq))
        .join(QuoteRevision, col(QuoteRevision.offer_id) == col(Offer.id))
        .where(Offer.provider_id == provider.id)
        .group_by(col(Offer.id))
    ).all()
    return {name_key(name): (seq or 0) + 1 for name, seq in rows}


def record_answers(session: Session, answers: list[Answer], warnings: list[Problem], day: date) -> None:
    """After the importer wrote the answers' rows (same transaction): each answer's provenance, its invitation
    answered, and a warning for each quote that lapses within :data:`EXPIRES_SOON_DAYS` days."""
    now = utcnow()
    for answer in answers:
        assert answer.rfq is not None and answer.provider is not None
        offers = session.exec(select(Offer).where(Offer.provider_id == answer.provider.id)).all()
        keys = {name_key(n) for n in answer.offers}
        mine = [o for o in offers if name_key(o.name) in keys]
        session.add(
            RfqAnswer(
                rfq_id=answer.rfq.id,
                provider_id=answer.provider.id,
                revision=answer.rfq.revision,
                received_at=now,
                file_name=Path(answer.file).name[:255],
                sha256=answer.sha256,
                offers=sorted(o.id for o in mine if o.id is not None),
            )
        )
        invite = session.exec(
            select(RfqInvite).where(RfqInvite.rfq_id == answer.rfq.id, RfqInvite.provider_id == answer.provider.id)
        ).one()
        invite.state, invite.answered_at = InviteState.ANSWERED, now
        session.add(invite)
        for o in mine:
            if o.valid_until is not None and (o.valid_until - day).days <= EXPIRES_SOON_DAYS:
                left = (o.valid_until - day).days
                if left > 0:
                    said = _("{provider} / {offer}: the quote expires in {n} days ({day})")  # (English says "1 days")
                elif left == 0:
                    said = _("{provider} / {offer}: the quote expires today ({day})")
                else:
                    said = _("{provider} / {offer}: the quote has expired ({day})")
                reason = said.format(provider=answer.provider.name, offer=o.name, n=left, day=day_text(o.valid_until))
                warnings.append(Problem(answer.file, reason, ANSWER_SHEET))
    session.flush()
