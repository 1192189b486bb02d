"""A paragraph that breaks its lines as the language does (``language/cells.py: line_starts``).

Textual breaks a line only at a space and cuts a longer run anywhere: a run of Chinese (written without spaces)
was cut inside a figure (``若得到确认：39,1`` / ``68,000.00 CNY``) or between a count and its measure word
(``已谢绝 1`` / ``家；…``). This widget breaks between CJK characters instead, never inside a figure, keeps a
number with the CJK word after it, and lays the text out again when its width changes."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.widgets import Static

from quotetui.language.cells import line_starts


def broken(text: Text, cells: int) -> Text:
    """``text`` (one paragraph, styles kept) with a line break where the language breaks it to ``cells`` cells."""
    lines = text.divide(line_starts(text.plain, cells))
    for line in lines:
        line.rstrip()
    return Text("\n").join(lines)


class Paragraph(Static):
    """A :class:`Static` whose text is one paragraph, shown with :meth:`show` and broken by :func:`broken`."""

    _text: Text | None = None

    def show(self, text: Text) -> None:
        self._text = text
        self._lay_out()

    def on_resize(self, event: events.Resize) -> None:
        self._lay_out()

    def _lay_out(self) -> None:
        cells = self.content_region.width
        if self._text is not None:
            self.update(broken(self._text, cells) if cells > 0 else self._text)
