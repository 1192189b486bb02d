"""The quotetui being measured, compiled to bytecode before any measure: what an installed copy runs.

``pip install`` compiles a package's modules as it installs them, and an editable install writes them on its
first run; a machine that sets ``PYTHONDONTWRITEBYTECODE`` (as some CI images and this development machine do)
would otherwise compile every module from source at every start, and every CLI figure would count it (explain
at 10,000 offers: 65 of its 250 ms).
"""

from __future__ import annotations

import compileall
import importlib.util
from pathlib import Path


def compiled() -> None:
    """Every module of the quotetui this interpreter imports, compiled (only those whose source changed)."""
    spec = importlib.util.find_spec("quotetui")
    if spec is None or spec.origin is None:
        raise RuntimeError("no quotetui to measure")
    compileall.compile_dir(Path(spec.origin).parent, quiet=1)
