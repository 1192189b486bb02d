"""The layers of docs/ARCHITECTURE.md, held by import-linter's contracts (pyproject's ``[tool.importlinter]``):
each layer imports only those below it, no package's modules import each other in a circle, and the domain
imports no user interface, database or spreadsheet library. Imports inside functions and under TYPE_CHECKING
count. The document's list of layers is the contract's, in the same order."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _contracts() -> dict[str, dict]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return {c["id"]: c for c in config["tool"]["importlinter"]["contracts"]}


def test_every_contract_is_kept(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from importlinter.cli import lint_imports

    monkeypatch.chdir(ROOT)
    status = lint_imports(config_filename="pyproject.toml", no_cache=True)
    assert status == 0, capsys.readouterr().out[-4000:]


def test_the_layers_documented_are_the_layers_checked() -> None:
    """docs/ARCHITECTURE.md's "Layers" names each layer's modules, top first, as the contract does."""
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    section = text.split("## Layers", 1)[1].split("\n## ", 1)[0]
    named = re.findall(r"^\s*\d+\. (.+)$", section, flags=re.MULTILINE)
    documented = [sorted(re.findall(r"`quotetui/([\w/]+?)(?:/|\.py)?`", line)) for line in named]
    checked = [
        sorted(m.removeprefix("quotetui.").replace(".", "/") for m in layer.split(" | "))
        for layer in _contracts()["layers"]["layers"]
    ]
    assert documented == checked


def test_the_domain_contract_names_every_library_that_is_not_pure() -> None:
    forbidden = set(_contracts()["pure-domain"]["forbidden_modules"])
    assert {"textual", "rich", "sqlmodel", "sqlalchemy", "openpyxl", "typer"} <= forbidden
