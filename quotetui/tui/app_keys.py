"""The app's own keys, which work on every screen (``QuotetuiApp.BINDINGS``), and the key a hint names for a
binding once the config file's keymap may have moved it. Declared here, not in ``app.py``, so that the key
reference (``screens/key_reference.py``) and the screens read them without importing the app that imports them."""

from __future__ import annotations

from textual.binding import Binding, BindingType

from quotetui.language import N_

APP_BINDINGS: list[BindingType] = [
    Binding("d", "switch_mode('dashboard')", N_("Dashboard"), id="dashboard"),
    Binding("o", "switch_mode('offers')", N_("Offers"), id="offers"),
    Binding("c", "switch_mode('compare')", N_("Compare"), id="compare"),
    Binding("r", "switch_mode('contracts')", N_("Contracts"), show=False, id="contracts"),
    Binding("b", "switch_mode('rentbuy')", N_("Rent/buy"), show=False, id="rent-buy"),
    Binding("t", "switch_mode('training')", N_("Training"), show=False, id="training"),
    Binding("f", "switch_mode('sourcing')", N_("Sourcing"), show=False, id="sourcing"),
    Binding("s", "pick_scenario", N_("Scenario"), id="scenario"),
    Binding("f1,question_mark", "help", N_("Help"), id="help"),
    Binding("ctrl+t", "toggle_dark", N_("Light/dark"), show=False, id="theme"),
    Binding("ctrl+e", "export", N_("Export to Excel"), show=False, id="export"),
    Binding("ctrl+o", "import", N_("Import files"), show=False, id="import"),
    Binding("f5,ctrl+r", "refresh", N_("Refresh"), show=False, id="refresh"),
    Binding("q", "quit", N_("Quit"), id="quit"),
]
"""Switching screens, the scenario, help, theme, export and import, refresh, quit: each with an ``id`` a keymap
moves."""

COMMANDS_PLACEHOLDER = N_("Search for commands…")
THEMES_PLACEHOLDER = N_("Search for themes…")
NO_MATCHES = N_("No matches found")
"""Textual's words in its command palette: its input's placeholders (the commands', the themes'), and what it
says when nothing matches (``palette.SaidCommandPalette``)."""

TEXTUAL_WORDS = (
    # the command palette's system commands (``App.get_system_commands``): titles and their help
    N_("Theme"),
    N_("Change the current theme"),
    N_("Quit"),
    N_("Quit the application as soon as possible"),
    N_("Keys"),
    N_("Hide the keys and widget help panel"),
    N_("Show help for the focused widget and a summary of available keys"),
    N_("Minimize"),
    N_("Minimize the widget and restore to normal size"),
    N_("Maximize"),
    N_("Maximize the focused widget"),
    N_("Screenshot"),
    N_("Save an SVG 'screenshot' of the current screen"),
    # the app's own bindings (the command palette's key in the footer, Ctrl+Q) and their tooltips
    N_("palette"),
    N_("Open the command palette"),
    N_("Quit the app and return to the command prompt."),
    # the command palette's
    COMMANDS_PLACEHOLDER,
    THEMES_PLACEHOLDER,
    NO_MATCHES,
    # every screen's own keys (``Screen.BINDINGS``: listed in the help under each screen)
    N_("Focus Next"),
    N_("Focus Previous"),
    N_("Copy selected text"),
    # the keys of Textual's widgets the screens use, which the keys panel lists for the focused one
    # (``widgets/keys_panel.py``; ``tests/test_tui_language.py`` gathers them from Textual): a group's title,
    N_("Input"),
    # an input's,
    N_("Move cursor left"),
    N_("Move cursor left and select"),
    N_("Move cursor left a word"),
    N_("Move cursor left a word and select"),
    N_("Move cursor right or accept the completion suggestion"),
    N_("Move cursor right and select"),
    N_("Move cursor right a word"),
    N_("Move cursor right a word and select"),
    N_("Delete character left"),
    N_("Delete character right"),
    N_("Delete left to start of word"),
    N_("Delete right to start of word"),
    N_("Delete all to the left"),
    N_("Delete all to the right"),
    N_("Go to start"),
    N_("Go to end"),
    N_("Select line start"),
    N_("Select line end"),
    N_("Select all"),
    N_("Cut selected text"),
    N_("Paste text from the clipboard"),
    N_("Submit"),
    # a drop-down's, its menu's (an option list's) and a selection list's,
    N_("Show menu"),
    N_("Dismiss menu"),
    N_("Up"),
    N_("Down"),
    N_("First"),
    N_("Last"),
    N_("Page Up"),
    N_("Page Down"),
    N_("Select"),
    N_("Toggle option"),
    # a data table's,
    N_("Cursor up"),
    N_("Cursor down"),
    N_("Cursor left"),
    N_("Cursor right"),
    N_("Page up"),
    N_("Page down"),
    N_("Top"),
    N_("Bottom"),
    N_("Home"),
    N_("End"),
    # tabs', a button's, a checkbox's,
    N_("Previous tab"),
    N_("Next tab"),
    N_("Press button"),
    N_("Toggle"),
    # and a scrolling area's
    N_("Scroll Up"),
    N_("Scroll Down"),
    N_("Scroll Left"),
    N_("Scroll Right"),
    N_("Scroll Home"),
    N_("Scroll End"),
    N_("Page Left"),
    N_("Page Right"),
)
"""Textual's own words that reach a buyer (its system commands, the palette's key, its input's placeholder, a
screen's keys, the keys panel), as Textual 8 writes them: the message ids their translations are found by
(``tui/app.py`` translates the system commands as it yields them, ``widgets/footer.py``, ``screens/help.py`` and
``widgets/keys_panel.py`` the keys' descriptions as they show them)."""


def key_of(app: object, binding_id: str, default: str) -> str:
    """The key to name in a hint for a binding: its first key in the keymap, else ``default`` (as declared)."""
    from textual.keys import format_key

    from quotetui.io.preferences import Preferences

    prefs = getattr(app, "preferences", None)
    keys = prefs.keymap.get(binding_id, default) if isinstance(prefs, Preferences) else default
    return format_key(keys.split(",")[0])
