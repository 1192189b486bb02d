"""The offers table of the last complete load, kept on disk (``services/listing_store.py``), so that a second
launch with nothing changed shows the offers before it has ranked a single one.

Kept under the key the ranking itself is kept under (``services/ranking_cache.py``: the database's state,
the scenario's content, the day…), so it is shown only when a cold load would show the very same rows: each
row's cells, sort values (the figure columns' exact places included), filter text, styles and filter facets,
all made by ``tui/offer_rows.py`` from the complete view (claims and findings in). The full ranking is still
computed behind it, and replaces it as soon as it is ready (details, cards and edits need it).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from quotetui.domain.cancel import EVERY, check_cancelled
from quotetui.tui.offer_rows import FIGURES, KEYS, PENDING, OfferTableRow, at, pending_of
from quotetui.tui.widgets.virtual_table import TableRow

if TYPE_CHECKING:
    from quotetui.services.market_view import MarketView
    from quotetui.store.engine import Database

KIND = "tui-offers"
FIRST_KIND = "tui-offers-first"
"""The same table's head and first :data:`FIRST_KEPT` rows, kept beside it with the whole table's count: a launch
checks and shows them before it reads (and checks) the whole table, which takes a tenth of a second at 10,000."""
FIRST_KEPT = 100
"""Rows the first page's entry holds (an entry of more is not trusted, and not read past them)."""
HEAD, ROW = "head", "row"


class PreviewRow(TableRow):
    """A row read back: its sort values, filter text and styles as kept; its cells kept as their JSON text,
    decoded only when drawn (100,000 rows: a few hundred bytes each, not sixteen strings)."""

    __slots__ = ("_text", "facets")

    def __init__(  # no TableRow.__init__: the cells are a property
        self,
        key: int,
        text: str,
        sort: tuple[Any, ...],
        search: str,
        style: str,
        styles: dict[int, str] | None,
        facets: tuple[str | None, ...],
    ) -> None:
        self.key, self._text, self.sort, self.search = key, text, sort, search
        self.style, self.styles, self.facets = style, styles, facets

    @property  # type: ignore[override]
    def cells(self) -> list[str]:
        return json.loads(self._text)  # type: ignore[no-any-return]


@dataclass(frozen=True, slots=True)
class Preview:
    scenario: str
    currency: str
    blocked: int  # offers the scenario cannot run on
    rows: list[PreviewRow] | list[OfferTableRow]  # the first ``len(rows)`` of the table's rows, in its order
    total: int  # how many rows the kept table has
    key: Hashable = None  # the ranking's key it was kept under: a view of that ranking shows these very rows

    @property
    def complete(self) -> bool:
        """Whether every kept row is in (a launch shows the first page first: :func:`previews`)."""
        return len(self.rows) == self.total

    @property
    def gpus(self) -> list[str]:
        return sorted({str(r.facets[0]) for r in self.rows})


def _plain(value: object) -> object:
    return value.isoformat() if isinstance(value, date) else value  # ISO days sort as the days do


def preview_items(view: MarketView, places: dict[str, dict[int, int | None]]) -> Iterator[list[Any]]:
    """What :func:`load_preview` reads back: the scenario, then each row of the complete ``view`` in order."""
    blocked = sum(1 for r in view.rows if r.evaluation and not r.evaluation.feasibility.ok)
    yield [HEAD, view.scenario.name, view.scenario.home_currency, blocked]
    figure_columns = [(at(k), places[k]) for k in FIGURES]
    pending = pending_of(view)
    for n, t in enumerate(OfferTableRow(r, pending) for r in view.rows):  # the table's own rows (``table_rows``)
        if not n % EVERY:
            check_cancelled()  # the app was quit: nothing is kept (``listing_store.keeping``)
        sort = [_plain(v) for v in t.sort]
        for column, place in figure_columns:
            sort[column] = place[t.key]
        styles = [[i, s] for i, s in sorted((t.styles or {}).items())]
        cells = json.dumps(list(t.cells), ensure_ascii=False, separators=(",", ":"))
        yield [ROW, t.key, cells, sort, t.search, t.style, styles, list(t.facets)]


def save_preview(view: MarketView, places: dict[str, dict[int, int | None]]) -> None:
    """Keep the complete ``view``'s table for the next launch (nothing when its claims or findings are not in,
    or when the cache cannot be written)."""
    from quotetui.services.listing_store import keeping
    from quotetui.services.ranking_cache import disk_key

    ranking = view.ranking
    if ranking is None or ranking.key is None or pending_of(view) is not None:
        return
    key, first = disk_key(ranking.key), []
    for item in keeping(key, KIND, preview_items(view, places)):
        if len(first) <= FIRST_KEPT:
            first.append(item)
    total = len(view.rows)
    for _ in keeping(key, FIRST_KIND, [[*first[0], total], *first[1:]]):
        pass


_STR, _SORTABLE, _FACET = {str}, {str, int, type(None)}, {str, type(None)}


def _style(pair: object) -> bool:
    return (
        type(pair) is list
        and len(pair) == 2
        and type(pair[0]) is int
        and 0 <= pair[0] < len(KEYS)
        and type(pair[1]) is str
    )


def _cells(text: str) -> bool:
    try:
        cells = json.loads(text)
    except ValueError:
        return False
    return type(cells) is list and len(cells) == len(KEYS) and set(map(type, cells)) <= _STR


