"""Sourcing (issue 17): the RFQs on the left; on the right, for the one highlighted, its requirement, where each
invitation stands, the comparison (a column per answer, as many as the width holds), the answers and offers on
record judged line by line (a row each, Enter opens one), and the award's three scenarios.

Every read runs in a worker (``services/rfq_views.py: list_rfqs``, ``services/rfq.py: show_rfq``;
``services/award.py: award`` with the market included, the slowest, in a worker of its own), each time the
market is read again (F5, a change made by another program) and when another RFQ is highlighted. Enter on an
offer opens it; Enter on an RFQ moves to its offers. A line of key facts heads the right side, so a small
terminal still shows the need, the answers and the cheapest award without scrolling.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

from rich.console import Group
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Header, Static

from quotetui.domain.economics.display import money_shown
from quotetui.domain.enums import Tone
from quotetui.domain.errors import QuotetuiError
from quotetui.language import N_, _, ngettext
from quotetui.language.dates import day_text
from quotetui.language.lists import aside, clauses, listed
from quotetui.tui.safe import Table, Text
from quotetui.tui.screens.base import MarketScreen
from quotetui.tui.tones import STYLE
from quotetui.tui.widgets.footer import KeysFooter
from quotetui.tui.widgets.paragraph import Paragraph
from quotetui.tui.widgets.virtual_table import Column, TableRow, VirtualTable
from quotetui.tui.workers import background

if TYPE_CHECKING:
    from datetime import date

    from quotetui.domain.enums import AwardObjective
    from quotetui.services.award import AwardResult, AwardScenario
    from quotetui.services.market_view import MarketView
    from quotetui.services.rfq_views import OfferFit, RfqView
    from quotetui.store.engine import Database

NARROW = 140
"""Below this many columns the RFQs go above the detail instead of beside it (the offers table is wide)."""
TALL = 36
"""From this many lines, the stacked RFQ list shows more of them."""
NO_RFQ = N_(
    "No RFQ yet: n writes one here (or `quotetui rfq new NAME --gpu MODELS --gpus N --months N --start DATE …`), "
    "`quotetui rfq send NAME --provider P … --out DIR` sends it."
)
"""Shown with ``_()``, as every message declared here."""
AWARD_SCOPE = N_(
    "Award, with the market included (--include-market): the answers and every offer on record that meets "
    "every line; {key} sets the share per provider, the providers, the budget and what to minimise"
)
RFQ_COLUMNS = [  # the need last: the widest, and the summary on the right says it in full
    Column("name", N_("RFQ"), max_width=20),
    Column("invites", N_("Invitations"), max_width=32),
    Column("due", N_("Answers due"), max_width=11),
    Column("need", N_("Need"), max_width=30),
]
OFFER_COLUMNS = (
    [Column("id", N_("ID"), "right", 4)]
    + [
        Column(label.lower(), label, max_width=width)  # the key: the English header
        for label, width in ((N_("Provider"), 10), (N_("Offer"), 18), (N_("From"), 9), (N_("Compliant"), 9))
    ]
    + [Column("rank", N_("Rank"), "right", 4), Column("pflop", N_("Per PFLOP-hour"), "right", 18)]
)
"""Then one column per requirement line. The rank and the cost per delivered PFLOP-hour are ``rfq show``'s:
compliant, costed offers ranked by that cost; one that cannot be costed says why."""
VERDICT_WIDTH = 28
MATRIX_LABEL = 24
"""The comparison's row labels wrap at this width; each answer's column is at least ``MATRIX_COLUMN`` wide."""
MATRIX_COLUMN = 18


def shown_columns(columns: list[Column]) -> list[Column]:
    """``columns`` with their headers (declared ``N_``) in the language in use; their keys stay English."""
    return [replace(c, label=_(c.label)) for c in columns]


def need_text(view: RfqView) -> str:
    r = view.requirement
    return f"{r.gpus:,} × {r.models}"


def rfq_cells(view: RfqView) -> list[str]:
    due = view.requirement.respond_by
    return [view.requirement.name, view.invitations_text(), due.isoformat() if due else "", need_text(view)]


def offer_cells(fit: OfferFit) -> list[str]:
    return [
        str(fit.offer_id),
        fit.provider,
        fit.offer,
        _("answer") if fit.answered else _("on record"),
        _("yes") if fit.compliant else _("no"),
        (f"{fit.rank}?" if not fit.confirmed else str(fit.rank)) if fit.rank else "—",
        per_pflop_text(fit),
        *(f"{v.met.mark} {v.why}" for v in fit.verdicts),
    ]


def per_pflop_text(fit: OfferFit) -> str:
    """The cost per delivered PFLOP-hour for the whole need with its caveats' marks, or why none."""
    if fit.figures is None:
        return fit.problem or ""
    from quotetui.domain.economics.caveats import money_figure

    return money_figure(fit.figures.cost_per_pflop_hour, fit.figures.caveats, fit.currency)


