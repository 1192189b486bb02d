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

from quotetui.domain.economics.display import MONEY_STYLES
from quotetui.domain.errors import BadInput
from quotetui.domain.text import check_text, visible
from quotetui.language import N_, _
from quotetui.language.lists import clauses, listed, quoted

ENV_VAR = "QUOTETUI_CONFIG"
FILE_NAME = "config.toml"
MAX_BYTES = 64 * 1024
"""A preferences file is a few lines; anything larger is not one (and is not read whole)."""
MAX_KEYS_PER_BINDING = 4
MAX_VALUE_CHARS = 200
MAX_DATABASE_CHARS = 4096
SETTINGS = ("theme", "keymap", "database", "language", "money_style")
_TOML_ERROR = "<toml>"  # where a TOML syntax error is, among the settings' lines
MODIFIERS = ("ctrl", "shift", "alt", "meta", "super", "hyper")
_KEY_NAME = re.compile(r"[a-z][a-z0-9_]{1,31}")
_BINDING_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
USER_FOLDER = N_("the user config folder")
"""What found the file when ``$QUOTETUI_CONFIG`` did not (kept in English: the front ends translate it)."""


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
    located_by: str  # "$QUOTETUI_CONFIG" or USER_FOLDER (in English; translated where it is shown)
    exists: bool = False
    theme: str | None = None
    keymap: dict[str, str] = field(default_factory=dict)
    database: str | None = None  # an absolute path or a URL, ready for --db
    language: str | None = None  # as written: the language choice decides what it means
    money_style: str | None = None  # "plain" or "wan" (``domain/economics/display.py: MONEY_STYLES``)
    problems: list[str] = field(default_factory=list)
    database_uncertain: bool = False
    uncertain_because: list[str] = field(default_factory=list)  # the problems that make it so
    lines: dict[str, int] = field(default_factory=dict)  # "theme", "keymap.offers" -> line in the file
    problem_settings: list[str] = field(default_factory=list)  # the settings named by the problems

    def add_problem(self, key: str | None, reason: str) -> None:
        """One line naming the file, the line where the setting is written (when known) and the setting."""
        where = visible(str(self.path))
        line = self.lines.get(key or "")
        if line is not None:
            where = _("{path}, line {line}").format(path=where, line=line)
        if key and key != _TOML_ERROR:
            self.problem_settings.append(key)
            problem = _("config file {where}: {setting}: {reason}").format(where=where, setting=key, reason=reason)
        else:
            problem = _("config file {where}: {reason}").format(where=where, reason=reason)
        self.problems.append(problem)

    @property
    def keymap_problem(self) -> bool:
        """Whether a problem names the keymap (or one of its bindings): checking it needs the TUI's names."""
        return any(key.startswith("keymap") for key in self.problem_settings)

    def check_database(self) -> str | None:
        """The configured database, or :class:`ConfigProblem` when the file may have meant another one."""
        if self.database_uncertain:
            raise ConfigProblem(
                _("{problems} (fix the config file, or give --db or $QUOTETUI_DB; nothing was opened)").format(
                    problems=clauses(self.uncertain_because)
                )
            )
        return self.database


def config_path(environ: Mapping[str, str] | None = None) -> tuple[Path, str]:
    """Where the preferences file is, and what says so."""
    env = os.environ if environ is None else environ
    given = env.get(ENV_VAR)
    if given:
        return Path(given).expanduser(), f"${ENV_VAR}"
    import platformdirs

    return platformdirs.user_config_path("quotetui", appauthor=False) / FILE_NAME, USER_FOLDER


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
        line, message = toml_problem(exc)
        if line is not None:
            prefs.lines[_TOML_ERROR] = line
        _fatal(prefs, _TOML_ERROR, message)
        return prefs
    _find_lines(prefs, text)
    _check(prefs, data, known)
    return prefs


