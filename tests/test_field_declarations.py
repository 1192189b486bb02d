"""One declaration per field: every entity's form, import columns, export columns and demo-file model are made
from the same declared fields, so they accept and refuse the same values with the same message."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from openpyxl import load_workbook
from pydantic import ValidationError

from quotetui.domain import entities as E
from quotetui.domain.errors import FieldErrors
from quotetui.domain.fields import Entity, Field
from quotetui.io import demo_files
from quotetui.io.import_schema import ENTITIES
from quotetui.services import contract_forms, editing
from quotetui.store import models as M
from quotetui.store.engine import Database
from tests.conftest import Cli, dump

TABLES: dict[str, type] = {
    "providers": M.Provider,
    "offers": M.Offer,
    "prices": M.RevisionPrice,
    "discounts": M.Discount,
    "extras": M.ExtraCost,
    "sla": M.SlaTerm,
    "claims": M.BenchmarkResult,
    "fx": M.FxRate,
    "scenarios": M.Scenario,
    "purchases": M.PurchaseOption,
    "sources": M.Source,
    "requirements": M.Rfq,
}
ENTITY = {e.key: e for e in (*ENTITIES, E.PRICE, E.SCENARIO, E.PURCHASE, E.SOURCE, E.REQUIREMENT)}
# columns that are not typed by a user: keys, links resolved from names, stamps, and derived data
UNDECLARED = {
    "id", "provider_id", "gpu_model_id", "source_id", "revision_id", "offer_id", "evidence_id", "sla_term_id",
    "created_at", "updated_at", "measured_at", "conditions", "is_default", "version",
}  # fmt: skip


@pytest.mark.parametrize("key", sorted(TABLES))
def test_every_declared_field_fits_its_column_and_every_column_is_declared(key: str) -> None:
    entity, table = ENTITY[key], TABLES[key].__table__  # type: ignore[attr-defined]
    columns = {c.name: c for c in table.columns}
    for f in entity.fields:
        column = columns.get(f.name)
        if column is None:
            continue  # a reference (provider, offer, gpu, source) or a text form of child rows (credits)
        if f.required and f.default is None:
            assert not column.nullable, f"{key}.{f.name} is required but its column takes NULL"
        length = getattr(column.type, "length", None)
        if f.max_length is not None and length is not None and f.kind in ("text", "name"):
            assert f.max_length <= length, f"{key}.{f.name}: {f.max_length} characters do not fit {length}"
        if f.kind == "int":
            assert isinstance(column.type, sa.Integer), f"{key}.{f.name}"
    declared = {f.name for f in entity.fields}
    stored_only = {"qualifier", "is_estimate", "note", "seq", "builtin", "revision"}  # kept by quotetui, not typed
    assert set(columns) - UNDECLARED - declared <= stored_only, key


def _same(fields: tuple[Field, ...], entity: Entity, *, form: bool = True) -> None:
    expected = entity.form_fields if form else entity.sheet_fields
    assert fields == expected
    assert all(a is b for a, b in zip(fields, expected, strict=True))  # the very same objects, not copies


def test_the_forms_are_made_of_the_declared_fields(demo_db: Database) -> None:
    from datetime import date

    from quotetui.domain.enums import Mover

    _same(editing.provider_form(demo_db).fields, E.PROVIDER)
    _same(editing.offer_form(demo_db).fields, E.NEW_OFFER)
    _same(editing.offer_form(demo_db, 2).fields, E.OFFER)
    _same(editing.revision_form(demo_db, 2, Mover.COUNTER).fields, E.ROUND)
    _same(editing.discount_form(demo_db).fields, E.DISCOUNT)
    _same(editing.extra_form(demo_db).fields, E.EXTRA)
    _same(editing.sla_form(demo_db, 2).fields, E.SLA)
    _same(contract_forms.contract_form(demo_db, 2, date(2026, 1, 1)).fields, E.CONTRACT)


def test_the_import_template_and_the_export_use_the_declared_columns(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    for entity in ENTITIES:
        assert entity is ENTITY[entity.key]
    template, exported = tmp_path / "t.xlsx", tmp_path / "e.xlsx"
    assert cli("--db", str(demo_db_path), "template", str(template)).code == 0
    assert cli("--db", str(demo_db_path), "export", str(exported)).code == 0
    book, out = load_workbook(template, read_only=True), load_workbook(exported, read_only=True)
    for entity in ENTITIES:
        headers = [f.column for f in entity.sheet_fields]
        assert [c.value for c in next(book[entity.sheet].iter_rows(max_row=1))] == headers
        first = next(r for r in out[entity.sheet].iter_rows(values_only=True) if r and r[0] == headers[0])
        assert list(first[: len(headers)]) == headers, entity.sheet


def test_the_demo_files_are_read_by_the_declared_fields() -> None:
    def keys(model: Any) -> set[str]:
        return set(model.model_fields)

    assert {f.name for f in E.OFFER.fields} - {"provider"} <= keys(demo_files.OfferEntry)
    assert "prorata_days" in keys(demo_files.OfferEntry)  # once missing from the demo model
    assert {f.name for f in E.SCENARIO.fields} == keys(demo_files.ScenarioEntry)
    assert {f.name for f in E.PURCHASE.fields} == keys(demo_files.PurchaseEntry)
    assert {f.name for f in E.DISCOUNT.fields} - {"provider", "offer"} == keys(demo_files.DiscountEntry)


# -- the same bound, refused the same way by every front end -------------------------------------------------
OFFER_CSV = "provider,offer,gpu,gpus_per_node,billing,lead_time_days\n一万网络,{name},H100 SXM5,{gpus},monthly,{lead}\n"


def _import(cli: Cli, db: Path, tmp_path: Path, **values: object) -> Any:
    path = tmp_path / "offers.csv"
    path.write_text(OFFER_CSV.format(**({"name": "bounds", "gpus": 8, "lead": 0} | values)), encoding="utf-8")
    return cli("--db", str(db), "import", str(path), "--json")


def _form(db: Database, **values: object) -> dict[str, str]:
    raw = editing.offer_form(db).values | {"provider": "一万网络", "name": "bounds", "gpu": "H100", "amount": "1"}
    try:
        editing.save_offer(db, raw | {k: str(v) for k, v in values.items()})
    except FieldErrors as exc:
        return exc.errors
    return {}


def _demo(**values: object) -> str:
    entry = {"key": "k", "name": "n", "gpu": "H100", "gpus_per_node": 8, "billing_basis": "monthly"} | values
    entry["revision"] = [{"mover": "list", "quoted_at": "2026-01-01", "price": [{"term_months": 1, "unit": "gpu_hour",
                                                                                  "amount": "1"}]}]  # fmt: skip
    try:
        demo_files.OfferEntry.model_validate(entry)
    except ValidationError as exc:
        return str(exc)
    return ""


@pytest.mark.parametrize(
    ("field", "good", "bad", "message"),
    [
        ("gpus_per_node", 1024, 1025, "must be at most 1024"),
        ("gpus_per_node", 1, 0, "must be at least 1"),
        ("lead_time_days", 3650, 3651, "must be at most 3650"),
        ("gpus_per_node", "1,024", "1,02,4", "has commas that do not separate thousands"),
        ("gpus_per_node", "１６", "1.5", "is not a whole number"),
    ],
)
def test_a_bound_is_the_same_in_the_form_the_import_and_the_demo_files(
    cli: Cli, demo_db_path: Path, demo_db: Database, tmp_path: Path, field: str, good: object, bad: object, message: str
) -> None:
    csv_name = {"gpus_per_node": "gpus", "lead_time_days": "lead"}[field]
    refused = _import(cli, demo_db_path, tmp_path, **{csv_name: f'"{bad}"'})
    assert refused.code == 2
    [problem] = json.loads(refused.out)["problems"]
    assert message in problem["reason"] and problem["row"] == 2
    assert message in _form(demo_db, **{field: bad})[field]
    if not isinstance(bad, str) or bad.isdigit():
        assert message in _demo(**{field: bad})
    accepted = _import(cli, demo_db_path, tmp_path, **{csv_name: f'"{good}"'})
    assert accepted.code == 0, accepted.out
    assert _form(demo_db, **{field: good}, name="bounds 2") == {}


def test_an_imported_72_gpu_offer_saves_unchanged_from_its_edit_form(
    cli: Cli, demo_db_path: Path, demo_db: Database, tmp_path: Path
) -> None:
    assert _import(cli, demo_db_path, tmp_path, name="GB200 NVL72", gpus=72).code == 0
    [(offer_id,)] = demo_db.engine.connect().execute(sa.text("SELECT id FROM offer WHERE name = 'GB200 NVL72'"))
    before = dump(demo_db_path, frozenset({"updated_at"}))
    form = editing.offer_form(demo_db, offer_id)
    assert form.values["gpus_per_node"] == "72"
    editing.save_offer(demo_db, form.values, offer_id)
    assert dump(demo_db_path, frozenset({"updated_at"})) == before


def test_a_cross_field_rule_has_one_message_everywhere(
    cli: Cli, demo_db_path: Path, demo_db: Database, tmp_path: Path
) -> None:
    rounds = tmp_path / "negotiation.csv"
    rounds.write_text(
        "provider,offer,round,mover,quoted_at,price,unit,currency,term_months\n"
        "一万网络,8×H100 SXM5 整机,9,provider,2026-11-01,95000,term_total,CNY,0\n",
        encoding="utf-8",
    )
    [problem] = json.loads(cli("--db", str(demo_db_path), "import", str(rounds), "--json").out)["problems"]
    raw = editing.offer_form(demo_db).values | {"provider": "一万网络", "name": "x", "gpu": "H100", "amount": "1"}
    with pytest.raises(FieldErrors) as form:
        editing.save_offer(demo_db, raw | {"unit": "term_total", "term_months": "0"})
    price = {"term_months": 0, "unit": "term_total", "amount": "1", "currency": "CNY"}
    with pytest.raises(ValidationError) as demo:
        demo_files.PriceEntry.model_validate(price)
    assert problem["reason"] == form.value.errors["term_months"] == E.TERM_TOTAL_NEEDS_TERM
    assert E.TERM_TOTAL_NEEDS_TERM in str(demo.value)


def _demo_model_of(entity: Entity) -> Any:
    models = {
        "offers": demo_files.OfferEntry,
        "discounts": demo_files.DiscountEntry,
        "extras": demo_files.ExtraEntry,
        "sla": demo_files.SlaEntry,
        "claims": demo_files.ClaimEntry,
        "providers": demo_files.ProviderEntry,
        "scenarios": demo_files.ScenarioEntry,
        "purchases": demo_files.PurchaseEntry,
        "prices": demo_files.PriceEntry,
    }
    return models.get(entity.key)


BOUNDED = [
    (entity, f, value)
    for entity in (*ENTITIES, E.PRICE, E.SCENARIO, E.PURCHASE, E.CONTRACT, E.INCIDENT, E.INVOICE)
    for f in entity.fields
    if f.kind in ("int", "decimal", "money", "ratio", "rate")
    for value in (
        *([f.maximum + 1 if f.kind == "int" else f.maximum * 2] if f.maximum is not None else []),
        *([f.minimum - 1] if f.minimum is not None else []),
        *([Decimal(0)] if f.positive else []),
    )
]


@pytest.mark.parametrize(("entity", "field", "value"), BOUNDED, ids=[f"{e.key}.{f.name}={v}" for e, f, v in BOUNDED])
def test_every_bound_of_every_entity_is_refused_alike_by_form_import_and_demo_file(
    entity: Entity, field: Field, value: Decimal
) -> None:
    from quotetui.domain.gpus import BUILTIN, GpuCatalog
    from quotetui.io.import_rows import convert
    from quotetui.services.form_spec import parse

    text = f"{value * 100 if field.kind == 'ratio' else value:f}"  # forms and sheets take a share as a percentage
    with pytest.raises(FieldErrors) as form:
        parse((field,), {field.name: text})
    message = form.value.errors[field.name]
    assert message.startswith(("must be at most", "must be at least", "must not be negative", "must be more than zero"))
    if field.sheet:
        with pytest.raises(ValueError, match=re.escape(message)):
            convert(field, text, GpuCatalog(BUILTIN))
    model = _demo_model_of(entity)
    if model is not None and field.name in model.model_fields:
        with pytest.raises(ValidationError) as demo:
            model.model_validate({field.name: f"{value:f}"})
        assert f"{field.name}\n  Value error, {message}" in str(demo.value)
