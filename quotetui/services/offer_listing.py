"""What ``quotetui offers`` prints, as plain items: made from a ranking, or read back from the listing kept
on disk by the last identical listing (``services/listing_store.py``), so a second launch with nothing changed
reads no offer and ranks nothing. Either way the items are the same values, so the output is the same bytes.

Two kinds: :data:`TABLE` (the table's lines: ``["title", text]``, ``["row", *cells]`` of an :class:`OfferLine`,
``["say", text]``, ``["err", text]``) and :data:`JSON` (one object per offer, ``offers --json``'s array items),
kept as they are or, with a :class:`Rendering`, as the front end's text for each (``offers --json`` keeps its
indented JSON, so a second launch neither decodes nor encodes an object).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any, NamedTuple

from quotetui.language import N_, _, ngettext
from quotetui.language.dates import day_text
from quotetui.language.lists import listed, quoted
from quotetui.services import listing_store
from quotetui.services.ranking_cache import disk_key

if TYPE_CHECKING:
    from quotetui.domain.economics.caveats import Caveats
    from quotetui.domain.economics.inputs import PriceOption
    from quotetui.services.ranking import Ranking
    from quotetui.store.engine import Database

TABLE = "offers-table"
JSON = "offers-json"

TERM_SHORT = {0: "od", 1: "1m", 3: "3m", 6: "6m", 12: "12m", 24: "24m", 36: "36m"}


class OfferLine(NamedTuple):
    """One offer's row of the ``offers`` table, each cell as printed (kept on disk as ``["row", *cells]``)."""

    rank: str  # 1, 2 … (``3?`` a question open), ✗ cannot run the scenario
    id: str
    offer: str  # provider and offer name
    gpu: str
    per_gpu_hour: str
    tco_year: str  # with its marks (≥ ~)
    per_pflop_hour: str
    mfu: str  # with its source: v verified, c claimed, d default
    way: str  # the way to buy: ``12mp``, ``12m+1m``
    flags: str


HEADERS = OfferLine(
    N_("#"), N_("id"), N_("offer"), N_("GPU"), N_("/GPU-h"), N_("TCO/yr"), N_("/PFLOP-h"), N_("MFU%"), N_("term"),
    N_("flags"),
)  # fmt: skip
"""Each column's header, by the same names: English message ids, which also name the columns for the table's
``right`` and ``widths`` (``commands/common.table`` shows each through ``_()``)."""
RIGHT = frozenset(("rank", "id", "per_gpu_hour", "tco_year", "per_pflop_hour", "mfu"))
"""The columns of figures, aligned right."""
_TAGS = {"title": 1, "say": 1, "err": 1, "row": len(OfferLine._fields)}


def term_short(o: PriceOption) -> str:
    """A way to buy in a table cell: ``12mp`` (annual prepaid), ``12m+1m`` for mixed terms."""
    return TERM_SHORT.get(o.term_months, f"{o.term_months}m") + ("p" if o.prepay else "")


def table_items(ranking: Ranking, caveats: dict[int, Caveats]) -> Iterator[list[str]]:
    """The listing's title, its rows (best first), then its notes (``say``) and what could not be compared
    (``err``). Cost cells carry their own marks (≥ ~, ``explain.cost_text``); the flags cell the offer's
    caveats (findings, estimate, lapsed quote: ``caveats.Caveats.flags``)."""
    from quotetui.domain.economics.caveats import NONE, legend_line
    from quotetui.domain.economics.display import money_number
    from quotetui.domain.economics.exact import pct, share_text
    from quotetui.domain.economics.explain import LOWER_BOUND, cost_text
    from quotetui.domain.economics.inputs import lapsed

    s = ranking.scenario
    yield [
        "title",
        _(
            "Scenario {name}: {gpus} × {months} at {share} use; amounts in {currency}, best first by cost per "
            "delivered PFLOP-hour"
        ).format(
            name=quoted(s.name),
            gpus=ngettext("{n} GPU", "{n} GPUs", s.gpu_count).format(n=f"{s.gpu_count:,}"),
            months=ngettext("{n} month", "{n} months", s.months).format(n=f"{s.months:,}"),
            share=share_text(s.utilisation, 1),
            currency=s.home_currency,
        ),
    ]
    blocked, asked = [], []
    for i, e in ranking.ranked:
        note = e.feasibility.note(e.offer.id)
        if note is not None:
            (asked if e.feasibility.ok else blocked).append(note)
        line = OfferLine(
            rank=(f"{i}{'?' if e.feasibility.questions else ''}") if i is not None else "✗",
            id=str(e.offer.id),
            offer=f"{e.offer.provider} {e.offer.name}",
            gpu=e.offer.gpu.name,
            per_gpu_hour=money_number(e.price_per_gpu_hour, 2),
            tco_year=cost_text(e, e.annualised_tco, 2),
            per_pflop_hour=cost_text(e, e.cost_per_pflop_hour, 2),
            mfu=f"{pct(e.effective_mfu, 1)}{e.mfu.source[0]}",
            way="+".join(term_short(c.option) for c in (e.best.segments or (e.best,))),
            flags=listed(caveats.get(e.offer.id, NONE).flags()),
        )
        yield ["row", *line]
    yield ["say", legend_line()]
    bounded = sum(1 for e in ranking.evaluations if e.lower_bound)
    if bounded:
        yield [
            "say",
            ngettext(
                "{mark}: at least this much; {n} offer does not price a cost of the scenario (egress, storage, a fee "
                "on request: `explain ID` names it), so they may rank higher than they should",
                "{mark}: at least this much; {n} offers do not price a cost of the scenario (egress, storage, a fee "
                "on request: `explain ID` names it), so they may rank higher than they should",
                bounded,
            ).format(mark=LOWER_BOUND, n=f"{bounded:,}"),
        ]
    if asked:
        yield ["say", _("N?: ranked after the confirmed offers until the question is answered")]
    for line in [*asked, *blocked]:
        yield ["say", line]
    for e in ranking.evaluations:
        if lapsed(e.offer, ranking.on) and e.offer.valid_until is not None:
            yield [
                "say",
                _("! #{id}: quote lapsed {day} (valid until): ask for a new one").format(
                    id=e.offer.id, day=day_text(e.offer.valid_until)
                ),
            ]
    for o, why in ranking.skipped:
        yield [
            "err",
            _("not compared: #{id} {provider} {offer}: {why}").format(
                id=o.id, provider=o.provider, offer=o.name, why=why
            ),
        ]


