"""The user's preferences file: where it is, reading it without trusting it, and checking every value.

``config.toml`` in the platform's user config folder (``$QUOTETUI_CONFIG`` names another file) holds::

    theme = "textual-dark"          # a Textual theme, applied when the TUI starts
    keymap = { offers = "f2" }      # binding id -> key(s), as a [keymap] table
    database = "~/quotes/work.db"   # the default database (a path, relative to this file's folder, or a URL)
    language = "zh-CN"              # the language of every front end (``quotetui/language/choice.py``)

Nothing here trusts the file: a folder, a link loop, an unreadable, huge or non-UTF-8 file and a TOML error
become a *problem*: one line naming the file, the line where it is known, the setting and the reason. Every
problem is collected (:attr:`Preferences.problems`); the front ends decide what a problem stops:
:attr:`Preferences.database_uncertain` says whether the file may have meant another database (it could not be
read, a setting is unknown, or ``database`` itself is bad), which a command that uses the default database
must refuse rather than silently open the built-in one. Which themes, binding ids and key names exist is the
TUI's knowledge (:class:`Known`); without it only the form of those values is checked.
"""

from __future__ import annotations

import difflib
import os
import re
import stat
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from quotetui.domain.errors import BadInput
from quotetui.domain.text import check_text, visible

ENV_VAR = "QUOTETUI_CONFIG"
FILE_NAME = "config.toml"
MAX_BYTES = 64 * 1024
"""A preferences file is a few lines; anything larger is not one (and is not read whole)."""
MAX_KEYS_PER_BINDING = 4
MAX_VALUE_CHARS = 200
MAX_DATABASE_CHARS = 4096
SETTINGS = ("theme", "keymap", "database", "language")
_TOML_ERROR = "<toml>"  # where a TOML syntax error is, among the settings' lines
MODIFIERS = ("ctrl", "shift", "alt", "meta", "super", "hyper")
_KEY_NAME = re.compile(r"[a-z][a-z0-9_]{1,31}")
_BINDING_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


class ConfigProblem(BadInput):
    """The preferences file cannot be trusted to say which database to use (exit status 2 in the CLI)."""


@dataclass(frozen=True, slots=True)
class Known:
    """What exists, from the TUI: a value outside these sets is a problem."""

    themes: frozenset[str]
    binding_ids: frozenset[str] | None  # None: not gathered (only the form of an id is checked)
    key_names: frozenset[str]  # key names Textual knows besides single characters ("f5", "pageup", "slash")


@dataclass(slots=True)
class Preferences:
    path: Path
    located_by: str  # "$QUOTETUI_CONFIG" or "the user config folder"
    exists: bool = False
    theme: str | None = None
    keymap: dict[str, str] = field(default_factory=dict)
    database: str | None = None  # an absolute path or a URL, ready for --db
    language: str | None = None  # as written: the language choice decides what it means
    problems: list[str] = field(default_factory=list)
    database_uncertain: bool = False
    uncertain_because: list[str] = field(default_factory=list)  # the problems that make it so
    lines: dict[str, int] = field(default_factory=dict)  # "theme", "keymap.offers" -> line in the file

    def add_problem(self, key: str | None, reason: str) -> None:
        """One line naming the file, the line where the setting is written (when known) and the setting."""
        where = visible(str(self.path))
        line = self.lines.get(key or "")
        if line is not None:
            where += f", line {line}"
        named = f"{key}: " if key and key != _TOML_ERROR else ""
        self.problems.append(f"config file {where}: {named}{reason}")

    def check_database(self) -> str | None:
        """The configured database, or :class:`ConfigProblem` when the file may have meant another one."""
        if self.database_uncertain:
            raise ConfigProblem(
                "; ".join(self.uncertain_because)
                + " (fix the config file, or give --db or $QUOTETUI_DB; nothing was opened)"
            )
        return self.database


def config_path(environ: Mapping[str, str] | None = None) -> tuple[Path, str]:
    """Where the preferences file is, and what says so."""
    env = os.environ if environ is None else environ
    given = env.get(ENV_VAR)
    if given:
        return Path(given).expanduser(), f"${ENV_VAR}"
    import platformdirs

    return platformdirs.user_config_path("quotetui", appauthor=False) / FILE_NAME, "the user config folder"


def load(environ: Mapping[str, str] | None = None, known: Known | None = None) -> Preferences:
    """The preferences, every problem collected; never raises for anything the file holds."""
    path, located_by = config_path(environ)
    prefs = Preferences(path, located_by)
    text = _read(prefs)
    if text is None:
        return prefs
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        reason = str(exc)
        at = re.search(r"\s*\(at line (\d+), column (\d+)\)$", reason)
        if at:
            prefs.lines[_TOML_ERROR] = int(at.group(1))
            reason = f"{reason[: at.start()]} (column {at.group(2)})"
        _fatal(prefs, _TOML_ERROR, f"not valid TOML: {reason}")
        return prefs
    _find_lines(prefs, text)
    _check(prefs, data, known)
    return prefs


