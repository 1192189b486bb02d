"""The preferences file in the TUI: what exists (Textual's themes and key names, the app's binding ids), and
applying the theme and the keymap when the app starts. A problem never stops the app: the setting keeps its
default and a notification names the file, the line and the setting.

The language and the money style are switched from the command palette (:func:`language_commands`,
:func:`money_style_commands`; ``QuotetuiApp.switch_language``): at once on every screen, and kept in the file
(:func:`save_preference`) for the next start."""

from __future__ import annotations

import string
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING

from quotetui.io.preferences import Known, Preferences, load
from quotetui.language import N_, _
from quotetui.language.lists import aside, clauses

if TYPE_CHECKING:
    from textual.app import App

DEFAULT_THEME = "textual-dark"


@dataclass(frozen=True, slots=True)
class BindingRow:
    id: str
    keys: str  # as declared, before any keymap
    description: str  # as declared, in English (a message id)
    where: str  # the help screen's group ("Everywhere", "Offers", …), likewise


def binding_rows() -> list[BindingRow]:
    """Every key binding a keymap can move: those with an id, in the help screen's groups (which import
    every screen, so this is called only when a keymap is given or asked for)."""
    from quotetui.tui.screens.key_reference import binding_groups

    rows: dict[str, BindingRow] = {}
    for group, bindings in binding_groups():
        for b in bindings:
            if b.id and b.id not in rows:
                rows[b.id] = BindingRow(b.id, b.key, b.description or b.action, group)
    return list(rows.values())


def _character_key(character: str) -> str:
    """Textual's name of the key that types ``character`` (``?`` is ``question_mark``)."""
    from textual.keys import KEY_NAME_REPLACEMENTS

    if character.isalnum():
        return character
    name = unicodedata.name(character).lower().replace("-", "_").replace(" ", "_")
    return KEY_NAME_REPLACEMENTS.get(name, name)


def known(*, bindings: bool) -> Known:
    from textual.keys import Keys
    from textual.theme import BUILTIN_THEMES

    names = {k.value.rsplit("+", 1)[-1] for k in Keys if not k.value.startswith("<")}
    names |= {_character_key(c) for c in string.punctuation} | {"space", "plus"}
    ids = frozenset(row.id for row in binding_rows()) if bindings else None
    return Known(frozenset(BUILTIN_THEMES), ids, frozenset(names))


def load_preferences() -> Preferences:
    """The preferences file, checked against what exists; the binding ids are gathered only when the file
    has a keymap (they import every screen)."""
    prefs = load(known=known(bindings=False))
    if not prefs.keymap and not prefs.keymap_problem:
        return prefs
    prefs = load(known=known(bindings=True))
    _drop_clashes(prefs)
    return prefs


def _normal(key: str) -> str:
    return _character_key(key) if len(key) == 1 else key


def _drop_clashes(prefs: Preferences) -> None:
    """A moved binding whose new key another binding already has where both work (the app's keys with each
    screen's) is a problem and stays where it was: one key never silently stops doing what it did."""
    from quotetui.tui.screens.key_reference import binding_groups

    groups = binding_groups()
    everywhere = groups[0][1]
    clashed: dict[str, str] = {}
    for where, bindings in [groups[0], *((w, everywhere + b) for w, b in groups[1:])]:
        holders: dict[str, list[tuple[str | None, str]]] = {}
        for b in bindings:
            keys = prefs.keymap.get(b.id, b.key) if b.id else b.key
            for key in {_normal(k.strip()) for k in keys.split(",")}:
                entry = (b.id, b.description or b.action)
                if entry not in holders.setdefault(key, []):
                    holders[key].append(entry)
        place = _("everywhere") if where == "Everywhere" else _("on the {screen} screen").format(screen=_(where))
        for key, holding in holders.items():
            moved = [i for i, _what in holding if i in prefs.keymap]
            for binding_id in moved:
                others = [_holder(i, what, place) for i, what in holding if i != binding_id]
                if others and binding_id not in clashed:
                    clashed[binding_id] = _("'{key}' is already the key of {other}; it was not moved").format(
                        key=key, other=others[0]
                    )
    for binding_id, reason in clashed.items():
        del prefs.keymap[binding_id]
        prefs.add_problem(f"keymap.{binding_id}", reason)


def _holder(binding_id: str | None, what: str, place: str) -> str:
    """A binding that holds a key, as a clash names it: ``'Offers' (offers, everywhere)``."""
    shown = _(what) if what else what  # a description (a message id), else an action, which stays as it is
    if binding_id:
        return _("'{what}' ({binding}, {place})").format(what=shown, binding=binding_id, place=place)
    return _("'{what}' ({place})").format(what=shown, place=place)


