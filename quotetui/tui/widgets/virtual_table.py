"""A virtualised table (Textual's Line API): only the visible lines are rendered, so 10,000 rows
filter and sort in milliseconds. Wide (CJK) characters are measured in terminal cells. Cells are plain
text (segments, never markup); control characters in them are shown as marks."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from quotetui.domain.text import visible
from quotetui.language import N_
from quotetui.language.cells import clipped
from quotetui.tui.tones import STYLE


@dataclass(frozen=True, slots=True)
class Column:
    key: str
    label: str  # the header as shown (in the language in use: the caller's words)
    align: Literal["left", "right"] = "left"
    max_width: int = 40
    fill: bool = False  # takes the width the other columns leave on screen (a long text: clipped, never scrolled to)


class TableRow:
    """One row: a key, sortable values, the text the filter searches, and its cells.

    Cells may be given, or made on demand by ``make`` (only visible rows are ever drawn, so 10,000 rows
    need not hold 160,000 formatted strings). A style is a Rich style or a tone (``domain/enums.py: Tone``, or
    its name read back from a kept table), drawn in the tone's style of the moment (``tui/tones.py``): a row
    kept under one theme is drawn in the colours of the theme it is shown in.
    """

    __slots__ = ("_cells", "key", "make", "search", "sort", "style", "styles")

    def __init__(
        self,
        key: int,
        cells: Sequence[str] | None,
        sort: Sequence[Any],
        search: str = "",
        style: str = "",
        styles: dict[int, str] | None = None,
        make: Callable[[], Sequence[str]] | None = None,
    ) -> None:
        self.key, self._cells, self.sort, self.search = key, cells, sort, search
        self.style, self.styles, self.make = style, styles, make

    @property
    def cells(self) -> Sequence[str]:
        if self._cells is not None:
            return self._cells
        assert self.make is not None
        return self.make()


class VirtualTable(ScrollView, can_focus=True):
    """Rows of pre-formatted cells with a fixed header, a cursor, marks, filtering and sorting."""

    DEFAULT_CSS = """
    VirtualTable { height: 1fr; }
    VirtualTable > .virtual-table--header { text-style: bold; background: $panel; }
    VirtualTable > .virtual-table--cursor { background: $block-cursor-background; color: $block-cursor-foreground; }
    VirtualTable:blur > .virtual-table--cursor { background: $block-cursor-blurred-background; }
    VirtualTable > .virtual-table--even { background: $surface-lighten-1 10%; }
    VirtualTable > .virtual-table--mark { color: $accent; text-style: bold; }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "virtual-table--header",
        "virtual-table--cursor",
        "virtual-table--even",
        "virtual-table--mark",
    }
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor(-1)", N_("Up"), show=False),
        Binding("down", "cursor(1)", N_("Down"), show=False),
        Binding("pageup", "page(-1)", N_("Page up"), show=False),
        Binding("pagedown", "page(1)", N_("Page down"), show=False),
        Binding("home", "jump(0)", N_("First"), show=False),
        Binding("end", "jump(-1)", N_("Last"), show=False),
        Binding("enter", "select", N_("Open"), id="table-open"),
    ]

    cursor: reactive[int] = reactive(0, always_update=True)

    class Highlighted(Message):
        def __init__(self, table: VirtualTable, key: int | None) -> None:
            super().__init__()
            self.table, self.key = table, key

    class Selected(Message):
        def __init__(self, table: VirtualTable, key: int) -> None:
            super().__init__()
            self.table, self.key = table, key

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.columns: list[Column] = []
        self.rows: list[TableRow] = []
        self.view_rows: list[TableRow] = []  # after filtering and sorting
        self.widths: list[int] = []
        self.natural: list[int] = []  # each column's width by its header and cells (``set_data``)
        self.marks: set[int] = set()
        self.sort_column: int | None = None
        self.sort_reverse = False
        self._filter: Callable[[TableRow], bool] | None = None
        self._ordered: list[TableRow] | None = None
        self.sort_key: Callable[[int], Callable[[TableRow], Any] | None] | None = None
        """A column's sort value when it is not in ``TableRow.sort`` (None: it is), looked up at each sort."""

    # -- data ------------------------------------------------------------------------------------
    WIDTH_SAMPLE = 500  # rows measured to size the columns (each column is capped anyway)

    def set_data(self, columns: list[Column], rows: list[TableRow]) -> None:
        keep = self.current_key
        self.columns, self.rows, self._ordered = columns, rows, None
        sample = [r.cells for r in rows[: self.WIDTH_SAMPLE]]
        self.natural = [
            min(c.max_width, max([cell_len(c.label) + 2] + [cell_len(cells[i]) for cells in sample]))
            for i, c in enumerate(columns)
        ]
        self.widths = self._fitted()
        self._rebuild(keep)

    def _fitted(self) -> list[int]:
        """The columns' widths: each its natural one (``set_data``), but a ``fill`` column no wider than the screen
        leaves it (at least its header's)."""
        room = self.size.width - 2 - sum(w for w, c in zip(self.natural, self.columns, strict=True) if not c.fill)
        room -= max(len(self.natural) - 1, 0)
        return [
            max(cell_len(c.label) + 2, min(w, room)) if c.fill and self.size.width else w
            for w, c in zip(self.natural, self.columns, strict=True)
        ]

    def set_filter(self, predicate: Callable[[TableRow], bool] | None) -> None:
        self._filter = predicate
        self._rebuild(self.current_key)

    def sort_by(self, column: int | None, reverse: bool = False) -> None:
        self.sort_column, self.sort_reverse = column, reverse
        self._ordered = None
        self._rebuild(self.current_key)

    def _order(self) -> list[TableRow]:
        """All rows in the current sort order, computed once per data or sort change (not per keystroke)."""
        if self._ordered is None:
            rows = self.rows
            if self.sort_column is not None:
                i = self.sort_column
                given = self.sort_key(i) if self.sort_key is not None else None
                value: Callable[[TableRow], Any] = given or (lambda r: r.sort[i])
                present = [r for r in rows if value(r) is not None]
                missing = [r for r in rows if value(r) is None]
                rows = sorted(present, key=value, reverse=self.sort_reverse) + missing
            self._ordered = rows
        return self._ordered

    def _rebuild(self, keep: int | None) -> None:
        ordered = self._order()
        rows = ordered if self._filter is None else [r for r in ordered if self._filter(r)]
        self.view_rows = rows
        width = 2 + sum(self.widths) + max(len(self.widths) - 1, 0)
        self.virtual_size = Size(width, len(rows) + 1)
        index = next((n for n, r in enumerate(rows) if r.key == keep), 0) if keep is not None else 0
        self.cursor = min(index, max(len(rows) - 1, 0))
        self.refresh()

    @property
    def current_key(self) -> int | None:
        if 0 <= self.cursor < len(self.view_rows):
            return self.view_rows[self.cursor].key
        return None

    def move_to(self, key: int) -> None:
        for n, row in enumerate(self.view_rows):
            if row.key == key:
                self.cursor = n
                return

    # -- cursor ----------------------------------------------------------------------------------
    @property
    def body_height(self) -> int:
        """Lines of rows in view: the height less the header and a horizontal scrollbar (at 80 columns the
        offers table is wider than the window; the cursor on the last row hid under the scrollbar)."""
        return max(self.scrollable_content_region.height - 1, 1)

    def watch_cursor(self, value: int) -> None:
        self._cursor_in_view()
        self.refresh()
        self.post_message(self.Highlighted(self, self.current_key))

    def _cursor_in_view(self) -> None:
        """Scrolled so that the cursor's row is in view (after a move, or a resize: a line shown under the table
        for the highlighted offer takes a row from it)."""
        body, value = self.body_height, self.cursor
        top = round(self.scroll_y)
        if value < top:
            self.scroll_to(y=value, animate=False)
        elif value >= top + body:
            self.scroll_to(y=value - body + 1, animate=False)

    def action_cursor(self, step: int) -> None:
        if self.view_rows:
            self.cursor = max(0, min(len(self.view_rows) - 1, self.cursor + step))

    def action_page(self, direction: int) -> None:
        self.action_cursor(direction * max(self.body_height - 1, 1))

    def action_jump(self, where: int) -> None:
        if self.view_rows:
            self.cursor = 0 if where == 0 else len(self.view_rows) - 1

    def action_select(self) -> None:
        key = self.current_key
        if key is not None:
            self.post_message(self.Selected(self, key))

    def _column_at(self, x: int) -> int | None:
        edge = 2
        for i, width in enumerate(self.widths):
            if x < edge + width + 1:
                return i
            edge += width + 1
        return None

    def on_click(self, event: events.Click) -> None:
        x = event.x + round(self.scroll_x)
        if event.y == 0:
            column = self._column_at(x)
            if column is not None:
                self.sort_by(column, reverse=self.sort_column == column and not self.sort_reverse)
            return
        index = round(self.scroll_y) + event.y - 1
        if 0 <= index < len(self.view_rows):
            self.cursor = index
            if event.chain >= 2:
                self.action_select()

    # -- rendering -------------------------------------------------------------------------------
    def _cells(self, texts: Sequence[str], style: Style, cell_styles: dict[int, Style] | None = None) -> list[Segment]:
        segments: list[Segment] = []
        for i, (raw, width, column) in enumerate(zip(texts, self.widths, self.columns, strict=False)):
            text = visible(raw)  # data, never terminal control
            if cell_len(text) > width:
                text = clipped(text, width) if column.fill else set_cell_size(text, width - 1) + "…"
            pad = " " * (width - cell_len(text))
            cell = pad + text if column.align == "right" else text + pad
            extra = (cell_styles or {}).get(i)
            segments.append(Segment(cell, style + extra if extra else style))
            segments.append(Segment(" ", style))
        return segments

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.size.width
        base = self.rich_style
        if y == 0:
            header = base + self.get_component_rich_style("virtual-table--header")
            labels = []
            for i, c in enumerate(self.columns):
                arrow = (" ▼" if self.sort_reverse else " ▲") if i == self.sort_column else ""
                labels.append(c.label + arrow)
            segments = [Segment("  ", header), *self._cells(labels, header)]
            return Strip(segments).crop_extend(scroll_x, scroll_x + width, header)
        index = scroll_y + y - 1
        if index >= len(self.view_rows):
            return Strip.blank(width, base)
        row = self.view_rows[index]
        style = base
        if index % 2:
            style += self.get_component_rich_style("virtual-table--even")
        if row.style:
            style += Style.parse(STYLE.get(row.style, row.style))
        if index == self.cursor:
            style += self.get_component_rich_style("virtual-table--cursor")
        mark = "● " if row.key in self.marks else "  "
        mark_style = style + self.get_component_rich_style("virtual-table--mark")
        cell_styles = {i: Style.parse(STYLE.get(s, s)) for i, s in row.styles.items()} if row.styles else None
        segments = [Segment(mark, mark_style), *self._cells(row.cells, style, cell_styles)]
        return Strip(segments).crop_extend(scroll_x, scroll_x + width, style)

    def on_resize(self) -> None:
        if any(c.fill for c in self.columns):
            self.widths = self._fitted()
            self._rebuild(self.current_key)
        self.call_after_refresh(self._cursor_in_view)  # its new height is laid out by then
        self.refresh()
