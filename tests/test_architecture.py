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


_NAMED = re.compile(r"`([\w./-]+\.py)(?::\s*([^`]+))?`")
"""A module named in the docs (``services/contracts.py``), with the rules it holds (``…: agreed_way``)."""


def _defines(text: str, name: str) -> bool:
    last = re.escape(name.split(".")[-1])
    return bool(re.search(rf"^\s*(?:async def|def|class)\s+{last}\b|^\s*{last}\s*[:=]", text, flags=re.MULTILINE))


def test_every_module_and_rule_the_docs_name_is_where_they_say() -> None:
    """docs/*.md and the READMEs name modules and the functions, classes and constants in them: each one must
    exist where it says (a rename that forgets the docs fails here). A bare file name may be any file of that
    name; a path is read from the package or the repository's root."""
    code = [p for p in ROOT.rglob("*.py") if not {".venv", "node_modules", ".git"} & set(p.parts)]
    wrong = []
    for doc in [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md", ROOT / "README.zh-CN.md"]:
        for m in _NAMED.finditer(doc.read_text(encoding="utf-8")):
            path, names = m.group(1), m.group(2)
            found = [b / path for b in (ROOT / "quotetui", ROOT) if (b / path).is_file()]
            found = found or [p for p in code if p.as_posix().endswith("/" + path)]
            if not found:
                wrong.append(f"{doc.name}: {path} does not exist")
                continue
            texts = [p.read_text(encoding="utf-8") for p in found]
            for name in re.split(r",\s*|\s+and\s+", names or ""):
                name = name.strip().split("(")[0].strip()
                if re.fullmatch(r"[A-Za-z_][\w.]*", name) and not any(_defines(t, name) for t in texts):
                    wrong.append(f"{doc.name}: {path} has no {name}")
    assert wrong == []


def test_the_services_table_names_every_service_module() -> None:
    """docs/ARCHITECTURE.md groups the flat ``services`` package by concern: a module added or removed changes it."""
    doc = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    table = doc[doc.index("| concern | modules |") : doc.index("A new migration")]
    named = set(re.findall(r"`([a-z_]+)`", table))
    modules = {p.stem for p in (ROOT / "quotetui" / "services").glob("*.py")} - {"__init__"}
    assert named == modules