def toml_problem(exc: tomllib.TOMLDecodeError) -> tuple[int | None, str]:
    """A TOML syntax error in our words, in the language in use: the line it is on (for the file's name before
    it) and what is wrong, with the column and tomllib's own English detail quoted (``Invalid value``)."""
    reason = str(exc)
    at = re.search(r"\s*\(at (?:end of document|line (\d+), column (\d+))\)$", reason)
    if at is None:
        return None, _('not valid TOML (the reader says "{reason}")').format(reason=reason)
    detail = reason[: at.start()]
    if at.group(1) is None:
        return None, _('not valid TOML at the end of the file (the reader says "{reason}")').format(reason=detail)
    return int(at.group(1)), _('not valid TOML at column {column} (the reader says "{reason}")').format(
        column=at.group(2), reason=detail
    )


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
            _fatal(prefs, None, _("is a link to nothing (its target does not exist)"))
        elif prefs.located_by != USER_FOLDER:
            _fatal(prefs, None, _("does not exist ({source} names it)").format(source=prefs.located_by))
        return None
    except OSError as exc:  # a link loop, a folder on the way that cannot be searched, a name too long
        _fatal(prefs, None, _("cannot be read ({reason})").format(reason=exc.strerror or exc))
        return None
    prefs.exists = True
    if stat.S_ISDIR(info.st_mode):
        _fatal(prefs, None, _("is a folder, not a file"))
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
        _fatal(
            prefs,
            None,
            _("line {line} is not UTF-8 (byte {byte}); save the file as UTF-8").format(
                line=line, byte=f"0x{data[exc.start]:02X}"
            ),
        )
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


_TYPE_NAMES: dict[type, str] = {
    str: N_("a string"),
    int: N_("a number"),
    float: N_("a number"),
    bool: N_("true/false"),
    dict: N_("a table"),
    list: N_("a list"),
}


def _type_name(value: object) -> str:
    """What a TOML value is, in words (a date's type by its name)."""
    name = _TYPE_NAMES.get(type(value))
    return _(name) if name else type(value).__name__


def _check(prefs: Preferences, data: dict[str, object], known: Known | None) -> None:
    for key in data:
        if key not in SETTINGS:
            near = difflib.get_close_matches(key, SETTINGS, n=1)
            if near:
                reason = _("unknown setting {name}; did you mean {near}?").format(
                    name=_shown(key), near=quoted(near[0])
                )
            else:
                reason = _("unknown setting {name} (the settings are: {settings})").format(
                    name=_shown(key), settings=listed(sorted(SETTINGS))
                )
            _fatal(prefs, key, reason)
    if "theme" in data:
        theme = _string(prefs, "theme", data["theme"], fatal=False)
        if theme is not None:
            if known is not None and theme not in known.themes:
                near = difflib.get_close_matches(theme, sorted(known.themes), n=1)
                if near:
                    reason = _("no theme is called {name}; did you mean {near}?").format(
                        name=_shown(theme), near=quoted(near[0])
                    )
                else:
                    reason = _("no theme is called {name}; the themes are: {themes}").format(
                        name=_shown(theme), themes=listed(sorted(known.themes))
                    )
                _problem(prefs, "theme", reason)
            else:
                prefs.theme = theme
    if "keymap" in data:
        _check_keymap(prefs, data["keymap"], known)
    if "language" in data:
        prefs.language = _string(prefs, "language", data["language"], fatal=False)
    if "money_style" in data:
        style = _string(prefs, "money_style", data["money_style"], fatal=False)
        if style is not None and style not in MONEY_STYLES:
            _problem(prefs, "money_style", _("should be one of {styles}, not {value}").format(
                styles=listed(f"'{s}'" for s in MONEY_STYLES), value=_shown(style)
            ))  # fmt: skip
        elif style is not None:
            prefs.money_style = style
    if "database" in data:
        database = _string(prefs, "database", data["database"], fatal=True, max_chars=MAX_DATABASE_CHARS)
        if database is not None:
            prefs.database = _database(prefs, database)


def _string(
    prefs: Preferences, key: str, value: object, *, fatal: bool, max_chars: int = MAX_VALUE_CHARS
) -> str | None:
    report = _fatal if fatal else _problem
    if not isinstance(value, str):
        report(
            prefs,
            key,
            _("should be a string in quotes, not {kind} ({value})").format(kind=_type_name(value), value=_shown(value)),
        )
        return None
    try:
        text = check_text(value, what=N_("the value"), max_length=max_chars)
    except BadInput as exc:
        report(prefs, key, str(exc))
        return None
    if not text:
        report(prefs, key, _("is empty"))
        return None
    return text


def _database(prefs: Preferences, value: str) -> str:
    if "://" in value:
        return value
    path = Path(value).expanduser()
    return str(path if path.is_absolute() else prefs.path.parent / path)