def json_items(ranking: Ranking, caveats: dict[int, Caveats]) -> Iterator[dict[str, Any]]:
    """``offers --json``'s objects: every ranked offer's figures (``evaluation_json``) with its caveats, then
    those that cannot be compared, with the reason."""
    from quotetui.domain.economics.caveats import NONE
    from quotetui.services.economics import evaluation_json

    name = ranking.scenario.name
    for i, e in ranking.ranked:
        yield evaluation_json(e, i) | {"scenario": name, "caveats": caveats.get(e.offer.id, NONE).to_json()}
    for o, why in ranking.skipped:
        yield {
            "rank": None,
            "id": o.id,
            "provider": o.provider,
            "name": o.name,
            "gpu_model": o.gpu.name,
            "scenario": name,
            "not_compared": why,
        }


def _table_item(item: Any) -> bool:
    return (
        isinstance(item, list)
        and len(item) >= 2
        and _TAGS.get(item[0]) == len(item) - 1
        and all(isinstance(cell, str) for cell in item)
    )


def _json_item(item: Any) -> bool:
    return isinstance(item, dict) and isinstance(item.get("id"), int) and isinstance(item.get("scenario"), str)


_MAKE = {TABLE: table_items, JSON: json_items}
_CHECK = {TABLE: _table_item, JSON: _json_item}


@dataclass(frozen=True, slots=True)
class Rendering:
    """How a front end turns each item into its output text (kept as text, so a second launch only writes):
    ``variant`` names whatever else the text depends on (the terminal's encoding…); ``check`` says whether a
    text read back is one the front end could have made (never terminal control, well-formed)."""

    render: Callable[[Any], str]
    variant: str
    check: Callable[[str], bool]


def offer_listing(
    db: Database,
    kind: str,
    scenario: str | None = None,
    gpu: str | None = None,
    on: date | None = None,
    rendering: Rendering | None = None,
) -> Iterator[Any]:
    """The listing's items (``kind``: :data:`TABLE` or :data:`JSON`) for the current round of every offer,
    or with ``rendering`` their texts: the ones kept on disk when nothing they depend on has changed, else
    made from a fresh ranking (and kept)."""
    from quotetui.services.ranking_cache import ranking_key_now

    key = disk_key(ranking_key_now(db, scenario, gpu, on, history=False))
    stored = kind if rendering is None else f"{kind}:text:{rendering.variant}"
    check = _CHECK[kind] if rendering is None else _text_check(rendering.check)
    found = listing_store.cached(key, stored, check, whole=kind == TABLE)  # a table is held whole anyway
    if found is not None:
        yield from found
        return
    from quotetui.services.caveats import market_caveats  # the engine and the findings: only when not kept
    from quotetui.services.economics import rank_offers

    ranking = rank_offers(db, scenario, gpu, on, history=False)  # a listing shows no past rounds
    assert ranking.key is not None
    items = _MAKE[kind](ranking, market_caveats(db, ranking))
    yield from listing_store.keeping(
        disk_key(ranking.key), stored, items if rendering is None else map(rendering.render, items)
    )


def _text_check(check: Callable[[str], bool]) -> Callable[[Any], bool]:
    return lambda item: type(item) is str and check(item)


__all__ = [
    "HEADERS", "JSON", "RIGHT", "TABLE", "TERM_SHORT", "OfferLine", "Rendering", "json_items", "offer_listing",
    "table_items", "term_short",
]  # fmt: skip
