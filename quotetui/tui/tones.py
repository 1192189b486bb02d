"""Each tone's one style in the TUI. A state's enum says its tone and its mark (``domain/enums.py: Tone``; a
finding's severity, a claim's verdict, an acceptance item's status, an offer's feasibility): every screen asks
the member and looks its tone up here, the only table from tones to looks.

A tone's colour is the theme's (:data:`THEME_COLOUR`: Textual's ``$text-error``, ``$text-warning`` … the text
colours each theme makes readable on its own background), so a light theme shows a dark amber warning where a
dark one shows a light one: the app sets :data:`STYLE` from its theme when it starts and whenever the theme
changes (:func:`follow_theme`), and the screens drawn from the market redraw. Until then (a renderable made
outside the app) the terminal's own colours stand in."""

from __future__ import annotations

from collections.abc import Mapping

from quotetui.domain.enums import Tone

THEME_COLOUR: dict[Tone, str] = {
    Tone.ERROR: "text-error",
    Tone.WARNING: "text-warning",
    Tone.SUCCESS: "text-success",
    Tone.NOTE: "text-primary",
}
"""The theme variable each coloured tone takes its colour from (a muted or plain line has none)."""

WEIGHT: dict[Tone, str] = {Tone.ERROR: "bold", Tone.MUTED: "dim"}
"""How a tone is set apart besides its colour: an error is bold, a muted line dim."""

TERMINAL: dict[Tone, str] = {Tone.ERROR: "red", Tone.WARNING: "yellow", Tone.SUCCESS: "green", Tone.NOTE: "cyan"}
"""The terminal's colours, before a theme is known."""


def _styles(colours: Mapping[Tone, str]) -> dict[Tone, str]:
    return {tone: " ".join(filter(None, (WEIGHT.get(tone, ""), colours.get(tone, "")))) for tone in Tone}


STYLE: dict[Tone, str] = _styles(TERMINAL)
"""Each tone's Rich style now: read when a renderable is made, so a redraw after a theme change takes the new one."""


def _rich(colour: str) -> str | None:
    """A theme's colour as Rich reads it: ``#FFC473``, or an ANSI theme's ``ansi_bright_red`` as ``bright_red``;
    None for what Rich cannot draw (the terminal's colour stands in)."""
    from rich.color import Color, ColorParseError

    name = colour.removeprefix("ansi_")
    try:
        Color.parse(name)
    except ColorParseError:
        return None
    return name


def follow_theme(variables: Mapping[str, str]) -> None:
    """Set :data:`STYLE` from a theme's CSS variables (``App.get_css_variables()``)."""
    colours = {tone: _rich(variables[name]) for tone, name in THEME_COLOUR.items() if name in variables}
    STYLE.update(_styles({**TERMINAL, **{tone: c for tone, c in colours.items() if c}}))
