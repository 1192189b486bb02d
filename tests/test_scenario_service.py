"""Scenarios through the one service both front ends call: a form from the declared fields, an edit of the
row as it was when its form was filled, every problem (the GPU model's too) named at once."""

from __future__ import annotations

from decimal import Decimal

import pytest

from quotetui.domain.errors import Conflict, FieldErrors
from quotetui.services.scenarios import list_scenarios, save_scenario, scenario_form, show_scenario
from quotetui.store.engine import Database
from tests.conftest import Cli


def test_a_new_scenario_form_starts_from_the_declared_defaults(empty_db: Database) -> None:
    spec = scenario_form(empty_db)
    assert spec.version is None
    assert {k: spec.values[k] for k in ("utilisation", "egress_tb_month", "storage_tb", "home_currency")} == {
        "utilisation": "100", "egress_tb_month": "0", "storage_tb": "0", "home_currency": "CNY"
    }  # fmt: skip


def test_an_edit_saves_the_form_it_was_filled_from_or_nothing(empty_db: Database) -> None:
    [default] = list_scenarios(empty_db)
    spec = scenario_form(empty_db, default.id)
    raw = dict(spec.values) | {"months": "24", "utilisation": "60", "gpu": "H100"}
    saved = save_scenario(empty_db, raw, default.id, spec.version)
    assert (saved.id, saved.months, saved.utilisation, saved.gpu, saved.is_default) == (
        default.id, 24, Decimal("0.6"), "H100 SXM5", True
    )  # fmt: skip
    with pytest.raises(Conflict):  # the form was filled before that save: refused, not written over
        save_scenario(empty_db, dict(spec.values) | {"months": "6"}, default.id, spec.version)
    assert show_scenario(empty_db, None).months == 24


def test_every_problem_is_named_at_once_and_a_twin_name_is_refused(empty_db: Database) -> None:
    [default] = list_scenarios(empty_db)
    other = save_scenario(empty_db, {"name": "Small", "gpu_count": "1", "months": "1"})
    with pytest.raises(FieldErrors) as caught:
        save_scenario(empty_db, {"name": "x", "gpu_count": "0", "months": "1", "gpu": "H999"})
    assert set(caught.value.errors) == {"gpu_count", "gpu"}
    with pytest.raises(FieldErrors) as caught:  # renamed onto another scenario's name (another case)
        save_scenario(empty_db, {"name": default.name.upper(), "gpu_count": "1", "months": "1"}, other.id, 1)
    assert "already exists" in caught.value.errors["name"]
    assert [s.name for s in list_scenarios(empty_db)] == [default.name, "Small"]


def test_the_cli_names_an_unknown_gpu_by_its_flag(cli: Cli, db_path: str) -> None:
    result = cli("--db", str(db_path), "scenario", "add", "x", "--gpus", "8", "--months", "1", "--gpu", "H999")
    assert result.code == 2 and "--gpu: " in result.err