def _first_item(item: Any) -> bool:
    """:func:`_item`, but a head carries the whole table's count too (the first page's entry, :data:`FIRST_KIND`)."""
    if type(item) is list and len(item) == 5 and item[0] == HEAD:
        return type(item[4]) is int and item[4] >= 0 and _item(item[:4])
    return _item(item)


def _item(item: Any) -> bool:
    """Whether a decoded item is a head or a row of the right shape (types checked in bulk: 100,000 rows)."""
    if type(item) is not list or not item:
        return False
    if item[0] == HEAD:
        return len(item) == 4 and type(item[1]) is str and type(item[2]) is str and type(item[3]) is int
    if item[0] != ROW or len(item) != 8:
        return False
    _, key, cells, sort, search, style, styles, facets = item
    return (
        type(key) is int
        and type(cells) is str
        and _cells(cells)
        and type(sort) is list
        and len(sort) == len(KEYS)
        and set(map(type, sort)) <= _SORTABLE
        and type(search) is str
        and type(style) is str
        and type(styles) is list
        and all(map(_style, styles))
        and type(facets) is list
        and len(facets) == 3
        and set(map(type, facets)) <= _FACET
    )


FIRST_PAGE = 100
"""How many rows are decoded and shown before the rest: more than the tallest terminal shows."""


def previews(db: Database, scenario: str | None, day: date) -> Iterator[Preview]:
    """The table kept by the last complete load of exactly this state, scenario and day: its first page as
    soon as a file holding it is checked (count and digest; the first page's own small entry, else the whole
    table's), then all of it; nothing when there is none (or it cannot be trusted: ``listing_store.kept_lines``).
    A row of the wrong shape, or a whole table that is not the one the first page came from, ends it there
    (ValueError)."""
    from quotetui.services.listing_store import item_of, kept_lines
    from quotetui.services.ranking_cache import disk_key, ranking_key_now

    ranking_key = ranking_key_now(db, scenario, None, day, history=False)
    entry_key = disk_key(ranking_key)
    seen: dict[Any, Any] = {}
    share = seen.setdefault  # one object per distinct value: 100,000 rows repeat providers, GPUs, statuses
    rows: list[PreviewRow] = []

    def read(lines: list[bytes], upto: int, check: Callable[[Any], bool] = _item) -> None:  # decoded, let go
        for n in range(len(rows) + 1, upto + 1):
            item = item_of(lines[n], check)
            lines[n] = b""
            if item[0] != ROW:
                raise ValueError("a kept table's head among its rows")
            _, key, cells, sort, search, style, styles, facets = item
            sort = tuple([share(v, v) for v in sort])
            styles = {i: share(s, s) for i, s in styles} or None
            facets = tuple([share(f, f) for f in facets])
            rows.append(PreviewRow(key, cells, sort, search, share(style, style), styles, facets))

    first = kept_lines(entry_key, FIRST_KIND, FIRST_KEPT + 1)  # the first page alone: shown before the rest
    first_head, first_rows = None, list(first or ())
    if first:
        first_head = item_of(first[0], _first_item)
        total = first_head[4] if first_head[0] == HEAD and len(first_head) == 5 else -1
        if total < len(first) - 1:
            raise ValueError("a kept first page without its head, or longer than its table")
        read(first, min(FIRST_PAGE, len(first) - 1), _first_item)
        yield Preview(first_head[1], first_head[2], first_head[3], list(rows), total, ranking_key)
        if len(rows) == total:
            return
    lines = kept_lines(entry_key, KIND)
    if not lines:
        return
    head = item_of(lines[0], _item)
    if head[0] != HEAD:
        raise ValueError("a kept table without its head")
    total = len(lines) - 1
    shown = len(rows) + 1  # the rows the first page showed: the whole table's first ones, byte for byte
    if first_head is not None and (
        head[1:] != first_head[1:4] or total != first_head[4] or lines[1:shown] != first_rows[1:shown]
    ):
        raise ValueError("a kept table that is not the one its first page was kept from")
    for upto in sorted({min(FIRST_PAGE, total), total}):
        if rows and upto <= len(rows):
            continue  # shown already, from the first page's entry
        read(lines, upto)
        yield Preview(head[1], head[2], head[3], list(rows), total, ranking_key)


def stored_preview(db: Database, scenario: str | None, day: date) -> Preview | None:
    """The first page of the ranking stored in the database (``services/stored_ranking.py``), brought up to
    date first, each row evaluated by the engine: what a launch shows when no table was kept for this very
    state (after an import, an edit, a settings or FX change), before the whole market is loaded. None when the
    database cannot be written (read-only, or busy beyond the refresh's wait)."""
    from quotetui.domain.economics.inputs import lapsed
    from quotetui.services.market_view import OfferRow
    from quotetui.services.stored_ranking import first_page

    page = first_page(db, scenario, day, FIRST_PAGE)
    if page is None:
        return None
    rows = [OfferRow(o, e, rank, why, lapsed=lapsed(o, page.day)) for rank, o, e, why in page.evaluations]
    scenario_input = page.context.scenario
    return Preview(
        scenario_input.name,
        scenario_input.home_currency,
        page.blocked,
        [OfferTableRow(r, PENDING) for r in rows],
        page.total,
    )


__all__ = ["FIRST_PAGE", "KIND", "Preview", "PreviewRow", "preview_items", "previews", "save_preview", "stored_preview"]
