"""The app's own keys, which work on every screen (``QuotetuiApp.BINDINGS``), and the key a hint names for a
binding once the config file's keymap may have moved it. Declared here, not in ``app.py``, so that the key
reference (``screens/key_reference.py``) and the screens read them without importing the app that imports them."""

from __future__ import annotations

from textual.binding import Binding, BindingType

APP_BINDINGS: list[BindingType] = [
    Binding("d", "switch_mode('dashboard')", "Dashboard", id="dashboard"),
    Binding("o", "switch_mode('offers')", "Offers", id="offers"),
    Binding("c", "switch_mode('compare')", "Compare", id="compare"),
    Binding("r", "switch_mode('contracts')", "Contracts", show=False, id="contracts"),
    Binding("b", "switch_mode('rentbuy')", "Rent/buy", show=False, id="rent-buy"),
    Binding("t", "switch_mode('training')", "Training", show=False, id="training"),
    Binding("f", "switch_mode('sourcing')", "Sourcing", show=False, id="sourcing"),
    Binding("s", "pick_scenario", "Scenario", id="scenario"),
    Binding("f1,question_mark", "help", "Help", id="help"),
    Binding("ctrl+t", "toggle_dark", "Light/dark", show=False, id="theme"),
    Binding("ctrl+e", "export", "Export to Excel", show=False, id="export"),
    Binding("ctrl+o", "import", "Import files", show=False, id="import"),
    Binding("f5,ctrl+r", "refresh", "Refresh", show=False, id="refresh"),
    Binding("q", "quit", "Quit", id="quit"),
]
"""Switching screens, the scenario, help, theme, export and import, refresh, quit: each with an ``id`` a keymap
moves."""


def key_of(app: object, binding_id: str, default: str) -> str:
    """The key to name in a hint for a binding: its first key in the keymap, else ``default`` (as declared)."""
    from textual.keys import format_key

    from quotetui.io.preferences import Preferences

    prefs = getattr(app, "preferences", None)
    keys = prefs.keymap.get(binding_id, default) if isinstance(prefs, Preferences) else default
    return format_key(keys.split(",")[0])
