"""Workload scenarios: the default one, adding, editing, listing and resolving them by name (the CLI's
``scenario add`` and the TUI's scenario picker save through the same function)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from sqlmodel import Session, col, select

from quotetui.domain.economics.inputs import ScenarioInput
from quotetui.domain.entities import SCENARIO
from quotetui.domain.errors import BadInput, FieldErrors, QuotetuiError
from quotetui.domain.fields import is_empty, parse_record, shown_value
from quotetui.domain.text import name_key
from quotetui.language import N_, _
from quotetui.language.lists import listed, quoted
from quotetui.services.engine_inputs import gpu_keys, scenario_input
from quotetui.services.form_spec import FormSpec, parse, shown
from quotetui.services.scenario_list import ScenarioView, scenario_views
from quotetui.services.scenario_list import list_scenarios as list_scenarios  # the listing, where it always was
from quotetui.store.catalog import load_catalog
from quotetui.store.engine import Database
from quotetui.store.models import GpuModel, Scenario
from quotetui.store.reader import session_reader
from quotetui.store.rows import columns_only
from quotetui.store.versions import check_version

DEFAULT_SCENARIO = "8 GPUs for 12 months"
"""The scenario a new database gets (its name and description are stored: data, in English, as written)."""


def has_scenario(session: Session) -> bool:
    return session.exec(select(Scenario.id)).first() is not None


def ensure_default_scenario(session: Session) -> None:
    """A database always has a scenario to compare for: create one when there is none."""
    if session.exec(select(Scenario.id)).first() is None:
        session.add(
            Scenario(
                name=DEFAULT_SCENARIO,
                description="Created automatically: one 8-GPU node, busy around the clock for a year.",
                gpu_count=8,
                months=12,
                utilisation=Decimal(1),
                home_currency="CNY",
                is_default=True,
            )
        )


def find_scenario(session: Session, name: str | None) -> Scenario:
    """The scenario called ``name``; without a name the default one (else the oldest)."""
    if name is not None:
        row = session.exec(select(Scenario).where(Scenario.name == name)).first() or _by_key(session, name)
        if row is None:
            known = listed(session.exec(select(Scenario.name).order_by(col(Scenario.id)))) or _("none")
            raise BadInput(
                _("no scenario named {name} (known: {known}); add one with `quotetui scenario add`").format(
                    name=quoted(name), known=known
                )
            )
        return row
    row = session.exec(select(Scenario).order_by(col(Scenario.is_default).desc(), col(Scenario.id))).first()
    if row is None:
        raise BadInput(_("the database has no scenario; add one with `quotetui scenario add`"))
    return row


def _by_key(session: Session, name: str) -> Scenario | None:
    """A scenario whose name is ``name`` written another way (full-width, another case)."""
    key = name_key(name)
    return next((row for row in session.exec(select(Scenario)) if name_key(row.name) == key), None)


def resolve_scenario(session: Session, name: str | None) -> ScenarioInput:
    catalog, _ids = load_catalog(session)
    return scenario_input(find_scenario(session, name), catalog, gpu_keys(session))


def _gpu_names(session: Session) -> dict[int, str]:
    return {row.id: row.name for row in session.exec(select(GpuModel)) if row.id is not None}


def _view(session: Session, row: Scenario) -> ScenarioView:
    """``row`` (flushed) as the listing reads it: one query, one conversion (``services/scenario_list.py``)."""
    assert row.id is not None
    return scenario_views(session_reader(session), row.id)[0]


def show_scenario(db: Database, name: str | None) -> ScenarioView:
    with db.session() as session:
        return _view(session, find_scenario(session, name))


@dataclass(frozen=True, slots=True)
class NewScenario:
    """A scenario as a front end gives it: text to be parsed, or values already typed by a flag's parser."""

    name: str
    gpu_count: Any
    months: Any
    utilisation: Any = "1"
    egress_tb_month: Any = "0"
    storage_tb: Any = "0"
    gpu: str | None = None
    flops: Any = None
    params: Any = None
    tokens: Any = None
    currency: str = "CNY"
    description: str | None = None
    make_default: bool = False