def apply_preferences(app: App[object], prefs: Preferences) -> None:
    """The theme and the keymap on ``app``; each problem as a notification (the setting keeps its default)."""
    if prefs.theme:
        app.theme = prefs.theme
    if prefs.keymap:
        app.set_keymap(prefs.keymap)
    title = (
        _("Config file (not used)") if prefs.database_uncertain else _("Config file (that setting keeps its default)")
    )
    for problem in prefs.problems:
        app.notify(problem, title=title, severity="warning", timeout=30)


def toggled_theme(current: str, preferred: str | None) -> str:
    """Ctrl+T: from the preferred theme to a light (or dark) one and back."""
    from textual.theme import BUILTIN_THEMES

    base = preferred or DEFAULT_THEME
    if current != base:
        return base
    return "textual-light" if BUILTIN_THEMES[base].dark else "textual-dark"


# -- the language and the money style, switched in the TUI ---------------------------------------------------

MONEY_STYLE_COMMANDS = {
    "plain": (N_("Money style: in full (960,000.00 CNY)"), N_("Write every amount in full, on every screen")),
    "wan": (
        N_("Money style: 万 and 亿 (96.00万 CNY)"),
        N_("Write large amounts in 万 and 亿 as Chinese buyers do, on every screen"),
    ),
}
"""The command palette's command for each money style (``display.MONEY_STYLES``): its title and help."""


LANGUAGE_COMMAND = N_("Language: {language}")
"""The command palette's command that switches to a language: its title (``{language}``: the language named in
itself)."""


def setting_words(setting: str, value: str) -> str:
    """A preference's value (``language`` or ``money_style``) as the palette's command that chooses it names it:
    ``Language: 简体中文``, ``金额写法：万/亿（96.00万 CNY）``; never the config file's line."""
    from quotetui.language import LANGUAGES

    if setting == "language":
        return _(LANGUAGE_COMMAND).format(language=LANGUAGES.get(value, value))
    return _(MONEY_STYLE_COMMANDS[value][0])


def language_commands() -> list[tuple[str, str, str]]:
    """The command palette's commands that switch the language: one for each language not in use, its title,
    its help (in the language in use; each language named in itself) and its tag. A title is found by its English
    words too (``palette.Searched``): ``language`` finds ``界面语言：English``, ``money`` the money style."""
    from quotetui.language import LANGUAGES, current
    from quotetui.tui.palette import Searched

    title = LANGUAGE_COMMAND
    return [
        (
            Searched(_(title).format(language=name), title.format(language=name)),
            _("Every screen in {language} from now on; kept in the config file for the next start").format(
                language=name
            ),
            tag,
        )
        for tag, name in LANGUAGES.items()
        if tag != current()
    ]


def money_style_commands() -> list[tuple[str, str, str]]:
    """The command palette's commands that switch the money style: one for each style not in use."""
    from quotetui.domain.economics.display import MONEY_STYLES, money_style
    from quotetui.tui.palette import Searched

    kept = _("kept in the config file")
    in_use = money_style()
    return [
        (
            Searched(_(MONEY_STYLE_COMMANDS[style][0]), MONEY_STYLE_COMMANDS[style][0]),
            clauses([_(MONEY_STYLE_COMMANDS[style][1]), kept]),
            style,
        )
        for style in MONEY_STYLES
        if style != in_use
    ]


def save_preference(setting: str, value: str) -> tuple[str, str]:
    """Write ``setting = "value"`` (``language`` or ``money_style``) into the config file, keeping the rest of the
    file as it is (``io/preferences.py: save_setting``): what to tell the user and how (a notification's
    severity). A file that cannot be written (a read-only or missing folder, a file with a problem) leaves the
    switch for this session only; a language that ``--lang`` or ``$QUOTETUI_LANG`` chose at the start will be
    chosen by them again."""
    from quotetui.domain.errors import QuotetuiError
    from quotetui.io.preferences import save_setting
    from quotetui.language import chosen
    from quotetui.language.choice import ENV_VAR, FLAG

    try:
        path = save_setting(setting, value)
    except (QuotetuiError, OSError) as exc:
        reason = str(exc) if isinstance(exc, QuotetuiError) else exc.strerror or str(exc)
        return _("{setting}, for this session only: it could not be kept in the config file ({reason})").format(
            setting=setting_words(setting, value), reason=reason
        ), "warning"
    said = _("{setting}; kept in the config file {path}").format(setting=setting_words(setting, value), path=path)
    by = chosen()[1]
    if setting == "language" and by in (FLAG, f"${ENV_VAR}"):
        said = aside(said, _("at the next start {source} chooses the language again").format(source=by))
    return said, "information"