def _check_keymap(prefs: Preferences, table: object, known: Known | None) -> None:
    if not isinstance(table, dict):
        reason = _('should be a table of binding id = "key", not {kind}').format(kind=_type_name(table))
        _problem(prefs, "keymap", reason)
        return
    for binding_id, keys in table.items():
        name = f"keymap.{binding_id}"
        if isinstance(keys, dict):  # a dotted id read as a nested table
            _problem(prefs, name, _("should be a key in quotes, not a table (quote an id that holds a dot)"))
            continue
        if not _BINDING_ID.fullmatch(binding_id):
            _problem(prefs, name, _("{id} is not a binding id").format(id=_shown(binding_id)))
            continue
        if known is not None and known.binding_ids is not None and binding_id not in known.binding_ids:
            near = difflib.get_close_matches(binding_id, sorted(known.binding_ids), n=1)
            if near:
                reason = _("no key binding has the id {id}; did you mean {near}?").format(
                    id=_shown(binding_id), near=quoted(near[0])
                )
            else:
                reason = _("no key binding has the id {id} (`quotetui config --keys` lists the ids)").format(
                    id=_shown(binding_id)
                )
            _problem(prefs, name, reason)
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
        return _("{keys} names {count} keys (at most {most})").format(
            keys=_shown(text), count=len(keys), most=MAX_KEYS_PER_BINDING
        )
    for key in keys:
        if not key:
            return _("{keys} has an empty key (a comma too many?)").format(keys=_shown(text))
        *modifiers, base = key.split("+") if key != "+" else ["+"]
        if any(m not in MODIFIERS for m in modifiers) or len(set(modifiers)) < len(modifiers):
            return _("{key}: the modifiers are {modifiers}, each at most once, then '+' and a key").format(
                key=_shown(key), modifiers=listed(MODIFIERS)
            )
        if not base:
            return _("{key} ends with '+' and no key (the '+' key is 'plus')").format(key=_shown(key))
        if len(base) == 1:
            if not base.isprintable() or base.isspace():
                return _("{key} is not a key").format(key=_shown(key))
            continue
        if base != base.lower() and (known is None or base.lower() in known.key_names):
            return _("{key}: key names are in lower case ({lower})").format(
                key=_shown(key), lower=f"'{key[: -len(base)]}{base.lower()}'"
            )
        if not _KEY_NAME.fullmatch(base) or (known is not None and base not in known.key_names):
            return _("{key} is not a key name Textual knows (such as 'f2', 'ctrl+t', 'pageup', 'slash')").format(
                key=_shown(key)
            )
    return None


# -- writing -------------------------------------------------------------------------------------------------

WRITTEN_SETTINGS = ("language", "money_style")
"""The settings a front end writes into the file (the TUI's language and money style); the others are the
user's to write."""


def make_folder(path: Path, located_by: str) -> None:
    """The user config folder, made when it does not exist yet (a file ``$QUOTETUI_CONFIG`` names is written only
    in a folder that exists); :class:`BadInput` when it cannot be made."""
    if located_by == f"${ENV_VAR}" or path.parent.exists():
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BadInput(
            _("cannot create the folder {folder} ({reason}); nothing was written").format(
                folder=path.parent, reason=exc.strerror or exc
            )
        ) from None


def save_setting(name: str, value: str, environ: Mapping[str, str] | None = None) -> Path:
    """Write ``name = "value"`` (one of :data:`WRITTEN_SETTINGS`) into the config file, keeping every other
    setting, comment and blank line as the user wrote them; returns the file written. The setting's line gets the
    new value (its comment kept); without one, the line goes under its commented example (``# language =
    "zh-CN"``), else before the first table. A missing file is made from :func:`example`, in a folder made if
    need be. A file that cannot be read or is not valid TOML is left alone, and so is one where the change would
    touch anything else (:class:`BadInput` says why)."""
    if name not in WRITTEN_SETTINGS:
        raise ValueError(f"{name!r} is not a setting quotetui writes")
    path, located_by = config_path(environ)
    prefs = Preferences(path, located_by)
    text = _read(prefs)
    if prefs.problems:
        raise BadInput(_("{problem}; it was not changed").format(problem=prefs.problems[-1]))
    text = example() if text is None else text
    try:
        before = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line, problem = toml_problem(exc)
        if line is not None:
            prefs.lines[_TOML_ERROR] = line
        prefs.add_problem(_TOML_ERROR, problem)
        raise BadInput(_("{problem}; it was not changed").format(problem=prefs.problems[-1])) from None
    changed = with_setting(text, name, value)
    try:
        after = tomllib.loads(changed)
    except tomllib.TOMLDecodeError:
        after = None
    if after != {**before, name: value}:  # a line the simple reading above took for another (a multi-line value)
        raise BadInput(
            _("config file {path}: {setting} cannot be written there without touching other lines; it was not "
              "changed (write it yourself: {line})").format(
                path=visible(str(path)), setting=name, line=f"{name} = {_literal(value)}"
            )
        )  # fmt: skip
    return _write(path, located_by, changed)