def add_scenario(db: Database, new: NewScenario) -> ScenarioView:
    """Validate everything first (the declared fields of a scenario, the same bounds as its demo file), then
    save in one transaction; a bad value saves nothing."""
    raw = {
        "name": new.name,
        "description": new.description,
        "gpu": new.gpu,
        "gpu_count": new.gpu_count,
        "months": new.months,
        "utilisation": new.utilisation,
        "egress_tb_month": new.egress_tb_month,
        "storage_tb": new.storage_tb,
        "train_flops": new.flops,
        "train_params": new.params,
        "train_tokens": new.tokens,
        "home_currency": new.currency,
        "default": new.make_default,
    }
    return _store(db, *_checked(db, raw, lambda: parse_record(SCENARIO, raw)))


def scenario_form(db: Database, scenario_id: int | None = None) -> FormSpec:
    """The form of a new scenario (the declared defaults) or of scenario ``scenario_id`` as it is now."""
    fields = SCENARIO.form_fields
    if scenario_id is None:
        values = {f.name: shown_value(f, f.default, percent=True) for f in fields if f.default is not None}
        return FormSpec(_("New scenario"), fields, values, entity=SCENARIO)
    with db.session() as session:
        row = session.get(Scenario, scenario_id)
        if row is None:
            raise BadInput(_("no scenario with id {id} (deleted meanwhile?)").format(id=scenario_id))
        values = shown(row, fields) | {
            "gpu": _gpu_names(session).get(row.gpu_model_id or 0, ""),
            "default": row.is_default,
        }
        return FormSpec(
            _("Edit scenario {name}").format(name=row.name), fields, values, entity=SCENARIO, version=row.version
        )


def save_scenario(
    db: Database, raw: dict[str, Any], scenario_id: int | None = None, version: object = None
) -> ScenarioView:
    """A scenario's form saved (ratios typed as percentages): a new one, or ``scenario_id`` as it was when its
    form was filled (``version``); every bad field named, nothing saved unless all are valid."""
    spec = FormSpec("Scenario", SCENARIO.form_fields, entity=SCENARIO)
    return _store(db, *_checked(db, raw, lambda: parse(spec, raw)), scenario_id, version)


def _checked(
    db: Database, raw: dict[str, Any], parsed: Callable[[], dict[str, Any]]
) -> tuple[dict[str, Any], int | None]:
    """The typed values and the GPU model's id; every problem at once (the GPU's with the fields')."""
    errors: dict[str, str] = {}
    try:
        values = parsed()
    except FieldErrors as exc:
        values, errors = {}, dict(exc.errors)
    gpu, gpu_id = values.get("gpu", raw.get("gpu")), None
    if "gpu" not in errors and not is_empty(gpu):
        with db.session() as session:
            catalog, ids = load_catalog(session)
        try:
            gpu_id = ids[catalog.lookup(str(gpu).strip()).key]
        except QuotetuiError as exc:
            errors["gpu"] = str(exc)
    if errors:
        raise FieldErrors(errors)
    return values, gpu_id


def _store(
    db: Database, values: dict[str, Any], gpu_id: int | None, scenario_id: int | None = None, version: object = None
) -> ScenarioView:
    """Write checked ``values`` in one transaction, the name unique (by its key)."""
    with db.write() as session:
        twin = _by_key(session, values["name"])
        if twin is not None and twin.id != scenario_id:
            if twin.name == values["name"]:
                taken = _("a scenario named {name} already exists").format(name=quoted(values["name"]))
            else:
                taken = _("a scenario named {name} already exists (written {written})").format(
                    name=quoted(values["name"]), written=quoted(twin.name)
                )
            raise FieldErrors({"name": taken})
        if scenario_id is None:
            row = Scenario(**columns_only(Scenario, values))
        else:
            row = session.get(Scenario, scenario_id, with_for_update=True)
            if row is None:
                raise BadInput(
                    _("no scenario with id {id} (deleted meanwhile?); nothing was saved").format(id=scenario_id)
                )
            check_version(N_("scenario"), row.version, version)
            for name, value in columns_only(Scenario, values).items():
                if getattr(row, name) != value:
                    setattr(row, name, value)
        if values["default"] and not row.is_default:
            for other in session.exec(select(Scenario).where(col(Scenario.is_default))):
                other.is_default = False
        if row.gpu_model_id != gpu_id:
            row.gpu_model_id = gpu_id
        if row.is_default != values["default"]:
            row.is_default = values["default"]
        session.add(row)
        session.flush()
        return _view(session, row)


def set_default_scenario(db: Database, name: str) -> ScenarioView:
    with db.write() as session:
        row = find_scenario(session, name)
        for other in session.exec(select(Scenario).where(col(Scenario.is_default))):
            other.is_default = False
        row.is_default = True
        session.flush()
        return _view(session, row)
