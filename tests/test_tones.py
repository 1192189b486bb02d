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
