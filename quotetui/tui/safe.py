"""Text is data in the TUI: every string a user or a file supplied is shown exactly as typed, never read as
Rich or Textual markup (``Evil[/]Co``, ``CoreWeave [beta]``, ``[@click=app.quit]``) and never sent to the
terminal as a control sequence (ESC, BEL and OSC 52 become visible marks).

The screens build their renderables from these: :class:`Table` and :class:`Text` are Rich's with every plain
string they are given made :func:`visible` (a Rich table would otherwise parse a ``str`` cell as markup), and
:func:`plain` makes Textual :class:`Content` for widgets (``Static``, ``Label``, ``Select`` prompts, which
would parse a ``str`` as markup too).
"""

from __future__ import annotations

from typing import Any

from rich.table import Table as RichTable
from rich.text import Text as RichText
from textual.content import Content

from quotetui.domain.text import visible


def plain(text: object) -> Content:
    """Textual content that shows ``text`` as it is (no markup, no control characters)."""
    return Content(visible(str(text)))


class Text(RichText):
    """Rich text whose plain strings are shown as typed (Rich ``Text`` never parses markup; this also makes
    control characters visible)."""

    def __init__(self, text: str = "", *args: Any, **kwargs: Any) -> None:
        super().__init__(visible(text), *args, **kwargs)

    def append(self, text: str | RichText, style: Any = None) -> Text:
        super().append(visible(text) if isinstance(text, str) else text, style)
        return self


def _cell(value: Any) -> Any:
    return Text(value) if isinstance(value, str) else value


class Table(RichTable):
    """A Rich table whose ``str`` cells, headers and title are plain text, not markup."""

    def __init__(self, *headers: Any, title: Any = None, **kwargs: Any) -> None:
        if isinstance(title, str):  # Rich styles a str title with title_style, but not a Text: style it here
            title = Text(title, style=kwargs.get("title_style") or "table.title")
        super().__init__(*(_cell(h) for h in headers), title=title, **kwargs)

    def add_column(self, header: Any = "", *args: Any, **kwargs: Any) -> None:
        super().add_column(_cell(header), *args, **kwargs)

    def add_row(self, *renderables: Any, **kwargs: Any) -> None:
        super().add_row(*(_cell(r) for r in renderables), **kwargs)


__all__ = ["Table", "Text", "plain", "visible"]
