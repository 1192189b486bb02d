"""The header's sub-title, fitted to the terminal: the database shortens before the scenario is ever dropped.

The sub-title is "<database> · scenario: <name>". A long path would push the scenario past the right edge (the
header cuts with "…"), yet the scenario is what every figure on screen depends on. So, while it does not fit,
the path loses its leading folders (``…/quotes/2026.db``), then keeps only the file name, then the word
"scenario: " goes, then the file name is elided in its middle; only then is the scenario itself cut.
"""

from __future__ import annotations

from rich.cells import cell_len

from quotetui.language import _

HEADER_CHROME = 18
"""What the header keeps for itself: the icon (8 cells) and the clock's space (10)."""
SEPARATOR = " — "
"""Between the title and the sub-title (Textual's ``App.format_title``)."""


def _folders_elided(label: str) -> list[str]:
    """``label`` and its shorter forms, each with fewer leading folders: ``…/b/c.db``, ``…/c.db``."""
    sep = "/" if "/" in label else "\\" if "\\" in label else None
    if sep is None:
        return [label]
    parts = label.split(sep)
    return [label, *(f"…{sep}{sep.join(parts[i:])}" for i in range(1, len(parts)) if parts[i:] != [""])]


def _middle_elided(name: str, room: int) -> str:
    """``name`` in at most ``room`` cells, its middle replaced by "…" (the extension stays readable)."""
    if cell_len(name) <= room:
        return name
    keep = max(0, room - 1)
    head, tail = name[: (keep + 1) // 2], name[len(name) - keep // 2 :] if keep // 2 else ""
    while cell_len(head) + cell_len(tail) > keep and (head or tail):
        head, tail = (head[:-1], tail) if len(head) >= len(tail) else (head, tail[1:])
    return f"{head}…{tail}"


def full_sub_title(database: str, scenario: str) -> str:
    """The sub-title in full, in the language in use: "<database> · scenario: <name>"."""
    return _("{database} · scenario: {scenario}").format(database=database, scenario=scenario)


def fit_sub_title(database: str, scenario: str, room: int) -> str:
    """The sub-title for ``database`` and ``scenario`` in at most ``room`` cells, if it can be done without
    cutting the scenario; otherwise the shortest form (the header cuts the rest)."""
    candidates = [full_sub_title(label, scenario) for label in _folders_elided(database)]
    name = _folders_elided(database)[-1].lstrip("…/\\")
    candidates += [full_sub_title(name, scenario), f"{name} · {scenario}"]
    for candidate in candidates:
        if cell_len(candidate) <= room:
            return candidate
    name_room = room - cell_len(f" · {scenario}")
    if name_room >= 4:
        return f"{_middle_elided(name, name_room)} · {scenario}"
    return scenario


def sub_title_room(width: int, title: str) -> int:
    """How many cells the sub-title has in a header ``width`` cells wide, after ``title`` and the dash."""
    return width - HEADER_CHROME - cell_len(title) - cell_len(SEPARATOR)