def configured_database(environ: Mapping[str, str] | None = None) -> str | None:
    """The ``database`` of the preferences file (None when it has none), or :class:`ConfigProblem`."""
    return load(environ).check_database()


# -- reading -------------------------------------------------------------------------------------------------


def _problem(prefs: Preferences, key: str | None, reason: str) -> None:
    prefs.add_problem(key, reason)


def _fatal(prefs: Preferences, key: str | None, reason: str) -> None:
    prefs.add_problem(key, reason)
    prefs.database_uncertain = True
    prefs.uncertain_because.append(prefs.problems[-1])


def _read(prefs: Preferences) -> str | None:
    """The file's text, or None (absent: no problem unless $QUOTETUI_CONFIG named it; else a problem)."""
    path = prefs.path
    try:
        info = os.stat(path)
    except FileNotFoundError:
        if os.path.lexists(path):
            _fatal(prefs, None, "is a link to nothing (its target does not exist)")
        elif prefs.located_by != "the user config folder":
            _fatal(prefs, None, f"does not exist ({prefs.located_by} names it)")
        return None
    except OSError as exc:  # a link loop, a folder on the way that cannot be searched, a name too long
        _fatal(prefs, None, f"cannot be read ({exc.strerror or exc})")
        return None
    prefs.exists = True
    if stat.S_ISDIR(info.st_mode):
        _fatal(prefs, None, "is a folder, not a file")
        return None
    from quotetui.io.bounded import read_bounded

    try:
        data = read_bounded(path, MAX_BYTES)
    except BadInput as exc:
        reason = str(exc)
        for prefix in (f"{path}: ", f"{path.name}: ", f"{path} "):
            reason = reason.removeprefix(prefix)
        _fatal(prefs, None, reason)
        return None
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        _fatal(prefs, None, f"line {line} is not UTF-8 (byte 0x{data[exc.start]:02X}); save the file as UTF-8")
        return None


_KEY = r"""(?:"[^"]*"|'[^']*'|[A-Za-z0-9_-]+)"""
_HEADER = re.compile(rf"^\s*\[\s*({_KEY}(?:\s*\.\s*{_KEY})*)\s*\]\s*(?:#.*)?$")
_ASSIGNED = re.compile(rf"^\s*({_KEY}(?:\s*\.\s*{_KEY})*)\s*=(.*)$")


def _dotted(text: str) -> str:
    return ".".join(part.strip("\"'") for part in re.findall(_KEY, text))


def _find_lines(prefs: Preferences, text: str) -> None:
    """Where each setting and keymap entry is written (best effort: ``key =`` lines, ``[table]`` headers,
    dotted keys and one-line inline tables)."""
    table = ""
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header:
            table = _dotted(header.group(1))
            prefs.lines.setdefault(table, number)
            continue
        assigned = _ASSIGNED.match(line)
        if not assigned:
            continue
        name = _dotted(assigned.group(1))
        name = f"{table}.{name}" if table else name
        prefs.lines.setdefault(name, number)
        if name == "keymap":  # keymap = { offers = "f2", ... } on one line
            for inner in re.finditer(rf"({_KEY})\s*=", assigned.group(2)):
                prefs.lines.setdefault(f"keymap.{_dotted(inner.group(1))}", number)


# -- checking ------------------------------------------------------------------------------------------------


def _shown(value: object) -> str:
    """A value quoted for a message, every control or invisible character made visible, long ones cut."""
    text = visible(repr(value) if not isinstance(value, str) else f"'{value}'")
    return text if len(text) <= 60 else text[:57] + "…'"


def _type_name(value: object) -> str:
    return {
        str: "a string",
        int: "a number",
        float: "a number",
        bool: "true/false",
        dict: "a table",
        list: "a list",
    }.get(type(value), type(value).__name__)


def _check(prefs: Preferences, data: dict[str, object], known: Known | None) -> None:
    for key in data:
        if key not in SETTINGS:
            near = difflib.get_close_matches(key, SETTINGS, n=1)
            hint = f"; did you mean {near[0]!r}?" if near else f" (the settings are: {', '.join(sorted(SETTINGS))})"
            _fatal(prefs, key, f"unknown setting {_shown(key)}{hint}")
    if "theme" in data:
        theme = _string(prefs, "theme", data["theme"], fatal=False)
        if theme is not None:
            if known is not None and theme not in known.themes:
                near = difflib.get_close_matches(theme, sorted(known.themes), n=1)
                hint = f"did you mean {near[0]!r}?" if near else "the themes are: " + ", ".join(sorted(known.themes))
                _problem(prefs, "theme", f"no theme is called {_shown(theme)}; {hint}")
            else:
                prefs.theme = theme
    if "keymap" in data:
        _check_keymap(prefs, data["keymap"], known)
    if "language" in data:
        prefs.language = _string(prefs, "language", data["language"], fatal=False)
    if "database" in data:
        database = _string(prefs, "database", data["database"], fatal=True, max_chars=MAX_DATABASE_CHARS)
        if database is not None:
            prefs.database = _database(prefs, database)


