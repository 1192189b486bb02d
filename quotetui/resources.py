"""Where the shipped data lives: ``db/`` (migrations) and ``imports/`` (demo market, templates).

In a checkout (or an editable install) they are the top-level folders of the repository; a wheel
carries them inside the package as ``quotetui/_data/``.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_path(name: str) -> Path:
    """The shipped folder ``name`` (``db`` or ``imports``), installed or in the checkout."""
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"quotetui is installed without its {name!r} data folder")


def migrations_dir() -> Path:
    return data_path("db")


def demo_dir() -> Path:
    return data_path("imports") / "demo"
