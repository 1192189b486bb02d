"""Start-up weight: nothing outside the TUI/Excel code loads Textual or openpyxl when imported (the domain's purity
and the layers themselves are import-linter's contracts: ``tests/test_architecture.py``)."""

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
