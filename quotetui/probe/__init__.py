"""The portable GPU probe: ``gpu_probe.py`` is copied alone to a trial machine (standard library only,
Python 3.8+); this package only hands out its text."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from quotetui.domain.errors import BadInput


def probe_source() -> str:
    return (files(__package__) / "gpu_probe.py").read_text(encoding="utf-8")


def write_probe(target: Path, *, force: bool = False) -> Path:
    """Writes the probe script (executable); an existing file is only replaced with ``force``."""
    if target.is_dir():
        target = target / "probe.py"
    if target.exists() and not force:
        raise BadInput(f"{target} exists; pass --force to replace it")
    try:
        target.write_text(probe_source(), encoding="utf-8")
        target.chmod(0o755)
    except OSError as exc:
        raise BadInput(f"cannot write {target}: {exc.strerror or exc}") from exc
    return target