def _string(
    prefs: Preferences, key: str, value: object, *, fatal: bool, max_chars: int = MAX_VALUE_CHARS
) -> str | None:
    report = _fatal if fatal else _problem
    if not isinstance(value, str):
        report(prefs, key, f"should be a string in quotes, not {_type_name(value)} ({_shown(value)})")
        return None
    try:
        text = check_text(value, what="the value", max_length=max_chars)
    except BadInput as exc:
        report(prefs, key, str(exc))
        return None
    if not text:
        report(prefs, key, "is empty")
        return None
    return text


def _database(prefs: Preferences, value: str) -> str:
    if "://" in value:
        return value
    path = Path(value).expanduser()
    return str(path if path.is_absolute() else prefs.path.parent / path)


def _check_keymap(prefs: Preferences, table: object, known: Known | None) -> None:
    if not isinstance(table, dict):
        _problem(prefs, "keymap", f'should be a table of binding id = "key", not {_type_name(table)}')
        return
    for binding_id, keys in table.items():
        name = f"keymap.{binding_id}"
        if isinstance(keys, dict):  # a dotted id read as a nested table
            _problem(prefs, name, "should be a key in quotes, not a table (quote an id that holds a dot)")
            continue
        if not _BINDING_ID.fullmatch(binding_id):
            _problem(prefs, name, f"{_shown(binding_id)} is not a binding id")
            continue
        if known is not None and known.binding_ids is not None and binding_id not in known.binding_ids:
            near = difflib.get_close_matches(binding_id, sorted(known.binding_ids), n=1)
            hint = f"; did you mean {near[0]!r}?" if near else " (`quotetui config --keys` lists the ids)"
            _problem(prefs, name, f"no key binding has the id {_shown(binding_id)}{hint}")
            continue
        text = _string(prefs, name, keys, fatal=False)
        if text is None:
            continue
        reason = key_problem(text, known)
        if reason:
            _problem(prefs, name, reason)
            continue
        prefs.keymap[binding_id] = ",".join(k.strip() for k in text.split(","))


def key_problem(text: str, known: Known | None = None) -> str | None:
    """Why ``text`` (``"f2"``, ``"ctrl+t"``, ``"d,f2"``) is not a key string, or None."""
    keys = [k.strip() for k in text.split(",")]
    if len(keys) > MAX_KEYS_PER_BINDING:
        return f"{_shown(text)} names {len(keys)} keys (at most {MAX_KEYS_PER_BINDING})"
    for key in keys:
        if not key:
            return f"{_shown(text)} has an empty key (a comma too many?)"
        *modifiers, base = key.split("+") if key != "+" else ["+"]
        if any(m not in MODIFIERS for m in modifiers) or len(set(modifiers)) < len(modifiers):
            return f"{_shown(key)}: the modifiers are {', '.join(MODIFIERS)}, each at most once, then '+' and a key"
        if not base:
            return f"{_shown(key)} ends with '+' and no key (the '+' key is 'plus')"
        if len(base) == 1:
            if not base.isprintable() or base.isspace():
                return f"{_shown(key)} is not a key"
            continue
        if base != base.lower() and (known is None or base.lower() in known.key_names):
            return f"{_shown(key)}: key names are in lower case ('{key[: -len(base)]}{base.lower()}')"
        if not _KEY_NAME.fullmatch(base) or (known is not None and base not in known.key_names):
            return f"{_shown(key)} is not a key name Textual knows (such as 'f2', 'ctrl+t', 'pageup', 'slash')"
    return None


EXAMPLE = """\
# quotetui preferences. Every setting is optional; delete a line to get the default back.
# `quotetui config` shows the values in effect and where each comes from.

# The TUI's colour theme (Ctrl+T switches between it and a light or dark one).
# Textual's themes: textual-dark, textual-light, nord, gruvbox, tokyo-night, dracula, monokai, …
# theme = "textual-dark"

# The database used when neither --db nor $QUOTETUI_DB is given: a SQLite file (a relative path is
# relative to this file's folder, ~ is your home folder) or a server URL.
# database = "~/quotes/work.db"
# database = "postgresql+psycopg://buyer@db.example.com/quotes"

# The language of the TUI, the command line and the workbooks: "en" or "zh-CN" (简体中文). Without it the
# system locale decides ($LANG); --lang and $QUOTETUI_LANG come first.
# language = "zh-CN"

# Other keys for the TUI's bindings: binding id = "key" (several keys: "f2,ctrl+o").
# `quotetui config --keys` lists every binding id with its key.
[keymap]
# offers = "f2"
# scenario = "ctrl+s"
"""
