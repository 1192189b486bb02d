"""Layering: the domain stays pure, and nothing outside the TUI/Excel code loads Textual or openpyxl."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def _loaded_after(statement: str) -> set[str]:
    code = f"import sys, json\n{statement}\nprint(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}})))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    return set(json.loads(proc.stdout))


@pytest.mark.parametrize(
    "statement",
    [
        "import quotetui.domain, quotetui.domain.money, quotetui.domain.gpus, quotetui.domain.enums",
        "import quotetui.store, quotetui.store.models, quotetui.store.engine, quotetui.store.migrate",
        "import quotetui.cli",
        "import quotetui.services.database, quotetui.services.market, quotetui.services.demo",
        "import quotetui.services.verification, quotetui.services.bench_import, quotetui.probe",
    ],
)
def test_no_textual_or_openpyxl(statement: str) -> None:
    loaded = _loaded_after(statement)
    assert "textual" not in loaded
    assert "openpyxl" not in loaded


def test_domain_imports_no_persistence_or_ui() -> None:
    loaded = _loaded_after(
        "import quotetui.domain.money, quotetui.domain.gpus, quotetui.domain.enums, quotetui.domain.currency, "
        "quotetui.domain.timeutil, quotetui.domain.errors, quotetui.domain.verification.rules, "
        "quotetui.domain.fields, quotetui.domain.entities, quotetui.domain.numbers, quotetui.domain.text"
    )
    assert not loaded & {"sqlalchemy", "sqlmodel", "textual", "openpyxl", "alembic", "typer", "rich"}
