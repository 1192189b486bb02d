"""``quotetui config [--init] [--keys]``: the preferences file, the values in effect and where each comes from."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from quotetui.commands.common import JsonFlag, print_json, table
from quotetui.commands.output import say
from quotetui.domain.economics.display import STYLE_EXAMPLES
from quotetui.language import LANGUAGES, N_, NP_, _, chosen
from quotetui.language.lists import aside, filled

if TYPE_CHECKING:
    from collections.abc import Callable
    from types import ModuleType

    from quotetui.io.preferences import Preferences


def config(
    ctx: typer.Context,
    init: Annotated[
        bool, typer.Option("--init", help="Write an example file (every setting commented out) where it is looked for.")
    ] = False,
    force: Annotated[bool, typer.Option("--force", help="With --init: replace an existing file.")] = False,
    keys: Annotated[bool, typer.Option("--keys", help="Also list every key binding id the keymap can move.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Show the preferences file (theme, keymap, default database, language, money style): where it is, whether it
    exists, each value in effect and where it comes from. Exit status 2 when the file has a problem."""
    if init:
        _init(force)
        return
    tui = ctx.obj.tui_preferences  # the TUI's keys and themes, handed in by the command line (``cli.py``)
    prefs = _preferences(tui)
    rows = tui().binding_rows() if keys or prefs.keymap else []
    words: Callable[[str], str] = str if as_json else _  # JSON says where a value comes from in English

    def origin(name: str) -> str:
        line = prefs.lines.get(name)
        return words(FROM_LINE).format(line=line) if line else words(FROM_FILE)

    theme = (prefs.theme, origin("theme")) if prefs.theme else (tui().DEFAULT_THEME, words(BUILT_IN))
    tag, by = chosen()
    language = (tag, origin("language") if by == "the config file" else words(by))
    money = (prefs.money_style, origin("money_style")) if prefs.money_style else ("plain", words(BUILT_IN))
    database, database_from = _database(ctx.obj.db, prefs, words)
    defaults = {row.id: row.keys for row in rows}
    if as_json:
        print_json(
            {
                "path": str(prefs.path),
                "located_by": prefs.located_by,
                "exists": prefs.exists,
                "theme": {"value": theme[0], "from": theme[1]},
                "database": {"value": database, "from": database_from},
                "language": {"value": language[0], "from": language[1]},
                "money_style": {"value": money[0], "from": money[1]},
                "keymap": {
                    i: {"keys": k, "default": defaults.get(i), "from": origin(f"keymap.{i}")}
                    for i, k in prefs.keymap.items()
                },
                "problems": prefs.problems,
            }
        )
    else:
        if prefs.exists:
            found = _("Config file: {path} (found through {source}; exists)")
        else:
            found = _(
                "Config file: {path} (found through {source}; does not exist; `quotetui config --init` writes an "
                "example)"
            )
        say(filled(found, path=prefs.path, source=_(prefs.located_by)))
        settings = [
            ["theme", theme[0], theme[1]],
            ["database", database, database_from],
            ["language", aside(language[0], LANGUAGES[language[0]]), language[1]],
            ["money_style", aside(money[0], STYLE_EXAMPLES[money[0]]), money[1]],
        ]
        settings += [
            [
                f"keymap.{i}",
                _("{keys} (instead of {default})").format(keys=k, default=defaults.get(i, "?")),
                origin(f"keymap.{i}"),
            ]
            for i, k in prefs.keymap.items()
        ]
        table([N_("setting"), N_("value"), N_("from")], settings, widths={"value": 80})
        if keys:
            say()
            table(
                [N_("binding id"), N_("key"), NP_("key binding", "what"), N_("where")],
                [[r.id, prefs.keymap.get(r.id, r.keys), _said(r.description), _said(r.where)] for r in rows],
            )
    if prefs.problems:
        for problem in [] if as_json else prefs.problems:  # JSON holds them already
            say(f"quotetui: {problem}", err=True)
        raise typer.Exit(2)


FROM_FILE = N_("config file")
FROM_LINE = N_("config file, line {line}")
BUILT_IN = N_("built-in default")
"""Where a value in effect comes from, in words (JSON keeps them in English)."""


def _said(text: str) -> str:
    """A binding's words (declared by the TUI) in the language in use."""
    return _(text) if text else text


THEMES = frozenset(
    (
        *("ansi-dark", "ansi-light", "atom-one-dark", "atom-one-light"),
        *("catppuccin-frappe", "catppuccin-latte", "catppuccin-macchiato", "catppuccin-mocha"),
        *("dracula", "flexoki", "gruvbox", "monokai", "nord", "rose-pine", "rose-pine-dawn", "rose-pine-moon"),
        *("solarized-dark", "solarized-light", "textual-dark", "textual-light", "tokyo-night"),
    )
)
"""Textual's built-in themes, written out so that showing the preferences does not import Textual
(``tests/test_cli_startup.py`` checks that this is still Textual's list)."""


def _preferences(tui: Callable[[], ModuleType]) -> Preferences:
    """The preferences file, checked as the TUI checks it; Textual (its key names, the app's binding ids) is
    imported only when the file has a keymap, the one setting that needs it."""
    from quotetui.io.preferences import Known, load

    prefs = load(known=Known(THEMES, None, frozenset()))
    if not prefs.keymap and not prefs.keymap_problem:
        return prefs
    return tui().load_preferences()


def _database(db: str | None, prefs: Preferences, words: Callable[[str], str]) -> tuple[str, str]:
    """The database a command would open, and where that comes from (without opening it), in ``words`` (the
    language in use, or English for JSON)."""
    from quotetui.domain.errors import QuotetuiError
    from quotetui.store.engine import choose_database, resolve_target

    given, source = choose_database(db, configured=lambda: prefs.database)
    if source in ("--db", "$QUOTETUI_DB"):
        pass
    elif prefs.database_uncertain:
        return words(N_("none (the config file has a problem)")), words(FROM_FILE)
    elif source == "config file":
        line = prefs.lines.get("database")
        source = words(FROM_LINE).format(line=line) if line else words(FROM_FILE)
    else:
        source = words(source)  # the built-in default
    try:
        return resolve_target(given).label, source
    except QuotetuiError as exc:
        return words(N_("unusable: {problem}")).format(problem=exc), source


def _init(force: bool) -> None:
    from quotetui.io.preferences import config_path, example, make_folder
    from quotetui.system.atomic import check_target, replacing

    path, located_by = config_path()
    make_folder(path, located_by)
    target = check_target(path, force=force)
    with replacing(target) as tmp:
        tmp.write_text(example(), encoding="utf-8")
    say(
        _(
            "Wrote {path}: an example with every setting commented out (`quotetui config` shows what is in effect)."
        ).format(path=target)
    )


def register(app: typer.Typer) -> None:
    app.command("config")(config)