def matrix_table(view: RfqView, width: int) -> Table | Text:
    """The comparison, a column per answer (then per offer on record, the ranked first) as many as ``width``
    holds, a row per requirement line and figure: ``rfq show``'s rows (``services/rfq_matrix.py``)."""
    from quotetui.services.rfq_matrix import SIDE_BY_SIDE, cell_text, matrix_rows

    if not view.offers:
        return Text("")
    room = max(1, min(SIDE_BY_SIDE, (width - MATRIX_LABEL) // (MATRIX_COLUMN + 2)))  # a column: 1 space each side
    shown = view.offers[:room]
    answers = sum(o.answered for o in view.offers)
    if len(shown) < len(view.offers):
        title = ngettext(
            "Comparison: {n} answer, then the offers on record best ranked first ({shown} of {total} here; "
            "`quotetui rfq show --out FILE.xlsx` has every one)",
            "Comparison: {n} answers, then the offers on record best ranked first ({shown} of {total} here; "
            "`quotetui rfq show --out FILE.xlsx` has every one)",
            answers,
        ).format(n=f"{answers:,}", shown=len(shown), total=len(view.offers))
    else:
        title = ngettext(
            "Comparison: {n} answer, then the offers on record best ranked first",
            "Comparison: {n} answers, then the offers on record best ranked first",
            answers,
        ).format(n=f"{answers:,}")
    table = Table(title=title, title_justify="left", title_style="bold", box=None, pad_edge=False)
    table.add_column("", style=STYLE[Tone.MUTED], max_width=MATRIX_LABEL)
    for o in shown:
        table.add_column(f"#{o.offer_id} {o.provider}", min_width=min(MATRIX_COLUMN, width), overflow="fold")
    for row in matrix_rows(shown, view.requirement.currency):
        table.add_row(row.label, *map(cell_text, row.cells))
    return table


def _scenario_tables(found: tuple[AwardScenario, ...], cur: str, minimise: AwardObjective) -> list[Table | Text]:
    """The scenarios' figures side by side, then each one's split, or for an infeasible one which constraint binds
    (a line each, so that a narrow terminal wraps the words, never the figures); a split that buys beyond the
    need says so, with the split without it."""
    from quotetui.domain.economics.caveats import money_figure
    from quotetui.services.award import beyond_text, lean_text, premium_head, split_text

    table = Table(box=None, pad_edge=False)
    table.add_column(_("Scenario"), style="bold")
    premium = premium_head(minimise)
    for label in (_("Total"), premium[:1].upper() + premium[1:], _("Per PFLOP-hour")):
        table.add_column(label, justify="right", no_wrap=True)
    splits = Table(box=None, pad_edge=False, show_header=False)
    splits.add_column(style="bold", no_wrap=True)
    splits.add_column(ratio=1)
    for s in found:
        if not s.feasible:
            table.add_row(s.label, Text(_("infeasible"), style=STYLE[Tone.ERROR]), "", "")
            splits.add_row(s.label, Text(_("infeasible: {reason}").format(reason=s.reason), style=STYLE[Tone.ERROR]))
            continue
        table.add_row(
            s.label,
            "" if s.total_cost is None else money_figure(s.total_cost, s.caveats, cur),
            "" if s.premium is None else ("~ " if s.premium_rough else "") + money_shown(s.premium, cur),
            "" if s.cost_per_pflop_hour is None else money_figure(s.cost_per_pflop_hour, s.caveats, cur),
        )
        split = Text(split_text(s))
        if s.beyond_need:
            split.append(f"; {beyond_text(s)}", style=STYLE[Tone.WARNING])
            split.append(f"; {lean_text(s, cur, minimise)}")
        splits.add_row(s.label, split)
    return [table, Text(""), splits]


def award_table(result: AwardResult) -> Group:
    """The headline scenarios (confirmed candidates only), then, when some candidate has a line not confirmed, the
    same if the providers confirm it and the questions to ask whom."""
    from quotetui.services.award import left_out_line, question_text

    cur = result.currency
    if result.candidates:
        parts: list[Table | Text] = _scenario_tables(result.scenarios, cur, result.minimise)
    else:
        parts = [
            Text(
                _("No award yet: every candidate has a line of the requirement not confirmed (?)."),
                style=STYLE[Tone.WARNING],
            )
        ]
    if result.left_out:
        parts.append(Text(left_out_line(result.left_out), style=STYLE[Tone.WARNING]))
    if result.if_confirmed:
        parts += [
            Text(""),
            Text(_("If confirmed: with the offers whose open lines (?) the providers confirm"), style="bold"),
        ]
        parts += _scenario_tables(result.if_confirmed, cur, result.minimise)
        if result.questions:
            parts += [Text(""), Text(_("Ask before awarding:"), style="bold")]
            parts += [Text(f"  {question_text(q)}") for q in result.questions]
    return Group(*parts)


def scenarios_text(result: AwardResult) -> str:
    """Each scenario's total, or that it cannot be met: "cheapest 39,168,000.00 CNY; at least 3 providers:
    infeasible"; with no confirmed candidate, the awards if confirmed, said so."""
    found, confirmed = result.scenarios, True
    if not result.candidates and result.if_confirmed:
        found, confirmed = result.if_confirmed, False
    said = clauses(
        f"{s.label} {money_shown(s.total_cost, result.currency)}"
        if s.feasible
        else _("{scenario}: infeasible").format(scenario=s.label)
        for s in found
    )
    return said if confirmed else _("if confirmed: {scenarios}").format(scenarios=said)


def cheapest_text(result: AwardResult) -> str:
    first = result.scenarios[0] if result.scenarios else None
    if first is not None and first.feasible:
        return _("cheapest award {total}").format(total=money_shown(first.total_cost, result.currency))
    maybe = result.if_confirmed[0] if result.if_confirmed else None
    if maybe is not None and maybe.feasible:
        return _("no confirmed award; if confirmed {total}").format(
            total=money_shown(maybe.total_cost, result.currency)
        )
    return _("no feasible award")


def awarded(db: Database, name: str, today: date, constraints: dict[str, Any]) -> AwardResult | str:
    """The award with the market included under ``constraints`` (``AWARD``'s fields; absent: the defaults),
    or why there is none (nothing compliant, nothing that can be costed, the RFQ deleted meanwhile)."""
    from quotetui.services.award import award

    try:  # the form's values are whole (an empty field is its default), or none were set: {}
        return award(db, name, include_market=True, on=today, **constraints)
    except QuotetuiError as exc:
        return str(exc)


class SourcingScreen(MarketScreen):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", N_("Open the offer / the RFQ's offers"), show=False),
        Binding("a", "award_constraints", N_("Award constraints"), id="award-constraints"),
        Binding("n", "new_rfq", N_("New RFQ"), id="new-rfq"),
        Binding("e", "edit_rfq", N_("Edit RFQ"), show=False, id="edit-rfq"),
        Binding("p", "send_rfq", N_("Send RFQ"), show=False, id="send-rfq"),
        Binding("x", "decline", N_("A provider declined"), show=False, id="decline-rfq"),
    ]

    _selected: int | None = None  # the RFQ whose detail is shown (or being read)
    _detail: RfqView | None = None
    _award: AwardResult | str | None = None  # the result, or why there is none
    _loaded_once = False
    _highlight: int | None = None  # the RFQ to highlight when the list is next shown (one just saved)
    _stale = False  # the market was read again while another screen was in front

    def __init__(self) -> None:
        super().__init__()
        self._views: dict[int, RfqView] = {}  # the RFQs listed, by id
        self._constraints: dict[str, Any] = {}  # the award's (``AWARD``'s fields) as last set with `a`; {}: defaults

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="sourcing"):
            with Vertical(id="rfq-side"):
                yield Static(id="rfq-hint")
                yield VirtualTable(id="rfqs")
            with VerticalScroll(id="rfq-detail"):
                yield Paragraph(id="rfq-summary")
                yield Static(id="rfq-requirement")
                yield Static(id="rfq-invites")
                yield Static(id="rfq-matrix")
                yield Static(id="rfq-offers-title")
                yield VirtualTable(id="rfq-offers")
                yield Static(id="rfq-award-title")
                yield Static(id="rfq-award")
        yield KeysFooter()

    def on_mount(self) -> None:
        self._narrow(self.app.size.width, self.app.size.height)
        self.query_one("#rfq-hint", Static).update(Text(_("Loading the RFQs…"), style=STYLE[Tone.MUTED]))
        super().on_mount()

    def on_resize(self, event: events.Resize) -> None:
        self._narrow(event.size.width, event.size.height)
        if self._detail is not None:
            self.call_after_refresh(self._show_matrix, self._detail)  # once the new layout has its width

    def _show_matrix(self, view: RfqView) -> None:
        shown = self.query_one("#rfq-matrix", Static)
        shown.update(matrix_table(view, shown.content_region.width or self.app.size.width))

    def _narrow(self, width: int, height: int) -> None:
        self.set_class(width < NARROW, "-narrow")
        self.set_class(height >= TALL, "-tall")  # stacked on a tall terminal: more RFQs in view

    # -- reading -------------------------------------------------------------------------------------
    def show_market(self, market: MarketView) -> None:
        """The RFQs are read when the market has been read (``set_loading``), not at each step of it."""

    def _theme_changed(self, _: object) -> None:
        """The tones' colours follow the theme (``tui/tones.py``): the RFQ shown is drawn again as it was read."""
        if self._selected is not None and self._detail is not None:
            award = self._award
            self._show_detail(self._selected, self._detail)
            if award is not None:
                self._show_award(self._selected, award)

    def set_loading(self, loading: bool) -> None:
        if loading:
            return
        if self._loaded_once and self.app.screen is not self:
            self._stale = True  # read again when this screen is shown
            return
        self.reload()

    def on_screen_resume(self) -> None:
        if self._stale:
            self._stale = False
            self.reload()

    def reload(self) -> None:
        db = self.qapp.database
        if db is None:  # the database could not be opened (the notification said why)
            self.query_one("#rfq-hint", Static).update(
                Text(_("No database open: no RFQs to show."), style=STYLE[Tone.MUTED])
            )
            return
        self._loaded_once = True
        self._read_list(db, self.qapp.today)

    @background(group="rfqs")
    def _read_list(self, db: Database, today: date) -> None:
        from quotetui.services.rfq_views import list_rfqs

        views = list_rfqs(db, today)
        self.app.call_from_thread(self._show_list, views)

    def _show_list(self, views: list[RfqView]) -> None:
        self._views = {v.id: v for v in views}
        table = self.query_one("#rfqs", VirtualTable)
        rows = [TableRow(v.id, rfq_cells(v), [v.id], v.requirement.name.lower()) for v in views]
        table.set_data(shown_columns(RFQ_COLUMNS), rows)
        hint = self.query_one("#rfq-hint", Static)
        if not views:
            hint.update(Text(_(NO_RFQ), style=STYLE[Tone.MUTED]))
            self._show_nothing()
            return
        named = (("new-rfq", "n"), ("edit-rfq", "e"), ("send-rfq", "p"), ("decline-rfq", "x"), ("refresh", "f5"))
        k = {key: self.key(key, default) for key, default in named}
        said = ngettext(
            "{n} RFQ; Enter: its offers; {new} new, {edit} edit, {send} send, {decline} declined; "
            "{refresh} reads again",
            "{n} RFQs; Enter: its offers; {new} new, {edit} edit, {send} send, {decline} declined; "
            "{refresh} reads again",
            len(views),
        ).format(n=f"{len(views):,}", new=k["new-rfq"], edit=k["edit-rfq"], send=k["send-rfq"],
                 decline=k["decline-rfq"], refresh=k["refresh"])  # fmt: skip
        hint.update(Text(said, style=STYLE[Tone.MUTED]))
        if self._highlight is not None:
            table.move_to(self._highlight)
            self._highlight = None
        self._read_detail(table.current_key)

    def _show_nothing(self) -> None:
        self._selected, self._detail, self._award = None, None, None
        self.query_one("#rfq-summary", Paragraph).show(Text(_(NO_RFQ)))
        for name in ("requirement", "invites", "matrix", "offers-title", "award-title", "award"):
            self.query_one(f"#rfq-{name}", Static).update("")
        self.query_one("#rfq-offers", VirtualTable).set_data(shown_columns(OFFER_COLUMNS), [])

    @on(VirtualTable.Highlighted)
    def _highlighted(self, event: VirtualTable.Highlighted) -> None:
        if event.table.id == "rfqs" and event.key is not None and event.key != self._selected:
            self._read_detail(event.key)

    def _read_detail(self, rfq_id: int | None) -> None:
        db = self.qapp.database
        view = self._views.get(rfq_id) if rfq_id is not None else None
        if db is None or view is None:
            return
        self._selected, self._detail, self._award = rfq_id, None, None
        self.query_one("#rfq-detail", VerticalScroll).scroll_home(animate=False)  # another RFQ: from its top
        self.query_one("#rfq-summary", Paragraph).show(
            Text(_("{rfq}: reading…").format(rfq=view.requirement.name), style=STYLE[Tone.MUTED])
        )
        self._show_award_title(view)
        self.query_one("#rfq-award", Static).update(Text(_("Computing the award…"), style=STYLE[Tone.MUTED]))
        name, today = view.requirement.name, self.qapp.today
        self._read_rfq(db, rfq_id, name, today)
        self._read_award(db, rfq_id, name, today, dict(self._constraints))

    def _show_award_title(self, view: RfqView) -> None:
        scope = _(AWARD_SCOPE).format(key=self.key("award-constraints", "a"))
        budget = self._constraints.get("budget")
        if budget is not None:  # the scenarios' labels name the share and the providers; the budget is said here
            scope = _("{scope}; within a budget of {budget}").format(
                scope=scope, budget=money_shown(budget, view.requirement.currency)
            )
        self.query_one("#rfq-award-title", Static).update(Text(scope, style="bold"))

    @background(group="rfq")
    def _read_rfq(self, db: Database, rfq_id: int, name: str, today: date) -> None:
        from quotetui.services.rfq import show_rfq

        try:
            view: RfqView | str = show_rfq(db, name, today)
        except QuotetuiError as exc:  # deleted or renamed meanwhile
            view = str(exc)
        self.app.call_from_thread(self._show_detail, rfq_id, view)

    @background(group="rfq-award")
    def _read_award(self, db: Database, rfq_id: int, name: str, today: date, constraints: dict[str, Any]) -> None:
        result = awarded(db, name, today, constraints)
        self.app.call_from_thread(self._show_award, rfq_id, result)

    def action_award_constraints(self) -> None:
        """A form of the award's constraints (``AWARD``'s fields, as ``quotetui award`` has them as flags); the
        award is computed with them in the form's worker and shown when it closes; they hold for every RFQ
        highlighted after, until quotetui ends (the screen lives as long as the app)."""
        from quotetui.domain.entities import AWARD
        from quotetui.domain.fields import shown_value
        from quotetui.services.form_spec import FormSpec, parse
        from quotetui.tui.dialogs.form_screen import FormScreen

        db, view, rfq_id = self.qapp.database, self._detail, self._selected
        if db is None or view is None or rfq_id is None:
            self.notify(_("No RFQ to award: highlight one first."), severity="warning")
            return
        name, today = view.requirement.name, self.qapp.today
        values = {f.name: shown_value(f, self._constraints.get(f.name, f.default), percent=True) for f in AWARD.fields}
        spec = FormSpec(_("Award for RFQ {rfq}: constraints").format(rfq=name), AWARD.fields, values, entity=AWARD)

        def compute(raw: dict[str, Any], _version: object) -> tuple[dict[str, Any], AwardResult | str]:
            constraints = parse(spec, raw)
            return constraints, awarded(db, name, today, constraints)

        def said(_raw: dict[str, Any], done: object) -> str:
            _constraints, result = done  # type: ignore[misc]
            award = result if isinstance(result, str) else scenarios_text(result)
            return _("Award for {rfq}: {award}").format(rfq=name, award=award)

        def closed(done: object) -> None:
            if isinstance(done, tuple):
                self._constraints, result = done
                self._show_award_title(view)
                self._show_award(rfq_id, result)

        self.app.push_screen(FormScreen(spec, compute, said, verb=N_("Award")), closed)

    def action_new_rfq(self) -> None:
        """A form of the requirement (``REQUIREMENT``'s fields, as ``rfq new``'s flags); saved, it is listed and
        highlighted."""
        from quotetui.services.rfq import new_rfq, requirement_form
        from quotetui.tui.dialogs.form_screen import FormScreen

        db = self.qapp.database
        if db is None:
            self.notify(_("No database open."), severity="warning")
            return

        def save(raw: dict[str, Any], _version: object) -> int:
            return new_rfq(db, raw).id

        def said(raw: dict[str, Any], rfq_id: object) -> str:
            return _("Saved RFQ {rfq} (#{id}): p sends it").format(rfq=str(raw.get("name", "")).strip(), id=rfq_id)

        self.app.push_screen(FormScreen(requirement_form(db), save, said), self._saved_rfq)

    def action_edit_rfq(self) -> None:
        """The highlighted RFQ's requirement in a form (all but its name), filled as stored now; a change is a
        new revision; a change made elsewhere since the form was filled refuses the save (and offers to fill it
        again), never overwritten."""
        from quotetui.services.rfq import edit_rfq, requirement_form
        from quotetui.tui.dialogs.form_screen import FormScreen

        db, view = self.qapp.database, self._detail
        if db is None or view is None:
            self.notify(_("No RFQ to edit: highlight one first."), severity="warning")
            return
        name, sent = view.requirement.name, bool(view.invites)

        def save(raw: dict[str, Any], revision: object) -> int:
            against = revision if isinstance(revision, int) else None
            return edit_rfq(db, name, raw, revision=against).id

        def said(_raw: dict[str, Any], _rfq_id: object) -> str:
            if sent:
                return _(
                    "Saved RFQ {rfq}, a new revision: answers to the revision sent before are refused, send it "
                    "again (p)"
                ).format(rfq=name)
            return _("Saved RFQ {rfq}, a new revision").format(rfq=name)

        self.app.push_screen(FormScreen(lambda: requirement_form(db, name), save, said), self._saved_rfq)

    def action_send_rfq(self) -> None:
        """The highlighted RFQ to providers ticked in a list (``SendRfqDialog``, ``rfq send``'s service)."""
        db, view = self.qapp.database, self._detail
        if db is None or view is None:
            self.notify(_("No RFQ to send: highlight one first."), severity="warning")
            return
        self._open_send(db, view)

    @background(group="rfq-send-open")
    def _open_send(self, db: Database, view: RfqView) -> None:
        from quotetui.services.market import list_providers

        names = [p.name for p in list_providers(db)]
        self.app.call_from_thread(self._push_send, db, view, names)

    def _push_send(self, db: Database, view: RfqView, names: list[str]) -> None:
        from quotetui.tui.dialogs.rfq_send import SendRfqDialog

        if not names:
            self.notify(_("No provider on record to send it to: add one first (o, then n)."), severity="warning")
            return
        if view is self._detail and self.app.screen is self:  # still the RFQ highlighted; no dialog open yet
            self.app.push_screen(
                SendRfqDialog(db, view, names), lambda sent: self._saved_rfq(view.id if sent else None)
            )

    def action_decline(self) -> None:
        """Record that a provider the highlighted RFQ was sent to declined (``DECLINE``'s form, ``rfq decline``'s
        service); the providers offered are the ones it was sent to."""
        from quotetui.domain.entities import DECLINE
        from quotetui.services.form_spec import FormSpec
        from quotetui.services.rfq import decline
        from quotetui.tui.dialogs.form_screen import FormScreen

        db, view = self.qapp.database, self._detail
        if db is None or view is None:
            self.notify(_("No RFQ highlighted."), severity="warning")
            return
        if not view.invites:
            self.notify(
                _("RFQ {rfq} was not sent to anyone yet (p sends it).").format(rfq=view.requirement.name),
                severity="warning",
            )
            return
        name = view.requirement.name
        from quotetui.services.rfq_views import state_word

        invited = tuple((aside(i.provider, state_word(i.state)), i.provider) for i in view.invites)
        title = _("RFQ {rfq}: a provider declined").format(rfq=name)
        spec = FormSpec(title, DECLINE.fields, {}, {"provider": invited}, DECLINE)

        def save(raw: dict[str, Any], _version: object) -> int:
            decline(db, name, str(raw.get("provider") or ""), str(raw.get("note") or "") or None)
            return view.id

        def said(raw: dict[str, Any], _rfq_id: object) -> str:
            return _("Recorded: {provider} declined RFQ {rfq}").format(provider=raw.get("provider"), rfq=name)

        self.app.push_screen(FormScreen(spec, save, said), self._saved_rfq)

    def _saved_rfq(self, rfq_id: object) -> None:
        """After a write from this screen: the whole market is read again, as after any edit (its data
        version moved: else the poll would take this write for another program's), then the RFQs, the one
        written highlighted."""
        if isinstance(rfq_id, int):
            self._selected = None  # read the detail again, even if it is the same RFQ
            self._highlight = rfq_id
            self.qapp.reload()

    # -- showing -------------------------------------------------------------------------------------
    def _show_detail(self, rfq_id: int, view: RfqView | str) -> None:
        if rfq_id != self._selected:
            return  # another RFQ was highlighted meanwhile
        if isinstance(view, str):
            self.query_one("#rfq-summary", Paragraph).show(Text(view, style=STYLE[Tone.ERROR]))
            return
        from quotetui.io.rfq_workbook import line_text, requirement_lines

        self._detail = view
        self._show_summary()
        r = view.requirement
        lines = Table(box=None, show_header=False, pad_edge=False, title=_("Requirement"), title_justify="left",
                      title_style="bold")  # fmt: skip
        lines.add_column(style=STYLE[Tone.MUTED], no_wrap=False, ratio=1)
        lines.add_column(ratio=2)
        for label, value in requirement_lines(r):
            if value is not None:
                lines.add_row(label, line_text(value))
        self.query_one("#rfq-requirement", Static).update(lines)
        self.query_one("#rfq-invites", Static).update(self._invites_table(view))
        self._show_matrix(view)
        fits = view.offers
        n = sum(f.compliant for f in fits)
        uncosted = sum(f.compliant and f.figures is None for f in fits)
        if fits:
            title = ngettext(
                "Answers, then offers on record: {n} of {total} offer compliant, ranked by cost per delivered "
                "PFLOP-hour",
                "Answers, then offers on record: {n} of {total} offers compliant, ranked by cost per delivered "
                "PFLOP-hour",
                len(fits),
            ).format(n=n, total=f"{len(fits):,}")
            if uncosted:
                title = _("{title} ({n} not costed: no rank)").format(title=title, n=uncosted)
            if any(f.rank and not f.confirmed for f in fits):
                title = _("{title}; 2?: ranks 2 if a line (?) is confirmed").format(title=title)
            title = _("{title}; Enter opens one").format(title=title)
        else:
            title = _("No offer on record of {models}.").format(models=r.models)
        self.query_one("#rfq-offers-title", Static).update(Text(title, style="bold"))
        lines = fits[0].verdicts if fits else ()  # no offer of an acceptable model: no verdict to show
        verdicts = [Column(f"line{i}", v.line, max_width=VERDICT_WIDTH) for i, v in enumerate(lines)]
        rows = [
            TableRow(
                f.offer_id,
                offer_cells(f),
                [f.offer_id],
                f.provider.lower(),
                style="" if f.compliant else Tone.MUTED,
            )
            for f in fits
        ]
        self.query_one("#rfq-offers", VirtualTable).set_data(shown_columns(OFFER_COLUMNS) + verdicts, rows)

    def _invites_table(self, view: RfqView) -> Table | Text:
        from quotetui.services.rfq_views import state_word

        if not view.invites:
            import shlex

            command = f"quotetui rfq send {shlex.quote(view.requirement.name)} --provider NAME --out DIR"
            said = _("Not sent yet: {key} sends it here (or `{command}`)").format(
                key=self.key("send-rfq", "p"), command=command
            )
            return Text(said, style=STYLE[Tone.MUTED])
        title = _("Invitations: {states}").format(states=view.invitations_text())
        table = Table(title=title, title_justify="left", title_style="bold", box=None, pad_edge=False)
        table.add_column(_("Provider"))
        table.add_column(_("State"))
        table.add_column(_("Revision"), justify="right")
        table.add_column(_("Sent"))
        for i in view.invites:
            state = Text(state_word(i.state), style=STYLE[Tone.ERROR] if i.state == "overdue" else "")
            if i.outdated:
                state.append(" " + _("(requirement changed since)"), style=STYLE[Tone.WARNING])
            if i.note:
                state.append(f": {i.note}", style=STYLE[Tone.MUTED])
            table.add_row(i.provider, state, str(i.revision), i.sent_at.date().isoformat())
        return table

    def _show_award(self, rfq_id: int, result: AwardResult | str) -> None:
        if rfq_id != self._selected:
            return
        self._award = result
        shown = self.query_one("#rfq-award", Static)
        shown.update(Text(result, style=STYLE[Tone.WARNING]) if isinstance(result, str) else award_table(result))
        self._show_summary()

    def _show_summary(self) -> None:
        """One paragraph of key facts: the need, the answers due, the invitations, the compliant offers and
        the cheapest award (shown first, so that it stays in view on a small terminal)."""
        view = self._detail
        if view is None:
            return
        r = view.requirement
        compliant = [f"#{f.offer_id}" for f in view.offers if f.compliant]
        open_ = [f"#{f.offer_id}" for f in view.offers if f.compliant and not f.confirmed]
        if compliant and open_:
            offers = _("compliant: {offers} (lines to confirm: {open})").format(
                offers=listed(compliant), open=listed(open_)
            )
        else:
            offers = _("compliant: {offers}").format(offers=listed(compliant)) if compliant else _("no compliant offer")
        summary = Text(f"{r.name}", style="bold")
        summary.append(
            _(
                " (#{id}, revision {revision}): {need} for {months} months from {start}; {due}; invitations: "
                "{invitations}; {offers}"
            ).format(
                id=view.id,
                revision=r.revision,
                need=need_text(view),
                months=r.months,
                start=day_text(r.start),
                due=view.due_text(),
                invitations=view.invitations_text(),
                offers=offers,
            )
        )
        if isinstance(self._award, str):
            summary.append(_("; no award (see below)"))
        elif self._award is not None:
            summary.append(_("; {award}").format(award=cheapest_text(self._award)), style="bold")
        else:
            summary.append(_("; award: computing…"), style=STYLE[Tone.MUTED])
        self.query_one("#rfq-summary", Paragraph).show(summary)

    # -- keys ----------------------------------------------------------------------------------------
    @on(VirtualTable.Selected)
    def _selected_row(self, event: VirtualTable.Selected) -> None:
        if event.table.id == "rfq-offers":
            self.qapp.open_offer(event.key)
        elif event.table.id == "rfqs":
            self.query_one("#rfq-offers", VirtualTable).focus()

    def action_open(self) -> None:
        """Enter where no table has the focus: nothing to open."""
