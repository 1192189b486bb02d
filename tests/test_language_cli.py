"""Every command's output through the catalog (issue 35): each runs on the demo market in the pseudo-locale
(tests/pseudo_locale.py), where every message comes back wrapped, so any English word left outside the brackets
is a string that does not pass through gettext. Data (names as typed, the GPU catalog's names, the sources'
sentences), codes (finding codes, terms, enum values) and paths are the buyer's or the scripts', not ours: they
are read from the commands' own JSON and allowed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from quotetui import language
from quotetui.domain.verification.findings import FindingCode
from quotetui.io.preferences import SETTINGS
from tests.conftest import run_cli
from tests.pseudo_locale import Pseudo, english_words

COMMANDS = [
    "providers",
    "offers",
    "explain 3",
    "explain 2",
    "gpus",
    "claims",
    "config",
    "settings",
    "scenario list",
    "fx list",
    "bench codes",
    "bench check --offer 2",
    "db check",
    "market",
]

_DATA_KEYS = {
    "name", "provider", "offer", "gpu", "aliases", "memory_type", "topo_signature", "nvlink_note", "parent",
    "regions", "certifications", "scenario", "statement", "source", "workload", "notes", "model", "metric", "unit",
    "quote",
}  # fmt: skip


def _words(value: object, into: set[str], keep: bool = False) -> None:
    if isinstance(value, str):
        if keep:
            into.update(re.findall(r"[A-Za-z][A-Za-z']+", value))
    elif isinstance(value, dict):
        for key, item in value.items():
            _words(item, into, keep or key in _DATA_KEYS)
    elif isinstance(value, list):
        for item in value:
            _words(item, into, keep)


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, set[str]]:
    db = tmp_path_factory.mktemp("pseudo") / "demo.db"
    assert run_cli("--db", str(db), "demo").code == 0
    allowed = {"quotetui", "od", "mp"}  # the term column's codes (12mp: 12 months prepaid), which its legend explains
    allowed |= {word for code in FindingCode for word in re.split(r"[-_]", code.value)}
    allowed |= {"FLOPs", "NVSwitch"}  # a unit and a product's name, as every datasheet writes them
    # ``config``'s codes: the settings' keys, the built-in theme's name, each language's own name and tag
    allowed |= {*SETTINGS, "textual", "dark", *language.LANGUAGES.values(), *language.LANGUAGES, "toml"}
    for command in ("providers", "offers", "gpus", "claims", "scenario list"):
        done = run_cli("--db", str(db), *command.split(), "--json")
        _words(json.loads(done.out), allowed)
    return db, allowed


@pytest.mark.parametrize("command", COMMANDS)
def test_every_word_a_command_prints_passes_through_the_catalog(
    command: str, demo: tuple[Path, set[str]], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import quotetui.io.speaking as speaking

    db, allowed = demo
    monkeypatch.setattr(speaking, "speak", lambda given, environ=None: language.install(Pseudo(), "qps"))
    monkeypatch.setenv("COLUMNS", "400")
    (tmp_path / "config.toml").write_text("", encoding="utf-8")
    monkeypatch.setenv("QUOTETUI_CONFIG", str(tmp_path / "config.toml"))
    done = run_cli("--db", str(db), *command.split())
    assert done.code == 0, done.err
    paths = set(re.findall(r"[A-Za-z]+", f"{db} {tmp_path / 'config.toml'}"))
    leaks = [line for line in (done.out + done.err).splitlines() if english_words(line, allowed | paths)]
    assert not leaks, "\n".join(leaks[:12])