def _literal(value: str) -> str:
    import json

    return json.dumps(value, ensure_ascii=False)  # a TOML basic string (the values written are plain words)


def with_setting(text: str, name: str, value: str) -> str:
    """``text`` (a config file) with ``name = "value"`` at the top level, every other line as it was."""
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.splitlines(keepends=True)
    tables = next((i for i, line in enumerate(lines) if line.lstrip().startswith("[")), len(lines))
    key = re.escape(name)
    assigned = re.compile(rf"""^(\s*{key}\s*=\s*)("(?:[^"\\]|\\.)*"|'[^']*'|[^\s#]*)(.*?)(\r?\n)?$""", re.DOTALL)
    for i in range(tables):
        found = assigned.match(lines[i])
        if found:
            lines[i] = found.group(1) + _literal(value) + found.group(3) + (found.group(4) or "")
            return "".join(lines)
    line = f"{name} = {_literal(value)}{newline}"
    examples = [i for i in range(tables) if re.match(rf"^\s*#\s*{key}\s*=", lines[i])]
    if examples:  # under its commented example, where the file explains it
        at = examples[-1] + 1
    elif tables < len(lines):  # before the first table and the comments right above it (they are about it)
        at = tables
        while at > 0 and lines[at - 1].lstrip().startswith("#"):
            at -= 1
        line += newline  # a blank line between it and them
    else:
        at = len(lines)
    if at > 0 and not lines[at - 1].endswith("\n"):
        lines[at - 1] += newline
    lines.insert(at, line)
    return "".join(lines)


def _write(path: Path, located_by: str, text: str) -> Path:
    """``text`` written whole over the file (a link: over the file it points to), its permissions kept."""
    from quotetui.system.atomic import check_target, replacing

    make_folder(path, located_by)
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    target = check_target(target, force=True)
    mode = stat.S_IMODE(target.stat().st_mode) if target.exists() else None
    with replacing(target) as tmp:
        tmp.write_text(text, encoding="utf-8", newline="")
        if mode is not None:
            os.chmod(tmp, mode)
    return target


_EXAMPLE_THEMES = "textual-dark, textual-light, nord, gruvbox, tokyo-night, dracula, monokai"
_EXAMPLE = """\
{head}

{theme}
# theme = "textual-dark"

{database}
# database = "~/quotes/work.db"
# database = "postgresql+psycopg://buyer@db.example.com/quotes"

{language}
# language = "zh-CN"

{money_style}
# money_style = "wan"

{keymap}
[keymap]
# offers = "f2"
# scenario = "ctrl+s"
"""
_EXAMPLE_WORDS = {
    "head": N_(
        "quotetui preferences. Every setting is optional; delete a line to get the default back.\n"
        "`quotetui config` shows the values in effect and where each comes from."
    ),
    "theme": N_(
        "The TUI's colour theme (Ctrl+T switches between it and a light or dark one).\nTextual's themes: {themes}, …"
    ),
    "database": N_(
        "The database used when neither --db nor $QUOTETUI_DB is given: a SQLite file (a relative path is\n"
        "relative to this file's folder, ~ is your home folder) or a server URL."
    ),
    "language": N_(
        'The language of the TUI, the command line and the workbooks: "en" or "zh-CN" (简体中文). Without it the\n'
        "system locale decides ($LANG); --lang and $QUOTETUI_LANG come first."
    ),
    "money_style": N_(
        'How amounts of money are written: "plain" (960,000.00 CNY) or "wan", as Chinese buyers write large\n'
        "amounts (96.00万 CNY, 1.23亿 CNY). JSON and the workbook's cells keep exact numbers either way."
    ),
    "keymap": N_(
        'Other keys for the TUI\'s bindings: binding id = "key" (several keys: "f2,ctrl+o").\n'
        "`quotetui config --keys` lists every binding id with its key."
    ),
}


def example() -> str:
    """The example config file (``config --init``, and a file the TUI makes to save a setting): every setting
    commented out under comments in the language in use; the keys and values are TOML's, in English."""
    words = {key: _(text).format(themes=_EXAMPLE_THEMES) for key, text in _EXAMPLE_WORDS.items()}
    return _EXAMPLE.format(**{key: "\n".join(f"# {line}" for line in text.splitlines()) for key, text in words.items()})
