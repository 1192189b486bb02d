"""Types for states and their looks: each state's enum says its mark and its tone, and the TUI has one style per
tone (``tui/tones.py``), so no view keeps a table keyed by a state's text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from quotetui.domain.economics.claims import Verdict
from quotetui.domain.economics.evaluate import Feasibility
from quotetui.domain.enums import Severity, Tone
from quotetui.domain.verification.acceptance import Status
from quotetui.tui.tones import STYLE

ROOT = Path(__file__).resolve().parent.parent


def test_every_tone_has_its_style() -> None:
    assert set(STYLE) == set(Tone)


@pytest.mark.parametrize("states", [Severity, Verdict, Status])
def test_each_state_has_a_mark_of_its_own_and_a_tone(states: type) -> None:
    marks = [member.mark for member in states]
    assert all(marks) and len(set(marks)) == len(marks)
    assert all(isinstance(member.tone, Tone) for member in states)


def test_the_marks_and_tones_buyers_know() -> None:
    assert [(s.mark, s.tone) for s in Severity] == [("✗", Tone.ERROR), ("!", Tone.WARNING), ("i", Tone.MUTED)]
    assert Verdict.IMPOSSIBLE.mark == Severity.CRITICAL.mark and Verdict.OPTIMISTIC.mark == Severity.WARNING.mark
    assert (Status.FAILED.tone, Status.WAIVED.tone, Status.PASSED.tone) == (Tone.ERROR, Tone.NOTE, Tone.SUCCESS)
    assert [f.tone for f in (Feasibility(("x",)), Feasibility((), (), ("y",)), Feasibility())] == [
        Tone.ERROR,
        Tone.WARNING,
        Tone.PLAIN,
    ]
    assert list(Severity) == sorted(Severity, key=lambda s: s.order)  # most severe first


def test_no_view_keys_a_style_by_a_states_text() -> None:
    """A style table keyed by a state's words (``{"critical": "bold red"}``) is what the tones replaced."""
    words = {m.value for e in (Severity, Verdict, Status) for m in e}
    found = []
    for path in (ROOT / "quotetui").rglob("*.py"):
        for key in re.findall(r'"([a-z ]+)":\s*\(?"(?:bold )?(?:red|yellow|green|dim|cyan)', path.read_text()):
            if key in words:
                found.append(f"{path.relative_to(ROOT)}: {key!r}")
    assert found == []


def test_no_screen_names_a_colour() -> None:
    """A colour in the TUI is a tone's, from the theme (``tui/tones.py``); the chart's lines are plotext's."""
    named = re.compile(r'"(?:bold |dim |italic )*(?:red|yellow|green|cyan|magenta|blue|white|black)(?: bold)?"')
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in (ROOT / "quotetui" / "tui").rglob("*.py")
        if path.name not in ("tones.py", "chart.py")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if named.search(line)
    ]
    assert found == []


def _colours(content: object) -> set[str]:
    """The foreground colours a renderable is drawn in (hex, lower case)."""
    from rich.console import Console

    console = Console(width=160, file=open("/dev/null", "w"), color_system="truecolor")  # noqa: SIM115
    return {
        seg.style.color.triplet.hex.lower()
        for seg in console.render(content)
        if seg.style is not None and seg.style.color is not None and seg.style.color.triplet is not None
    }


async def test_the_tones_take_the_themes_colours_and_follow_a_change(demo_db_path: Path) -> None:
    """A red flag's verdict is drawn in the theme's error text colour; a light theme redraws it in its own (a
    dark theme's light pink would be unreadable on white)."""
    from textual.widgets import Static

    from tests.test_tui import RecordingApp, settle

    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.theme = "textual-dark"
        await settle(pilot)
        dark = app.get_css_variables()["text-error"].lower()
        assert STYLE[Tone.ERROR].lower() == f"bold {dark}"
        assert dark in _colours(app.screen.query_one("#flags", Static).content)
        app.theme = "textual-light"
        await settle(pilot)
        light = app.get_css_variables()["text-error"].lower()
        assert light != dark and STYLE[Tone.ERROR].lower() == f"bold {light}"
        shown = _colours(app.screen.query_one("#flags", Static).content)
        assert light in shown and dark not in shown


def test_every_builtin_theme_gives_styles_rich_can_draw() -> None:
    """An ANSI theme names its colours ``ansi_red``, which Rich cannot parse: the TUI died on ``o`` under it."""
    from rich.style import Style
    from textual.app import App
    from textual.theme import BUILTIN_THEMES

    from quotetui.tui.tones import TERMINAL, follow_theme

    app = App()
    try:
        for name in BUILTIN_THEMES:
            app.theme = name
            follow_theme(app.get_css_variables())
            for style in STYLE.values():
                Style.parse(style)  # raises on a colour Rich cannot draw
            assert "ansi" not in " ".join(STYLE.values()), name
    finally:
        follow_theme({})
    assert STYLE[Tone.WARNING] == TERMINAL[Tone.WARNING]  # no theme: the terminal's colours


async def test_the_offer_screen_takes_the_new_themes_colours_too(demo_db_path: Path) -> None:
    """The offer's screen is not drawn from the market: it redraws itself on a theme change (its caveats are
    warnings: the dark theme's light amber would be unreadable on the light one's background)."""
    from textual.widgets import Static

    from tests.test_tui import RecordingApp, settle

    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        app.theme = "textual-dark"
        await settle(pilot)
        app.open_offer(2)
        await settle(pilot)
        dark = app.get_css_variables()["text-warning"].lower()
        assert dark in _colours(app.screen.query_one("#figures", Static).content)
        app.theme = "textual-light"
        await settle(pilot)
        light = app.get_css_variables()["text-warning"].lower()
        shown = _colours(app.screen.query_one("#figures", Static).content)
        assert light in shown and dark not in shown
