"""Each tone's one style in the TUI. A state's enum says its tone and its mark (``domain/enums.py: Tone``; a
finding's severity, a claim's verdict, an acceptance item's status, an offer's feasibility): every screen asks
the member and looks its tone up here, the only table from tones to looks."""

from __future__ import annotations

from quotetui.domain.enums import Tone

STYLE: dict[Tone, str] = {
    Tone.ERROR: "bold red",
    Tone.WARNING: "yellow",
    Tone.SUCCESS: "green",
    Tone.NOTE: "cyan",
    Tone.MUTED: "dim",
    Tone.PLAIN: "",
}
